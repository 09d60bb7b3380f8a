/* fontvm disasm FONT [--table fpgm|prep|glyf] [--glyph N] [--graphite]:
 * TrueType programs as mnemonics with offsets, or Graphite pass code. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "graphite/disasm.h"
#include "sfnt/font.h"
#include "tt/opcodes.h"

static const char help[] =
    "usage: fontvm disasm FONT [--face N] [--table fpgm|prep|glyf] [--glyph G]\n"
    "       fontvm disasm FONT [--face N] --graphite\n\n"
    "Disassembles TrueType programs: with no --table, fpgm and prep; with\n"
    "--table glyf, the glyph program of --glyph G (an id or a glyph name), or of\n"
    "every glyph that has one.  Each line is 'offset: MNEMONIC[flags]\n"
    "inline-values', indented by FDEF/IDEF and IF nesting.  --graphite prints\n"
    "every Graphite pass's rules with their constraint and action code, commands\n"
    "named as the Graphite documentation names them (AttrSet attTo).\n"
    "--face 0 to 65535.  Every option takes --opt value or --opt=value.\n"
    "Exit status 2 when the font or a program cannot be read (the program is\n"
    "printed up to the bad instruction).\n";

/* Disassembles one program to stdout; returns FV_OK or the decode error
 * (with pc and program filled in err). */
static fv_status disasm_program(const char *title, fv_program prog, uint32_t glyph, fv_span code,
                                fv_error *err)
{
    printf("%s (%zu bytes)\n", title, code.len);
    int depth = 0;
    for (uint32_t pc = 0; pc < code.len;) {
        tt_insn in;
        fv_status st = tt_decode(code, pc, &in);
        if (st != FV_OK) {
            fv_error_clear(err);
            err->kind = st;
            err->program = prog;
            err->glyph = glyph;
            err->pc = pc;
            err->opcode = code.data[pc];
            tt_format_mnemonic(code.data[pc], err->opname, sizeof err->opname);
            snprintf(err->detail, sizeof err->detail, "inline data runs past the end of the program");
            return st;
        }
        char name[32];
        tt_format_mnemonic(in.opcode, name, sizeof name);
        const char *base = tt_opcode_name(in.opcode);
        int closes = strcmp(base, "ENDF") == 0 || strcmp(base, "EIF") == 0 || strcmp(base, "ELSE") == 0;
        if (closes && depth > 0)
            depth--;
        printf("  %5" PRIu32 ": %*s%s", pc, 2 * depth, "", name);
        for (uint32_t i = 0; i < in.num_values; i++)
            printf(" %" PRId32, tt_insn_value(&in, i));
        putchar('\n');
        if (strcmp(base, "FDEF") == 0 || strcmp(base, "IDEF") == 0 || strcmp(base, "IF") == 0 ||
            strcmp(base, "ELSE") == 0)
            depth++;
        pc += in.length;
    }
    return FV_OK;
}

/* Prints every glyph program (or just `only` when it is not FV_NO_VALUE). */
static int disasm_glyphs(fv_font *font, uint32_t only)
{
    const sfnt_font *s = fv_font_sfnt(font);
    if (!s->has_loca) {
        fprintf(stderr, "fontvm disasm: the font has no glyf table\n");
        return CLI_BAD_INPUT;
    }
    uint32_t first = only == FV_NO_VALUE ? 0 : only, last = only == FV_NO_VALUE ? s->maxp.num_glyphs : only + 1;
    for (uint32_t g = first; g < last; g++) {
        sfnt_glyph gl;
        fv_error err;
        if (sfnt_glyph_load(s, g, fv_font_mem(font), &gl, &err) != FV_OK)
            return cli_fail("disasm", &err);
        char title[64];
        snprintf(title, sizeof title, "glyf[%" PRIu32 "]%s", g, gl.num_contours < 0 ? " composite" : "");
        fv_status st = FV_OK;
        if (gl.instructions.len || only != FV_NO_VALUE)
            st = disasm_program(title, FV_PROG_GLYF, g, gl.instructions, &err);
        sfnt_glyph_free(fv_font_mem(font), &gl);
        if (st != FV_OK)
            return cli_fail("disasm", &err);
    }
    return CLI_OK;
}

int cmd_disasm(int argc, char **argv)
{
    static const struct option options[] = {
        {"help", no_argument, NULL, 'h'},        {"face", required_argument, NULL, 'f'},
        {"table", required_argument, NULL, 't'}, {"glyph", required_argument, NULL, 'g'},
        {"graphite", no_argument, NULL, 'G'},    {NULL, 0, NULL, 0}};
    const char *table = NULL;
    uint32_t face = 0, glyph = FV_NO_VALUE;
    const char *glyph_s = NULL;
    int graphite = 0, opt;
    cli_getopt_begin();
    while ((opt = cli_getopt(argc, argv, "disasm", options)) != -1) {
        switch (opt) {
        case 'h': fputs(help, stdout); return CLI_OK;
        case 'f':
            if (cli_opt_uint("disasm", "--face", optarg, 0, 0xFFFF, &face))
                return CLI_BAD_INPUT;
            break;
        case 't':
            table = optarg;
            if (strcmp(table, "fpgm") && strcmp(table, "prep") && strcmp(table, "glyf"))
                return cli_bad_value("disasm", "--table", table, "expected fpgm, prep or glyf");
            break;
        case 'g':
            glyph_s = optarg;
            break;
        case 'G': graphite = 1; break;
        default: return CLI_BAD_INPUT;
        }
    }
    if (optind + 1 < argc)
        return cli_usage_error("disasm", "one font at a time");
    const char *path = optind < argc ? argv[optind] : NULL;
    if (!path)
        return cli_usage_error("disasm", "missing FONT");
    if (glyph_s && table && strcmp(table, "glyf") != 0)
        return cli_usage_error("disasm", "--glyph goes with --table glyf");
    fv_font *font;
    int rc = cli_open_font(path, face, &font);
    if (rc)
        return rc;
    const sfnt_font *s = fv_font_sfnt(font);
    fv_error err;
    if (graphite) {
        if (grv_disasm(font, stdout, &err) != FV_OK)
            rc = cli_fail("disasm", &err);
    } else if (glyph_s && cli_glyph_one("disasm", "--glyph", glyph_s, font, &glyph) != CLI_OK) {
        rc = CLI_BAD_INPUT;
    } else if ((table && strcmp(table, "glyf") == 0) || glyph != FV_NO_VALUE) {
        rc = disasm_glyphs(font, glyph);
    } else {
        if (!table || strcmp(table, "fpgm") == 0)
            if (disasm_program("fpgm", FV_PROG_FPGM, FV_NO_VALUE, s->fpgm, &err) != FV_OK)
                rc = cli_fail("disasm", &err);
        if (rc == CLI_OK && (!table || strcmp(table, "prep") == 0))
            if (disasm_program("prep", FV_PROG_PREP, FV_NO_VALUE, s->prep, &err) != FV_OK)
                rc = cli_fail("disasm", &err);
    }
    fv_font_close(font);
    return rc;
}
