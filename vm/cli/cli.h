/* Shared helpers for the `fontvm` subcommands. */
#ifndef FV_CLI_CLI_H
#define FV_CLI_CLI_H

#include <getopt.h>

#include "fontvm/error.h"
#include "fontvm/fontvm.h"
#include "fontvm/tt.h"

#define X(name, fn, summary) int fn(int argc, char **argv);
#include "commands.def"
#undef X

/* Exit statuses of every subcommand. */
enum { CLI_OK = 0, CLI_PROBLEM = 1, CLI_BAD_INPUT = 2 };

/* Prints "fontvm: <what>: <error>" on stderr as one line; returns CLI_BAD_INPUT. */
int cli_fail(const char *what, const fv_error *err);
/* Prints "fontvm <cmd>: <message>" on stderr; returns CLI_BAD_INPUT. */
int cli_usage_error(const char *cmd, const char *message);
/* Prints "fontvm <cmd>: <option> '<value>': <expected>" on stderr, naming
 * what the option accepts; returns CLI_BAD_INPUT. */
int cli_bad_value(const char *cmd, const char *option, const char *value, const char *expected);
/* Opens a font for a subcommand, printing the error on failure (a
 * directory is named as one, not read). */
int cli_open_font(const char *path, uint32_t face, fv_font **out);
/* Parses a non-negative integer argument; 0 on success. */
int cli_parse_uint(const char *s, uint32_t max, uint32_t *out);
/* An option's whole-number value in min..max: CLI_OK, or CLI_BAD_INPUT
 * after a usage line that states the range. */
int cli_opt_uint(const char *cmd, const char *option, const char *value, uint32_t min,
                 uint32_t max, uint32_t *out);
/* A glyph id given to `option`, checked against the font's glyph count:
 * CLI_OK, or CLI_BAD_INPUT after a line that states the font's range. */
int cli_check_glyph(const char *cmd, const char *option, uint32_t gid, uint32_t num_glyphs);
/* True when argv[i] is -h or --help. */
int cli_is_help(const char *arg);


/* Variable fonts (cli_var.c).  cli_var_location sets req's location from
 * --variations ("wght=700,wdth=80", design units, as hb-view spells it)
 * or --named-instance N (1-based, 0 the default), whichever was given
 * (NULL when not); coords holds FV_VAR_MAX_AXES values and must outlive
 * req.  cli_var_print lists the axes and named instances. */
int cli_var_location(const char *cmd, const fv_font *font, const char *variations,
                     const char *named, int32_t *coords, fv_tt_size_request *req);
void cli_var_print(const fv_font *font);

/* Option parsing with libc's getopt_long: cli_getopt_begin resets it and
 * silences its own messages; cli_getopt returns the next option, -1 at the
 * end, or '?' after printing one usage line for an unknown option or a
 * missing value (the caller then returns CLI_BAD_INPUT).  Positional
 * arguments are argv[optind..argc-1] afterwards. */
void cli_getopt_begin(void);
int cli_getopt(int argc, char **argv, const char *cmd, const struct option *longopts);
/* The same with short options besides -h (getopt's syntax after the ':',
 * e.g. "u:O:"). */
int cli_getopt_short(int argc, char **argv, const char *cmd, const char *shorts,
                     const struct option *longopts);

/* Text input (cli_input.c). */
/* One line of a text file, as bytes (no newline; a trailing CR dropped). */
typedef struct cli_line {
    char *text;
    size_t len;
} cli_line;
typedef struct cli_lines {
    cli_line *lines;
    size_t count;
} cli_lines;
/* Reads every line of `path`; CLI_OK, or CLI_BAD_INPUT after one line on
 * stderr (cannot open, a directory, out of memory). */
int cli_read_lines(const char *cmd, const char *path, cli_lines *out);
void cli_lines_free(cli_lines *l);
/* hb-shape's -u list: code points in hex, "U+" or "0x" optional, separated
 * by commas or spaces ("U+1019,U+102C", "1019 102c").  Returns the count
 * (at most cap), or -1 after a usage line naming `option`. */
long cli_parse_unicodes(const char *cmd, const char *option, const char *list, uint32_t *out,
                        size_t cap);

/* Glyph names from the font's post table (cli_names.c), as HarfBuzz and
 * FreeType give them: format 1 and 2 names; "gidN" where the font has none. */
typedef struct cli_names cli_names;
/* NULL only when out of memory; a font without names gives gidN names. */
cli_names *cli_names_open(const fv_font *font);
void cli_names_close(cli_names *n);
/* Writes the name of `gid` (or "gidN") into buf; its length. */
size_t cli_glyph_name(const cli_names *n, uint32_t gid, char *buf, size_t size);
/* The glyph called `name` (post name or "gidN"); 0 when found. */
int cli_glyph_by_name(const cli_names *n, const char *name, size_t len, uint32_t *gid);

/* Glyph selection (cli_glyphs.c): glyph ids in the order given. */
typedef struct cli_glyph_list {
    uint32_t *gids;
    size_t n, cap;
} cli_glyph_list;
/* --glyphs: "all", or any number of ids, ranges A-B and post glyph names
 * separated by commas, each checked against the font's glyph count.
 * CLI_OK, or a usage line naming `option` and CLI_BAD_INPUT. */
int cli_glyphs_add_spec(const char *cmd, const char *option, const char *spec,
                        const fv_font *font, const cli_names *names, cli_glyph_list *l);
/* Characters mapped through the cmap (0, .notdef, when unmapped). */
int cli_glyphs_add_chars(const char *cmd, const uint32_t *cps, size_t n, const fv_font *font,
                         cli_glyph_list *l);
void cli_glyphs_free(cli_glyph_list *l);
/* One glyph (--glyph): an id, gidN or a post name, checked against the
 * font; CLI_OK, or CLI_BAD_INPUT after a usage line naming `option`. */
int cli_glyph_one(const char *cmd, const char *option, const char *spec, const fv_font *font,
                  uint32_t *gid);

/* TrueType subcommands (cli_tt.c). */
/* The sizes --ppem accepts, as usage lines state them. */
#define CLI_TT_PPEM_RANGE "a size in pixels per em from 0.016 (1/64) to 16384: 12, 10.5 or 12x16"

/* "12", "10.5", "12x16": ppem at 72 dpi in 26.6, as FT_Set_Char_Size takes it; 0 on success. */
int cli_tt_parse_size(const char *s, int32_t *x_26d6, int32_t *y_26d6);
/* "v35", "v40", "v40-mono", "v40-lcd"; 0 on success. */
int cli_tt_parse_mode(const char *s, fv_tt_mode *mode);
/* Seconds of CPU time used by this process.  The benchmarks run fontvm and
 * the reference engine one after the other on one thread, so CPU time
 * compares them fairly even on a machine busy with other work, where wall
 * time would also count the time the process waited for a core. */
double cli_tt_now(void);
/* "12", "10.5" or "12x16". */
void cli_tt_size_label(int32_t x_26d6, int32_t y_26d6, char *buf, size_t size);
/* Fills a size request from --ppem/--mode/--pedantic values, printing a
 * usage line for `cmd` when one is wrong; returns CLI_OK or CLI_BAD_INPUT. */
int cli_tt_request(const char *cmd, const char *ppem, const char *mode, int pedantic,
                   fv_tt_size_request *req);

/* A font opened for hinting at one size: font, face (fpgm run), one
 * execution context (with an optional trace hook) and the size (prep run). */
typedef struct cli_tt_session {
    fv_font *font;
    fv_tt_face *face;
    fv_tt_exec *exec;
    fv_tt_size *size;
} cli_tt_session;
/* Opens everything, printing one error line on failure; returns CLI_OK or
 * CLI_BAD_INPUT (the session is then closed).  `req` may be NULL: no size. */
int cli_tt_open(const char *path, uint32_t face_index, const fv_tt_size_request *req,
                fv_tt_trace_fn trace, void *user, cli_tt_session *s);
void cli_tt_close(cli_tt_session *s);

#endif
