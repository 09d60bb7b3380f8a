/* fontvm info FONT [--face N]: what a font contains, for a first look. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "info.h"
#include "sfnt/font.h"

static const char help[] =
    "usage: fontvm info FONT [--face N] [--json]\n\n"
    "Prints the font's tables (tag, offset, length), glyph count, units per em,\n"
    "maxp limits, whether it carries TrueType hinting and whether it is a\n"
    "Graphite font.\n"
    "  --face N   face of a collection (0 to 65535, default 0)\n"
    "  --json     one JSON object: the above, every name string, the cmap\n"
    "             subtables, hinting program sizes, and for a Graphite font its\n"
    "             features (id, label, default, settings with values and labels)\n"
    "             and languages with the values they set, as gr2fonttest lists them\n"
    "Exit status 2 when the font cannot be read.\n";

static int has_table(const sfnt_font *s, uint32_t tag)
{
    fv_span t;
    return sfnt_find_table(s, tag, &t);
}

int cmd_info(int argc, char **argv)
{
    static const struct option options[] = {
        {"help", no_argument, NULL, 'h'}, {"face", required_argument, NULL, 'f'},
        {"json", no_argument, NULL, 'j'}, {NULL, 0, NULL, 0}};
    uint32_t face = 0;
    int opt, json = 0;
    cli_getopt_begin();
    while ((opt = cli_getopt(argc, argv, "info", options)) != -1) {
        switch (opt) {
        case 'h': fputs(help, stdout); return CLI_OK;
        case 'f':
            if (cli_opt_uint("info", "--face", optarg, 0, 0xFFFF, &face))
                return CLI_BAD_INPUT;
            break;
        case 'j': json = 1; break;
        default: return CLI_BAD_INPUT;
        }
    }
    if (optind + 1 < argc)
        return cli_usage_error("info", "one font at a time");
    const char *path = optind < argc ? argv[optind] : NULL;
    if (!path)
        return cli_usage_error("info", "missing FONT");
    fv_font *font;
    int rc = cli_open_font(path, face, &font);
    if (rc)
        return rc;
    const sfnt_font *s = fv_font_sfnt(font);
    info_hinting h = {0, 0, 0};
    if (s->has_loca) {
        /* Count glyphs carrying instructions (bounded by num_glyphs). */
        for (uint32_t g = 0; g < s->maxp.num_glyphs; g++) {
            sfnt_glyph gl;
            fv_error err;
            if (sfnt_glyph_load(s, g, fv_font_mem(font), &gl, &err) == FV_OK) {
                if (gl.instructions.len) {
                    h.glyph_programs++;
                    h.glyph_program_bytes += gl.instructions.len;
                }
                sfnt_glyph_free(fv_font_mem(font), &gl);
            }
        }
    }
    h.hinted = s->fpgm.len || s->prep.len || h.glyph_programs;
    if (json) {
        rc = info_print_json(font, path, &h);
        fv_font_close(font);
        return rc;
    }
    char tag[5];
    printf("file: %s\n", path);
    printf("face: %" PRIu32 " of %" PRIu32 "\n", s->face_index, s->num_faces);
    printf("family: %s\nstyle: %s\n", s->family, s->style);
    sfnt_tag_string(s->sfnt_version, tag);
    printf("sfnt version: 0x%08" PRIX32 "%s%s\n", s->sfnt_version, s->sfnt_version == 0x00010000u ? "" : " ",
           s->sfnt_version == 0x00010000u ? "" : tag);
    printf("glyphs: %u\nunits per em: %u\n", s->maxp.num_glyphs, s->head.units_per_em);
    printf("outlines: %s\n", s->has_loca ? "glyf (TrueType)" : has_table(s, FV_TAG('C', 'F', 'F', ' ')) ? "CFF" : "none");
    printf("cmap: %s\n", s->cmap_format ? (s->cmap_format == 12 ? "Unicode format 12" : "Unicode format 4") : "none");
    printf("hinted: %s (fpgm %zu bytes, prep %zu bytes, cvt %" PRIu32 " entries, %" PRIu32
           " glyph programs)\n",
           h.hinted ? "yes" : "no", s->fpgm.len, s->prep.len, s->cvt_count, h.glyph_programs);
    int graphite = has_table(s, SFNT_TAG_Silf);
    printf("graphite: %s\n", graphite ? "yes (Silf present)" : "no");
    cli_var_print(font);

    if (s->maxp.version == 0x00010000u) {
        const sfnt_maxp *m = &s->maxp;
        printf("maxp: points %u, contours %u, composite points %u, composite contours %u, zones %u,\n"
               "      twilight points %u, storage %u, function defs %u, instruction defs %u,\n"
               "      stack elements %u, size of instructions %u, component elements %u,\n"
               "      component depth %u\n",
               m->max_points, m->max_contours, m->max_composite_points, m->max_composite_contours,
               m->max_zones, m->max_twilight_points, m->max_storage, m->max_function_defs,
               m->max_instruction_defs, m->max_stack_elements, m->max_size_of_instructions,
               m->max_component_elements, m->max_component_depth);
    } else {
        printf("maxp: version 0.5 (no TrueType limits)\n");
    }
    printf("tables: %u\n", s->num_tables);
    for (uint32_t i = 0; i < s->num_tables; i++) {
        sfnt_tag_string(s->tables[i].tag, tag);
        printf("  %s  offset 0x%08" PRIX32 "  length %" PRIu32 "\n", tag, s->tables[i].offset,
               s->tables[i].length);
    }
    if (graphite) {
        /* Separated by a blank line: the block is gr2fonttest's own output. */
        printf("\ngraphite features (as gr2fonttest lists them):\n");
        info_print_graphite(font);
    }
    fv_font_close(font);
    return CLI_OK;
}
