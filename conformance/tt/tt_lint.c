/* Hinting diagnostics classes (tt_lint.h). */
#include <inttypes.h>
#include <stdio.h>

#include "tt_lint.h"

static const char *const names[] = {
#define TTL_NAME(id, name, what) name,
    TTL_CLASSES(TTL_NAME)
#undef TTL_NAME
};
static const char *const whats[] = {
#define TTL_WHAT(id, name, what) what,
    TTL_CLASSES(TTL_WHAT)
#undef TTL_WHAT
};

const char *ttl_name(int k) { return k >= 0 && k < TTL_COUNT ? names[k] : "?"; }
const char *ttl_what(int k) { return k >= 0 && k < TTL_COUNT ? whats[k] : "?"; }

static int class_of_ignored(fv_status kind)
{
    switch (kind) {
    case FV_E_TT_INVALID_CVT: return TTL_CVT;
    case FV_E_TT_INVALID_STORAGE: return TTL_STORAGE;
    case FV_E_TT_INVALID_POINT: return TTL_POINT;
    case FV_E_TT_INVALID_ZONE: return TTL_ZONE;
    case FV_E_TT_INVALID_REFERENCE: return TTL_REFERENCE;
    case FV_E_TT_BAD_ARGUMENT: return TTL_ARGUMENT;
    case FV_E_TT_STACK_UNDERFLOW: return TTL_UNDERFLOW;
    default: return TTL_IGNORED_OTHER;
    }
}

static int class_of_stopped(fv_status kind)
{
    switch (kind) {
    case FV_E_TT_DIVIDE_BY_ZERO: return TTL_DIVIDE;
    case FV_E_TT_INVALID_FUNCTION: return TTL_FUNCTION;
    case FV_E_TT_INVALID_OPCODE: return TTL_OPCODE;
    case FV_E_TT_EXEC_BUDGET: return TTL_FT_LIMIT;
    default: return TTL_STOPPED_OTHER;
    }
}

void ttl_note(ttl_state *s, int k, const fv_error *where)
{
    ttl_class *c = &s->cls[k];
    c->count++;
    if (s->load != 0 && c->last_load != s->load) {
        c->last_load = s->load;
        c->glyphs++;
    }
    if (!c->have_first) {
        c->have_first = 1;
        c->first = *where;
    }
}

void ttl_on_diag(void *user, fv_tt_diag_kind what, const fv_error *where)
{
    int k = what == FV_TT_DIAG_AFTER_IUP        ? TTL_AFTER_IUP
            : what == FV_TT_DIAG_TWILIGHT_UNSET ? TTL_TWILIGHT
            : what == FV_TT_DIAG_IGNORED        ? class_of_ignored(where->kind)
                                                : class_of_stopped(where->kind);
    ttl_note(user, k, where);
}

int ttl_class_of_load_error(const fv_error *err)
{
    if (err->program == FV_PROG_FPGM || err->program == FV_PROG_PREP)
        return TTL_PREP;
    return fv_status_is_budget(err->kind) ? TTL_HARDENING : TTL_LOAD;
}

void ttl_location_text(int k, const fv_error *e, char *buf, size_t size)
{
    if (k == TTL_AFTER_IUP || k == TTL_TWILIGHT) {
        char glyph[32] = "";
        if (e->glyph != FV_NO_VALUE)
            snprintf(glyph, sizeof glyph, "[%" PRIu32 "]", e->glyph);
        int n = snprintf(buf, size, "%s%s@%" PRIu32 ":%.24s: %s %" PRId64 "%s",
                         fv_program_name(e->program), glyph, e->pc, e->opname,
                         k == TTL_TWILIGHT ? "twilight point" : "point", e->index,
                         k == TTL_TWILIGHT ? " read before set" : " not moved after IUP");
        if (n < 0 && size > 0)
            buf[0] = '\0';
        return;
    }
    if (fv_error_format(e, buf, size) <= 0 && size > 0)
        snprintf(buf, size, "%s", fv_status_name(e->kind));
}
