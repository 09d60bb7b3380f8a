/* One font opened in both engines (the real graphite2 through the
 * conformance runner's reference, and fontvm), and one segment shaped by
 * both: the set-up of the tests that compare fontvm with graphite2 on a
 * real font. */
#ifndef GR_ENGINES_H
#define GR_ENGINES_H

#include <stdlib.h>
#include <string.h>

#include "fontvm/fontvm.h"
#include "fontvm/graphite.h"
#include "gr_compare.h"
#include "test_support.h"

typedef struct engines {
    unsigned char *font;
    size_t size;
    grc_gr2 *g;
    fv_font *vf;
    fv_gr_face *face;
} engines;

static inline void engines_close(engines *e)
{
    fv_gr_face_free(e->face);
    fv_font_close(e->vf);
    grc_gr2_close(e->g);
    free(e->font);
    memset(e, 0, sizeof *e);
}

/* Opens `font` (taken over: freed by engines_close) in both engines. */
static inline int engines_open(engines *e, unsigned char *font, size_t size)
{
    char msg[256];
    fv_error err;
    memset(e, 0, sizeof *e);
    e->font = font;
    e->size = size;
    e->g = grc_gr2_open(font, size, msg, sizeof msg);
    if (!e->g || fv_font_open_memory(font, size, 0, NULL, &e->vf, &err) != FV_OK ||
        fv_gr_face_new(e->vf, &e->face, &err) != FV_OK) {
        engines_close(e);
        return -1;
    }
    return 0;
}

static inline int engines_open_file(engines *e, const char *path)
{
    size_t size = 0;
    unsigned char *font = test_read_file(path, &size);
    if (!font)
        return -1;
    return engines_open(e, font, size);
}

/* dir: graphite2's direction bits (1 right to left; 0 left to right), no
 * features.  0 with both runs filled (the caller frees them). */
static inline int shape_both(engines *e, const uint32_t *text, size_t n, int dir, grc_run *ref,
                             grc_run *fv)
{
    grc_features feats;
    memset(&feats, 0, sizeof feats);
    grc_request req = {text, n, &feats, dir};
    return grc_shape_both(e->g, e->face, &req, ref, fv);
}

#endif
