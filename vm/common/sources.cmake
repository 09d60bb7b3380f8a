set(FV_COMMON_SOURCES common/error.c common/mem.c common/fixed.c common/check.c)
