/* Argument helpers shared by the TrueType subcommands (hint, trace, bench). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

/* Above any useful hinting size; keeps ppem * 64 well inside int32
 * (CLI_TT_PPEM_RANGE in cli.h says it to the user). */
#define CLI_TT_MAX_PPEM 16384.0


static int parse_one_ppem(const char *s, char **end, int32_t *out)
{
    errno = 0;
    double v = strtod(s, end);
    if (*end == s || errno || !(v > 0.0) || v > CLI_TT_MAX_PPEM)
        return -1;
    *out = (int32_t)lround(v * 64.0);
    return *out > 0 ? 0 : -1;
}

/* "12", "10.5", "12x16": ppem at 72 dpi, as FT_Set_Char_Size takes it. */
int cli_tt_parse_size(const char *s, int32_t *x_26d6, int32_t *y_26d6)
{
    if (!s || !*s)
        return -1;
    for (const char *p = s; *p; p++)
        if (!((*p >= '0' && *p <= '9') || *p == '.' || *p == 'x'))
            return -1;
    char *end;
    if (parse_one_ppem(s, &end, x_26d6) != 0)
        return -1;
    *y_26d6 = *x_26d6;
    if (*end == 'x' && parse_one_ppem(end + 1, &end, y_26d6) != 0)
        return -1;
    return *end == '\0' ? 0 : -1;
}

int cli_tt_parse_mode(const char *s, fv_tt_mode *mode)
{
    return fv_tt_mode_parse(s, mode) == 0 ? 0 : -1;
}

double cli_tt_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void ppem_text(int32_t v, char *buf, size_t size)
{
    if (v % 64 == 0)
        snprintf(buf, size, "%ld", (long)(v / 64));
    else
        snprintf(buf, size, "%g", (double)v / 64.0);
}

/* "12", "10.5" or "12x16". */
void cli_tt_size_label(int32_t x_26d6, int32_t y_26d6, char *buf, size_t size)
{
    char a[32], b[32];
    ppem_text(x_26d6, a, sizeof a);
    if (x_26d6 == y_26d6) {
        snprintf(buf, size, "%s", a);
    } else {
        ppem_text(y_26d6, b, sizeof b);
        snprintf(buf, size, "%sx%s", a, b);
    }
}


int cli_tt_request(const char *cmd, const char *ppem, const char *mode, int pedantic,
                   fv_tt_size_request *req)
{
    memset(req, 0, sizeof *req);
    if (!ppem)
        return cli_usage_error(cmd, "missing --ppem (" CLI_TT_PPEM_RANGE ")");
    if (cli_tt_parse_size(ppem, &req->x_ppem_26d6, &req->y_ppem_26d6))
        return cli_bad_value(cmd, "--ppem", ppem, "expected " CLI_TT_PPEM_RANGE);
    if (cli_tt_parse_mode(mode ? mode : "v40", &req->mode))
        return cli_bad_value(cmd, "--mode", mode, "expected v35, v40, v40-mono or v40-lcd");
    req->pedantic = pedantic;
    return CLI_OK;
}

int cli_tt_open(const char *path, uint32_t face_index, const fv_tt_size_request *req,
                fv_tt_trace_fn trace, void *user, cli_tt_session *s)
{
    fv_error err;
    memset(s, 0, sizeof *s);
    int rc = cli_open_font(path, face_index, &s->font);
    if (rc != CLI_OK)
        return rc;
    if (fv_tt_face_new(s->font, &s->face, &err) != FV_OK) {
        s->face = NULL;
        goto fail;
    }
    if (fv_tt_exec_new(s->face, &s->exec, &err) != FV_OK) {
        s->exec = NULL;
        goto fail;
    }
    if (trace)
        fv_tt_exec_set_trace(s->exec, trace, user);
    if (req && fv_tt_size_new(s->face, s->exec, req, &s->size, &err) != FV_OK) {
        s->size = NULL;
        goto fail;
    }
    return CLI_OK;
fail:
    rc = cli_fail(path, &err);
    cli_tt_close(s);
    return rc;
}

void cli_tt_close(cli_tt_session *s)
{
    if (s->exec)
        fv_tt_exec_set_trace(s->exec, NULL, NULL);
    fv_tt_size_free(s->size);
    fv_tt_exec_free(s->exec);
    fv_tt_face_free(s->face);
    fv_font_close(s->font);
    memset(s, 0, sizeof *s);
}
