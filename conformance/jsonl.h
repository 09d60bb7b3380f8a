/* The runners' output: one JSON record per line on stdout
 * (conformance/RECORDS.md).  Header-only, shared by fvconform-tt,
 * fvconform-gr and fvconform-gr-load. */
#ifndef FVCONFORM_JSONL_H
#define FVCONFORM_JSONL_H

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

#endif
