/* `fontvm shape --trace` / `fontvm trace FONT --text`: every pass's slot
 * stream in and out, every rule that fired with its constraint and action
 * code command by command (with its arguments, as the disassembly writes
 * them) and the stack before each, and the rules whose constraint failed. */
#include <stdlib.h>
#include <string.h>

#include "graphite/disasm.h"
#include "graphite/grv.h"
#include "shape.h"

/* Constraint commands arrive before the rule choice is known: they are
 * kept here until the rule fires (printed under it) or another rule's
 * constraint starts (that rule's constraint failed). */
#define TRACE_PENDING_MAX (1u << 20) /* bytes of one rule's constraint trace */
/* A deep stack is shown by its top values. */
#define TRACE_STACK_SHOWN 16

struct shape_trace {
    FILE *out;
    const fv_gr_face *face;
    char *pending;          /* constraint lines of the rule being tested */
    size_t len, cap;
    int32_t pending_pass, pending_rule;
    int truncated;
};

shape_trace *shape_trace_new(FILE *out, const fv_gr_face *face)
{
    shape_trace *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->out = out;
    t->face = face;
    t->pending_rule = t->pending_pass = -1;
    return t;
}

void shape_trace_free(shape_trace *t)
{
    if (!t)
        return;
    free(t->pending);
    free(t);
}

static void pending_append(shape_trace *t, const char *line, size_t n)
{
    if (t->len + n > TRACE_PENDING_MAX) {
        t->truncated = 1;
        return;
    }
    if (t->len + n > t->cap) {
        size_t ncap = t->cap ? t->cap : 1024;
        while (ncap < t->len + n)
            ncap *= 2;
        char *nb = realloc(t->pending, ncap);
        if (!nb) {
            t->truncated = 1;
            return;
        }
        t->pending = nb;
        t->cap = ncap;
    }
    memcpy(t->pending + t->len, line, n);
    t->len += n;
}

/* Drops the pending constraint lines; a rule that did not fire is named. */
static void flush_failed(shape_trace *t)
{
    if (t->pending_rule >= 0)
        fprintf(t->out, "    rule %d: constraint failed\n", (int)t->pending_rule);
    else if (t->len)
        fputs("    pass constraint:\n", t->out);
    fprintf(t->out, "%.*s", (int)t->len, t->pending ? t->pending : "");
    if (t->truncated)
        fputs("        (constraint trace truncated)\n", t->out);
    t->len = 0;
    t->truncated = 0;
    t->pending_rule = t->pending_pass = -1;
}

static void stream_line(FILE *out, const char *what, const fv_gr_trace_event *ev)
{
    fprintf(out, "  %s (%zu):", what, ev->num_slots);
    for (size_t i = 0; i < ev->num_slots; i++)
        fprintf(out, " %u", (unsigned)ev->gids[i]);
    fputc('\n', out);
}

/* The code an OP event runs in: a rule's constraint or action, or the
 * pass constraint (rule -1). */
static fv_span event_code(const fv_gr_face *face, const fv_gr_trace_event *ev)
{
    fv_span none = {NULL, 0};
    if (ev->pass < 0 || (uint32_t)ev->pass >= face->silf.num_passes)
        return none;
    const grv_pass *p = &face->silf.passes[ev->pass];
    if (ev->rule < 0)
        return ev->is_constraint ? p->pass_constraint.code : none;
    if ((uint32_t)ev->rule >= p->num_rules)
        return none;
    const grv_rule *r = &p->rules[ev->rule];
    return ev->is_constraint ? r->constraint.code : r->action.code;
}

static void op_line(shape_trace *t, const fv_gr_trace_event *ev)
{
    char line[640], insn[256];
    if (grv_format_insn(event_code(t->face, ev), ev->pc, insn, sizeof insn) == 0) {
        const char *name = fv_gr_opcode_name(ev->opcode);
        snprintf(insn, sizeof insn, "%s", name ? name : "?");
    }
    int w = snprintf(line, sizeof line, "        %4u  %-30s [", (unsigned)ev->pc, insn);
    size_t n = w > 0 ? (size_t)w : 0;
    size_t from = ev->stack_depth > TRACE_STACK_SHOWN ? ev->stack_depth - TRACE_STACK_SHOWN : 0;
    if (from && n < sizeof line)
        n += (size_t)snprintf(line + n, sizeof line - n, "...");
    for (size_t i = from; i < ev->stack_depth && n < sizeof line; i++)
        n += (size_t)snprintf(line + n, sizeof line - n, "%s%d", i > from ? " " : "",
                              (int)ev->stack[i]);
    if (n < sizeof line)
        n += (size_t)snprintf(line + n, sizeof line - n, "]\n");
    if (n >= sizeof line) {
        n = sizeof line - 1;
        line[n - 1] = '\n';
    }
    if (ev->is_constraint) {
        if (ev->pc == 0 && (t->len || t->pending_rule >= 0))
            flush_failed(t);
        t->pending_rule = ev->rule;
        t->pending_pass = ev->pass;
        pending_append(t, line, n);
    } else {
        fwrite(line, 1, n, t->out);
    }
}

void shape_trace_event(void *user, const fv_gr_trace_event *ev)
{
    shape_trace *t = user;
    switch (ev->kind) {
    case FV_GR_TRACE_PASS_BEGIN:
        fprintf(t->out, "pass %d\n", (int)ev->pass);
        stream_line(t->out, "in ", ev);
        break;
    case FV_GR_TRACE_PASS_END:
        if (t->len || t->pending_rule >= 0)
            flush_failed(t);
        stream_line(t->out, "out", ev);
        break;
    case FV_GR_TRACE_BIDI:
        fprintf(t->out, "bidi (before pass %d)\n", (int)ev->pass);
        stream_line(t->out, "out", ev);
        break;
    case FV_GR_TRACE_RULE:
        if (t->pending_rule != ev->rule || t->pending_pass != ev->pass)
            flush_failed(t);
        fprintf(t->out, "    rule %d fired at slot %d\n", (int)ev->rule, (int)ev->slot);
        if (t->len)
            fprintf(t->out, "      constraint:\n%.*s", (int)t->len, t->pending);
        if (t->truncated)
            fputs("        (constraint trace truncated)\n", t->out);
        fputs("      action:\n", t->out);
        t->len = 0;
        t->truncated = 0;
        t->pending_rule = t->pending_pass = -1;
        break;
    case FV_GR_TRACE_OP: op_line(t, ev); break;
    }
}

void shape_trace_begin(shape_trace *t, const char *line, size_t len)
{
    fprintf(t->out, "trace: %.*s\n", (int)len, line);
    t->pending_rule = t->pending_pass = -1;
}

void shape_trace_end(shape_trace *t)
{
    if (t->len || t->pending_rule >= 0)
        flush_failed(t);
}
