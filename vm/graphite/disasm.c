/* Graphite disassembler: walks the verified code with the opcode table. */
#include <stdio.h>
#include <string.h>

#include "graphite/disasm.h"
#include "graphite/face.h"
#include "graphite/segment.h"
#include "sfnt/font.h"

/* Slot attribute names as the Graphite documentation writes them
 * (graphite2's gr_attrCode without its prefix); NULL where it names none
 * (the justification levels 2 and 3). */
static const char *slot_attr_name(uint32_t a)
{
    static const char *const names[GRV_SLAT_MAX] = {
        [GRV_SLAT_ADVX] = "advX", [GRV_SLAT_ADVY] = "advY", [GRV_SLAT_ATTTO] = "attTo",
        [GRV_SLAT_ATTX] = "attX", [GRV_SLAT_ATTY] = "attY", [GRV_SLAT_ATTGPT] = "attGpt",
        [GRV_SLAT_ATTXOFF] = "attXOff", [GRV_SLAT_ATTYOFF] = "attYOff",
        [GRV_SLAT_ATTWITHX] = "attWithX", [GRV_SLAT_ATTWITHY] = "attWithY",
        [GRV_SLAT_WITHGPT] = "withGpt", [GRV_SLAT_ATTWITHXOFF] = "attWithXOff",
        [GRV_SLAT_ATTWITHYOFF] = "attWithYOff", [GRV_SLAT_ATTLEVEL] = "attLevel",
        [GRV_SLAT_BREAK] = "breakweight", [GRV_SLAT_COMPREF] = "compRef", [GRV_SLAT_DIR] = "dir",
        [GRV_SLAT_INSERT] = "insert", [GRV_SLAT_POSX] = "posX", [GRV_SLAT_POSY] = "posY",
        [GRV_SLAT_SHIFTX] = "shiftX", [GRV_SLAT_SHIFTY] = "shiftY",
        [GRV_SLAT_USERDEFNV1] = "userDefnV1", [GRV_SLAT_MEASURESOL] = "measureSol",
        [GRV_SLAT_MEASUREEOL] = "measureEol", [GRV_SLAT_JSTRETCH] = "jStretch",
        [GRV_SLAT_JSHRINK] = "jShrink", [GRV_SLAT_JSTEP] = "jStep", [GRV_SLAT_JWEIGHT] = "jWeight",
        [GRV_SLAT_JWIDTH] = "jWidth", [GRV_SLAT_SEGSPLIT] = "segSplit",
        [GRV_SLAT_USERDEFN] = "userDefn", [GRV_SLAT_BIDILEVEL] = "bidiLevel",
        [GRV_SLAT_COLFLAGS] = "colFlags", [GRV_SLAT_COLFLAGS + 1] = "colLimitblx",
        [GRV_SLAT_COLFLAGS + 2] = "colLimitbly", [GRV_SLAT_COLFLAGS + 3] = "colLimittrx",
        [GRV_SLAT_COLFLAGS + 4] = "colLimittry", [GRV_SLAT_COLFLAGS + 5] = "colShiftx",
        [GRV_SLAT_COLFLAGS + 6] = "colShifty", [GRV_SLAT_COLFLAGS + 7] = "colMargin",
        [GRV_SLAT_COLFLAGS + 8] = "colMarginWt", [GRV_SLAT_COLFLAGS + 9] = "colExclGlyph",
        [GRV_SLAT_COLFLAGS + 10] = "colExclOffx", [GRV_SLAT_COLFLAGS + 11] = "colExclOffy",
        [GRV_SLAT_COLFLAGS + 12] = "seqClass", [GRV_SLAT_COLFLAGS + 13] = "seqProxClass",
        [GRV_SLAT_COLFLAGS + 14] = "seqOrder", [GRV_SLAT_COLFLAGS + 15] = "seqAboveXoff",
        [GRV_SLAT_COLFLAGS + 16] = "seqAboveWt", [GRV_SLAT_COLFLAGS + 17] = "seqBelowXlim",
        [GRV_SLAT_COLFLAGS + 18] = "seqBelowWt", [GRV_SLAT_COLFLAGS + 19] = "seqValignHt",
        [GRV_SLAT_COLFLAGS + 20] = "seqValignWt"};
    return a < GRV_SLAT_MAX ? names[a] : NULL;
}

/* Glyph metric names (the GDL's glyph metrics). */
static const char *metric_name(uint32_t m)
{
    static const char *const names[GRV_MET_COUNT] = {
        [GRV_MET_LSB] = "lsb", [GRV_MET_RSB] = "rsb", [GRV_MET_BBTOP] = "bbTop",
        [GRV_MET_BBBOTTOM] = "bbBottom", [GRV_MET_BBLEFT] = "bbLeft",
        [GRV_MET_BBRIGHT] = "bbRight", [GRV_MET_BBHEIGHT] = "bbHeight",
        [GRV_MET_BBWIDTH] = "bbWidth", [GRV_MET_ADVWIDTH] = "advWidth",
        [GRV_MET_ADVHEIGHT] = "advHeight", [GRV_MET_ASCENT] = "ascent",
        [GRV_MET_DESCENT] = "descent"};
    return m < GRV_MET_COUNT ? names[m] : NULL;
}

/* The command's name as the "Stack Machine Commands" table writes it
 * (AttrSet, PushSlotAttr): the opcode list's name in CamelCase, with the
 * table's own spelling of the words below. */
static void command_name(int op, char *buf, size_t size)
{
    static const struct { const char *word, *as; } words[] = {
        {"IATTR", "IAttr"}, {"ISLOT", "ISlot"}, {"IGLYPH", "IGlyph"}, {"CNTXT", "Context"},
        {"GATTR", "GlyphAttr"}, {"BITOR", "BitOr"}, {"BITAND", "BitAnd"}, {"BITNOT", "BitNot"},
        {"SETBITS", "SetBits"}, {"8BIT", "8bit"}};
    if (op == GRV_OP_NOT_EQ) {
        snprintf(buf, size, "NotEqu");
        return;
    }
    const char *name = grv_ops[op].name;
    size_t used = 0;
    buf[0] = '\0';
    while (*name && used < size) {
        size_t len = strcspn(name, "_");
        char word[16];
        snprintf(word, sizeof word, "%.*s", (int)len, name);
        const char *as = NULL;
        for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
            if (strcmp(words[w].word, word) == 0)
                as = words[w].as;
        if (!as) {
            for (size_t i = 1; word[i]; i++)
                if (word[i] >= 'A' && word[i] <= 'Z')
                    word[i] = (char)(word[i] - 'A' + 'a');
            as = word;
        }
        used += (size_t)snprintf(buf + used, size - used, "%s", as);
        name += len;
        if (*name == '_')
            name++;
    }
}

size_t grv_format_insn(fv_span s, size_t pc, char *buf, size_t size)
{
    if (pc >= s.len || size == 0)
        return 0;
    int op = s.data[pc];
    if (op >= GRV_OP_COUNT) {
        snprintf(buf, size, ".byte 0x%02x", op);
        return 1;
    }
    const grv_opinfo *oi = &grv_ops[op];
    size_t n = (size_t)grv_arg_bytes(s, (uint32_t)pc);
    if (pc + 1 + n > s.len)
        n = s.len - pc - 1;
    char name[40];
    command_name(op, name, sizeof name);
    size_t used = (size_t)snprintf(buf, size, "%s", name);
    const uint8_t *p = s.data + pc + 1;
    size_t k = 0;
    /* each argument as opcodes.def lays it out; slot attributes and
     * metrics by name */
    for (uint32_t i = 0; i < GRV_LAYOUT_ARGS && used < size; i++) {
        grv_arg kind = GRV_LAYOUT_KIND(oi->layout, i);
        const char *sep = i == 0 ? " " : ", ";
        if (kind == GRV_ARG_NONE || k >= n)
            break;
        if (kind == GRV_ARG_Slots) {
            unsigned cnt = p[k++];
            used += (size_t)snprintf(buf + used, size - used, "%s%u:", sep, cnt);
            for (unsigned j = 0; j < cnt && k < n && used < size; j++)
                used += (size_t)snprintf(buf + used, size - used, " %d", (int)(int8_t)p[k++]);
            continue;
        }
        size_t w = grv_arg_kinds[kind].bytes;
        if (k + w > n)
            break;
        long v = grv_arg_value(kind, p + k);
        const char *label = kind == GRV_ARG_Slat || kind == GRV_ARG_SlatI ? slot_attr_name((uint32_t)v)
                            : kind == GRV_ARG_Metric                      ? metric_name((uint32_t)v)
                                                                          : NULL;
        if (label)
            used += (size_t)snprintf(buf + used, size - used, " %s", label);
        else
            used += (size_t)snprintf(buf + used, size - used, "%s%ld", sep, v);
        k += w;
    }
    return 1 + n;
}

static void print_code(FILE *out, const char *label, grv_code code)
{
    fv_span s = code.code;
    if (!s.len)
        return;
    fprintf(out, "    %s @0x%x (%zu bytes)\n", label, code.offset, s.len);
    for (size_t pc = 0; pc < s.len;) {
        char text[256];
        size_t len = grv_format_insn(s, pc, text, sizeof text);
        fprintf(out, "      %4zu: %s\n", pc, text);
        pc += len ? len : 1;
    }
}

fv_status grv_disasm(const fv_font *font, FILE *out, fv_error *err)
{
    fv_gr_face *face = NULL;
    fv_error verr;
    fv_status st = grv_face_new((fv_font *)font, &face, 0, err);
    if (st != FV_OK)
        return st;
    fv_status vst = grv_silf_verify(face, &verr);
    const grv_silf *s = &face->silf;
    fprintf(out, "Silf %u.%u: %u passes (substitution from %u, positioning from %u, "
                 "justification from %u, bidi %d), direction %u, flags 0x%02x\n",
            s->version >> 16, s->version & 0xffff, s->num_passes, s->i_subst, s->i_pos,
            s->i_just, s->i_bidi == 0xff ? -1 : s->i_bidi, s->direction, s->flags);
    fprintf(out, "attributes: pseudo %u, breakweight %u, directionality %u, mirror %u, "
                 "skip-passes %u; %u user attributes, %u classes (%u linear), %u glyph attrs\n",
            s->attr_pseudo, s->attr_break, s->attr_dir, s->attr_mirror, s->attr_skip_passes,
            s->num_user, s->num_classes, s->num_linear, face->num_attrs);
    for (uint32_t i = 0; i < s->num_passes; i++) {
        const grv_pass *p = &s->passes[i];
        fprintf(out, "\npass %u (%s): flags 0x%02x, max rule loop %u, %u rules, FSM %u rows "
                     "(%u transitional, %u success) x %u columns, pre-context %u..%u\n",
                i, i < s->i_pos ? "substitution" : (i < s->i_just ? "positioning" : "justification"),
                p->flags, p->max_rule_loop, p->num_rules, p->num_rows, p->num_transitional,
                p->num_success, p->num_columns, p->min_pre, p->max_pre);
        print_code(out, "pass constraint", p->pass_constraint);
        for (uint32_t r = 0; r < p->num_rules; r++) {
            fprintf(out, "  rule %u: sort %u, pre-context %u\n", r, p->rules[r].sort,
                    p->rules[r].pre_context);
            print_code(out, "constraint", p->rules[r].constraint);
            print_code(out, "action", p->rules[r].action);
        }
    }
    if (vst != FV_OK) {
        char buf[200];
        fv_error_format(&verr, buf, sizeof buf);
        fprintf(out, "\nverifier: %s\n", buf);
    }
    fv_gr_face_free(face);
    return FV_OK;
}
