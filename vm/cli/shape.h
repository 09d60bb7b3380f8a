/* `fontvm shape`, split by concern: options and the driver (cmd_shape.c),
 * feature lists (shape_features.c), printers (shape_print.c), the trace
 * (shape_trace.c) and the reference engine with the benchmark
 * (shape_ref.c, built with the reference libraries; shape_noref.c says
 * they are missing).  Segments are plain grc_run structures, whichever
 * engine made them (conformance/graphite/gr_compare.h). */
#ifndef FV_CLI_SHAPE_H
#define FV_CLI_SHAPE_H

#include <stdio.h>

#include "cli.h"
#include "cli_out.h"
#include "fontvm/graphite.h"
#include "gr_compare.h"

/* Longest segment accepted, in code points. */
#define SHAPE_MAX_CHARS 65536

typedef enum shape_format {
    SHAPE_HB_TEXT,   /* hb-shape's text: [name=cluster@dx,dy+adv|...] */
    SHAPE_HB_JSON,   /* hb-shape's JSON: [{"g":..,"cl":..,"dx":..,...}] */
    SHAPE_GR2LOG,    /* gr2fonttest -log */
    SHAPE_TABLE      /* graphite2's slots: origins, attachment, chars */
} shape_format;

typedef struct shape_opts {
    grc_features features;
    int feature_known[GRC_MAX_FEATURES];   /* the font declares it */
    int direction;            /* -1 from the text (hb-shape's default), 0 ltr, 1 rtl */
    const char *script;       /* --script as given (recorded, not used) */
    const char *language;     /* --language as given */
    shape_format format;
    double font_size;         /* hb-shape --font-size; 0 = upem */
    double ppem;              /* gr2log scale, gr2fonttest's 12 by default */
    uint32_t justify_percent; /* gr2fonttest -j; 0 = off */
    int glyph_names, clusters, positions, advances;
    uint16_t upem;
} shape_opts;

/* ---- features (shape_features.c) ---- */
/* hb-shape's list ("kern,+liga,-calt,aalt=2,kern[3:5]=0"), Graphite ids
 * ("1024=1") and gr2fonttest's "lang=xx".  CLI_OK or CLI_BAD_INPUT after a
 * usage line. */
int shape_parse_features(const char *spec, shape_opts *o);
/* --language: a BCP 47 tag whose first subtag selects the Sill language. */
int shape_parse_language(const char *lang, shape_opts *o);
/* --script: 1 for a right-to-left script (Arab, Hebr, ...), 0 for another
 * 4-letter tag, -1 when it is not one. */
int shape_script_direction(const char *script);
/* Marks which settings the font declares (a short tag is tried NUL- and
 * space-padded, as graphite2 and HarfBuzz pad it) and prints one warning
 * line naming those it does not. */
void shape_check_features(const fv_gr_face *face, shape_opts *o);

/* ---- output (shape_print.c) ---- */
typedef struct shape_printer {
    FILE *out;
    cli_out *w;               /* hb-shape's formats: buffered on `out` */
    const shape_opts *o;
    const cli_names *names;
} shape_printer;
/* One segment (or its failure) in the chosen format. */
void shape_print(const shape_printer *p, const uint32_t *text, size_t n, int rtl,
                 const grc_run *run);

/* ---- trace (shape_trace.c) ---- */
typedef struct shape_trace shape_trace;
shape_trace *shape_trace_new(FILE *out, const fv_gr_face *face);
void shape_trace_free(shape_trace *t);
void shape_trace_event(void *user, const fv_gr_trace_event *ev);
/* Before and after each segment. */
void shape_trace_begin(shape_trace *t, const char *line, size_t len);
void shape_trace_end(shape_trace *t);

/* ---- the reference engine (shape_ref.c / shape_noref.c) ---- */
typedef struct shape_ref shape_ref;
/* graphite2 on the font: CLI_OK, or CLI_BAD_INPUT after one line. */
int shape_ref_open(const fv_font *font, const char *path, shape_ref **out);
void shape_ref_close(shape_ref *r);
int shape_ref_shape(shape_ref *r, const grc_request *req, grc_run *out);
/* `--bench`: every line of `lines` shaped `repeat` times by fontvm and by
 * graphite2, alternating; prints segments/s.  CLI_OK, CLI_PROBLEM when the
 * engines made different numbers of segments. */
int shape_ref_bench(shape_ref *r, fv_gr_face *face, const shape_opts *o, const char *path,
                    const char *text_file, const cli_lines *lines, uint32_t repeat);

#endif
