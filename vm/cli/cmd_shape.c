/* fontvm shape FONT (--text S | --text-file F | --codes HEX...)
 *              [--features id=value,...] [--lang xx] [--rtl]
 *              [--json | --format json|gr2log|text] [--trace]
 *              [--bench [--repeat N]]
 *
 * Shapes text with fontvm's Graphite engine.  `--format gr2log` writes
 * exactly what graphite2's `gr2fonttest -log` writes, so graphite2's own
 * test expectations compare byte for byte.  Built with the reference
 * libraries, `--engine graphite2` runs graphite2 itself through the same
 * printers, for side-by-side checks. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "fontvm/graphite.h"

#ifdef FONTVM_CLI_WITH_REFERENCES
#include <graphite2/Font.h>
#include <graphite2/Segment.h>
#endif

static const char help[] =
    "usage: fontvm shape FONT (--text S | --text-file F | --codes HEX...)\n"
    "                    [--features id=value,...] [--lang xx] [--rtl]\n"
    "                    [--json | --format json|gr2log|text] [--ppem N]\n"
#ifdef FONTVM_CLI_WITH_REFERENCES
    "                    [--engine fontvm|graphite2] [--bench [--repeat N]]\n"
#endif
    "                    [--trace]\n"
    "\n"
    "Shapes each line of text with the font's Graphite rules.\n"
    "  --text S        one segment (UTF-8)\n"
    "  --text-file F   one segment per line of F (UTF-8)\n"
    "  --codes HEX...  one segment of hex code points, as gr2fonttest -codes\n"
    "  --features      id=value list; id is a tag (kdot) or a number (1024);\n"
    "                  lang=xx selects the language, as gr2fonttest -feat does\n"
    "  --lang xx       language tag for the feature defaults (Sill)\n"
    "  --rtl           right-to-left segment\n"
    "  --json          one JSON object per line, positions in font units\n"
    "  --format gr2log the log of `gr2fonttest -log`, positions scaled to\n"
    "                  --ppem (default 12, gr2fonttest's 12pt at 72dpi)\n"
    "  --format text   a readable table in font units (the default)\n"
    "  --justify P     justify the segment to P% of its natural width, as\n"
    "                  gr2fonttest -j P does (gr_seg_justify)\n"
    "  --trace         before each segment, fontvm's trace: every pass's slot\n"
    "                  stream before and after it, every rule that fired with\n"
    "                  the opcodes it executed and the stack before each\n"
    "                  (constraint code first), rules whose constraint failed\n"
#ifdef FONTVM_CLI_WITH_REFERENCES
    "  --engine        fontvm (default) or graphite2, the reference library\n"
    "  --bench         speed: shape every line --repeat times (default 20) with\n"
    "                  fontvm and with graphite2 in this run, passes\n"
    "                  alternating; print segments/s for both (fastest pass\n"
    "                  and mean) and their ratio (a release build means it)\n"
#endif
    "Exit status: 0 all segments shaped, 1 a segment failed, 2 bad input.\n";

/* Longest segment accepted, in code points. */
#define SHAPE_MAX_CHARS 65536
#define SHAPE_MAX_FEATURES 64

typedef enum { FMT_TEXT, FMT_JSON, FMT_GR2LOG } out_format;

typedef struct shp_slot {
    uint32_t gid;
    double x, y;                /* font units */
    int32_t parent;             /* attached-to slot index, -1 if none */
    int32_t attach_x, attach_y; /* attachment point on the parent */
    int32_t insert, break_weight;
    int32_t before, after;
} shp_slot;

typedef struct shp_char {
    int32_t before, after, base;
} shp_char;

typedef struct shp_result {
    int ok;
    char error[256];
    size_t num_slots, num_chars;
    shp_slot *slots;
    shp_char *chars;
    double advance_x, advance_y;
} shp_result;

typedef struct shp_opts {
    fv_gr_feature_setting features[SHAPE_MAX_FEATURES];
    size_t num_features;
    uint32_t lang;
    int rtl;
    out_format format;
    double ppem;
    uint16_t upem;
    uint32_t justify_percent;   /* gr2fonttest -j: 0 = off */
} shp_opts;

static void result_free(shp_result *r)
{
    free(r->slots);
    free(r->chars);
    memset(r, 0, sizeof *r);
}

static int result_alloc(shp_result *r, size_t slots, size_t chars)
{
    r->slots = calloc(slots ? slots : 1, sizeof *r->slots);
    r->chars = calloc(chars ? chars : 1, sizeof *r->chars);
    r->num_slots = slots;
    r->num_chars = chars;
    if (!r->slots || !r->chars) {
        snprintf(r->error, sizeof r->error, "out of memory");
        return -1;
    }
    return 0;
}

/* ---- input ---- */

/* A tag packed like graphite2's gr_str_to_tag: left-aligned, NUL padded;
 * all digits means a numeric feature id. */
static int parse_tag(const char *s, size_t len, uint32_t *out)
{
    if (len == 0)
        return -1;
    size_t digits = 0;
    while (digits < len && s[digits] >= '0' && s[digits] <= '9')
        digits++;
    if (digits == len) {
        uint64_t v = 0;
        for (size_t i = 0; i < len; i++) {
            v = v * 10 + (uint64_t)(s[i] - '0');
            if (v > UINT32_MAX)
                return -1;
        }
        *out = (uint32_t)v;
        return 0;
    }
    if (len > 4)
        return -1;
    uint32_t t = 0;
    for (size_t i = 0; i < 4; i++)
        t = (t << 8) | (i < len ? (uint8_t)s[i] : 0u);
    *out = t;
    return 0;
}

static int parse_features(const char *spec, shp_opts *o)
{
    const char *p = spec;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len) {
            const char *eq = memchr(p, '=', len);
            if (!eq)
                return cli_usage_error("shape", "--features wants id=value items");
            size_t idlen = (size_t)(eq - p), vlen = len - idlen - 1;
            uint32_t id;
            if (parse_tag(p, idlen, &id))
                return cli_usage_error("shape", "a feature id is a tag of 1-4 characters or a number");
            if (idlen == 4 && memcmp(p, "lang", 4) == 0) {
                if (parse_tag(eq + 1, vlen, &o->lang))
                    return cli_usage_error("shape", "bad lang= value");
            } else {
                char buf[16];
                if (vlen == 0 || vlen >= sizeof buf)
                    return cli_usage_error("shape", "bad feature value");
                memcpy(buf, eq + 1, vlen);
                buf[vlen] = 0;
                char *end;
                errno = 0;
                long v = strtol(buf, &end, 0);
                if (errno || *end || v < INT32_MIN || v > INT32_MAX)
                    return cli_usage_error("shape", "bad feature value");
                if (o->num_features == SHAPE_MAX_FEATURES)
                    return cli_usage_error("shape", "too many features");
                o->features[o->num_features].id = id;
                o->features[o->num_features].value = (int32_t)v;
                o->num_features++;
            }
        }
        p += len + (comma ? 1 : 0);
    }
    return 0;
}

/* UTF-8 to code points; malformed sequences become U+FFFD. */
static size_t utf8_decode(const char *s, size_t len, uint32_t *out, size_t cap)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t n = 0, i = 0;
    while (i < len && n < cap) {
        uint32_t c = u[i];
        size_t need;
        uint32_t min;
        if (c < 0x80) {
            out[n++] = c;
            i++;
            continue;
        } else if ((c & 0xe0) == 0xc0) {
            need = 1, c &= 0x1f, min = 0x80;
        } else if ((c & 0xf0) == 0xe0) {
            need = 2, c &= 0x0f, min = 0x800;
        } else if ((c & 0xf8) == 0xf0) {
            need = 3, c &= 0x07, min = 0x10000;
        } else {
            out[n++] = 0xfffd;
            i++;
            continue;
        }
        size_t k = 1;
        for (; k <= need && i + k < len && (u[i + k] & 0xc0) == 0x80; k++)
            c = (c << 6) | (u[i + k] & 0x3fu);
        if (k <= need) {
            out[n++] = 0xfffd;
            i += k;
            continue;
        }
        out[n++] = (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) ? 0xfffd : c;
        i += need + 1;
    }
    return n;
}

/* ---- engines ---- */

typedef struct engine {
    fv_font *font;
    fv_gr_face *face;
#ifdef FONTVM_CLI_WITH_REFERENCES
    gr_face *gr;
#endif
} engine;

static void shape_fontvm(engine *e, const shp_opts *o, const uint32_t *text, size_t n,
                         shp_result *r)
{
    fv_gr_shape_request req;
    memset(&req, 0, sizeof req);
    req.text = text;
    req.length = n;
    req.features = o->num_features ? o->features : NULL;
    req.num_features = o->num_features;
    req.lang = o->lang;
    req.rtl = o->rtl;
    req.justify_percent = (float)o->justify_percent;
    fv_gr_segment *seg = NULL;
    fv_error err;
    fv_error_clear(&err);
    if (fv_gr_shape(e->face, &req, &seg, &err) != FV_OK || !seg) {
        fv_error_format(&err, r->error, sizeof r->error);
        return;
    }
    if (result_alloc(r, seg->num_slots, seg->num_chars) == 0) {
        for (size_t i = 0; i < seg->num_slots; i++) {
            const fv_gr_slot_info *s = &seg->slots[i];
            shp_slot *d = &r->slots[i];
            d->gid = s->gid;
            d->x = s->x;
            d->y = s->y;
            d->parent = s->attached_to;
            d->attach_x = (int32_t)s->attach_x;
            d->attach_y = (int32_t)s->attach_y;
            d->insert = s->insert;
            d->break_weight = s->break_weight;
            d->before = s->before;
            d->after = s->after;
        }
        for (size_t i = 0; i < seg->num_chars; i++) {
            r->chars[i].before = seg->chars[i].before;
            r->chars[i].after = seg->chars[i].after;
            r->chars[i].base = seg->chars[i].base;
        }
        r->advance_x = seg->advance_x;
        r->advance_y = seg->advance_y;
        r->ok = 1;
    }
    fv_gr_segment_free(e->face, seg);
}

#ifdef FONTVM_CLI_WITH_REFERENCES
static void shape_graphite2(engine *e, const shp_opts *o, const uint32_t *text, size_t n,
                            shp_result *r)
{
    gr_feature_val *fv = gr_face_featureval_for_lang(e->gr, o->lang);
    if (!fv) {
        snprintf(r->error, sizeof r->error, "graphite2: no feature values");
        return;
    }
    for (size_t i = 0; i < o->num_features; i++) {
        const gr_feature_ref *ref = gr_face_find_fref(e->gr, o->features[i].id);
        if (ref)
            gr_fref_set_feature_value(ref, (gr_uint16)o->features[i].value, fv);
    }
    gr_segment *seg = gr_make_seg(NULL, e->gr, 0, fv, gr_utf32, text, n, o->rtl);
    gr_featureval_destroy(fv);
    if (!seg) {
        snprintf(r->error, sizeof r->error, "graphite2: gr_make_seg failed");
        return;
    }
    if (result_alloc(r, gr_seg_n_slots(seg), gr_seg_n_cinfo(seg)) == 0) {
        size_t i = 0;
        for (const gr_slot *s = gr_seg_first_slot(seg); s && i < r->num_slots;
             s = gr_slot_next_in_segment(s), i++) {
            shp_slot *d = &r->slots[i];
            const gr_slot *p = gr_slot_attached_to(s);
            d->gid = gr_slot_gid(s);
            d->x = gr_slot_origin_X(s);
            d->y = gr_slot_origin_Y(s);
            d->parent = p ? (int32_t)gr_slot_index(p) : -1;
            d->attach_x = gr_slot_attr(s, seg, gr_slatAttX, 0);
            d->attach_y = gr_slot_attr(s, seg, gr_slatAttY, 0);
            d->insert = gr_slot_attr(s, seg, gr_slatInsert, 0);
            d->break_weight = gr_slot_attr(s, seg, gr_slatBreak, 0);
            d->before = gr_slot_before(s);
            d->after = gr_slot_after(s);
        }
        r->num_slots = i;
        for (size_t c = 0; c < r->num_chars; c++) {
            const gr_char_info *ci = gr_seg_cinfo(seg, (unsigned)c);
            r->chars[c].before = gr_cinfo_before(ci);
            r->chars[c].after = gr_cinfo_after(ci);
            r->chars[c].base = (int32_t)gr_cinfo_base(ci);
        }
        r->advance_x = gr_seg_advance_X(seg);
        r->advance_y = gr_seg_advance_Y(seg);
        r->ok = 1;
    }
    gr_seg_destroy(seg);
}
#endif

/* ---- output ---- */

static uint32_t code_at(const uint32_t *text, size_t n, int32_t i)
{
    return i >= 0 && (size_t)i < n ? text[i] : 0;
}

/* gr2fonttest -log: the text codes, then (if the segment was made) one row
 * per slot with positions scaled to ppem, the advance, and the per-char
 * table.  Spacing and tabs reproduce graphite2 1.3.14's tool exactly. */
static void print_gr2log(FILE *out, const shp_opts *o, const int *feature_known,
                         const uint32_t *text, size_t n, const shp_result *r)
{
    fputs("Text codes\n", out);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%4x%c", (unsigned)text[i], (i + 1) % 10 == 0 ? '\n' : '\t');
    fputc('\n', out);
    /* The features set, in the order given, that the font knows. */
    for (size_t i = 0; i < o->num_features; i++) {
        if (!feature_known[i])
            continue;
        uint32_t id = o->features[i].id;
        if (id >> 24) {
            char t[5] = {(char)(id >> 24), (char)(id >> 16), (char)(id >> 8), (char)id, 0};
            fprintf(out, "%s=%d\n", t, (int)o->features[i].value);
        } else {
            fprintf(out, "%u=%d\n", (unsigned)id, (int)o->features[i].value);
        }
    }
    if (!r->ok)
        return;
    double scale = o->ppem / (double)o->upem;
    fprintf(out, "Segment length: %zu\n", r->num_slots);
    fputs("pos  gid   attach\t     x\t     y\tins bw\t  chars\t\tUnicode\t\n", out);
    for (size_t i = 0; i < r->num_slots; i++) {
        const shp_slot *s = &r->slots[i];
        fprintf(out, "%02zu  %4u%4d@%d,%d", i, (unsigned)s->gid, (int)s->parent, (int)s->attach_x,
                (int)s->attach_y);
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

static void print_json(FILE *out, const char *line, size_t line_len, const shp_result *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "text", json_stringn_nocheck(line, line_len));
    json_object_set_new(o, "ok", json_boolean(r->ok));
    if (r->ok) {
        json_t *g = json_array(), *c = json_array();
        for (size_t i = 0; i < r->num_slots; i++)
            json_array_append_new(g, json_pack("{s:I,s:f,s:f}", "gid", (json_int_t)r->slots[i].gid,
                                               "x", r->slots[i].x, "y", r->slots[i].y));
        for (size_t i = 0; i < r->num_chars; i++)
            json_array_append_new(c, json_pack("{s:i,s:i}", "before", (int)r->chars[i].before,
                                               "after", (int)r->chars[i].after));
        json_object_set_new(o, "advance", json_real(r->advance_x));
        json_object_set_new(o, "glyphs", g);
        json_object_set_new(o, "chars", c);
    } else {
        json_object_set_new(o, "error", json_string(r->error));
    }
    char *s = json_dumps(o, JSON_COMPACT);
    if (s) {
        fputs(s, out);
        fputc('\n', out);
        free(s);
    }
    json_decref(o);
}

static void print_text(FILE *out, const shp_result *r)
{
    if (!r->ok) {
        fprintf(out, "error: %s\n", r->error);
        return;
    }
    fprintf(out, "slots: %zu  advance: %.2f\n", r->num_slots, r->advance_x);
    fputs("slot    gid         x         y  attached  before after\n", out);
    for (size_t i = 0; i < r->num_slots; i++) {
        const shp_slot *s = &r->slots[i];
        fprintf(out, "%4zu %6u %9.2f %9.2f %9d %7d %5d\n", i, (unsigned)s->gid, s->x, s->y,
                (int)s->parent, (int)s->before, (int)s->after);
    }
}


/* ---- trace (--trace) ---- */

/* Constraint opcodes arrive before graphite2's rule choice is known: they
 * are kept here until the rule fires (printed under it) or another rule's
 * constraint starts (that rule's constraint failed). */
#define TRACE_PENDING_MAX (1u << 20) /* bytes of one rule's constraint trace */

typedef struct shp_trace {
    FILE *out;
    char *pending;          /* constraint lines of the rule being tested */
    size_t len, cap;
    int32_t pending_pass, pending_rule;
    int truncated;
} shp_trace;

static void trace_pending_append(shp_trace *t, const char *line, size_t n)
{
    if (t->len + n > TRACE_PENDING_MAX) {
        t->truncated = 1;
        return;
    }
    if (t->len + n > t->cap) {
        size_t ncap = t->cap ? t->cap : 1024;
        while (ncap < t->len + n)
            ncap *= 2;
        char *nb = realloc(t->pending, ncap);
        if (!nb) {
            t->truncated = 1;
            return;
        }
        t->pending = nb;
        t->cap = ncap;
    }
    memcpy(t->pending + t->len, line, n);
    t->len += n;
}

/* Drops the pending constraint lines; a rule that did not fire is named. */
static void trace_flush_failed(shp_trace *t)
{
    if (t->pending_rule >= 0)
        fprintf(t->out, "    rule %d: constraint failed\n", (int)t->pending_rule);
    else if (t->len)
        fputs("    pass constraint:\n", t->out);
    fprintf(t->out, "%.*s", (int)t->len, t->pending ? t->pending : "");
    if (t->truncated)
        fputs("        (constraint trace truncated)\n", t->out);
    t->len = 0;
    t->truncated = 0;
    t->pending_rule = t->pending_pass = -1;
}

static void trace_stream_line(FILE *out, const char *what, const fv_gr_trace_event *ev)
{
    fprintf(out, "  %s (%zu):", what, ev->num_slots);
    for (size_t i = 0; i < ev->num_slots; i++)
        fprintf(out, " %u", (unsigned)ev->gids[i]);
    fputc('\n', out);
}

static void trace_event(void *user, const fv_gr_trace_event *ev)
{
    shp_trace *t = user;
    switch (ev->kind) {
    case FV_GR_TRACE_PASS_BEGIN:
        fprintf(t->out, "pass %d\n", (int)ev->pass);
        trace_stream_line(t->out, "in ", ev);
        break;
    case FV_GR_TRACE_PASS_END:
        if (t->len || t->pending_rule >= 0)
            trace_flush_failed(t);
        trace_stream_line(t->out, "out", ev);
        break;
    case FV_GR_TRACE_BIDI:
        fprintf(t->out, "bidi (before pass %d)\n", (int)ev->pass);
        trace_stream_line(t->out, "out", ev);
        break;
    case FV_GR_TRACE_RULE:
        if (t->pending_rule != ev->rule || t->pending_pass != ev->pass)
            trace_flush_failed(t);
        fprintf(t->out, "    rule %d fired at slot %d\n", (int)ev->rule, (int)ev->slot);
        if (t->len)
            fprintf(t->out, "      constraint:\n%.*s", (int)t->len, t->pending);
        if (t->truncated)
            fputs("        (constraint trace truncated)\n", t->out);
        fputs("      action:\n", t->out);
        t->len = 0;
        t->truncated = 0;
        t->pending_rule = t->pending_pass = -1;
        break;
    case FV_GR_TRACE_OP: {
        char line[512];
        const char *name = fv_gr_opcode_name(ev->opcode);
        int w = snprintf(line, sizeof line, "        %4u  %-22s [", (unsigned)ev->pc,
                         name ? name : "?");
        size_t n = w > 0 ? (size_t)w : 0;
        /* The top of the stack is what the opcode reads; a deep stack is
         * shown by its last 16 values. */
        size_t from = ev->stack_depth > 16 ? ev->stack_depth - 16 : 0;
        if (from && n < sizeof line)
            n += (size_t)snprintf(line + n, sizeof line - n, "...");
        for (size_t i = from; i < ev->stack_depth && n < sizeof line; i++)
            n += (size_t)snprintf(line + n, sizeof line - n, "%s%d", i > from ? " " : "",
                                  (int)ev->stack[i]);
        if (n < sizeof line)
            n += (size_t)snprintf(line + n, sizeof line - n, "]\n");
        if (n >= sizeof line) {
            n = sizeof line - 1;
            line[n - 1] = '\n';
        }
        if (ev->is_constraint) {
            if (ev->pc == 0 && (t->len || t->pending_rule >= 0))
                trace_flush_failed(t);
            t->pending_rule = ev->rule;
            t->pending_pass = ev->pass;
            trace_pending_append(t, line, n);
        } else {
            fwrite(line, 1, n, t->out);
        }
        break;
    }
    }
}

/* ---- speed (--bench) ---- */

#ifdef FONTVM_CLI_WITH_REFERENCES
#define BENCH_DEFAULT_REPEAT 20u
#define BENCH_MAX_REPEAT 100000u

typedef struct bench_line {
    uint32_t *cps;
    size_t n;
} bench_line;

/* Every line of the file, decoded once, so only shaping is timed. */
static int bench_read_lines(const char *path, bench_line **out, size_t *count)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fontvm shape: cannot open %s: %s\n", path, strerror(errno));
        return CLI_BAD_INPUT;
    }
    bench_line *lines = NULL;
    size_t nl = 0, capl = 0, len = 0, cap = 0;
    char *buf = NULL;
    int rc = CLI_OK, ch;
    do {
        ch = fgetc(f);
        if (ch != EOF && ch != '\n') {
            if (len + 1 >= cap) {
                size_t ncap = cap ? cap * 2 : 256;
                char *nb = realloc(buf, ncap);
                if (!nb) {
                    rc = CLI_PROBLEM;
                    break;
                }
                buf = nb;
                cap = ncap;
            }
            buf[len++] = (char)ch;
            continue;
        }
        if (ch == EOF && len == 0)
            break;
        if (len && buf[len - 1] == '\r')
            len--;
        if (nl == capl) {
            size_t ncap = capl ? capl * 2 : 64;
            bench_line *nb = realloc(lines, ncap * sizeof *nb);
            if (!nb) {
                rc = CLI_PROBLEM;
                break;
            }
            lines = nb;
            capl = ncap;
        }
        lines[nl].cps = malloc((len ? len : 1) * sizeof(uint32_t));
        if (!lines[nl].cps) {
            rc = CLI_PROBLEM;
            break;
        }
        lines[nl].n = utf8_decode(buf ? buf : "", len, lines[nl].cps, len);
        nl++;
        len = 0;
    } while (ch != EOF);
    free(buf);
    fclose(f);
    *out = lines;
    *count = nl;
    return rc;
}

static void bench_free_lines(bench_line *lines, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(lines[i].cps);
    free(lines);
}

/* One pass over the lines with fontvm; counts segments made. */
static double bench_fontvm(engine *e, const shp_opts *o, const bench_line *lines, size_t count,
                           size_t *made)
{
    fv_gr_shape_request req;
    memset(&req, 0, sizeof req);
    req.features = o->num_features ? o->features : NULL;
    req.num_features = o->num_features;
    req.lang = o->lang;
    req.rtl = o->rtl;
    double t0 = cli_tt_now();
    for (size_t i = 0; i < count; i++) {
        req.text = lines[i].cps;
        req.length = lines[i].n;
        fv_gr_segment *seg = NULL;
        if (fv_gr_shape(e->face, &req, &seg, NULL) == FV_OK && seg) {
            (*made)++;
            fv_gr_segment_free(e->face, seg);
        }
    }
    return cli_tt_now() - t0;
}

/* The same with graphite2: gr_make_seg with no font (font units), the
 * feature values built once outside the timed loop. */
static double bench_graphite2(engine *e, const gr_feature_val *fv, const shp_opts *o,
                              const bench_line *lines, size_t count, size_t *made)
{
    double t0 = cli_tt_now();
    for (size_t i = 0; i < count; i++) {
        gr_segment *seg = gr_make_seg(NULL, e->gr, 0, fv, gr_utf32, lines[i].cps, lines[i].n,
                                      o->rtl);
        if (seg) {
            (*made)++;
            gr_seg_destroy(seg);
        }
    }
    return cli_tt_now() - t0;
}

/* fontvm and graphite2 alternate pass by pass, so both see the same
 * machine state (caches, frequency) over the run. */
static int run_bench(engine *e, const shp_opts *o, const char *path, const char *text_file,
                     uint32_t repeat)
{
    bench_line *lines = NULL;
    size_t count = 0;
    int rc = bench_read_lines(text_file, &lines, &count);
    if (rc) {
        bench_free_lines(lines, count);
        return rc;
    }
    gr_feature_val *fv = gr_face_featureval_for_lang(e->gr, o->lang);
    if (!fv) {
        bench_free_lines(lines, count);
        fprintf(stderr, "fontvm shape: graphite2 has no feature values for %s\n", path);
        return CLI_PROBLEM;
    }
    for (size_t i = 0; i < o->num_features; i++) {
        const gr_feature_ref *ref = gr_face_find_fref(e->gr, o->features[i].id);
        if (ref)
            gr_fref_set_feature_value(ref, (gr_uint16)o->features[i].value, fv);
    }
    /* Other work on the machine only ever slows a pass down, so the fastest
     * pass of each engine is the measure (the mean is printed too). */
    double t_fv = 0, t_gr = 0, best_fv = 0, best_gr = 0;
    size_t made_fv = 0, made_gr = 0;
    for (uint32_t r = 0; r < repeat; r++) {
        double a = bench_fontvm(e, o, lines, count, &made_fv);
        double b = bench_graphite2(e, fv, o, lines, count, &made_gr);
        t_fv += a;
        t_gr += b;
        best_fv = r == 0 || a < best_fv ? a : best_fv;
        best_gr = r == 0 || b < best_gr ? b : best_gr;
    }
    gr_featureval_destroy(fv);
    bench_free_lines(lines, count);
    double segs = (double)count;
    double sps_fv = best_fv > 0 ? segs / best_fv : 0, sps_gr = best_gr > 0 ? segs / best_gr : 0;
    double mean_fv = t_fv > 0 ? segs * repeat / t_fv : 0, mean_gr = t_gr > 0 ? segs * repeat / t_gr : 0;
    printf("font: %s\ntext: %s (%zu lines) x %u passes\n", path, text_file, count, (unsigned)repeat);
    printf("           best pass segments/s    mean segments/s   segments made\n");
    printf("fontvm     %20.0f %18.0f %15zu\n", sps_fv, mean_fv, made_fv);
    printf("graphite2  %20.0f %18.0f %15zu\n", sps_gr, mean_gr, made_gr);
    printf("ratio fontvm/graphite2: %.2f (best), %.2f (mean)\n", sps_gr > 0 ? sps_fv / sps_gr : 0.0,
           mean_gr > 0 ? mean_fv / mean_gr : 0.0);
    return made_fv == made_gr ? CLI_OK : CLI_PROBLEM;
}
#endif

/* ---- driver ---- */

typedef struct shape_job {
    engine e;
    shp_opts o;
    int use_graphite2;
    shp_trace *trace;
    uint32_t *cps;
    int failures;
    int feature_known[SHAPE_MAX_FEATURES];
} shape_job;

static void shape_one(shape_job *j, const char *line, size_t line_len, const uint32_t *text,
                      size_t n)
{
    shp_result r;
    memset(&r, 0, sizeof r);
#ifdef FONTVM_CLI_WITH_REFERENCES
    if (j->use_graphite2)
        shape_graphite2(&j->e, &j->o, text, n, &r);
    else
#endif
    {
        if (j->trace) {
            fprintf(stdout, "trace: %.*s\n", (int)line_len, line);
            j->trace->pending_rule = j->trace->pending_pass = -1;
        }
        shape_fontvm(&j->e, &j->o, text, n, &r);
        if (j->trace && (j->trace->len || j->trace->pending_rule >= 0))
            trace_flush_failed(j->trace);
    }
    if (!r.ok)
        j->failures++;
    switch (j->o.format) {
    case FMT_GR2LOG: print_gr2log(stdout, &j->o, j->feature_known, text, n, &r); break;
    case FMT_JSON: print_json(stdout, line, line_len, &r); break;
    case FMT_TEXT: print_text(stdout, &r); break;
    }
    result_free(&r);
}

static int shape_file(shape_job *j, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fontvm shape: cannot open %s: %s\n", path, strerror(errno));
        return CLI_BAD_INPUT;
    }
    char *line = NULL;
    size_t cap = 0;
    int rc = CLI_OK;
    for (;;) {
        size_t len = 0;
        int ch;
        while ((ch = fgetc(f)) != EOF && ch != '\n') {
            if (len + 1 >= cap) {
                size_t ncap = cap ? cap * 2 : 256;
                char *nl = realloc(line, ncap);
                if (!nl) {
                    rc = CLI_PROBLEM;
                    goto done;
                }
                line = nl;
                cap = ncap;
            }
            line[len++] = (char)ch;
        }
        if (ch == EOF && len == 0)
            break;
        if (len && line[len - 1] == '\r')
            len--;
        size_t n = utf8_decode(line ? line : "", len, j->cps, SHAPE_MAX_CHARS);
        shape_one(j, line ? line : "", len, j->cps, n);
        if (ch == EOF)
            break;
    }
done:
    free(line);
    fclose(f);
    return rc;
}

int cmd_shape(int argc, char **argv)
{
    const char *path = NULL, *text = NULL, *text_file = NULL, *features = NULL, *lang = NULL;
    int codes_from = -1, codes_to = -1, want_trace = 0;
#ifdef FONTVM_CLI_WITH_REFERENCES
    int want_bench = 0;
    uint32_t repeat = BENCH_DEFAULT_REPEAT;
#endif
    shp_trace trace;
    memset(&trace, 0, sizeof trace);
    trace.out = stdout;
    trace.pending_rule = trace.pending_pass = -1;
    shape_job j;
    memset(&j, 0, sizeof j);
    j.o.format = FMT_TEXT;
    j.o.ppem = 12;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc;
        if (cli_is_help(a)) {
            fputs(help, stdout);
            return CLI_OK;
        } else if (!strcmp(a, "--text") && has_value) {
            text = argv[++i];
        } else if (!strcmp(a, "--text-file") && has_value) {
            text_file = argv[++i];
        } else if (!strcmp(a, "--codes")) {
            codes_from = i + 1;
            while (i + 1 < argc && argv[i + 1][0] != '-')
                i++;
            codes_to = i + 1;
        } else if (!strcmp(a, "--features") && has_value) {
            features = argv[++i];
        } else if (!strcmp(a, "--lang") && has_value) {
            lang = argv[++i];
        } else if (!strcmp(a, "--rtl")) {
            j.o.rtl = 1;
        } else if (!strcmp(a, "--json")) {
            j.o.format = FMT_JSON;
        } else if (!strcmp(a, "--trace")) {
            want_trace = 1;
        } else if (!strcmp(a, "--format") && has_value) {
            const char *f = argv[++i];
            if (!strcmp(f, "gr2log"))
                j.o.format = FMT_GR2LOG;
            else if (!strcmp(f, "json"))
                j.o.format = FMT_JSON;
            else if (!strcmp(f, "text"))
                j.o.format = FMT_TEXT;
            else
                return cli_usage_error("shape", "--format is json, gr2log or text");
        } else if (!strcmp(a, "--justify") && has_value) {
            if (cli_parse_uint(argv[++i], 10000, &j.o.justify_percent) || j.o.justify_percent == 0)
                return cli_usage_error("shape", "--justify needs a positive percentage");
        } else if (!strcmp(a, "--ppem") && has_value) {
            uint32_t p;
            if (cli_parse_uint(argv[++i], 100000, &p) || p == 0)
                return cli_usage_error("shape", "--ppem needs a positive number");
            j.o.ppem = p;
#ifdef FONTVM_CLI_WITH_REFERENCES
        } else if (!strcmp(a, "--engine") && has_value) {
            const char *e = argv[++i];
            if (!strcmp(e, "graphite2"))
                j.use_graphite2 = 1;
            else if (strcmp(e, "fontvm"))
                return cli_usage_error("shape", "--engine is fontvm or graphite2");
        } else if (!strcmp(a, "--bench")) {
            want_bench = 1;
        } else if (!strcmp(a, "--repeat") && has_value) {
            if (cli_parse_uint(argv[++i], BENCH_MAX_REPEAT, &repeat) || repeat == 0)
                return cli_usage_error("shape", "--repeat needs a positive count");
#endif
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("shape", "unknown option or missing value");
        } else if (!path) {
            path = a;
        } else {
            return cli_usage_error("shape", "one font at a time");
        }
    }
    if (!path)
        return cli_usage_error("shape", "missing FONT");
    if ((text != NULL) + (text_file != NULL) + (codes_from >= 0) != 1)
        return cli_usage_error("shape", "give exactly one of --text, --text-file, --codes");
    if (features) {
        int rc = parse_features(features, &j.o);
        if (rc)
            return rc;
    }
    if (lang && parse_tag(lang, strlen(lang), &j.o.lang))
        return cli_usage_error("shape", "--lang wants a tag of 1-4 characters");
#ifdef FONTVM_CLI_WITH_REFERENCES
    if (want_bench && (!text_file || j.use_graphite2 || want_trace))
        return cli_usage_error("shape", "--bench wants --text-file, without --engine or --trace");
#endif
    if (want_trace && j.use_graphite2)
        return cli_usage_error("shape", "--trace traces fontvm, not graphite2");

    j.cps = malloc(SHAPE_MAX_CHARS * sizeof *j.cps);
    if (!j.cps)
        return CLI_PROBLEM;
    int rc = cli_open_font(path, 0, &j.e.font);
    if (rc) {
        free(j.cps);
        return rc;
    }
    j.o.upem = fv_font_units_per_em(j.e.font);
    fv_error err;
    fv_error_clear(&err);
#ifdef FONTVM_CLI_WITH_REFERENCES
    if (j.use_graphite2 || want_bench) {
        j.e.gr = gr_make_file_face(path, gr_face_preloadAll);
        if (!j.e.gr) {
            fprintf(stderr, "fontvm shape: graphite2 cannot load %s\n", path);
            rc = CLI_BAD_INPUT;
            goto done;
        }
    }
    if (!j.use_graphite2)
#endif
    {
        if (fv_gr_face_new(j.e.font, &j.e.face, &err) != FV_OK) {
            rc = cli_fail(path, &err);
            goto done;
        }
        if (want_trace) {
            j.trace = &trace;
            fv_gr_set_trace(j.e.face, trace_event, &trace, NULL);
        }
    }
#ifdef FONTVM_CLI_WITH_REFERENCES
    if (want_bench) {
        rc = run_bench(&j.e, &j.o, path, text_file, repeat);
        goto done;
    }
#endif
    for (size_t i = 0; i < j.o.num_features; i++) {
#ifdef FONTVM_CLI_WITH_REFERENCES
        if (j.use_graphite2) {
            j.feature_known[i] = gr_face_find_fref(j.e.gr, j.o.features[i].id) != NULL;
            continue;
        }
#endif
        /* COMPAT(graphite2): gr2fonttest echoes only the features the font
         * declares; fontvm's API does not list them yet, so all are echoed. */
        j.feature_known[i] = 1;
    }
    if (text) {
        size_t n = utf8_decode(text, strlen(text), j.cps, SHAPE_MAX_CHARS);
        shape_one(&j, text, strlen(text), j.cps, n);
    } else if (text_file) {
        rc = shape_file(&j, text_file);
    } else {
        size_t n = 0;
        for (int i = codes_from; i < codes_to && n < SHAPE_MAX_CHARS; i++) {
            char *end;
            errno = 0;
            unsigned long c = strtoul(argv[i], &end, 16);
            if (errno || *end || c > 0x10ffff) {
                rc = cli_usage_error("shape", "--codes wants hex code points");
                goto done;
            }
            j.cps[n++] = (uint32_t)c;
        }
        shape_one(&j, "", 0, j.cps, n);
    }
    if (rc == CLI_OK && j.failures)
        rc = CLI_PROBLEM;
done:
#ifdef FONTVM_CLI_WITH_REFERENCES
    if (j.e.gr)
        gr_face_destroy(j.e.gr);
#endif
    if (j.e.face)
        fv_gr_face_free(j.e.face);
    fv_font_close(j.e.font);
    free(trace.pending);
    free(j.cps);
    return rc;
}
