/* One line through graphite2's API, justified: the slots before and after
 * gr_seg_justify and its answer, for comparing graphite2 with the drop-in
 * (LD_LIBRARY_PATH) on lines justify_random.py makes.
 *
 *     justify_probe FONT DIRFLAGS PPM STRETCH|=WIDTH HEX...
 *
 * DIRFLAGS: gr_make_seg's direction (gr_rtl 1, gr_nobidi 2, gr_nomirror
 * 4); PPM 0: no font; STRETCH times the segment's advance, or =WIDTH; the
 * text as hexadecimal code points. */
#include <graphite2/Segment.h>
#include <stdio.h>
#include <stdlib.h>

static int index_of(const gr_slot *s) { return s ? (int)gr_slot_index(s) : -1; }

static void dump(const char *tag, gr_segment *seg, const gr_face *face, const gr_font *font)
{
    printf("%s adv %.9g slots %u last %d\n", tag, gr_seg_advance_X(seg), gr_seg_n_slots(seg),
           index_of(gr_seg_last_slot(seg)));
    for (const gr_slot *s = gr_seg_first_slot(seg); s; s = gr_slot_next_in_segment(s))
        printf("  i%d gid %u x %.9g y %.9g adv %.9g att %d first %d sib %d ba %d %d\n", index_of(s),
               gr_slot_gid(s), gr_slot_origin_X(s), gr_slot_origin_Y(s),
               gr_slot_advance_X(s, face, font), index_of(gr_slot_attached_to(s)),
               index_of(gr_slot_first_attachment(s)), index_of(gr_slot_next_sibling_attachment(s)),
               gr_slot_before(s), gr_slot_after(s));
}

int main(int argc, char **argv)
{
    if (argc < 6 || argc > 5 + 256) {
        fprintf(stderr, "usage: justify_probe FONT DIRFLAGS PPM STRETCH|=WIDTH HEX...\n");
        return 2;
    }
    gr_face *face = gr_make_file_face(argv[1], 0);
    if (!face) {
        printf("face NULL\n");
        return 0;
    }
    int dir = atoi(argv[2]);
    float ppm = (float)atof(argv[3]);
    gr_font *font = ppm > 0 ? gr_make_font(ppm, face) : NULL;
    unsigned text[256];
    size_t n = 0;
    for (int i = 5; i < argc; i++)
        text[n++] = (unsigned)strtoul(argv[i], NULL, 16);
    gr_segment *seg = gr_make_seg(font, face, 0, NULL, gr_utf32, text, n, dir);
    if (!seg) {
        printf("seg NULL\n");
    } else {
        dump("before", seg, face, font);
        double width = argv[4][0] == '=' ? atof(argv[4] + 1) : gr_seg_advance_X(seg) * atof(argv[4]);
        fflush(stdout); /* graphite2 may not return (compat/graphite2/README.md) */
        float got = gr_seg_justify(seg, gr_seg_first_slot(seg), font, width, gr_justCompleteLine,
                                   NULL, NULL);
        printf("asked %.9g got %.9g\n", width, got);
        dump("after", seg, face, font);
        gr_seg_destroy(seg);
    }
    gr_font_destroy(font);
    gr_face_destroy(face);
    return 0;
}
