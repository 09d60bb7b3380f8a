/* Graphite disassembler: walks the verified code with the opcode table. */
#include <string.h>

#include "graphite/disasm.h"
#include "graphite/grv.h"
#include "sfnt/font.h"

static void print_code(FILE *out, const char *label, grv_code code)
{
    fv_span s = code.code;
    if (!s.len)
        return;
    fprintf(out, "    %s @0x%x (%zu bytes)\n", label, code.offset, s.len);
    size_t pc = 0;
    while (pc < s.len) {
        int op = s.data[pc];
        if (op >= GRV_OP_COUNT) {
            fprintf(out, "      %4zu: .byte 0x%02x\n", pc, op);
            pc++;
            continue;
        }
        const grv_opinfo *oi = &grv_ops[op];
        size_t n = oi->args < 0 ? (pc + 1 < s.len ? 1u + s.data[pc + 1] : 0u) : (size_t)oi->args;
        if (pc + 1 + n > s.len)
            n = s.len - pc - 1;
        fprintf(out, "      %4zu: %s", pc, oi->name);
        const uint8_t *p = s.data + pc + 1;
        size_t k = 0;
        int firstarg = 1;
        for (const char *f = oi->fmt; *f && k < n; f++) {
            long v;
            if (*f == '*') {
                unsigned cnt = p[k++];
                fprintf(out, "%s%u:", firstarg ? " " : ", ", cnt);
                for (unsigned j = 0; j < cnt && k < n; j++)
                    fprintf(out, " %d", (int)(int8_t)p[k++]);
                firstarg = 0;
                continue;
            }
            size_t w = (*f == 'h' || *f == 'H') ? 2 : (*f == 'l' ? 4 : 1);
            if (k + w > n)
                break;
            if (w == 1)
                v = *f == 'b' ? (long)(int8_t)p[k] : (long)p[k];
            else if (w == 2)
                v = *f == 'h' ? (long)(int16_t)(uint16_t)(p[k] << 8 | p[k + 1])
                              : (long)(p[k] << 8 | p[k + 1]);
            else
                v = (long)(int32_t)((uint32_t)p[k] << 24 | (uint32_t)p[k + 1] << 16 |
                                    (uint32_t)p[k + 2] << 8 | p[k + 3]);
            fprintf(out, "%s%ld", firstarg ? " " : ", ", v);
            firstarg = 0;
            k += w;
        }
        fputc('\n', out);
        pc += 1 + n;
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
