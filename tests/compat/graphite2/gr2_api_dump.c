/* gr2_api_dump: every answer graphite2 1.3.14's C API gives for a font and
 * some texts, printed one per line, so that two runs can be compared: one
 * with the real libgraphite2.so.3, one with fontvm's drop-in put in front
 * of it through LD_LIBRARY_PATH (tests/compat/graphite2/api_diff.py).  It is
 * a program of graphite2's users, compiled against graphite2's installed
 * headers and linked with -lgraphite2; it never knows which library runs.
 *
 * usage: gr2_api_dump FONT TEXTFILE [--file-face] [--max-lines N]
 *                     [--features] [--ppm P] [--advfn] [--justify-dir D]
 * Each line of TEXTFILE (UTF-8) is shaped left to right and right to left,
 * with a NULL font, at ppm P (default 12) with gr_make_font and, with
 * --advfn, with an advance callback (design advance * scale + 0.25); with
 * --features every value of every feature too (first 3 lines only).  The
 * first 3 lines are also justified (gr_seg_justify, complete line) in
 * direction D: ltr, rtl, both (the default) or none; graphite2 1.3.14 justifies
 * a segment that runs against its font's direction in a way the drop-in
 * does not reproduce (compat/graphite2/README.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdbool.h>

#include <graphite2/Font.h>
#include <graphite2/Log.h>
#include <graphite2/Segment.h>

typedef struct {
    unsigned char *data;
    size_t len;
} file_bytes;

static unsigned rd16(const unsigned char *p) { return (unsigned)p[0] << 8 | p[1]; }
static unsigned long rd32(const unsigned char *p)
{
    return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 | (unsigned long)p[2] << 8 | p[3];
}

static int tables_fetched;

/* HarfBuzz's way: the table from the file's directory, by tag. */
static const void *get_table(const void *h, unsigned int tag, size_t *len)
{
    const file_bytes *f = h;
    *len = 0;
    if (f->len < 12)
        return NULL;
    unsigned n = rd16(f->data + 4);
    for (unsigned i = 0; i < n && 12 + 16 * (size_t)(i + 1) <= f->len; i++) {
        const unsigned char *r = f->data + 12 + 16 * i;
        if (rd32(r) != tag)
            continue;
        unsigned long off = rd32(r + 8), l = rd32(r + 12);
        if (off > f->len || l > f->len - off)
            return NULL;
        tables_fetched++;
        *len = l;
        return f->data + off;
    }
    return NULL;
}

static void release_table(const void *h, const void *t)
{
    (void)h;
    if (t)
        tables_fetched--;
}

static float scale_for_advfn;
static gr_face *face_for_advfn;
static float adv_fn(const void *h, gr_uint16 gid)
{
    (void)h;
    /* a hinted advance: whole pixels of the scaled advance, plus 0.25 */
    return (float)(int)(gid * 0.01f + 5.0f) * scale_for_advfn * 100.0f + 0.25f;
}

static size_t utf8_decode(const char *s, unsigned *out, size_t cap)
{
    size_t n = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p && n < cap) {
        unsigned c = *p++;
        int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
        if (extra)
            c &= 0x3Fu >> extra;
        for (int k = 0; k < extra && *p; k++)
            c = c << 6 | (*p++ & 0x3F);
        out[n++] = c;
    }
    return n;
}

static void print_label(const char *what, void *label, gr_uint16 lang, gr_uint32 len)
{
    printf("%s lang=%u len=%u ", what, lang, len);
    if (label)
        printf("\"%s\"\n", (const char *)label);
    else
        printf("NULL\n");
    gr_label_destroy(label);
}

static int slot_index_of(const gr_slot *s) { return s ? (int)gr_slot_index(s) : -1; }

static void dump_seg(const char *tag, gr_segment *seg, const gr_face *face, const gr_font *font,
                     int full)
{
    if (!seg) {
        printf("%s seg NULL\n", tag);
        return;
    }
    printf("%s adv %.9g %.9g slots %u cinfo %u\n", tag, gr_seg_advance_X(seg),
           gr_seg_advance_Y(seg), gr_seg_n_slots(seg), gr_seg_n_cinfo(seg));
    int i = 0;
    for (const gr_slot *s = gr_seg_first_slot(seg); s; s = gr_slot_next_in_segment(s), i++) {
        printf(" s%d gid %u org %.9g %.9g adv %.9g %.9g ba %d %d idx %u orig %d ins %d att %d "
               "first %d sib %d prev %d",
               i, gr_slot_gid(s), gr_slot_origin_X(s), gr_slot_origin_Y(s),
               gr_slot_advance_X(s, face, font), gr_slot_advance_Y(s, face, font), gr_slot_before(s),
               gr_slot_after(s), gr_slot_index(s), gr_slot_original(s),
               gr_slot_can_insert_before(s), slot_index_of(gr_slot_attached_to(s)),
               slot_index_of(gr_slot_first_attachment(s)),
               slot_index_of(gr_slot_next_sibling_attachment(s)),
               slot_index_of(gr_slot_prev_in_segment(s)));
        if (full) {
            printf(" attrs");
            for (int a = 0; a < gr_slatMax; a++) {
                if (a > gr_slatJWidth && a < gr_slatSegSplit)
                    continue;
                printf(" %d", gr_slot_attr(s, seg, (enum gr_attrCode)a, 0));
            }
            printf(" user");
            for (int u = 0; u < 4; u++)
                printf(" %d", gr_slot_attr(s, seg, gr_slatUserDefn, (gr_uint8)u));
            printf(" just");
            for (int l = 0; l < 2; l++)
                for (int a = gr_slatJStretch; a <= gr_slatJWidth; a++)
                    printf(" %d", gr_slot_attr(s, seg, (enum gr_attrCode)a, (gr_uint8)l));
        }
        printf("\n");
    }
    if (gr_seg_last_slot(seg))
        printf(" last %u\n", gr_slot_index(gr_seg_last_slot(seg)));
    for (unsigned c = 0; c < gr_seg_n_cinfo(seg); c++) {
        const gr_char_info *ci = gr_seg_cinfo(seg, c);
        printf(" c%u u %x bw %d ba %d %d base %zu\n", c, gr_cinfo_unicode_char(ci),
               gr_cinfo_break_weight(ci), gr_cinfo_before(ci), gr_cinfo_after(ci),
               gr_cinfo_base(ci));
    }
}

/* Justifies seg to `stretch` times its advance, prints the width
 * (after "TAG<width_mark> justified": the two callers' lines keep their
 * old labels) and dumps the segment again as TAG+J.  tag has room for
 * the suffix (64 bytes, main's buffers). */
static void dump_justified(char *tag, gr_segment *seg, const gr_face *face, const gr_font *font,
                           double stretch, const char *width_mark)
{
    float w = gr_seg_justify(seg, gr_seg_first_slot(seg), font, gr_seg_advance_X(seg) * stretch,
                             gr_justCompleteLine, NULL, NULL);
    printf("%s%s justified %.9g\n", tag, width_mark, w);
    strcat(tag, "+J");
    dump_seg(tag, seg, face, font, 0);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: gr2_api_dump FONT TEXTFILE [--file-face] [--max-lines N] "
                        "[--features] [--ppm P] [--advfn]\n");
        return 2;
    }
    int file_face = 0, features = 0, advfn = 0, max_lines = 1000, justify_dirs = 3;
    float ppm = 12;
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--file-face"))
            file_face = 1;
        else if (!strcmp(argv[i], "--features"))
            features = 1;
        else if (!strcmp(argv[i], "--advfn"))
            advfn = 1;
        else if (!strcmp(argv[i], "--max-lines") && i + 1 < argc)
            max_lines = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--justify-dir") && i + 1 < argc) {
            i++;
            justify_dirs = !strcmp(argv[i], "ltr") ? 1 : !strcmp(argv[i], "rtl") ? 2 : !strcmp(argv[i], "none") ? 0 : 3;
        } else if (!strcmp(argv[i], "--ppm") && i + 1 < argc)
            ppm = (float)atof(argv[++i]);
    }
    FILE *fp = fopen(argv[1], "rb");
    if (!fp) {
        perror(argv[1]);
        return 2;
    }
    file_bytes fb = {NULL, 0};
    fseek(fp, 0, SEEK_END);
    fb.len = (size_t)ftell(fp);
    fseek(fp, 0, SEEK_SET);
    fb.data = malloc(fb.len ? fb.len : 1);
    if (!fb.data || fread(fb.data, 1, fb.len, fp) != fb.len) {
        fclose(fp);
        return 2;
    }
    fclose(fp);

    int maj, min, bug;
    gr_engine_version(&maj, &min, &bug);
    printf("version %d.%d.%d\n", maj, min, bug);
    char tagstr[5] = {0};
    gr_tag_to_str(gr_str_to_tag("smcp"), tagstr);
    /* (shorter strings: graphite2 reads past their terminator) */
    printf("tag %x %s %x\n", gr_str_to_tag("smcp"), tagstr, gr_str_to_tag("smcp2"));

    gr_face_ops ops = {sizeof ops, get_table, release_table};
    gr_face *face = file_face ? gr_make_file_face(argv[1], gr_face_preloadAll)
                              : gr_make_face_with_ops(&fb, &ops, gr_face_preloadAll);
    printf("face %s tables_held %d\n", face ? "ok" : "NULL", tables_fetched);
    if (!face) {
        free(fb.data);
        return 0;
    }
    printf("glyphs %u\n", gr_face_n_glyphs(face));
    const gr_faceinfo *info = gr_face_info(face, 0);
    if (info)
        printf("info asc %u desc %u upem %u space %d bidi %u lineends %u just %u\n",
               info->extra_ascent, info->extra_descent, info->upem, info->space_contextuals,
               info->has_bidi_pass, info->line_ends, info->justifies);
    unsigned upem = info ? info->upem : 1000;
    gr_uint16 nf = gr_face_n_fref(face);
    printf("frefs %u\n", nf);
    gr_feature_val *defaults = gr_face_featureval_for_lang(face, 0);
    for (gr_uint16 i = 0; i <= nf; i++) {
        const gr_feature_ref *fr = gr_face_fref(face, i);
        if (!fr) {
            printf("fref %u NULL\n", i);
            continue;
        }
        gr_uint32 id = gr_fref_id(fr);
        printf("fref %u id %x n %u default %u find %s", i, id, gr_fref_n_values(fr),
               gr_fref_feature_value(fr, defaults), gr_face_find_fref(face, id) == fr ? "same" : "other");
        for (gr_uint16 v = 0; v <= gr_fref_n_values(fr); v++)
            printf(" %d", gr_fref_value(fr, v));
        printf("\n");
        gr_uint16 lang = 0x409;
        gr_uint32 len = 12345;
        void *l = gr_fref_label(fr, &lang, gr_utf8, &len);
        print_label(" label", l, lang, len);
        lang = 0;
        l = gr_fref_label(fr, &lang, gr_utf8, &len);
        print_label(" label0", l, lang, len);
        lang = 0x409;
        l = gr_fref_label(fr, &lang, gr_utf16, &len);
        printf(" label16 lang=%u len=%u %s\n", lang, len, l ? "set" : "NULL");
        gr_label_destroy(l);
        lang = 0x409;
        l = gr_fref_label(fr, &lang, gr_utf32, &len);
        printf(" label32 lang=%u len=%u %s\n", lang, len, l ? "set" : "NULL");
        gr_label_destroy(l);
        for (gr_uint16 v = 0; v <= gr_fref_n_values(fr); v++) {
            lang = 0x409;
            len = 12345;
            l = gr_fref_value_label(fr, v, &lang, gr_utf8, &len);
            print_label(" vlabel", l, lang, len);
        }
        gr_feature_val *fv = gr_featureval_clone(defaults);
        printf(" set");
        for (int v = -1; v < 4; v++) {
            int ok = gr_fref_set_feature_value(fr, (gr_uint16)v, fv);
            printf(" %d:%d/%u", v, ok, gr_fref_feature_value(fr, fv));
        }
        printf("\n");
        gr_featureval_destroy(fv);
    }
    printf("find zero %s find missing %s\n", gr_face_find_fref(face, 0) ? "set" : "NULL",
           gr_face_find_fref(face, 0x7a7a7a7a) ? "set" : "NULL");
    unsigned short nl = gr_face_n_languages(face);
    printf("langs %u\n", nl);
    for (gr_uint16 i = 0; i <= nl; i++) {
        gr_uint32 tag = gr_face_lang_by_index(face, i);
        printf("lang %u %x", i, tag);
        gr_feature_val *fv = gr_face_featureval_for_lang(face, tag);
        for (gr_uint16 k = 0; k < nf; k++)
            printf(" %u", gr_fref_feature_value(gr_face_fref(face, k), fv));
        printf("\n");
        gr_featureval_destroy(fv);
    }

    gr_font *font = gr_make_font(ppm, face);
    scale_for_advfn = ppm / (float)upem;
    face_for_advfn = face;
    gr_font *hfont = advfn ? gr_make_font_with_advance_fn(ppm, &fb, adv_fn, face) : NULL;
    printf("font %s hinted %s bad %s\n", font ? "ok" : "NULL", hfont ? "ok" : "NULL",
           gr_make_font(-1, face) ? "ok" : "NULL");

    FILE *tf = fopen(argv[2], "r");
    if (!tf) {
        perror(argv[2]);
        return 2;
    }
    static char line[65536];
    static unsigned cps[16384];
    int ln = 0;
    while (ln < max_lines && fgets(line, sizeof line, tf)) {
        line[strcspn(line, "\r\n")] = 0;
        size_t n = utf8_decode(line, cps, 16384);
        const void *err = NULL;
        size_t counted = gr_count_unicode_characters(gr_utf8, line, line + strlen(line), &err);
        printf("line %d n %zu counted %zu err %s\n", ln, n, counted, err ? "set" : "NULL");
        int supported = 0;
        for (size_t i = 0; i < n; i++)
            supported += gr_face_is_char_supported(face, cps[i], 0);
        printf(" supported %d\n", supported);
        for (int dir = 0; dir < 2; dir++) {
            char tag[64];
            snprintf(tag, sizeof tag, "L%d %s null", ln, dir ? "rtl" : "ltr");
            gr_segment *seg = gr_make_seg(NULL, face, 0, defaults, gr_utf32, cps, n, dir);
            dump_seg(tag, seg, face, NULL, 1);
            if (seg && ln < 3 && (justify_dirs >> dir & 1))
                dump_justified(tag, seg, face, NULL, 1.2, "");
            gr_seg_destroy(seg);
            snprintf(tag, sizeof tag, "L%d %s ppm", ln, dir ? "rtl" : "ltr");
            seg = gr_make_seg(font, face, 0, NULL, gr_utf8, line, n, dir | 2);
            dump_seg(tag, seg, face, font, 0);
            if (seg && ln < 3 && (justify_dirs >> dir & 1))
                dump_justified(tag, seg, face, font, 1.1, "+J");
            gr_seg_destroy(seg);
            if (hfont) {
                snprintf(tag, sizeof tag, "L%d %s hinted", ln, dir ? "rtl" : "ltr");
                seg = gr_make_seg(hfont, face, 0, NULL, gr_utf32, cps, n, dir);
                dump_seg(tag, seg, face, hfont, 0);
                gr_seg_destroy(seg);
            }
        }
        if (features && ln < 3) {
            for (gr_uint16 k = 0; k < nf; k++) {
                const gr_feature_ref *fr = gr_face_fref(face, k);
                for (gr_uint16 v = 0; v < gr_fref_n_values(fr) && v < 16; v++) {
                    gr_feature_val *fv = gr_featureval_clone(defaults);
                    gr_fref_set_feature_value(fr, (gr_uint16)gr_fref_value(fr, v), fv);
                    char tag[64];
                    snprintf(tag, sizeof tag, "L%d f%x=%d", ln, gr_fref_id(fr), gr_fref_value(fr, v));
                    gr_segment *seg = gr_make_seg(NULL, face, 0, fv, gr_utf32, cps, n, 0);
                    dump_seg(tag, seg, face, NULL, 0);
                    gr_seg_destroy(seg);
                    gr_featureval_destroy(fv);
                }
            }
        }
        ln++;
    }
    fclose(tf);
    /* destruction in an order graphite2 allows: face first, then fonts */
    gr_featureval_destroy(defaults);
    gr_face_destroy(face);
    gr_font_destroy(font);
    gr_font_destroy(hfont);
    printf("tables_held %d\n", tables_fetched);
    free(fb.data);
    return 0;
}
