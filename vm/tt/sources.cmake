# Owned by the TrueType interpreter (issue 3).
# Empty until the public API (fv_tt_*) links: conformance/tt and the CLI
# switch their interpreter users on as soon as this list is non-empty.
set(FV_TT_SOURCES)
