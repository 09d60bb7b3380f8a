/* Error kinds, names and formatting. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fontvm/error.h"

static const char *const kind_names[] = {
#define X(kind, name, desc) name,
#include "fontvm/errors/common.def"
#include "fontvm/errors/tt.def"
#include "fontvm/errors/graphite.def"
#include "fontvm/errors/woff.def"
#undef X
};

static const char *const kind_descriptions[] = {
#define X(kind, name, desc) desc,
#include "fontvm/errors/common.def"
#include "fontvm/errors/tt.def"
#include "fontvm/errors/graphite.def"
#include "fontvm/errors/woff.def"
#undef X
};

_Static_assert(sizeof kind_names / sizeof kind_names[0] == FV_E_COUNT_, "one name per kind");

FV_API void fv_error_clear(fv_error *err)
{
    if (!err)
        return;
    memset(err, 0, sizeof *err);
    err->kind = FV_OK;
    err->glyph = FV_NO_VALUE;
    err->pc = FV_NO_VALUE;
    err->opcode = -1;
    err->index = INT64_MIN;
    err->offset = FV_NO_VALUE;
}

FV_API const char *fv_status_name(fv_status kind)
{
    if ((unsigned)kind >= (unsigned)FV_E_COUNT_)
        return "unknown_error";
    return kind_names[kind];
}

FV_API const char *fv_status_description(fv_status kind)
{
    if ((unsigned)kind >= (unsigned)FV_E_COUNT_)
        return "unknown error";
    return kind_descriptions[kind];
}

FV_API int fv_status_is_budget(fv_status kind)
{
    /* By name, so that a budget kind added to any .def list is one. */
    return strncmp(fv_status_name(kind), "budget_", 7) == 0;
}

FV_API const char *fv_program_name(fv_program p)
{
    switch (p) {
    case FV_PROG_FPGM: return "fpgm";
    case FV_PROG_PREP: return "prep";
    case FV_PROG_GLYF: return "glyf";
    case FV_PROG_GR_PASS: return "pass";
    case FV_PROG_GR_PASS_CONSTRAINT: return "constraint";
    case FV_PROG_NONE: break;
    }
    return "none";
}

/* "tt_invalid_point" -> "invalid point": the short phrase of a kind. */
static void kind_phrase(fv_status kind, char *buf, size_t size)
{
    const char *name = fv_status_name(kind);
    if (strncmp(name, "tt_", 3) == 0 || strncmp(name, "gr_", 3) == 0)
        name += 3;
    size_t i = 0;
    for (; name[i] && i + 1 < size; i++)
        buf[i] = name[i] == '_' ? ' ' : name[i];
    buf[i] = '\0';
}

/* snprintf into buf at *pos, never past size; keeps the would-be length. */
static void append(char *buf, size_t size, size_t *pos, int n)
{
    if (n > 0)
        *pos += (size_t)n;
    (void)buf;
    (void)size;
}

FV_API int fv_error_format(const fv_error *err, char *buf, size_t size)
{
    size_t pos = 0;
    char phrase[64], tag[5];
#define ROOM (pos < size ? size - pos : 0)
#define AT (pos < size ? buf + pos : NULL)
    if (!err)
        return snprintf(buf, size, "no error");
    const char *prog = err->program != FV_PROG_NONE ? fv_program_name(err->program) : NULL;
    if (prog) {
        append(buf, size, &pos, snprintf(AT, ROOM, "%s", prog));
        if (err->glyph != FV_NO_VALUE)
            append(buf, size, &pos, snprintf(AT, ROOM, "[%" PRIu32 "]", err->glyph));
        if (err->pc != FV_NO_VALUE)
            append(buf, size, &pos, snprintf(AT, ROOM, "@%" PRIu32, err->pc));
        if (err->opname[0])
            append(buf, size, &pos, snprintf(AT, ROOM, ":%s", err->opname));
        else if (err->opcode >= 0)
            append(buf, size, &pos, snprintf(AT, ROOM, ":0x%02X", (unsigned)err->opcode));
        append(buf, size, &pos, snprintf(AT, ROOM, ": "));
    } else if (err->table) {
        for (int i = 0; i < 4; i++) {
            unsigned c = (err->table >> (24 - 8 * i)) & 0xFF;
            tag[i] = (char)(c >= 0x20 && c < 0x7F ? c : '?');
        }
        tag[4] = '\0';
        /* Trailing spaces in tags ("cvt ") are dropped for readability. */
        for (int i = 3; i > 0 && tag[i] == ' '; i--)
            tag[i] = '\0';
        append(buf, size, &pos, snprintf(AT, ROOM, "%s", tag));
        if (err->offset != FV_NO_VALUE)
            append(buf, size, &pos, snprintf(AT, ROOM, "@0x%" PRIX32, err->offset));
        append(buf, size, &pos, snprintf(AT, ROOM, ": "));
    }
    kind_phrase(err->kind, phrase, sizeof phrase);
    append(buf, size, &pos, snprintf(AT, ROOM, "%s", phrase));
    if (err->index != INT64_MIN)
        append(buf, size, &pos, snprintf(AT, ROOM, " %" PRId64, err->index));
    if (err->detail[0])
        append(buf, size, &pos, snprintf(AT, ROOM, " (%s)", err->detail));
    if (!prog && err->table && err->glyph != FV_NO_VALUE)
        append(buf, size, &pos, snprintf(AT, ROOM, " (glyph %" PRIu32 ")", err->glyph));
#undef ROOM
#undef AT
    if (size > 0 && pos >= size)
        buf[size - 1] = '\0';
    return pos > INT32_MAX ? INT32_MAX : (int)pos;
}
