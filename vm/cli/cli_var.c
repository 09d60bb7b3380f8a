/* Variable fonts in the CLI: --variations (hb-view's "wght=700,wdth=80",
 * design units) and --named-instance N, and the axes `fontvm info` lists. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fontvm/var.h"

static void tag_text(uint32_t tag, char buf[5])
{
    for (int i = 0; i < 4; i++) {
        unsigned c = (tag >> (24 - 8 * i)) & 0xFF;
        buf[i] = (char)(c >= 0x20 && c < 0x7F ? c : '?');
    }
    buf[4] = '\0';
}

/* "wght=700,wdth=80" into design (16.16), from the axes' defaults. */
static int parse_variations(const char *cmd, const fv_font *font, const char *text, int32_t *design)
{
    uint32_t na = fv_font_var_axis_count(font);
    for (uint32_t i = 0; i < na; i++) {
        fv_var_axis a;
        (void)fv_font_var_axis(font, i, &a);
        design[i] = a.def;
    }
    const char *p = text;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char item[64];
        if (len == 0 || len >= sizeof item)
            return cli_bad_value(cmd, "--variations", text, "TAG=VALUE[,TAG=VALUE...] (e.g. wght=700,wdth=80)");
        memcpy(item, p, len);
        item[len] = '\0';
        char *eq = strchr(item, '=');
        uint32_t tag;
        if (!eq || (*eq = '\0', fv_var_tag_parse(item, &tag) != 0))
            return cli_bad_value(cmd, "--variations", text, "TAG=VALUE[,TAG=VALUE...] (e.g. wght=700,wdth=80)");
        char *num_end;
        double v = strtod(eq + 1, &num_end);
        if (num_end == eq + 1 || *num_end != '\0' || !isfinite(v) || fabs(v) > 32767.0)
            return cli_bad_value(cmd, "--variations", text, "a number in -32767..32767 after each TAG=");
        uint32_t i = 0;
        for (; i < na; i++) {
            fv_var_axis a;
            (void)fv_font_var_axis(font, i, &a);
            if (a.tag == tag)
                break;
        }
        if (i == na) {
            char msg[128]; /* item is under 64 bytes */
            snprintf(msg, sizeof msg, "the font has no axis '%s' (fontvm info lists them)", item);
            return cli_usage_error(cmd, msg);
        }
        design[i] = (int32_t)lround(v * 65536.0);
        p = end ? end + 1 : p + len;
    }
    return CLI_OK;
}

int cli_var_location(const char *cmd, const fv_font *font, const char *variations,
                     const char *named, int32_t *coords, fv_tt_size_request *req)
{
    if (!variations && !named)
        return CLI_OK;
    if (variations && named)
        return cli_usage_error(cmd, "give one of --variations and --named-instance");
    uint32_t na = fv_font_var_axis_count(font);
    if (na == 0) {
        fv_error err;
        if (fv_font_var_error(font, &err) != FV_OK)
            return cli_fail("variation tables", &err);
        return cli_usage_error(cmd, "the font has no variation axes");
    }
    fv_error err;
    if (named) {
        uint32_t n;
        if (cli_opt_uint(cmd, "--named-instance", named, 0, fv_font_var_instance_count(font), &n))
            return CLI_BAD_INPUT;
        if (fv_font_var_from_instance(font, n, coords, &err) != FV_OK)
            return cli_fail(cmd, &err);
    } else {
        int32_t design[FV_VAR_MAX_AXES];
        int rc = parse_variations(cmd, font, variations, design);
        if (rc != CLI_OK)
            return rc;
        if (fv_font_var_from_design(font, design, na, coords, &err) != FV_OK)
            return cli_fail(cmd, &err);
    }
    req->coords = coords;
    req->num_coords = na;
    return CLI_OK;
}

void cli_var_print(const fv_font *font)
{
    uint32_t na = fv_font_var_axis_count(font);
    fv_error err;
    if (na == 0) {
        if (fv_font_var_error(font, &err) != FV_OK) {
            char msg[200];
            fv_error_format(&err, msg, sizeof msg);
            printf("variations: none usable (%s)\n", msg);
        } else {
            printf("variations: no\n");
        }
        return;
    }
    char tag[5];
    printf("variations: %" PRIu32 " axes, %" PRIu32 " named instances\n", na,
           fv_font_var_instance_count(font));
    for (uint32_t i = 0; i < na; i++) {
        fv_var_axis a;
        (void)fv_font_var_axis(font, i, &a);
        tag_text(a.tag, tag);
        printf("  axis %s  min %g  default %g  max %g  (name id %u%s)\n", tag, a.min / 65536.0,
               a.def / 65536.0, a.max / 65536.0, a.name_id, (a.flags & 1) ? ", hidden" : "");
    }
    for (uint32_t k = 0; k < fv_font_var_instance_count(font); k++) {
        fv_var_instance in;
        (void)fv_font_var_instance(font, k, &in);
        printf("  instance %" PRIu32 " (--named-instance %" PRIu32 "): name id %u", k + 1, k + 1,
               in.subfamily_name_id);
        if (in.ps_name_id != 0xFFFF)
            printf(", postscript name id %u", in.ps_name_id);
        for (uint32_t i = 0; i < na; i++) {
            fv_var_axis a;
            (void)fv_font_var_axis(font, i, &a);
            tag_text(a.tag, tag);
            printf("%s%s=%g", i ? "," : "  ", tag, in.design[i] / 65536.0);
        }
        printf("\n");
    }
}
