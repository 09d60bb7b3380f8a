/* Text input shared by the subcommands: a text file's lines and hb-shape's
 * code point lists. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* A line longer than this is refused rather than grown without bound. */
#define CLI_MAX_LINE_BYTES (16u << 20)

static int append_line(cli_lines *l, size_t *cap, const char *text, size_t len)
{
    if (l->count == *cap) {
        size_t ncap = *cap ? *cap * 2 : 64;
        cli_line *nl = realloc(l->lines, ncap * sizeof *nl);
        if (!nl)
            return -1;
        l->lines = nl;
        *cap = ncap;
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return -1;
    memcpy(copy, text, len);
    copy[len] = '\0';
    l->lines[l->count].text = copy;
    l->lines[l->count].len = len;
    l->count++;
    return 0;
}

int cli_read_lines(const char *cmd, const char *path, cli_lines *out)
{
    memset(out, 0, sizeof *out);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "fontvm %s: %s: is a directory, not a text file\n", cmd, path);
        return CLI_BAD_INPUT;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fontvm %s: cannot open %s: %s\n", cmd, path, strerror(errno));
        return CLI_BAD_INPUT;
    }
    char *buf = NULL;
    size_t len = 0, cap = 0, lines_cap = 0;
    int ch, rc = CLI_OK;
    const char *why = NULL;
    for (;;) {
        ch = fgetc(f);
        if (ch != EOF && ch != '\n') {
            if (len + 1 >= cap) {
                size_t ncap = cap ? cap * 2 : 256;
                char *nb = ncap <= CLI_MAX_LINE_BYTES ? realloc(buf, ncap) : NULL;
                if (!nb) {
                    why = ncap <= CLI_MAX_LINE_BYTES ? "out of memory" : "a line longer than 16 MiB";
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
        if (append_line(out, &lines_cap, buf ? buf : "", len) != 0) {
            why = "out of memory";
            break;
        }
        len = 0;
        if (ch == EOF)
            break;
    }
    if (!why && ferror(f))
        why = strerror(errno);
    free(buf);
    fclose(f);
    if (why) {
        fprintf(stderr, "fontvm %s: %s: %s\n", cmd, path, why);
        cli_lines_free(out);
        rc = CLI_BAD_INPUT;
    }
    return rc;
}

void cli_lines_free(cli_lines *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->lines[i].text);
    free(l->lines);
    memset(l, 0, sizeof *l);
}

long cli_parse_unicodes(const char *cmd, const char *option, const char *list, uint32_t *out,
                        size_t cap)
{
    size_t n = 0;
    const char *p = list;
    for (;;) {
        while (*p == ',' || *p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        const char *item = p;
        if ((p[0] == 'U' || p[0] == 'u') && p[1] == '+')
            p += 2;
        else if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
            p += 2;
        unsigned long v = 0;
        size_t digits = 0;
        for (; *p && *p != ',' && *p != ' ' && *p != '\t'; p++, digits++) {
            int d = (*p >= '0' && *p <= '9')   ? *p - '0'
                    : (*p >= 'a' && *p <= 'f') ? *p - 'a' + 10
                    : (*p >= 'A' && *p <= 'F') ? *p - 'A' + 10
                                               : -1;
            if (d < 0 || digits >= 8) {
                digits = 0;
                break;
            }
            v = v * 16 + (unsigned long)d;
        }
        if (digits == 0 || v > 0x10FFFF) {
            size_t ilen = strcspn(item, ", \t");
            char bad[64];
            snprintf(bad, sizeof bad, "%.*s", (int)(ilen < 60 ? ilen : 60), item);
            cli_bad_value(cmd, option, bad,
                          "expected hex code points up to 10FFFF, like U+1019,U+102C");
            return -1;
        }
        if (n == cap) {
            char msg[96];
            snprintf(msg, sizeof msg, "%s: more than %zu code points", option, cap);
            cli_usage_error(cmd, msg);
            return -1;
        }
        out[n++] = (uint32_t)v;
    }
    return (long)n;
}
