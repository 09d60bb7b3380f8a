/* Glyph selection shared by the subcommands: ids, ranges, glyph names and
 * characters mapped through the cmap, in the order given. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sfnt/font.h"

/* A selection larger than this is refused (about 64 MiB of ids). */
#define CLI_MAX_SELECTED (16u << 20)

static int add_range(const char *cmd, cli_glyph_list *l, uint32_t first, uint32_t last)
{
    uint64_t count = (uint64_t)last - first + 1;
    if (l->n + count > CLI_MAX_SELECTED) {
        char msg[96];
        snprintf(msg, sizeof msg, "more than %u glyphs selected", CLI_MAX_SELECTED);
        return cli_usage_error(cmd, msg);
    }
    if (l->n + count > l->cap) {
        size_t ncap = l->cap ? l->cap : 256;
        while (ncap < l->n + count)
            ncap *= 2;
        uint32_t *ng = realloc(l->gids, ncap * sizeof *ng);
        if (!ng) {
            fprintf(stderr, "fontvm %s: out of memory\n", cmd);
            return CLI_PROBLEM;
        }
        l->gids = ng;
        l->cap = ncap;
    }
    for (uint64_t g = first; g <= last; g++)
        l->gids[l->n++] = (uint32_t)g;
    return CLI_OK;
}

static int all_digits(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return len > 0;
}

int cli_glyphs_add_spec(const char *cmd, const char *option, const char *spec, const fv_font *font,
                        const cli_names *names, cli_glyph_list *l)
{
    uint32_t num_glyphs = fv_font_glyph_count(font);
    if (strcmp(spec, "all") == 0)
        return num_glyphs ? add_range(cmd, l, 0, num_glyphs - 1) : CLI_OK;
    const char *p = spec;
    if (!*p)
        return cli_bad_value(cmd, option, spec, "expected all, or glyph ids, ranges A-B and "
                                                "glyph names separated by commas");
    while (*p) {
        size_t len = strcspn(p, ",");
        const char *dash = memchr(p, '-', len);
        uint32_t a, b;
        char item[64];
        snprintf(item, sizeof item, "%.*s", (int)(len < 60 ? len : 60), p);
        if (all_digits(p, len)) {
            if (cli_opt_uint(cmd, option, item, 0, UINT32_MAX, &a) != CLI_OK)
                return CLI_BAD_INPUT;
            b = a;
        } else if (dash && all_digits(p, (size_t)(dash - p)) &&
                   all_digits(dash + 1, len - (size_t)(dash - p) - 1)) {
            char lo[32], hi[32];
            snprintf(lo, sizeof lo, "%.*s", (int)(dash - p < 30 ? dash - p : 30), p);
            snprintf(hi, sizeof hi, "%.*s", (int)(len - (size_t)(dash - p) - 1 < 30 ? len - (size_t)(dash - p) - 1 : 30), dash + 1);
            if (cli_opt_uint(cmd, option, lo, 0, UINT32_MAX, &a) != CLI_OK ||
                cli_opt_uint(cmd, option, hi, 0, UINT32_MAX, &b) != CLI_OK)
                return CLI_BAD_INPUT;
            if (b < a)
                return cli_bad_value(cmd, option, item, "a range A-B needs A <= B");
        } else if (len > 3 && memcmp(p, "gid", 3) == 0 && all_digits(p + 3, len - 3)) {
            /* hb-shape's name for a glyph without one; valid for any glyph. */
            if (cli_opt_uint(cmd, option, item + 3, 0, UINT32_MAX, &a) != CLI_OK)
                return CLI_BAD_INPUT;
            b = a;
        } else if (len && cli_glyph_by_name(names, p, len, &a) == 0) {
            b = a;
        } else {
            return cli_bad_value(cmd, option, item,
                                 len ? "no glyph has this name (ids, ranges A-B, post names)"
                                     : "an empty item");
        }
        if (cli_check_glyph(cmd, option, b, num_glyphs) != CLI_OK)
            return CLI_BAD_INPUT;
        int rc = add_range(cmd, l, a, b);
        if (rc != CLI_OK)
            return rc;
        p += len;
        if (*p == ',' && !*++p)
            return cli_bad_value(cmd, option, spec, "ends with a comma");
    }
    return CLI_OK;
}

int cli_glyphs_add_chars(const char *cmd, const uint32_t *cps, size_t n, const fv_font *font,
                         cli_glyph_list *l)
{
    const sfnt_font *s = fv_font_sfnt(font);
    for (size_t i = 0; i < n; i++) {
        uint32_t g = sfnt_cmap_lookup(s, cps[i]);
        int rc = add_range(cmd, l, g, g);
        if (rc != CLI_OK)
            return rc;
    }
    return CLI_OK;
}

void cli_glyphs_free(cli_glyph_list *l)
{
    free(l->gids);
    memset(l, 0, sizeof *l);
}

int cli_glyph_one(const char *cmd, const char *option, const char *spec, const fv_font *font,
                  uint32_t *gid)
{
    cli_names *names = cli_names_open(font);
    cli_glyph_list l = {NULL, 0, 0};
    int rc = strchr(spec, ',') || strcmp(spec, "all") == 0
                 ? cli_bad_value(cmd, option, spec, "expected one glyph: an id or a glyph name")
                 : cli_glyphs_add_spec(cmd, option, spec, font, names, &l);
    if (rc == CLI_OK && l.n != 1)
        rc = cli_bad_value(cmd, option, spec, "expected one glyph: an id or a glyph name");
    if (rc == CLI_OK)
        *gid = l.gids[0];
    cli_glyphs_free(&l);
    cli_names_close(names);
    return rc;
}
