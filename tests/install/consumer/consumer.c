/* A program outside the project using the installed fontvm. */
#include <stdio.h>

#include <fontvm/fontvm.h>

int main(int argc, char **argv)
{
    fv_font *font;
    fv_error err;
    if (argc < 2 || fv_font_open_file(argv[1], 0, NULL, &font, &err) != FV_OK)
        return 2;
    printf("%s %u\n", fv_font_family(font), fv_font_glyph_count(font));
    fv_font_close(font);
    return 0;
}
