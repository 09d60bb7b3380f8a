/* fontvm's graphite2 drop-in: graphite2 1.3.14's public types (graphite2/
 * Types.h), declared from the installed header's API facts (type widths,
 * enum values) for programs that build against the drop-in.  No graphite2
 * code; see compat/graphite2/README.md. */
#pragma once

#include <stddef.h>

typedef unsigned char gr_uint8;
typedef gr_uint8 gr_byte;
typedef signed char gr_int8;
typedef unsigned short gr_uint16;
typedef short gr_int16;
typedef unsigned int gr_uint32;
typedef int gr_int32;

enum gr_encform { gr_utf8 = 1, gr_utf16 = 2, gr_utf32 = 4 };

/* GR2_NAME(x) names an API function: gr_x for the drop-in and its users;
 * fontvm's own builds that link the real graphite2 beside it (the
 * differential fuzz twin) define it as fvg2_x before including. */
#ifndef GR2_NAME
#define GR2_NAME(x) gr_##x
#endif

#if defined __GNUC__
#define GR2_API __attribute__((visibility("default")))
#define GR2_DEPRECATED_API __attribute__((deprecated, visibility("default")))
#else
#define GR2_API
#define GR2_DEPRECATED_API
#endif
