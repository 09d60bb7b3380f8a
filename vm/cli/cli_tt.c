/* Argument helpers shared by the TrueType subcommands (hint, trace, bench). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cli.h"

/* Above any useful hinting size; keeps ppem * 64 well inside int32. */
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

