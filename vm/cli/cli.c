/* Helpers shared by the subcommands. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

int cli_fail(const char *what, const fv_error *err)
{
    char msg[256];
    fv_error_format(err, msg, sizeof msg);
    fprintf(stderr, "fontvm: %s: %s [%s]\n", what, msg, fv_status_name(err->kind));
    return CLI_BAD_INPUT;
}

int cli_usage_error(const char *cmd, const char *message)
{
    fprintf(stderr, "fontvm %s: %s (try 'fontvm %s --help')\n", cmd, message, cmd);
    return CLI_BAD_INPUT;
}

int cli_bad_value(const char *cmd, const char *option, const char *value, const char *expected)
{
    char msg[512];
    snprintf(msg, sizeof msg, "%s '%s': %s", option, value, expected);
    return cli_usage_error(cmd, msg);
}

int cli_open_font(const char *path, uint32_t face, fv_font **out)
{
    fv_error err;
    struct stat st;
    /* Reading a directory fails with EISDIR deep in the file reader, which
     * would be reported as an io error with a misleading reason. */
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "fontvm: %s: is a directory, not a font file\n", path);
        return CLI_BAD_INPUT;
    }
    if (fv_font_open_file(path, face, NULL, out, &err) != FV_OK)
        return cli_fail(path, &err);
    return CLI_OK;
}

int cli_parse_uint(const char *s, uint32_t max, uint32_t *out)
{
    if (!s || !*s || *s == '-' || *s == '+')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v > max)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

int cli_opt_uint(const char *cmd, const char *option, const char *value, uint32_t min,
                 uint32_t max, uint32_t *out)
{
    if (cli_parse_uint(value, max, out) == 0 && *out >= min)
        return CLI_OK;
    char expected[96];
    snprintf(expected, sizeof expected, "expected a whole number from %lu to %lu",
             (unsigned long)min, (unsigned long)max);
    return cli_bad_value(cmd, option, value, expected);
}

int cli_check_glyph(const char *cmd, const char *option, uint32_t gid, uint32_t num_glyphs)
{
    if (gid < num_glyphs)
        return CLI_OK;
    char msg[160];
    if (num_glyphs)
        snprintf(msg, sizeof msg, "%s %lu: the font's glyph ids are 0 to %lu", option,
                 (unsigned long)gid, (unsigned long)num_glyphs - 1);
    else
        snprintf(msg, sizeof msg, "%s %lu: the font has no glyphs", option, (unsigned long)gid);
    return cli_usage_error(cmd, msg);
}

void cli_getopt_begin(void)
{
    optind = 1;
    opterr = 0; /* cli_getopt prints the one error line itself */
}

int cli_getopt(int argc, char **argv, const char *cmd, const struct option *longopts)
{
    return cli_getopt_short(argc, argv, cmd, "", longopts);
}

int cli_getopt_short(int argc, char **argv, const char *cmd, const char *shorts,
                     const struct option *longopts)
{
    char spec[64];
    snprintf(spec, sizeof spec, ":h%s", shorts);
    int opt = getopt_long(argc, argv, spec, longopts, NULL);
    if (opt == '?' || opt == ':') {
        /* getopt_long has stepped past the offending option. */
        const char *bad = optind - 1 < argc && optind >= 1 ? argv[optind - 1] : "";
        char msg[160];
        snprintf(msg, sizeof msg, "%s %s", opt == ':' ? "missing value for" : "unknown option", bad);
        cli_usage_error(cmd, msg);
        return '?';
    }
    return opt;
}

int cli_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}
