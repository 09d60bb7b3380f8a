/* A program outside the project using the installed fontvm. */
#include <stdio.h>

#include <fontvm/fontvm.h>

int main(int argc, char **argv)
{
    fv_font *font;
    fv_error err;
    if (argc < 2 || fv_font_open_file(argv[1], 0, NULL, &font, &err) != FV_OK)
        return 2;
    printf("%s %u", fv_font_family(font), fv_font_glyph_count(font));
    fv_font_close(font);
    /* The error API is exported too: a missing file names its error. */
    char msg[128];
    if (fv_font_open_file("/nonexistent.ttf", 0, NULL, &font, &err) == FV_OK)
        return 1;
    fv_error_format(&err, msg, sizeof msg);
    printf(" %s\n", fv_status_name(err.kind));
    return 0;
}
