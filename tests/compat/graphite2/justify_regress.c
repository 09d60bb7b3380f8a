/* gr_seg_justify of lines graphite2 1.3.14 positions right to left because
 * a direction flag is set (gr_nobidi, gr_nomirror), against the answers
 * graphite2 gave in C probes (issue 17, compat/graphite2/README.md), and a
 * line where graphite2 never returns: the drop-in answers 0 and leaves the
 * line as it was.  Runs the drop-in's static fvg2_* variant, so that the
 * sanitizer builds check it too.
 *
 *     justify_regress PADAUK_TTF
 */
#include <stdio.h>
#include <string.h>

#include "fvg2_api.h"

typedef struct {
    const char *what;
    int dir;             /* gr_make_seg's direction flags */
    float ppm;           /* 0: no font */
    unsigned text[8];
    unsigned len;
    double width;        /* asked */
    float result;        /* graphite2's answer */
    float x[8];          /* graphite2's origins after, in stream order */
} justify_case;

/* U+1000 KA (glyph 99), U+0020 (3), U+100D U+102F (140 then 212, a
 * non-spacing mark that is not attached) */
static const justify_case CASES[] = {
    {"without gr_nobidi the whole line is justified", 0, 0, {0x1000, 0x20, 0x100D, 0x102F}, 4,
     2304, 2304, {0, 1211, 1589, 2157}},
    {"gr_nobidi: 140 keeps its place, 212 moves into its room", 2, 0,
     {0x1000, 0x20, 0x100D, 0x102F}, 4, 2304, 1736, {0, 1211, 1380, 1589}},
    {"gr_nomirror does the same", 4, 0, {0x1000, 0x20, 0x100D, 0x102F}, 4, 2304, 1736,
     {0, 1211, 1380, 1589}},
    {"gr_nobidi, the line alone: nothing moves, 0", 2, 0, {0x100D, 0x102F}, 2, 1072.5, 0,
     {0, 568}},
    {"gr_nobidi inside a line: 212 is placed before 140", 2, 0,
     {0x1000, 0x20, 0x100D, 0x102F, 0x20, 0x1000}, 6, 5212.5, 5212,
     {0, 1870, 2395, 2248, 3832, 4210}},
    {"the same at 12 ppm", 2, 12, {0x1000, 0x20, 0x100D, 0x102F, 0x20, 0x1000}, 6, 50,
     49.9921875f, {0, 16.3710938f, 22.5234375f, 20.8007812f, 33.8203125f, 38.25f}},
};

static int check_case(gr_face *face, const justify_case *c)
{
    gr_font *font = c->ppm > 0 ? fvg2_make_font(c->ppm, face) : NULL;
    gr_segment *seg = fvg2_make_seg(font, face, 0, NULL, gr_utf32, c->text, c->len, c->dir);
    int bad = 0;
    if (!seg) {
        printf("FAIL %s: no segment\n", c->what);
        fvg2_font_destroy(font);
        return 1;
    }
    float r = fvg2_seg_justify(seg, fvg2_seg_first_slot(seg), font, c->width, gr_justCompleteLine,
                               NULL, NULL);
    if (r != c->result) {
        printf("FAIL %s: returned %.9g, graphite2 %.9g\n", c->what, r, c->result);
        bad = 1;
    }
    unsigned i = 0;
    for (const gr_slot *s = fvg2_seg_first_slot(seg); s; s = fvg2_slot_next_in_segment(s), i++) {
        if (i >= c->len || fvg2_slot_origin_X(s) != c->x[i]) {
            printf("FAIL %s: slot %u at %.9g, graphite2 %.9g\n", c->what, i, fvg2_slot_origin_X(s),
                   i < c->len ? c->x[i] : -1.0f);
            bad = 1;
        }
    }
    if (i != c->len) {
        printf("FAIL %s: %u slots, graphite2 %u\n", c->what, i, c->len);
        bad = 1;
    }
    if (!bad)
        printf("ok   %s\n", c->what);
    fvg2_seg_destroy(seg);
    fvg2_font_destroy(font);
    return bad;
}

/* "ကိ ကိ" (KA, VOWEL SIGN I: glyph 209, a non-spacing mark attached to KA)
 * with gr_nobidi: graphite2's reversal for the justified line never ends
 * (conformance/known.toml gr2-justify-line-reversal).  The drop-in returns 0
 * and the line keeps its slots, order and places. */
static int check_hang(gr_face *face)
{
    static const unsigned text[] = {0x1000, 0x102D, 0x20, 0x1000, 0x102D};
    gr_segment *seg = fvg2_make_seg(NULL, face, 0, NULL, gr_utf32, text, 5, gr_nobidi);
    if (!seg) {
        printf("FAIL graphite2's endless line: no segment\n");
        return 1;
    }
    float before[8], after[8];
    unsigned gids[8], n = 0, m = 0;
    for (const gr_slot *s = fvg2_seg_first_slot(seg); s && n < 8; s = fvg2_slot_next_in_segment(s)) {
        gids[n] = fvg2_slot_gid(s);
        before[n++] = fvg2_slot_origin_X(s);
    }
    float r = fvg2_seg_justify(seg, fvg2_seg_first_slot(seg), NULL, fvg2_seg_advance_X(seg) * 1.2,
                               gr_justCompleteLine, NULL, NULL);
    int bad = r != 0 || n != 5;
    for (const gr_slot *s = fvg2_seg_first_slot(seg); s && m < 8; s = fvg2_slot_next_in_segment(s)) {
        if (m >= n || fvg2_slot_gid(s) != gids[m])
            bad = 1;
        after[m++] = fvg2_slot_origin_X(s);
    }
    if (m != n || memcmp(before, after, n * sizeof *before))
        bad = 1;
    printf("%s graphite2's endless line: returned %.9g, %u slots before, %u after\n",
           bad ? "FAIL" : "ok  ", r, n, m);
    fvg2_seg_destroy(seg);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: justify_regress PADAUK_TTF\n");
        return 2;
    }
    gr_face *face = fvg2_make_file_face(argv[1], 0);
    if (!face) {
        fprintf(stderr, "%s: no face\n", argv[1]);
        return 2;
    }
    int bad = 0;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        bad += check_case(face, &CASES[i]);
    bad += check_hang(face);
    fvg2_face_destroy(face);
    printf("%s\n", bad ? "FAILED" : "all as graphite2");
    return bad ? 1 : 0;
}
