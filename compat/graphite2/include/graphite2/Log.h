/* fontvm's graphite2 drop-in: logging (graphite2/Log.h of graphite2 1.3.14).
 * Like Debian's graphite2 build, the drop-in writes no JSON log: the entry
 * points answer false and do nothing else. */
#pragma once

#include <stdio.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#include "graphite2/Font.h"
#include "graphite2/Types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    GRLOG_NONE = 0x0,
    GRLOG_FACE = 0x01,
    GRLOG_SEGMENT = 0x02,
    GRLOG_PASS = 0x04,
    GRLOG_CACHE = 0x08,
    GRLOG_OPCODE = 0x80,
    GRLOG_ALL = 0xFF
} GrLogMask;

GR2_API bool GR2_NAME(start_logging)(gr_face *face, const char *log_path);
GR2_API void GR2_NAME(stop_logging)(gr_face *face);
/* The old entry points keep their own names (graphite_, not gr_). */
#ifndef GR2_OLD_NAME
#define GR2_OLD_NAME(x) graphite_##x
#endif
GR2_API bool GR2_OLD_NAME(start_logging)(FILE *logFile, GrLogMask mask);
GR2_API void GR2_OLD_NAME(stop_logging)(void);

#ifdef __cplusplus
}
#endif
