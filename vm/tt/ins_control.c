/* Control flow: IF 0x58, ELSE 0x1B, EIF 0x59, JMPR 0x1C, JROT 0x78,
 * JROF 0x79, FDEF 0x2C, ENDF 0x2D, CALL 0x2B, LOOPCALL 0x2A, IDEF 0x89 and
 * calls of IDEF-defined opcodes.  Spec: "Managing the flow of control",
 * "Defining and using functions and instructions". */
#include <inttypes.h>
#include <stdio.h>

#include "common/compat.h"
#include "tt/defs.h"
#include "tt/ins.h"

fv_status tt_goto_range(tt_ctx *c, int range, uint32_t ip)
{
    if (range < 1 || range > 3)
        return tt_fail(c, FV_E_TT_BAD_ARGUMENT, range);
    if (!c->have_range[range])
        return tt_fail(c, FV_E_TT_INVALID_REFERENCE, range);
    /* A CALL as a program's last instruction returns just past the end. */
    FV_TESTCASE(ip == c->ranges[range].len);
    if (ip > c->ranges[range].len)
        return tt_fail(c, FV_E_TT_CODE_OVERFLOW, ip);
    c->code = c->ranges[range];
    c->ip = ip;
    c->cur_range = range;
    return FV_OK;
}

fv_status tt_skip_code(tt_ctx *c)
{
    /* c->opcode stays the running instruction's (tt_fail reports it). */
    c->ip += c->length;
    if (c->ip >= 0 && (uint64_t)c->ip < c->code.len) {
        uint32_t length = tt_insn_length(c->code.data, c->code.len, (uint64_t)c->ip);
        if (length != 0) {
            c->length = length;
            return FV_OK;
        }
    }
    return tt_fail(c, FV_E_TT_CODE_OVERFLOW, c->ip);
}

/* What skip_if must notice about an opcode byte: nothing for most (a
 * one-byte instruction), the nesting for IF/ELSE/EIF, and that inline data
 * follows for the pushes.  One table lookup per skipped instruction keeps
 * the common case to one load and one branch (IF bodies are skipped on
 * every glyph; measured with callgrind, see the commit). */
enum { SKIP_PLAIN = 0, SKIP_DATA, SKIP_IF, SKIP_ELSE, SKIP_EIF };
#define SKIP_KIND_NONE 0
#define SKIP_KIND_NPUSHB SKIP_DATA
#define SKIP_KIND_NPUSHW SKIP_DATA
#define SKIP_KIND_PUSHB SKIP_DATA
#define SKIP_KIND_PUSHW SKIP_DATA
#define SKIP_KIND_AT(f, inl)                                                       \
    [(f)] = (f) == TT_OP_IF     ? SKIP_IF                                           \
            : (f) == TT_OP_ELSE ? SKIP_ELSE                                         \
            : (f) == TT_OP_EIF  ? SKIP_EIF                                          \
                                : SKIP_KIND_##inl,
static const uint8_t skip_kind[256] = {
#define X(m, first, bits, pops, pushes, inl, fam) TT_EACH_##bits(first, SKIP_KIND_AT, inl)
#include "tt/opcodes.def"
#undef X
};

/* Skips to the matching ELSE (unless from_else) or EIF, as tt_skip_code
 * would one instruction at a time, in a local loop: fonts skip long IF
 * bodies on every glyph.  Every instruction passed over is bounds-checked
 * as the interpreter loop would (tt_insn_length for those with inline
 * data; a one-byte one only needs ip < len).  Each byte skipped is a step
 * of the budget (FreeType counts none: a function skipping 100 KB under
 * LOOPCALL took it 37 s per size); the walk stops where the budget does. */
static fv_status skip_if(tt_ctx *c, int from_else)
{
    const uint8_t *code = c->code.data;
    const size_t len = c->code.len;
    const uint64_t from = (uint64_t)c->ip; /* the IF or ELSE: 0 <= ip < len */
    uint64_t ip = from;
    /* Bytes after `from` the budget pays for: the walk may not pass
     * from + affordable. */
    uint64_t affordable = c->budget.left > 0 ? (uint64_t)c->budget.left : 0;
    uint64_t stop = affordable < len - from ? from + affordable + 1 : len;
    uint32_t length = c->length;
    int nifs = 1;
    for (;;) {
        ip += length;
        if (FV_UNLIKELY(ip >= stop))
            break;
        uint8_t kind = skip_kind[code[ip]];
        length = 1;
        if (FV_LIKELY(kind == SKIP_PLAIN))
            continue;
        if (kind == SKIP_DATA) {
            length = tt_insn_length(code, len, ip);
            if (FV_UNLIKELY(length == 0))
                break;
        } else if (kind == SKIP_IF)
            nifs++;
        else if (kind == SKIP_ELSE) {
            if (!from_else && nifs == 1)
                goto found;
        } else if (--nifs == 0)
            goto found;
    }
    if (stop < len) {
        (void)fv_budget_spend(&c->budget, stop - from);
        return tt_budget_fail(c, FV_E_BUDGET_SKIPPED);
    }
    c->ip = (int64_t)ip;
    return tt_fail(c, FV_E_TT_CODE_OVERFLOW, c->ip);
found:
    /* Steps for the bytes between the IF or ELSE and the ELSE or EIF
     * found; stop keeps them within the budget. */
    (void)fv_budget_spend(&c->budget, ip - from - 1);
    /* The loop steps over the ELSE or EIF (one byte). */
    c->ip = (int64_t)ip;
    c->length = 1;
    return FV_OK;
}

/* The jump of JMPR, JROT and JROF: offset bytes from the jump instruction.
 * FreeType's rules: an offset of 0 with nothing left on the stack is a bad
 * argument (the jump would repeat forever); the target may not be before
 * the program's start nor past the running function's ENDF; backward jumps
 * are counted against the run's budget of them (neg_jump_max). */
static fv_status jump(tt_ctx *c, int64_t offset)
{
    if (offset == 0 && c->args == 0)
        return tt_fail(c, FV_E_TT_BAD_ARGUMENT, offset);
    c->ip = tt_add(c->ip, offset);
    FV_TESTCASE(c->ip == 0); /* to the program's first byte */
    FV_TESTCASE(c->call_top > 0 && c->ip == (int64_t)c->calls[c->call_top - 1].def->end);
    if (c->ip < 0 ||
        (c->call_top > 0 && c->ip > (int64_t)c->calls[c->call_top - 1].def->end))
        return tt_fail(c, FV_E_TT_BAD_ARGUMENT, offset);
    c->length = 0; /* the loop must not step past the target */
    if (offset < 0 && ++c->neg_jump_counter > c->neg_jump_max)
        return tt_fail(c, FV_E_TT_EXEC_BUDGET, offset);
    return FV_OK;
}

/* Skips a definition body up to its ENDF; nested FDEF/IDEF are refused.
 * The body may not be longer than FV_BUDGET_TT_DEFINITION_BYTES (FreeType
 * has no limit), and its bytes are steps of the run's budget. */
static fv_status skip_definition(tt_ctx *c, tt_def *def)
{
    for (;;) {
        fv_status st = tt_skip_code(c);
        if (st != FV_OK)
            return st;
        uint64_t body = (uint64_t)c->ip - def->start; /* bytes before this instruction */
        if (FV_UNLIKELY(body > FV_BUDGET_TT_DEFINITION_BYTES)) {
            tt_fail(c, FV_E_BUDGET_DEFINITION, (int64_t)body);
            if (c->err)
                snprintf(c->err->detail, sizeof c->err->detail, "definition at %" PRIu32
                         " longer than %d bytes", def->start - 1, FV_BUDGET_TT_DEFINITION_BYTES);
            return FV_E_BUDGET_DEFINITION;
        }
        uint8_t op = c->code.data[c->ip]; /* tt_skip_code: ip < len */
        if (op == TT_OP_IDEF || op == TT_OP_FDEF)
            return tt_fail(c, FV_E_TT_NESTING, op);
        if (op == TT_OP_ENDF) {
            def->end = (uint32_t)c->ip;
            if (!fv_budget_spend(&c->budget, body))
                return tt_budget_fail(c, FV_E_BUDGET_SKIPPED);
            return FV_OK;
        }
    }
}

/* FDEF 0x2C: function definition.  Pops a function number; pushes
 * nothing.  Spec: "Defining and using functions and instructions" / FDEF.
 * Records the instructions up to the matching ENDF as that function (a
 * number defined before is redefined) and goes on after the ENDF.
 * FreeType: refused in a glyph program; the definition table holds
 * tt_defs_function_capacity entries (maxp's count, at least 64), and a
 * number outside 0-0xFFFF fails after a new entry has been counted; an
 * FDEF or IDEF inside the body is a nesting error.  fontvm also caps the body's
 * length and spends a step per byte skipped (skip_definition). */
TT_HANDLER(FDEF)
{
    tt_defs *d = c->defs;
    if (c->ini_range == TT_RANGE_GLYPH)
        return tt_fail(c, FV_E_TT_DEF_IN_GLYPH, args[0]);
    uint64_t n = (uint64_t)args[0];
    uint32_t i = 0;
    while (i < d->num_fdefs && d->fdefs[i].opc != n)
        i++;
    if (i == d->num_fdefs) {
        if (d->num_fdefs >= d->max_fdefs)
            return tt_fail(c, FV_E_TT_TOO_MANY_DEFS, args[0]);
        d->num_fdefs++;
    }
    if (n > 0xFFFF)
        return tt_fail(c, FV_E_TT_TOO_MANY_DEFS, args[0]);
    tt_def *def = &d->fdefs[i];
    def->range = c->cur_range;
    def->opc = (uint32_t)n;
    def->start = (uint32_t)c->ip + 1;
    def->end = def->start;
    def->active = 1;
    if (n > d->max_func)
        d->max_func = (uint32_t)n;
    tt_defs_index_function(d, (uint32_t)n, i);
    return skip_definition(c, def);
}

/* IDEF 0x89: instruction definition.  Pops an opcode; pushes nothing.
 * Spec: "Defining and using functions and instructions" / IDEF.  Records
 * the instructions up to the matching ENDF as the body of that opcode;
 * running an undefined opcode then calls it (tt_ins_unknown).
 * FreeType: as FDEF (glyph programs refused, maxp's maxInstructionDefs
 * entries, nested definitions refused); an opcode outside 0-0xFF fails
 * after a new entry has been counted. */
TT_HANDLER(IDEF)
{
    tt_defs *d = c->defs;
    if (c->ini_range == TT_RANGE_GLYPH)
        return tt_fail(c, FV_E_TT_DEF_IN_GLYPH, args[0]);
    uint32_t i = 0;
    while (i < d->num_idefs && (int64_t)d->idefs[i].opc != args[0])
        i++;
    if (i == d->num_idefs) {
        if (d->num_idefs >= d->max_idefs)
            return tt_fail(c, FV_E_TT_TOO_MANY_DEFS, args[0]);
        d->num_idefs++;
    }
    if (args[0] < 0 || args[0] > 0xFF)
        return tt_fail(c, FV_E_TT_TOO_MANY_DEFS, args[0]);
    tt_def *def = &d->idefs[i];
    def->opc = (uint32_t)args[0];
    def->start = (uint32_t)c->ip + 1;
    def->end = def->start;
    def->range = c->cur_range;
    def->active = 1;
    if ((uint32_t)args[0] > d->max_ins)
        d->max_ins = (uint32_t)args[0];
    return skip_definition(c, def);
}

/* Calls def, count times (LOOPCALL's count; 1 for CALL and IDEF-defined
 * opcodes): a frame records the return address and the count, and ENDF
 * runs the body again while the count lasts.  At most TT_MAX_CALL_DEPTH
 * frames. */
static fv_status call(tt_ctx *c, const tt_def *def, int64_t count)
{
    FV_TESTCASE(c->call_top + 1 == TT_MAX_CALL_DEPTH); /* the deepest call allowed */
    FV_TESTCASE(c->call_top == TT_MAX_CALL_DEPTH);     /* one deeper */
    if (c->call_top >= TT_MAX_CALL_DEPTH)
        return tt_fail(c, FV_E_TT_NESTING, c->call_top);
    tt_frame *f = &c->calls[c->call_top];
    f->caller_range = c->cur_range;
    f->caller_ip = (uint32_t)c->ip + 1;
    f->count = count;
    f->def = def;
    c->call_top++;
    fv_status st = tt_goto_range(c, def->range, def->start);
    c->length = 0; /* execution continues at def->start itself */
    return st;
}

/* ENDF 0x2D: end function definition.  Pops nothing; pushes nothing.
 * Spec: "Defining and using functions and instructions" / ENDF.  Met while
 * running a function (FDEF skips over its own), it ends one pass of the
 * call: the body runs again while a LOOPCALL's count lasts, else execution
 * returns after the CALL, LOOPCALL or IDEF-defined opcode.
 * FreeType: an ENDF outside any call is an error. */
TT_HANDLER(ENDF)
{
    (void)args;
    if (c->call_top == 0)
        return tt_fail(c, FV_E_TT_ENDF_IN_STREAM, INT64_MIN);
    c->call_top--;
    tt_frame *f = &c->calls[c->call_top];
    f->count--;
    c->length = 0; /* execution continues at the new ip itself */
    if (f->count > 0) {
        c->call_top++;
        c->ip = f->def->start;
        return FV_OK;
    }
    /* The return address may be just past the end: not checked here. */
    (void)tt_goto_range(c, f->caller_range, f->caller_ip);
    return FV_OK;
}

fv_status tt_ins_unknown(tt_ctx *c)
{
    const tt_def *def = tt_defs_instruction(c->defs, c->opcode);
    if (def == NULL)
        return tt_fail(c, FV_E_TT_INVALID_OPCODE, c->opcode);
    return call(c, def, 1);
}

/* IF 0x58: if test.  Pops a value; pushes nothing.  Spec: "Managing the
 * flow of control" / IF.  A non-zero value runs the instructions that
 * follow; zero skips to after the matching ELSE, or to the matching EIF.
 * fontvm spends a step per byte skipped (FreeType counts none; skip_if). */
TT_HANDLER(IF) { return args[0] != 0 ? FV_OK : skip_if(c, 0); }

/* ELSE 0x1B: else clause.  Pops nothing; pushes nothing.  Spec: "Managing
 * the flow of control" / ELSE.  Reached at the end of an IF's true branch:
 * skips to the matching EIF (skip_if). */
TT_HANDLER(ELSE) { (void)args; return skip_if(c, 1); }

/* EIF 0x59: end if.  Pops nothing; pushes nothing.  Spec: "Managing the
 * flow of control" / EIF.  Marks the end of an IF; does nothing. */
TT_HANDLER(EIF) { (void)c; (void)args; return FV_OK; }

/* JMPR 0x1C: jump relative.  Pops an offset; pushes nothing.  Spec:
 * "Managing the flow of control" / JMPR.  Moves the instruction pointer by
 * the offset, in bytes from the JMPR itself (jump: FreeType's rules). */
TT_HANDLER(JMPR) { return jump(c, args[0]); }

/* JROT 0x78, JROF 0x79: jump relative on true / on false.  Pop a value,
 * then an offset; push nothing.  Spec: "Managing the flow of control" /
 * JROT, JROF.  Jump as JMPR when the value is non-zero (JROT) or zero
 * (JROF), else go on. */
TT_HANDLER(JROT) { return args[1] != 0 ? jump(c, args[0]) : FV_OK; }
TT_HANDLER(JROF) { return args[1] == 0 ? jump(c, args[0]) : FV_OK; }

/* CALL 0x2B: call function.  Pops a function number; pushes nothing.
 * Spec: "Defining and using functions and instructions" / CALL.  Runs the
 * function's body once, then goes on after the CALL.
 * FreeType: a number with no definition is an invalid function. */
TT_HANDLER(CALL)
{
    const tt_def *def = tt_defs_function(c->defs, (uint64_t)args[0]);
    if (def == NULL)
        return tt_fail(c, FV_E_TT_INVALID_FUNCTION, args[0]);
    return call(c, def, 1);
}

/* LOOPCALL 0x2A: loop and call function.  Pops a function number, then a
 * count; pushes nothing.  Spec: "Defining and using functions and
 * instructions" / LOOPCALL.  Runs the function's body count times (none
 * when the count is not positive).
 * FreeType: the function and the call depth are checked even for a count
 * of 0; the count is truncated to 32 bits; the counts of a run's LOOPCALLs
 * add up against a budget (loopcall_max). */
TT_HANDLER(LOOPCALL)
{
    const tt_def *def = tt_defs_function(c->defs, (uint64_t)args[1]);
    if (def == NULL)
        return tt_fail(c, FV_E_TT_INVALID_FUNCTION, args[1]);
    if (c->call_top >= TT_MAX_CALL_DEPTH)
        return tt_fail(c, FV_E_TT_NESTING, c->call_top);
    if (args[0] > 0) {
        /* COMPAT(freetype): the count is truncated to int. */
        int32_t count = (int32_t)(uint32_t)(uint64_t)args[0];
        fv_status st = call(c, def, count);
        if (st != FV_OK)
            return st;
        c->loopcall_counter += (uint64_t)args[0];
        if (c->loopcall_counter > c->loopcall_max)
            return tt_fail(c, FV_E_TT_EXEC_BUDGET, args[0]);
    }
    return FV_OK;
}
