/* The public fv_font object: a face of an sfnt file with a memory cap. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sfnt/font.h"
#include "sfnt/woff.h"

const char *fv_version(void)
{
    return FONTVM_VERSION_STRING;
}

static fv_status font_new(const fv_allocator *alloc, fv_font **out, fv_error *err)
{
    fv_mem boot;
    fv_mem_init(&boot, alloc);
    /* The font object itself is accounted in its own fv_mem: allocate it
     * through a temporary accountant, then move that accountant inside. */
    fv_font *f = fv_mem_calloc(&boot, sizeof *f);
    if (!f)
        return sfnt_fail(err, FV_E_NOMEM, 0, FV_NO_VALUE, NULL);
    f->mem = boot;
    *out = f;
    return FV_OK;
}

static void font_free(fv_font *f)
{
    fv_mem mem = f->mem;
    sfnt_var_close(&mem, f->var);
    sfnt_close(f->sfnt);
    fv_mem_free(&mem, f->owned_data);
    fv_mem_free(&mem, f);
}

/* A WOFF or WOFF2 file is unwrapped into sfnt bytes the font owns (counted
 * against its cap, replacing any file bytes it read); *file then spans them.
 * Anything else is left for the sfnt reader to judge. */
static fv_status font_unwrap_web_font(fv_font *f, fv_span *file, fv_error *err)
{
    if (!sfnt_is_woff(*file))
        return FV_OK;
    uint8_t *sfnt = NULL;
    size_t len = 0;
    fv_status st = sfnt_woff_decode(*file, &f->mem, &sfnt, &len, err);
    if (st != FV_OK)
        return st;
    fv_mem_free(&f->mem, f->owned_data);
    f->owned_data = sfnt;
    f->owned_size = len;
    file->data = sfnt;
    file->len = len;
    return FV_OK;
}

FV_API fv_status fv_font_open_memory(const uint8_t *data, size_t size, uint32_t face_index,
                                     const fv_allocator *alloc, fv_font **out, fv_error *err)
{
    fv_error_clear(err);
    if (!out || (!data && size))
        return sfnt_fail(err, FV_E_BAD_ARGUMENT, 0, FV_NO_VALUE, NULL);
    fv_font *f = NULL;
    fv_status st = font_new(alloc, &f, err);
    if (st != FV_OK)
        return st;
    fv_span file = {data, size};
    st = font_unwrap_web_font(f, &file, err);
    if (st == FV_OK)
        st = sfnt_open(file, face_index, &f->mem, &f->sfnt, err);
    if (st != FV_OK) {
        font_free(f);
        return st;
    }
    fv_font_open_variations(f);
    *out = f;
    return FV_OK;
}

/* Largest font file we read: 1 GiB (the biggest real fonts are ~30 MiB). */
#define FV_MAX_FILE_SIZE ((size_t)1 << 30)

FV_API fv_status fv_font_open_file(const char *path, uint32_t face_index, const fv_allocator *alloc,
                                   fv_font **out, fv_error *err)
{
    fv_error_clear(err);
    if (!path || !out)
        return sfnt_fail(err, FV_E_BAD_ARGUMENT, 0, FV_NO_VALUE, NULL);
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        sfnt_fail(err, FV_E_IO, 0, FV_NO_VALUE, strerror(errno));
        return FV_E_IO;
    }
    fv_font *f = NULL;
    fv_status st = font_new(alloc, &f, err);
    if (st != FV_OK) {
        fclose(fp);
        return st;
    }
    long end = -1;
    if (fseek(fp, 0, SEEK_END) == 0)
        end = ftell(fp);
    if (end < 0 || (unsigned long)end > FV_MAX_FILE_SIZE || fseek(fp, 0, SEEK_SET) != 0) {
        fclose(fp);
        font_free(f);
        return sfnt_fail(err, FV_E_IO, 0, FV_NO_VALUE, end < 0 ? "not a regular file" : "file too large");
    }
    f->owned_size = (size_t)end;
    f->owned_data = fv_mem_alloc(&f->mem, f->owned_size ? f->owned_size : 1);
    if (!f->owned_data) {
        fclose(fp);
        font_free(f);
        return sfnt_fail(err, FV_E_NOMEM, 0, FV_NO_VALUE, "file contents");
    }
    size_t got = fread(f->owned_data, 1, f->owned_size, fp);
    fclose(fp);
    if (got != f->owned_size) {
        font_free(f);
        return sfnt_fail(err, FV_E_IO, 0, FV_NO_VALUE, "short read");
    }
    fv_span file = {f->owned_data, f->owned_size};
    st = font_unwrap_web_font(f, &file, err);
    if (st == FV_OK)
        st = sfnt_open(file, face_index, &f->mem, &f->sfnt, err);
    if (st != FV_OK) {
        font_free(f);
        return st;
    }
    fv_font_open_variations(f);
    *out = f;
    return FV_OK;
}

FV_API void fv_font_close(fv_font *font)
{
    if (font)
        font_free(font);
}

FV_API fv_status fv_font_count_faces(const uint8_t *data, size_t size, uint32_t *count, fv_error *err)
{
    fv_error_clear(err);
    fv_span file = {data, data ? size : 0};
    if (sfnt_is_woff(file))
        return sfnt_woff_count_faces(file, count, err);
    return sfnt_count_faces(file, count, err);
}

FV_API void fv_font_sfnt_data(const fv_font *font, const uint8_t **data, size_t *size)
{
    *data = font->sfnt->file.data;
    *size = font->sfnt->file.len;
}

FV_API uint32_t fv_font_glyph_count(const fv_font *font)
{
    return font->sfnt->maxp.num_glyphs;
}

FV_API uint16_t fv_font_units_per_em(const fv_font *font)
{
    return font->sfnt->head.units_per_em;
}

FV_API const char *fv_font_family(const fv_font *font)
{
    return font->sfnt->family;
}

FV_API const char *fv_font_style(const fv_font *font)
{
    return font->sfnt->style;
}

FV_API size_t fv_font_peak_memory(const fv_font *font)
{
    return atomic_load(&font->mem.peak);
}

FV_API size_t fv_font_memory_in_use(const fv_font *font)
{
    return atomic_load(&font->mem.live);
}
