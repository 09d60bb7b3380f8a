set(FV_SFNT_SOURCES sfnt/sfnt.c sfnt/glyf.c sfnt/cmap.c sfnt/font.c sfnt/woff.c sfnt/woff2.c
    sfnt/fvar.c sfnt/gvar.c sfnt/hvar.c sfnt/cvar.c sfnt/font_var.c)
