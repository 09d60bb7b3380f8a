/* The runners' output: one JSON record per line on stdout
 * (conformance/RECORDS.md).  Header-only, shared by fvconform-tt,
 * fvconform-gr and fvconform-gr-load. */
#ifndef FVCONFORM_JSONL_H
#define FVCONFORM_JSONL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

/* Writes `o` as one line (jansson's json_dumps `flags`, compact always)
 * and releases it.  A record jansson cannot encode is dropped, not
 * half-written. */
static inline void fvc_emit_record(json_t *o, size_t flags)
{
    char *s = json_dumps(o, JSON_COMPACT | flags);
    if (s) {
        fputs(s, stdout);
        fputc('\n', stdout);
        free(s);
    }
    json_decref(o);
}

/* The one error record every runner writes when it cannot go on
 * ({"type":"error","message":M}, RECORDS.md), flushed at once: the sweep
 * drivers wait for each answer, and the process may exit right after. */
static inline void fvc_emit_error(const char *message)
{
    fvc_emit_record(json_pack("{s:s,s:s}", "type", "error", "message", message),
                    JSON_ENSURE_ASCII);
    fflush(stdout);
}

/* The sweep probes' input (fvconform-gr-load, fvconform-tt-load): records
 * of little-endian numbers and bytes on stdin.  1 read, 0 clean end of
 * input before the first byte, -1 truncated. */
static inline int fvc_read_exact(void *buf, size_t n)
{
    size_t got = fread(buf, 1, n, stdin);
    if (got == n)
        return 1;
    return got == 0 ? 0 : -1;
}

static inline int fvc_read_u32le(uint32_t *out)
{
    uint8_t b[4];
    int r = fvc_read_exact(b, sizeof b);
    if (r == 1)
        *out = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    return r;
}

#endif
