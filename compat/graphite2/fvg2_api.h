/* graphite2's API under fontvm's own names (fvg2_make_seg, ...), for
 * programs that link the real graphite2 too (the differential fuzz twin)
 * and use the drop-in's static library, fontvm_graphite2_fvg2.  Include it
 * instead of graphite2's headers, in a file that does not include those. */
#ifndef FV_COMPAT_GRAPHITE2_FVG2_API_H
#define FV_COMPAT_GRAPHITE2_FVG2_API_H

#define GR2_NAME(x) fvg2_##x
#define GR2_OLD_NAME(x) fvg2_old_##x

#include "graphite2/Font.h"
#include "graphite2/Log.h"
#include "graphite2/Segment.h"

#endif
