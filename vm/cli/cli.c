/* Helpers shared by the subcommands. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int cli_open_font(const char *path, uint32_t face, fv_font **out)
{
    fv_error err;
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

void cli_getopt_begin(void)
{
    optind = 1;
    opterr = 0; /* cli_getopt prints the one error line itself */
}

int cli_getopt(int argc, char **argv, const char *cmd, const struct option *longopts)
{
    int opt = getopt_long(argc, argv, ":h", longopts, NULL);
    if (opt == '?' || opt == ':') {
        /* getopt_long has stepped past the offending option. */
        const char *bad = optind - 1 < argc && optind >= 1 ? argv[optind - 1] : "";
        char msg[160];
        snprintf(msg, sizeof msg, "%s: %s", opt == ':' ? "missing value for" : "unknown option", bad);
        cli_usage_error(cmd, msg);
        return '?';
    }
    return opt;
}

int cli_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}
