# Owned by the TrueType interpreter (issue 3).
set(FV_TT_SOURCES)
