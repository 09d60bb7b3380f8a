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
/* Opens a font for a subcommand, printing the error on failure. */
int cli_open_font(const char *path, uint32_t face, fv_font **out);
/* Parses a non-negative integer argument; 0 on success. */
int cli_parse_uint(const char *s, uint32_t max, uint32_t *out);
/* True when argv[i] is -h or --help. */
int cli_is_help(const char *arg);


/* Option parsing with libc's getopt_long: cli_getopt_begin resets it and
 * silences its own messages; cli_getopt returns the next option, -1 at the
 * end, or '?' after printing one usage line for an unknown option or a
 * missing value (the caller then returns CLI_BAD_INPUT).  Positional
 * arguments are argv[optind..argc-1] afterwards. */
void cli_getopt_begin(void);
int cli_getopt(int argc, char **argv, const char *cmd, const struct option *longopts);

/* TrueType subcommands (cli_tt.c). */
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
