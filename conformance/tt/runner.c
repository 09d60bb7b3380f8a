/* fvconform-tt: compares fontvm's hinted outlines with FreeType's for every
 * glyph of one font at a list of sizes and modes, and writes the JSON Lines
 * records of conformance/RECORDS.md on stdout.
 *
 *   fvconform-tt --font PATH [--face N] [--sizes 6,7,10.5,12x16]
 *                [--modes v35,v40,v40-mono,v40-lcd] [--glyphs all|A-B|G]
 *                [--detail-limit N] [--pedantic] [--no-culprit]
 *                [--location wght=0.42,wdth=-1 | --location instance=N |
 *                 --location design:wght=432.5,wdth=87]
 *                [--original PATH]
 *
 * One process handles one font on one core; scripts/conform runs one per
 * font in parallel.  The load decisions (does each engine open the face,
 * set each size up) are compared like outlines: a tt_load record per
 * configuration and stage; with a design location or a named instance also the normalized
 * coordinates each engine made of it (stage "location").  With --original (the sfnt a .woff/.woff2 was
 * made from; scripts/conform --web) a tt_tables record first says whether
 * fontvm decoded the face's tables to the original's (web_tables.h).
 * Exit status: 0 when it ran (whatever it found,
 * a font neither engine opens included), 2 for bad arguments, 1 when the
 * output could not be written. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, strtok_r */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "fontvm/var.h"
#include "jsonl.h"
#include "tt_compare.h"
#include "tt_lint.h"
#include "web_tables.h"

#define MAX_SIZES 128
#define DEFAULT_DETAIL_LIMIT 20
/* Progress records at most this often (RECORDS.md: a few per second). */
#define PROGRESS_INTERVAL_S 0.5

typedef struct options {
    const char *font;
    uint32_t face;
    ttc_size sizes[MAX_SIZES];
    uint32_t num_sizes;
    fv_tt_mode modes[4];
    uint32_t num_modes;
    int glyphs_all;
    uint32_t first_gid, last_gid;
    uint32_t detail_limit;
    int pedantic;
    int culprit;
    const char *location;  /* as given, or NULL: the font as opened */
    const char *original;  /* --original: the sfnt the web font was made from */
} options;

static json_t *record_start(const char *type, const options *o, const char *size_label,
                            fv_tt_mode mode);

/* A design location's or named instance's normalized coordinates as
 * fontvm made them, for the "location" decision of every configuration. */
typedef struct design_location {
    int on;
    uint32_t num_axes;
    int32_t fontvm[TTC_MAX_AXES];
} design_location;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void emit(json_t *obj)
{
    fvc_emit_record(obj, JSON_PRESERVE_ORDER);
}

static int usage(const char *msg)
{
    fprintf(stderr, "fvconform-tt: %s\n", msg);
    fprintf(stderr, "usage: fvconform-tt --font PATH [--face N] [--sizes 6,10.5,12x16] "
                    "[--modes v35,v40,v40-mono,v40-lcd] [--glyphs all|A-B|G] "
                    "[--detail-limit N] [--pedantic] [--no-culprit] "
                    "[--location TAG=N,... | --location instance=N] [--original PATH]\n");
    return 2;
}

static int parse_u32(const char *s, uint32_t *out)
{
    char *end;
    if (!s || *s < '0' || *s > '9')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || v > UINT32_MAX)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* Splits a comma list into `items`, calling fn on each; -1 on a bad item. */
static int parse_list(const char *list, int (*fn)(const char *item, options *o), options *o)
{
    char buf[1024];
    if (strlen(list) >= sizeof buf)
        return -1;
    strcpy(buf, list);
    char *save = NULL;
    int n = 0;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save), n++)
        if (fn(tok, o) != 0)
            return -1;
    return n > 0 ? 0 : -1;
}

static int add_size(const char *item, options *o)
{
    if (o->num_sizes >= MAX_SIZES || ttc_size_parse(item, &o->sizes[o->num_sizes]) != 0)
        return -1;
    o->num_sizes++;
    return 0;
}

static int add_mode(const char *item, options *o)
{
    fv_tt_mode m;
    if (o->num_modes >= 4 || fv_tt_mode_parse(item, &m) != 0)
        return -1;
    o->modes[o->num_modes++] = m;
    return 0;
}

static int parse_glyphs(const char *s, options *o)
{
    if (strcmp(s, "all") == 0) {
        o->glyphs_all = 1;
        return 0;
    }
    o->glyphs_all = 0;
    const char *dash = strchr(s, '-');
    char a[32];
    if (!dash)
        return parse_u32(s, &o->first_gid) == 0 ? (o->last_gid = o->first_gid, 0) : -1;
    if ((size_t)(dash - s) >= sizeof a)
        return -1;
    memcpy(a, s, (size_t)(dash - s));
    a[dash - s] = '\0';
    if (parse_u32(a, &o->first_gid) != 0 || parse_u32(dash + 1, &o->last_gid) != 0 ||
        o->last_gid < o->first_gid)
        return -1;
    return 0;
}

/* --location: normalized coordinates by axis tag ("wght=0.42,wdth=-1",
 * other axes at 0; 16.16 rounded from the decimal) or a named instance
 * ("instance=N", 1-based: fontvm's fv_font_var_from_instance, FreeType's
 * FT_Set_Named_Instance, dl receiving fontvm's coordinates; mixed with
 * axis values, fontvm's coordinates for both engines); or design coordinates
 * ("design:wght=432.5,wdth=87", other axes at their default, any value:
 * out-of-range ones are clamped), which each engine normalizes itself:
 * FreeType through FT_Set_Var_Design_Coordinates, fontvm through
 * fv_font_var_from_design (dl receives fontvm's result).  -1 with a
 * message. */
static int set_location(const options *o, ttc_ft *ft, ttc_fv *fv, design_location *dl, char *msg,
                        size_t size)
{
    fv_font *font = fv ? ttc_fv_font(fv) : NULL;
    uint32_t na = font ? fv_font_var_axis_count(font) : 0;
    int32_t coords[TTC_MAX_AXES] = {0};
    fv_error err;
    if (na == 0 || na > TTC_MAX_AXES) {
        snprintf(msg, size, "%s: --location for a font without (usable) axes", o->font);
        return -1;
    }
    char buf[512];
    if (strlen(o->location) >= sizeof buf) {
        snprintf(msg, size, "--location: too long");
        return -1;
    }
    strcpy(buf, o->location);
    const char *design_prefix = "design:";
    int design = strncmp(buf, design_prefix, strlen(design_prefix)) == 0;
    int32_t design_coords[TTC_MAX_AXES] = {0};
    for (uint32_t i = 0; design && i < na; i++) {
        fv_var_axis a;
        if (fv_font_var_axis(font, i, &a) != FV_OK) {
            snprintf(msg, size, "--location: axis %u of the font cannot be read", i);
            return -1;
        }
        design_coords[i] = a.def;
    }
    char *save = NULL;
    char *list = design ? buf + strlen(design_prefix) : buf;
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        char *end = NULL;
        if (eq)
            *eq = '\0';
        double v = eq ? strtod(eq + 1, &end) : 0.0;
        if (!eq || end == eq + 1 || *end != '\0') {
            snprintf(msg, size, "--location: expected TAG=N,... or instance=N, not '%s'", o->location);
            return -1;
        }
        if (!design && strcmp(tok, "instance") == 0) {
            if (v < 0 || v != (double)(uint32_t)v ||
                fv_font_var_from_instance(font, (uint32_t)v, coords, &err) != FV_OK) {
                snprintf(msg, size, "--location: no named instance %s", eq + 1);
                return -1;
            }
            continue;
        }
        uint32_t tag, i = 0;
        fv_var_axis a;
        /* Design values: anything 16.16 holds (the engines clamp). */
        double lo = design ? -32768.0 : -1.0, hi = design ? 32767.0 : 1.0;
        if (fv_var_tag_parse(tok, &tag) != 0 || !(v >= lo && v <= hi)) {
            snprintf(msg, size, "--location: '%s=%s' is not an axis tag with a value in %g..%g", tok,
                     eq + 1, lo, hi);
            return -1;
        }
        while (i < na && fv_font_var_axis(font, i, &a) == FV_OK && a.tag != tag)
            i++;
        if (i == na) {
            snprintf(msg, size, "--location: the font has no axis '%s'", tok);
            return -1;
        }
        int32_t fixed = (int32_t)(v * 65536.0 + (v < 0 ? -0.5 : 0.5));
        if (design)
            design_coords[i] = fixed;
        else
            coords[i] = fixed;
    }
    char errbuf[160] = "";
    /* "instance=N" alone: FreeType takes its own named-instance path, and
     * the normalized coordinates are compared like a design location's. */
    uint32_t number = 0;
    int instance_alone = !design && sscanf(o->location, "instance=%u", &number) == 1 &&
                         strchr(o->location, ',') == NULL;
    if (instance_alone) {
        dl->on = 1;
        dl->num_axes = na;
        memcpy(dl->fontvm, coords, na * sizeof coords[0]);
        ttc_ft_set_named_instance(ft, number);
        return ttc_fv_set_location(fv, coords, na) != 0 ? -1 : 0;
    }
    if (design) {
        if (fv_font_var_from_design(font, design_coords, na, coords, &err) != FV_OK) {
            fv_error_format(&err, errbuf, sizeof errbuf);
            snprintf(msg, size, "--location: fontvm refused the design coordinates: %s", errbuf);
            return -1;
        }
        dl->on = 1;
        dl->num_axes = na;
        memcpy(dl->fontvm, coords, na * sizeof coords[0]);
    }
    if ((design ? ttc_ft_set_design_location(ft, design_coords, na, errbuf, sizeof errbuf)
                : ttc_ft_set_location(ft, coords, na, errbuf, sizeof errbuf)) != 0 ||
        ttc_fv_set_location(fv, coords, na) != 0) {
        snprintf(msg, size, "--location: %s", errbuf);
        return -1;
    }
    return 0;
}

/* "0.5,-0.25,0": the 16.16 values as exact decimals (%.10g holds every
 * multiple of 1/65536 in -1..1), so a difference of one unit shows. */
static void coords_text(const int32_t *c, uint32_t n, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < n && at < size; i++) {
        int w = snprintf(buf + at, size - at, "%s%.10g", i ? "," : "", c[i] / 65536.0);
        if (w < 0)
            break;
        at += (size_t)w;
    }
}

/* The "location" decision of a design location in one configuration: the
 * normalized coordinates FreeType holds after setting the size against
 * fontvm's.  Identical, or "different" with both vectors as the errors;
 * where a size was refused (an avar mapping outside -1..1: both engines
 * refuse it), the decision is that refusal, as the size decision's. */
static void emit_location_decision(const options *o, const char *size_label, fv_tt_mode mode,
                                   const design_location *dl, const ttc_ft *ft, int ft_size_failed,
                                   int fv_size_failed)
{
    int32_t ref[TTC_MAX_AXES];
    char ref_text[1024], fv_text[1024];
    coords_text(dl->fontvm, dl->num_axes, fv_text, sizeof fv_text);
    int have_ref = !ft_size_failed && ttc_ft_blend_coords(ft, ref, dl->num_axes) == 0;
    if (have_ref)
        coords_text(ref, dl->num_axes, ref_text, sizeof ref_text);
    else
        snprintf(ref_text, sizeof ref_text, "no normalized coordinates (size not set)");
    const char *status;
    if (ft_size_failed || fv_size_failed)
        status = ft_size_failed && fv_size_failed ? "error_both"
                 : ft_size_failed                 ? "error_ref_only"
                                                  : "error_fontvm_only";
    else
        status = have_ref && memcmp(ref, dl->fontvm, dl->num_axes * sizeof ref[0]) == 0 ? "identical"
                                                                                      : "different";
    int same = strcmp(status, "identical") == 0;
    json_t *r = record_start("tt_load", o, size_label, mode);
    json_object_set_new(r, "stage", json_string("location"));
    json_object_set_new(r, "status", json_string(status));
    json_object_set_new(r, "ref_error", same ? json_null() : json_string(ref_text));
    json_object_set_new(r, "fontvm_error", same ? json_null() : json_string(fv_text));
    emit(r);
}

static int parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->glyphs_all = 1;
    o->detail_limit = DEFAULT_DETAIL_LIMIT;
    o->culprit = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--pedantic") == 0) {
            o->pedantic = 1;
            continue;
        }
        if (strcmp(a, "--no-culprit") == 0) {
            o->culprit = 0;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            return usage("compare fontvm's TrueType hinting with FreeType's");
        if (!v)
            return usage("missing value after an option (or unknown option)");
        i++;
        if (strcmp(a, "--font") == 0)
            o->font = v;
        else if (strcmp(a, "--location") == 0)
            o->location = v;
        else if (strcmp(a, "--original") == 0)
            o->original = v;
        else if (strcmp(a, "--face") == 0) {
            if (parse_u32(v, &o->face) != 0)
                return usage("--face: expected a face index");
        } else if (strcmp(a, "--sizes") == 0) {
            o->num_sizes = 0;
            if (parse_list(v, add_size, o) != 0)
                return usage("--sizes: expected a list like 6,12,10.5,12x16");
        } else if (strcmp(a, "--modes") == 0) {
            o->num_modes = 0;
            if (parse_list(v, add_mode, o) != 0)
                return usage("--modes: expected a list of v35,v40,v40-mono,v40-lcd");
        } else if (strcmp(a, "--glyphs") == 0) {
            if (parse_glyphs(v, o) != 0)
                return usage("--glyphs: expected all, A-B or a glyph id");
        } else if (strcmp(a, "--detail-limit") == 0) {
            if (parse_u32(v, &o->detail_limit) != 0)
                return usage("--detail-limit: expected a number");
        } else {
            return usage("unknown option");
        }
    }
    if (!o->font)
        return usage("--font is required");
    if (o->num_sizes == 0)
        add_size("12", o);
    if (o->num_modes == 0) {
        for (int m = FV_TT_V35; m <= FV_TT_V40_LCD; m++)
            o->modes[o->num_modes++] = (fv_tt_mode)m;
    }
    return 0;
}

static json_t *points_json(const ttc_glyph *g)
{
    json_t *a = json_array();
    for (uint32_t i = 0; i < g->num_points; i++)
        json_array_append_new(a, json_pack("[i,i]", (json_int_t)g->x[i], (json_int_t)g->y[i]));
    return a;
}

/* The fields every per-configuration record starts with, in RECORDS.md's
 * order: which font, face, size, location and mode it is about. */
/* The tt_summary's "lint": each class of fault FreeType tolerates that
 * fontvm's loads of this configuration met (tt_lint.h), or NULL. */
static json_t *lint_json(const ttl_state *l)
{
    json_t *o = NULL;
    for (int k = 0; k < TTL_COUNT; k++) {
        const ttl_class *c = &l->cls[k];
        if (!c->count)
            continue;
        char msg[256];
        ttl_location_text(k, &c->first, msg, sizeof msg);
        if (!o)
            o = json_object();
        json_object_set_new(o, ttl_name(k),
                            json_pack("{s:I,s:I,s:s}", "count", (json_int_t)c->count, "glyphs",
                                      (json_int_t)c->glyphs, "first", msg));
    }
    return o;
}

static json_t *record_start(const char *type, const options *o, const char *size_label,
                            fv_tt_mode mode)
{
    json_t *r = json_object();
    json_object_set_new(r, "type", json_string(type));
    json_object_set_new(r, "font", json_string(o->font));
    json_object_set_new(r, "face", json_integer(o->face));
    json_object_set_new(r, "size", json_string(size_label));
    if (o->location)
        json_object_set_new(r, "location", json_string(o->location));
    json_object_set_new(r, "mode", json_string(fv_tt_mode_name(mode)));
    return r;
}

static json_t *case_json(const options *o, const char *size_label, fv_tt_mode mode, uint32_t gid,
                         const char *glyph_name, const ttc_glyph *ref, const ttc_glyph *fv,
                         const ttc_diff *d, const ttc_culprit *c, int with_detail,
                         uint32_t upem)
{
    json_t *r = record_start("tt_case", o, size_label, mode);
    json_object_set_new(r, "gid", json_integer(gid));
    json_object_set_new(r, "glyph_name", json_string(glyph_name));
    json_object_set_new(r, "status", json_string(ttc_status_name(d->status)));
    json_object_set_new(r, "ref_error", ref->loaded ? json_null() : json_string(ref->error));
    json_object_set_new(r, "fontvm_error", fv->loaded ? json_null() : json_string(fv->error));
    if (d->status == TTC_DIFFERENT) {
        json_t *fd = json_object();
        json_object_set_new(fd, "point", json_integer(d->point));
        if (d->point >= 0) {
            json_object_set_new(fd, "ref", json_pack("[i,i]", (json_int_t)d->ref_xy[0],
                                                     (json_int_t)d->ref_xy[1]));
            json_object_set_new(fd, "fontvm", json_pack("[i,i]", (json_int_t)d->fontvm_xy[0],
                                                        (json_int_t)d->fontvm_xy[1]));
        } else {
            json_object_set_new(fd, "ref", json_null());
            json_object_set_new(fd, "fontvm", json_null());
            json_object_set_new(fd, "ref_points", json_integer(ref->num_points));
            json_object_set_new(fd, "fontvm_points", json_integer(fv->num_points));
        }
        json_object_set_new(r, "first_diff", fd);
    } else {
        json_object_set_new(r, "first_diff", json_null());
    }
    json_object_set_new(r, "ref_advance", ref->loaded ? json_integer(ref->advance_x) : json_null());
    json_object_set_new(r, "fontvm_advance", fv->loaded ? json_integer(fv->advance_x) : json_null());
    if (c && c->found)
        json_object_set_new(r, "culprit",
                            json_pack("{s:s,s:i,s:s,s:i}", "program", fv_program_name(c->program),
                                      "pc", (json_int_t)c->pc, "mnemonic", c->mnemonic, "glyph",
                                      (json_int_t)c->glyph));
    else
        json_object_set_new(r, "culprit", json_null());
    if (with_detail) {
        /* Contours and tags from whichever side loaded (the reference first). */
        const ttc_glyph *shape = ref->loaded ? ref : fv;
        json_t *det = json_object();
        json_t *ends = json_array(), *tags = json_array();
        for (uint32_t i = 0; i < shape->num_contours; i++)
            json_array_append_new(ends, json_integer(shape->contour_ends[i]));
        for (uint32_t i = 0; i < shape->num_points; i++)
            json_array_append_new(tags, json_integer(shape->on_curve[i]));
        json_object_set_new(det, "contours", ends);
        json_object_set_new(det, "tags", tags);
        json_object_set_new(det, "ref_points", ref->loaded ? points_json(ref) : json_null());
        json_object_set_new(det, "fontvm_points", fv->loaded ? points_json(fv) : json_null());
        json_object_set_new(det, "units_per_em", json_integer(upem));
        json_object_set_new(r, "detail", det);
    }
    return r;
}

/* One load decision (RECORDS.md tt_load): "FreeType opens the face / sets
 * the size" against fontvm's, compared like a glyph case. */
static void emit_decision(const options *o, const char *size_label, fv_tt_mode mode,
                          const char *stage, const char *ref_error, const char *fontvm_error)
{
    ttc_status st = ref_error ? (fontvm_error ? TTC_ERROR_BOTH : TTC_ERROR_REF_ONLY)
                              : (fontvm_error ? TTC_ERROR_FONTVM_ONLY : TTC_IDENTICAL);
    json_t *r = record_start("tt_load", o, size_label, mode);
    json_object_set_new(r, "stage", json_string(stage));
    json_object_set_new(r, "status", json_string(ttc_status_name(st)));
    json_object_set_new(r, "ref_error", ref_error ? json_string(ref_error) : json_null());
    json_object_set_new(r, "fontvm_error", fontvm_error ? json_string(fontvm_error) : json_null());
    emit(r);
}

/* The opcode-count key.  tt.h has no opcode-name function yet, so the
 * opcode byte is written in hex ("0xB0"); the report names them. */
static void opcode_key(unsigned op, char *buf, size_t size)
{
    snprintf(buf, size, "0x%02X", op);
}

/* --original: the tt_tables record (RECORDS.md). */
static void emit_tables(const options *o)
{
    ttw_result r;
    int rc = ttw_compare(o->original, o->font, o->face, &r);
    const char *status = rc != 0 ? "error"
                         : r.identical == r.tables && r.glyphs_identical == r.glyphs && !r.first[0]
                             ? "identical"
                             : "different";
    emit(json_pack("{s:s,s:s,s:i,s:s,s:s,s:i,s:i,s:i,s:i,s:s}", "type", "tt_tables", "font", o->font,
                   "face", (json_int_t)o->face, "original", o->original, "status", status, "tables",
                   (json_int_t)r.tables, "identical", (json_int_t)r.identical, "glyphs",
                   (json_int_t)r.glyphs, "glyphs_identical", (json_int_t)r.glyphs_identical,
                   "first_diff", r.first));
}

int main(int argc, char **argv)
{
    options o;
    int rc = parse_args(argc, argv, &o);
    if (rc != 0)
        return rc;

    char ftver[32];
    ttc_ft_version(ftver, sizeof ftver);
    emit(json_pack("{s:s,s:i,s:s,s:s,s:s}", "type", "run", "schema", 1, "runner", "tt", "fontvm",
                   fv_version(), "freetype", ftver));
    if (o.original)
        emit_tables(&o);
    fflush(stdout);

    char errbuf[256], ft_open_error[256] = "";
    ttc_ft *ft = NULL;
    if (ttc_ft_open_file(o.font, o.face, &ft, ft_open_error, sizeof ft_open_error) != 0)
        ft = NULL;
    ttc_fv *fv = NULL;
    fv_error ferr;
    char fv_open_error[160] = "";
    if (ttc_fv_open_file(o.font, o.face, &fv, &ferr) != 0) {
        fv_error_format(&ferr, fv_open_error, sizeof fv_open_error);
        fv = NULL;
    } else if (ttc_fv_face_error(fv)) {
        /* The font opens but no TrueType face can be made of it. */
        snprintf(fv_open_error, sizeof fv_open_error, "%s", ttc_fv_face_error(fv));
    }
    if (!ft) {
        /* Nothing to compare glyph by glyph: the face decisions are the
         * comparison (identical when fontvm refuses the font too). */
        for (uint32_t mi = 0; mi < o.num_modes; mi++)
            for (uint32_t si = 0; si < o.num_sizes; si++) {
                emit_decision(&o, o.sizes[si].label, o.modes[mi], "face", ft_open_error,
                              fv_open_error[0] ? fv_open_error : NULL);
                json_t *s = json_pack("{s:s,s:s,s:i,s:s,s:s,s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:f}",
                                      "type", "tt_summary", "font", o.font, "face", (json_int_t)o.face,
                                      "font_name", "", "size", o.sizes[si].label, "mode",
                                      fv_tt_mode_name(o.modes[mi]), "cases", 0, "identical", 0,
                                      "different", 0, "error_fontvm_only", 0, "error_ref_only", 0,
                                      "error_both", 0, "seconds", 0.0);
                emit(s);
            }
        ttc_fv_close(fv);
        return fflush(stdout) == 0 ? 0 : 1;
    }

    char location_error[512];
    design_location dl = {0};
    if (o.location && set_location(&o, ft, fv, &dl, location_error, sizeof location_error) != 0) {
        fvc_emit_error(location_error);
        ttc_fv_close(fv);
        ttc_ft_close(ft);
        return 2; /* a bad argument, found once the font is open */
    }

    uint32_t num_glyphs = ttc_ft_num_glyphs(ft);
    uint32_t first = 0, last = num_glyphs ? num_glyphs - 1 : 0;
    if (!o.glyphs_all) {
        first = o.first_gid;
        last = o.last_gid < num_glyphs ? o.last_gid : (num_glyphs ? num_glyphs - 1 : 0);
    }
    uint64_t per_config = num_glyphs && first <= last ? (uint64_t)last - first + 1 : 0;
    uint64_t total = per_config * o.num_sizes * o.num_modes, done = 0;
    uint32_t upem = ttc_ft_units_per_em(ft);

    ttc_glyph ref, sub;
    ttc_glyph_init(&ref);
    ttc_glyph_init(&sub);
    double last_progress = now_s();
    char name[128];

    for (uint32_t mi = 0; mi < o.num_modes; mi++) {
        fv_tt_mode mode = o.modes[mi];
        for (uint32_t si = 0; si < o.num_sizes; si++) {
            const ttc_size *sz = &o.sizes[si];
            double t0 = now_s();
            uint64_t counts[TTC_STATUS_COUNT] = {0};
            uint32_t details = 0;
            double t_ref = 0, t_fontvm = 0; /* each engine's share, for speed */
            int ft_size_failed = ttc_ft_set_size(ft, sz, mode, o.pedantic, errbuf, sizeof errbuf);
            t_ref += now_s() - t0;
            double ta = now_s();
            int fv_size_failed = fv && ttc_fv_set_size(fv, sz, mode, o.pedantic, &ferr) != 0;
            t_fontvm += now_s() - ta;
            emit_decision(&o, sz->label, mode, "face", NULL, fv_open_error[0] ? fv_open_error : NULL);
            if (!fv_open_error[0])
                emit_decision(&o, sz->label, mode, "size", ft_size_failed ? errbuf : NULL,
                              fv_size_failed ? ttc_fv_size_error(fv) : NULL);
            if (dl.on)
                emit_location_decision(&o, sz->label, mode, &dl, ft, ft_size_failed, fv_size_failed);
            for (uint64_t k = 0; k < per_config; k++) {
                uint32_t gid = first + (uint32_t)k;
                ta = now_s();
                ttc_ft_load(ft, gid, &ref);
                double tb = now_s();
                if (fv)
                    ttc_fv_load(fv, gid, &sub);
                else
                    ttc_glyph_fail(&sub, fv_open_error);
                t_fontvm += now_s() - tb;
                t_ref += tb - ta;
                ttc_diff d;
                ttc_status st = ttc_compare(&ref, &sub, &d);
                counts[st]++;
                if (st != TTC_IDENTICAL) {
                    ttc_culprit c;
                    memset(&c, 0, sizeof c);
                    if (st == TTC_DIFFERENT && d.point >= 0 && o.culprit && fv)
                        ttc_fv_culprit(fv, gid, (uint32_t)d.point, &c);
                    ttc_ft_glyph_name(ft, gid, name, sizeof name);
                    int detail = details < o.detail_limit;
                    details += (uint32_t)detail;
                    emit(case_json(&o, sz->label, mode, gid, name, &ref, &sub, &d, &c, detail,
                                   upem));
                }
                done++;
                if ((done & 63) == 0) {
                    double t = now_s();
                    if (t - last_progress >= PROGRESS_INTERVAL_S) {
                        last_progress = t;
                        emit(json_pack("{s:s,s:I,s:I}", "type", "progress", "done",
                                       (json_int_t)done, "total", (json_int_t)total));
                        fflush(stdout);
                    }
                }
            }
            json_t *s = json_object();
            json_object_set_new(s, "type", json_string("tt_summary"));
            json_object_set_new(s, "font", json_string(o.font));
            json_object_set_new(s, "face", json_integer(o.face));
            json_object_set_new(s, "font_name", json_string(ttc_ft_font_name(ft)));
            json_object_set_new(s, "size", json_string(sz->label));
            if (o.location)
                json_object_set_new(s, "location", json_string(o.location));
            json_object_set_new(s, "mode", json_string(fv_tt_mode_name(mode)));
            json_object_set_new(s, "cases", json_integer((json_int_t)per_config));
            for (int st = 0; st < TTC_STATUS_COUNT; st++)
                json_object_set_new(s, ttc_status_name((ttc_status)st),
                                    json_integer((json_int_t)counts[st]));
            json_object_set_new(s, "seconds", json_real(now_s() - t0));
            /* Time inside each engine (size setup and glyph loads). */
            json_object_set_new(s, "seconds_ref", json_real(t_ref));
            json_object_set_new(s, "seconds_fontvm", json_real(t_fontvm));
            if (fv) {
                json_t *lint = lint_json(ttc_fv_lint(fv));
                if (lint)
                    json_object_set_new(s, "lint", lint);
            }
            emit(s);
        }
    }
    emit(json_pack("{s:s,s:I,s:I}", "type", "progress", "done", (json_int_t)done, "total",
                   (json_int_t)total));

    json_t *oc = json_object();
    const uint64_t *cnt = fv ? ttc_fv_opcode_counts(fv) : NULL;
    for (unsigned op = 0; cnt && op < 256; op++) {
        if (!cnt[op])
            continue;
        char key[40];
        opcode_key(op, key, sizeof key);
        json_object_set_new(oc, key, json_integer((json_int_t)cnt[op]));
    }
    emit(json_pack("{s:s,s:s,s:o}", "type", "tt_opcodes", "font", o.font, "counts", oc));

    ttc_glyph_free(&ref);
    ttc_glyph_free(&sub);
    ttc_fv_close(fv);
    ttc_ft_close(ft);
    return fflush(stdout) == 0 ? 0 : 1;
}
