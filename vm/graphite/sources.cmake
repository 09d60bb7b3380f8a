# Owned by the Graphite engine (issue 4).
set(FV_GRAPHITE_SOURCES)
