# Owned by the Graphite engine (issue 4).
set(FV_GRAPHITE_SOURCES
  graphite/silf.c graphite/glat.c graphite/feat.c graphite/sill.c graphite/verify.c
  graphite/machine.c graphite/opcodes.c graphite/segment.c graphite/pass.c graphite/face.c graphite/disasm.c graphite/justify.c
  graphite/collide.c graphite/collide_zone.c graphite/collide_shift.c graphite/collide_kern.c graphite/tables.c graphite/cmap.c)
