/* `fontvm` — command-line front end.  Subcommands are listed once in
 * commands.def; each lives in its own cmd_<name>.c. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

struct command {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;
};

static const struct command commands[] = {
#define X(name, fn, summary) {#name, fn, summary},
#include "commands.def"
#undef X
};

static void usage(FILE *out)
{
    fprintf(out, "usage: fontvm COMMAND [ARGS...]\n\n"
                 "fontvm %s — hardened TrueType and Graphite bytecode interpreters.\n\ncommands:\n",
            fv_version());
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nRun 'fontvm COMMAND --help' or 'fontvm help COMMAND' for a command's options;\n"
                 "every option takes its value as --opt value or --opt=value.\n"
                 "Exit status: 0 ok, 1 a problem was found, 2 bad input.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_BAD_INPUT;
    }
    if (strcmp(argv[1], "help") == 0 && argc >= 3) {
        /* `fontvm help CMD` is `fontvm CMD --help`. */
        char *args[] = {argv[2], (char *)"--help", NULL};
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
            if (strcmp(argv[2], commands[i].name) == 0)
                return commands[i].fn(2, args);
        fprintf(stderr, "fontvm: unknown command '%s' (try 'fontvm --help')\n", argv[2]);
        return CLI_BAD_INPUT;
    }
    if (cli_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("fontvm %s\n", fv_version());
        return CLI_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "fontvm: unknown command '%s' (try 'fontvm --help')\n", argv[1]);
    return CLI_BAD_INPUT;
}
