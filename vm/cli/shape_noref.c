/* `fontvm shape` built without the reference libraries
 * (FONTVM_BUILD_CONFORMANCE=OFF): --engine graphite2 and --bench say what
 * they need instead of running. */
#include <string.h>

#include "shape.h"

int shape_ref_open(const fv_font *font, const char *path, shape_ref **out)
{
    (void)font;
    (void)path;
    *out = NULL;
    fprintf(stderr, "fontvm shape: --engine graphite2 and --bench need fontvm built with the "
                    "reference libraries (cmake -DFONTVM_BUILD_CONFORMANCE=ON)\n");
    return CLI_BAD_INPUT;
}

void shape_ref_close(shape_ref *r)
{
    (void)r;
}

int shape_ref_shape(shape_ref *r, const grc_request *req, grc_run *out)
{
    (void)r;
    (void)req;
    memset(out, 0, sizeof *out);
    snprintf(out->error, sizeof out->error, "no reference engine in this build");
    return 0;
}

int shape_ref_bench(shape_ref *r, fv_gr_face *face, const shape_opts *o, const char *path,
                    const char *text_file, const cli_lines *lines, uint32_t repeat)
{
    (void)r, (void)face, (void)o, (void)path, (void)text_file, (void)lines, (void)repeat;
    return CLI_BAD_INPUT; /* never reached: shape_ref_open fails */
}
