/* Printers of `fontvm shape`: hb-shape's text and JSON (HarfBuzz's view
 * of the Graphite segment, conformance/graphite/gr_derive_hb.c),
 * gr2fonttest's log, and a table of graphite2's slots. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shape.h"

static uint32_t code_at(const uint32_t *text, size_t n, int32_t i)
{
    return i >= 0 && (size_t)i < n ? text[i] : 0;
}

/* gr2fonttest -log: the text codes, the features set, then (if the segment
 * was made) one row per slot with positions scaled to ppem, the advance,
 * and the per-char table.  Spacing and tabs reproduce graphite2 1.3.14's
 * tool exactly. */
static void print_gr2log(FILE *out, const shape_opts *o, const uint32_t *text, size_t n,
                         const grc_run *r)
{
    fputs("Text codes\n", out);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%4x%c", (unsigned)text[i], (i + 1) % 10 == 0 ? '\n' : '\t');
    fputc('\n', out);
    /* COMPAT(graphite2): gr2fonttest echoes the features set, in the order
     * given, that the font declares. */
    for (size_t i = 0; i < o->features.n; i++) {
        if (!o->feature_known[i])
            continue;
        uint32_t id = o->features.f[i].id;
        if (id >> 24) {
            char t[5] = {(char)(id >> 24), (char)(id >> 16), (char)(id >> 8), (char)id, 0};
            fprintf(out, "%s=%d\n", t, (int)o->features.f[i].value);
        } else {
            fprintf(out, "%u=%d\n", (unsigned)id, (int)o->features.f[i].value);
        }
    }
    if (!r->ok)
        return;
    double scale = o->ppem / (double)o->upem;
    fprintf(out, "Segment length: %zu\n", r->num_glyphs);
    fputs("pos  gid   attach\t     x\t     y\tins bw\t  chars\t\tUnicode\t\n", out);
    for (size_t i = 0; i < r->num_glyphs; i++) {
        const grc_glyph *s = &r->glyphs[i];
        fprintf(out, "%02zu  %4u%4d@%d,%d", i, (unsigned)s->gid, (int)s->attached_to,
                (int)s->attach_x, (int)s->attach_y);
        fprintf(out, "\t%6.1f\t%6.1f\t%2d %3d\t%3d %3d\t%7x\t%7x\n",
                (double)(float)(s->x * scale), (double)(float)(s->y * scale), (int)s->insert,
                (int)s->break_weight, (int)s->before, (int)s->after,
                (unsigned)code_at(text, n, s->before), (unsigned)code_at(text, n, s->after));
    }
    fprintf(out, "Advance width = %6.1f\n", (double)(float)(r->advance_x * scale));
    fputs("\nChar\tUnicode\tBefore\tAfter\tBase\n", out);
    for (size_t c = 0; c < r->num_chars; c++)
        fprintf(out, "%zu\t%04X\t%d\t%d\t%d\n", c, (unsigned)code_at(text, n, (int32_t)c),
                (int)r->chars[c].before, (int)r->chars[c].after, (int)r->chars[c].base);
}

/* graphite2's slots in font units, with what the segment was asked for. */
static void print_table(FILE *out, const shape_opts *o, int rtl, const grc_run *r)
{
    fprintf(out, "direction: %s  script: %s  language: %s\n", rtl ? "rtl" : "ltr",
            o->script ? o->script : "-", o->language ? o->language : "-");
    if (!r->ok) {
        fprintf(out, "error: %s\n", r->error);
        return;
    }
    fprintf(out, "slots: %zu  advance: %.2f\n", r->num_glyphs, r->advance_x);
    fputs("slot    gid         x         y  attached  before after\n", out);
    for (size_t i = 0; i < r->num_glyphs; i++) {
        const grc_glyph *s = &r->glyphs[i];
        fprintf(out, "%4zu %6u %9.2f %9.2f %9d %7d %5d\n", i, (unsigned)s->gid, s->x, s->y,
                (int)s->attached_to, (int)s->before, (int)s->after);
    }
}

/* The segment at hb-shape's --font-size: HarfBuzz scales graphite2's
 * font-unit positions by size / upem before making its buffer. */
static int scaled_copy(const grc_run *r, double scale, grc_run *out)
{
    *out = *r;
    out->chars = NULL;
    out->glyphs = malloc((r->num_glyphs ? r->num_glyphs : 1) * sizeof *out->glyphs);
    if (!out->glyphs)
        return -1;
    for (size_t i = 0; i < r->num_glyphs; i++) {
        out->glyphs[i] = r->glyphs[i];
        out->glyphs[i].x = (double)(float)(r->glyphs[i].x * scale);
        out->glyphs[i].y = (double)(float)(r->glyphs[i].y * scale);
        out->glyphs[i].advance_y = (double)(float)(r->glyphs[i].advance_y * scale);
    }
    out->advance_x = (double)(float)(r->advance_x * scale);
    out->advance_y = (double)(float)(r->advance_y * scale);
    return 0;
}

/* HarfBuzz's buffer for the segment: 0, or -1 (out of memory). */
static int hb_view(const shape_opts *o, int rtl, const grc_run *r, grc_hb_run *hb)
{
    grc_request req = {NULL, 0, NULL, rtl};
    if (o->font_size <= 0 || o->font_size == o->upem)
        return grc_derive_hb(r, &req, hb);
    grc_run scaled;
    if (scaled_copy(r, o->font_size / (double)o->upem, &scaled) != 0)
        return -1;
    int rc = grc_derive_hb(&scaled, &req, hb);
    free(scaled.glyphs);
    return rc;
}

/* The glyph's name (post table, else gidN) or id, as hb-shape prints it:
 * a JSON string in JSON. */
static void write_glyph(const shape_printer *p, uint32_t gid, int json)
{
    cli_out *w = p->w;
    if (!p->o->glyph_names) {
        cli_out_u64(w, gid);
        return;
    }
    char name[256];
    size_t len = cli_glyph_name(p->names, gid, name, sizeof name);
    if (json)
        cli_out_json_string(w, name, len);
    else
        cli_out_mem(w, name, len);
}

/* hb-shape's text: [name=cluster@dx,dy+ax,ay|...]; "@dx,dy" only when not
 * zero, ",ay" only when not zero.  Without advances the positions are
 * absolute (pen plus offset), as hb-shape --no-advances prints them. */
static void print_hb_text(const shape_printer *p, const grc_hb_run *hb)
{
    const shape_opts *o = p->o;
    cli_out *w = p->w;
    int32_t pen_x = 0, pen_y = 0;
    cli_out_byte(w, '[');
    for (size_t i = 0; i < hb->num_glyphs; i++) {
        const grc_hb_glyph *g = &hb->glyphs[i];
        if (i)
            cli_out_byte(w, '|');
        write_glyph(p, g->gid, 0);
        /* the rest of the glyph: at most 5 numbers and their marks */
        cli_out_room(w, 6 * CLI_OUT_SLACK);
        char *q = w->buf + w->len;
        if (o->clusters) {
            *q++ = '=';
            q = cli_out_fmt_u64(q, g->cluster);
        }
        if (o->positions) {
            int64_t x = (int64_t)g->x_offset + (o->advances ? 0 : pen_x);
            int64_t y = (int64_t)g->y_offset + (o->advances ? 0 : pen_y);
            if (x || y) {
                *q++ = '@';
                q = cli_out_fmt_i64(q, x);
                *q++ = ',';
                q = cli_out_fmt_i64(q, y);
            }
            if (o->advances) {
                *q++ = '+';
                q = cli_out_fmt_i64(q, g->x_advance);
                if (g->y_advance) {
                    *q++ = ',';
                    q = cli_out_fmt_i64(q, g->y_advance);
                }
            }
        }
        w->len = (size_t)(q - w->buf);
        pen_x += g->x_advance;
        pen_y += g->y_advance;
    }
    cli_out_mem(w, "]\n", 2);
}

/* hb-shape's JSON: one array per line, keys in its order (the bytes of
 * the jansson arrays this replaced, but for names that are not UTF-8:
 * cli_out.h). */
static void print_hb_json(const shape_printer *p, const grc_hb_run *hb)
{
    const shape_opts *o = p->o;
    cli_out *w = p->w;
    int32_t pen_x = 0, pen_y = 0;
    cli_out_byte(w, '[');
    for (size_t i = 0; i < hb->num_glyphs; i++) {
        const grc_hb_glyph *g = &hb->glyphs[i];
        cli_out_str(w, i ? ",{\"g\":" : "{\"g\":");
        write_glyph(p, g->gid, 1);
        cli_out_room(w, 6 * CLI_OUT_SLACK);
        char *q = w->buf + w->len;
        if (o->clusters) {
            memcpy(q, ",\"cl\":", 6);
            q = cli_out_fmt_u64(q + 6, g->cluster);
        }
        if (o->positions) {
            memcpy(q, ",\"dx\":", 6);
            q = cli_out_fmt_i64(q + 6, (int64_t)g->x_offset + (o->advances ? 0 : pen_x));
            memcpy(q, ",\"dy\":", 6);
            q = cli_out_fmt_i64(q + 6, (int64_t)g->y_offset + (o->advances ? 0 : pen_y));
            if (o->advances) {
                memcpy(q, ",\"ax\":", 6);
                q = cli_out_fmt_i64(q + 6, g->x_advance);
                memcpy(q, ",\"ay\":", 6);
                q = cli_out_fmt_i64(q + 6, g->y_advance);
            }
        }
        *q++ = '}';
        w->len = (size_t)(q - w->buf);
        pen_x += g->x_advance;
        pen_y += g->y_advance;
    }
    cli_out_mem(w, "]\n", 2);
}

void shape_print(const shape_printer *p, const uint32_t *text, size_t n, int rtl,
                 const grc_run *run)
{
    const shape_opts *o = p->o;
    switch (o->format) {
    case SHAPE_GR2LOG: print_gr2log(p->out, o, text, n, run); return;
    case SHAPE_TABLE: print_table(p->out, o, rtl, run); return;
    case SHAPE_HB_TEXT:
    case SHAPE_HB_JSON: break;
    }
    if (n == 0) {
        /* hb-shape prints an empty line for an empty one. */
        fputc('\n', p->out);
        return;
    }
    if (!run->ok) {
        /* hb-shape's line for a segment graphite2 could not make (the
         * reason goes to stderr from the driver). */
        fputs("error: Shaping failed.\n", p->out);
        return;
    }
    grc_hb_run hb;
    if (hb_view(o, rtl, run, &hb) != 0) {
        fputs("error: out of memory\n", p->out);
        return;
    }
    if (o->format == SHAPE_HB_JSON)
        print_hb_json(p, &hb);
    else
        print_hb_text(p, &hb);
    /* Line by line into the FILE, where the trace and the other formats
     * write too. */
    cli_out_flush(p->w);
    grc_hb_run_free(&hb);
}
