/* `fontvm bench`: hinting speed of fontvm against FreeType, measured in the
 * same process and run (issue 3):
 *
 *   fontvm bench FONT... [--sizes 9,10,12,16] [--mode v35|v40|v40-mono|v40-lcd]
 *                [--repeat N]
 *
 * For each font and size, every glyph is hinted by fontvm and then by
 * FreeType (FT_LOAD_NO_AUTOHINT | FT_LOAD_NO_BITMAP | target, a fresh size
 * per configuration, exactly what the differential runner compares).  Making
 * the size (CVT scaling and prep) is inside the timed part for both; opening
 * the font and running fpgm are not.  The two engines alternate size by
 * size, each pass is timed in CPU time, and each (engine, size) keeps the
 * fastest of N passes: on a machine busy with other work, the minimum is the
 * figure least disturbed by it, and alternating exposes both engines to the
 * same conditions.  Prints glyphs/s for both engines, the ratio
 * fontvm/FreeType (> 1: fontvm is faster) and both engines' memory, from a
 * pass of its own before the timed ones (cli_mem.h): the bytes a face
 * holds once open (the file mapped for both, as FT_New_Face maps it;
 * fontvm: the font, the face with fpgm run and an execution context;
 * FreeType: FT_New_Face), and the most a size adds while it
 * is made and every glyph is hinted, over the sizes (fontvm: the size and
 * the execution context's growth; FreeType: FT_New_Size, its execution
 * context and the glyph loader's growth).  fontvm counts through its
 * fv_allocator, FreeType through an FT_Memory given to FT_New_Library:
 * both the sizes asked for. */

#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_mem.h"
#include "fontvm/tt.h"
#include "fontvm/var.h"

#ifdef FONTVM_CLI_WITH_REFERENCES
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_DRIVER_H
#include FT_MODULE_H
#include FT_SIZES_H
#include FT_MULTIPLE_MASTERS_H
#endif

#define BENCH_MAX_SIZES 64
#define BENCH_MAX_FONTS 256
/* Text sizes people read, plus a fractional and a non-square one. */
#define BENCH_DEFAULT_SIZES "9,10,11,12,13,14,15,16,18,20,24,10.5,12x16"

typedef struct bench_opts {
    int32_t x[BENCH_MAX_SIZES], y[BENCH_MAX_SIZES];
    uint32_t num_sizes;
    fv_tt_mode mode;
    uint32_t repeat;
    const char *variations;  /* --variations TAG=V,... (design units), or NULL */
    const char *named;       /* --named-instance N, or NULL */
} bench_opts;

typedef struct bench_result {
    uint64_t glyphs;   /* timed glyph loads per engine (glyphs * sizes) */
    uint64_t failed;
    double seconds;
    size_t face_bytes; /* held by an open face */
    size_t size_bytes; /* the most one size added while hinting every glyph */
} bench_result;

static int parse_sizes(const char *list, bench_opts *o)
{
    char buf[1024];
    if (strlen(list) >= sizeof buf)
        return -1;
    strcpy(buf, list);
    o->num_sizes = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (o->num_sizes >= BENCH_MAX_SIZES ||
            cli_tt_parse_size(t, &o->x[o->num_sizes], &o->y[o->num_sizes]))
            return -1;
        o->num_sizes++;
    }
    return o->num_sizes ? 0 : -1;
}

/* One timed pass of fontvm over every glyph at size s: CPU seconds, or a
 * negative value after printing why the size could not be made. */
static double pass_fontvm(const char *path, cli_tt_session *ss, const bench_opts *o, uint32_t s,
                          const fv_tt_size_request *location, uint32_t num_glyphs, uint64_t *failed)
{
    fv_error err;
    double t0 = cli_tt_now();
    fv_tt_size *size = NULL;
    fv_tt_size_request req = {.x_ppem_26d6 = o->x[s], .y_ppem_26d6 = o->y[s], .mode = o->mode,
                              .pedantic = 0, .coords = location->coords,
                              .num_coords = location->num_coords};
    if (fv_tt_size_new(ss->face, ss->exec, &req, &size, &err) != FV_OK) {
        (void)cli_fail(path, &err);
        return -1.0;
    }
    for (uint32_t gid = 0; gid < num_glyphs; gid++) {
        fv_tt_outline out;
        memset(&out, 0, sizeof out);
        if (fv_tt_hint_glyph(size, ss->exec, gid, &out, &err) != FV_OK)
            (*failed)++;
        fv_tt_outline_free(ss->face, &out);
    }
    fv_tt_size_free(size);
    return cli_tt_now() - t0;
}

#ifdef FONTVM_CLI_WITH_REFERENCES
typedef struct ft_bench {
    FT_Library lib;
    FT_Face face;
    FT_Int32 flags;
} ft_bench;

/* 0, or -1 after printing why FreeType cannot open the font or take the
 * location (the same normalized coordinates fontvm hints at). */
static int ft_open(const char *path, const bench_opts *o, const fv_tt_size_request *location,
                   ft_bench *b)
{
    memset(b, 0, sizeof *b);
    FT_UInt version = o->mode == FV_TT_V35 ? TT_INTERPRETER_VERSION_35 : TT_INTERPRETER_VERSION_40;
    b->flags = FT_LOAD_NO_AUTOHINT | FT_LOAD_NO_BITMAP;
    if (o->mode == FV_TT_V40_MONO)
        b->flags |= FT_LOAD_TARGET_MONO;
    else if (o->mode == FV_TT_V40_LCD)
        b->flags |= FT_LOAD_TARGET_LCD;
    if (FT_Init_FreeType(&b->lib) ||
        FT_Property_Set(b->lib, "truetype", "interpreter-version", &version) ||
        FT_New_Face(b->lib, path, 0, &b->face)) {
        fprintf(stderr, "fontvm bench: %s: FreeType cannot open the font\n", path);
        return -1;
    }
    if (location->num_coords) {
        FT_Fixed coords[FV_VAR_MAX_AXES];
        for (uint32_t i = 0; i < location->num_coords; i++)
            coords[i] = location->coords[i];
        if (FT_Set_Var_Blend_Coordinates(b->face, location->num_coords, coords)) {
            fprintf(stderr, "fontvm bench: %s: FreeType cannot set the location\n", path);
            return -1;
        }
    }
    return 0;
}

static void ft_close(ft_bench *b)
{
    if (b->face)
        FT_Done_Face(b->face);
    if (b->lib)
        FT_Done_FreeType(b->lib);
}

/* FreeType's FT_Memory counting into a cli_meter: each block carries its
 * size in a 16-byte header (alignment kept), not counted. */
#define FT_METER_HEADER 16

static void *ft_meter_alloc(FT_Memory memory, long size)
{
    unsigned char *p = malloc((size_t)size + FT_METER_HEADER);
    if (!p)
        return NULL;
    memcpy(p, &size, sizeof size);
    cli_meter_add(memory->user, (size_t)size);
    return p + FT_METER_HEADER;
}

static void ft_meter_free(FT_Memory memory, void *block)
{
    if (!block)
        return;
    unsigned char *p = (unsigned char *)block - FT_METER_HEADER;
    long size;
    memcpy(&size, p, sizeof size);
    cli_meter_sub(memory->user, (size_t)size);
    free(p);
}

static void *ft_meter_realloc(FT_Memory memory, long cur_size, long new_size, void *block)
{
    (void)cur_size;
    void *q = ft_meter_alloc(memory, new_size);
    if (!q)
        return NULL;
    if (block) {
        long old;
        memcpy(&old, (unsigned char *)block - FT_METER_HEADER, sizeof old);
        memcpy(q, block, (size_t)(old < new_size ? old : new_size));
        ft_meter_free(memory, block);
    }
    return q;
}

/* FreeType's face and size memory (see the top of the file), or 0s when
 * FreeType cannot take the font (the timed passes say why). */
static void ft_memory(const char *path, const bench_opts *o, const fv_tt_size_request *location,
                      size_t *face_bytes, size_t *size_bytes)
{
    cli_meter m = {0, 0};
    struct FT_MemoryRec_ mem = {&m, ft_meter_alloc, ft_meter_free, ft_meter_realloc};
    FT_Library lib = NULL;
    FT_Face face = NULL;
    FT_UInt version = o->mode == FV_TT_V35 ? TT_INTERPRETER_VERSION_35 : TT_INTERPRETER_VERSION_40;
    FT_Int32 flags = FT_LOAD_NO_AUTOHINT | FT_LOAD_NO_BITMAP;
    if (o->mode == FV_TT_V40_MONO)
        flags |= FT_LOAD_TARGET_MONO;
    else if (o->mode == FV_TT_V40_LCD)
        flags |= FT_LOAD_TARGET_LCD;
    *face_bytes = *size_bytes = 0;
    if (FT_New_Library(&mem, &lib))
        return;
    FT_Add_Default_Modules(lib);
    FT_Set_Default_Properties(lib);
    if (FT_Property_Set(lib, "truetype", "interpreter-version", &version))
        goto done;
    size_t base = cli_meter_mark(&m);
    if (FT_New_Face(lib, path, 0, &face))
        goto done;
    if (location->num_coords) {
        FT_Fixed coords[FV_VAR_MAX_AXES];
        for (uint32_t i = 0; i < location->num_coords; i++)
            coords[i] = location->coords[i];
        if (FT_Set_Var_Blend_Coordinates(face, location->num_coords, coords))
            goto done;
    }
    *face_bytes = m.in_use - base;
    for (uint32_t s = 0; s < o->num_sizes; s++) {
        base = cli_meter_mark(&m);
        FT_Size size = NULL;
        if (FT_New_Size(face, &size) || FT_Activate_Size(size) ||
            FT_Set_Char_Size(face, o->x[s], o->y[s], 72, 72))
            goto done;
        for (FT_Long gid = 0; gid < face->num_glyphs; gid++)
            (void)FT_Load_Glyph(face, (FT_UInt)gid, flags);
        FT_Done_Size(size);
        if (m.peak - base > *size_bytes)
            *size_bytes = m.peak - base;
    }
done:
    if (face)
        FT_Done_Face(face);
    if (lib)
        FT_Done_Library(lib);
}

/* One timed pass of FreeType at size s, as pass_fontvm. */
static double pass_freetype(const char *path, ft_bench *b, const bench_opts *o, uint32_t s,
                            uint64_t *failed)
{
    double t0 = cli_tt_now();
    FT_Size size = NULL;
    if (FT_New_Size(b->face, &size) || FT_Activate_Size(size) ||
        FT_Set_Char_Size(b->face, o->x[s], o->y[s], 72, 72)) {
        fprintf(stderr, "fontvm bench: %s: FreeType cannot set the size\n", path);
        return -1.0;
    }
    for (FT_Long gid = 0; gid < b->face->num_glyphs; gid++)
        if (FT_Load_Glyph(b->face, (FT_UInt)gid, b->flags))
            (*failed)++;
    FT_Done_Size(size);
    return cli_tt_now() - t0;
}
#endif

/* fontvm's face and size memory (see the top of the file), through a
 * counting allocator; 0s when something fails (the timed passes say what). */
static void fv_memory(const char *path, const bench_opts *o, const fv_tt_size_request *location,
                      size_t *face_bytes, size_t *size_bytes)
{
    cli_meter m = {0, 0};
    fv_allocator alloc = cli_meter_allocator(&m);
    fv_font *font = NULL;
    fv_tt_face *face = NULL;
    fv_tt_exec *exec = NULL;
    fv_error err;
    *face_bytes = *size_bytes = 0;
    /* The file mapped, as FreeType's FT_New_Face maps it: neither engine's
     * count includes the file's bytes (a WOFF's decoded bytes count in
     * both). */
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0)
        return;
    if (fstat(fd, &st) != 0 || st.st_size <= 0) {
        close(fd);
        return;
    }
    size_t file_size = (size_t)st.st_size;
    void *map = mmap(NULL, file_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return;
    if (fv_font_open_memory(map, file_size, 0, &alloc, &font, &err) != FV_OK) {
        munmap(map, file_size);
        return;
    }
    uint32_t num_glyphs = fv_font_glyph_count(font);
    if (fv_tt_face_new(font, &face, &err) != FV_OK) {
        face = NULL;
        goto done;
    }
    if (fv_tt_exec_new(face, &exec, &err) != FV_OK) {
        exec = NULL;
        goto done;
    }
    *face_bytes = m.in_use;
    for (uint32_t s = 0; s < o->num_sizes; s++) {
        size_t base = cli_meter_mark(&m);
        fv_tt_size *size = NULL;
        fv_tt_size_request req = {.x_ppem_26d6 = o->x[s], .y_ppem_26d6 = o->y[s],
                                  .mode = o->mode, .pedantic = 0, .coords = location->coords,
                                  .num_coords = location->num_coords};
        if (fv_tt_size_new(face, exec, &req, &size, &err) != FV_OK)
            goto done;
        for (uint32_t gid = 0; gid < num_glyphs; gid++) {
            fv_tt_outline out;
            memset(&out, 0, sizeof out);
            (void)fv_tt_hint_glyph(size, exec, gid, &out, &err);
            fv_tt_outline_free(face, &out);
        }
        fv_tt_size_free(size);
        if (m.peak - base > *size_bytes)
            *size_bytes = m.peak - base;
    }
done:
    fv_tt_exec_free(exec);
    fv_tt_face_free(face);
    fv_font_close(font);
    munmap(map, file_size);
}

/* Benchmarks one font: fills rf (fontvm) and rt (FreeType; left zero when
 * built without it).  Returns CLI_OK or CLI_BAD_INPUT. */
static int bench_font(const char *path, const bench_opts *o, bench_result *rf, bench_result *rt,
                      uint32_t *num_glyphs)
{
    cli_tt_session ss;
    double best_fv[BENCH_MAX_SIZES], best_ft[BENCH_MAX_SIZES];
    memset(rf, 0, sizeof *rf);
    memset(rt, 0, sizeof *rt);
    int rc = cli_tt_open(path, 0, NULL, NULL, NULL, &ss); /* sizes are made per pass below */
    if (rc != CLI_OK)
        return rc;
    *num_glyphs = fv_font_glyph_count(ss.font);
    int32_t coords[FV_VAR_MAX_AXES];
    fv_tt_size_request location = {.coords = NULL, .num_coords = 0};
    rc = cli_var_location("bench", ss.font, o->variations, o->named, coords, &location);
    if (rc != CLI_OK) {
        cli_tt_close(&ss);
        return rc;
    }
    fv_memory(path, o, &location, &rf->face_bytes, &rf->size_bytes);
#ifdef FONTVM_CLI_WITH_REFERENCES
    ft_memory(path, o, &location, &rt->face_bytes, &rt->size_bytes);
    ft_bench ft;
    if (ft_open(path, o, &location, &ft) != 0) {
        ft_close(&ft);
        cli_tt_close(&ss);
        return CLI_BAD_INPUT;
    }
#endif
    for (uint32_t rep = 0; rep < o->repeat; rep++) {
        for (uint32_t s = 0; s < o->num_sizes; s++) {
            uint64_t failed = 0;
            double t = pass_fontvm(path, &ss, o, s, &location, *num_glyphs, &failed);
            if (t < 0) {
                rc = CLI_BAD_INPUT;
                goto done;
            }
            if (rep == 0 || t < best_fv[s])
                best_fv[s] = t;
            if (rep == 0)
                rf->failed += failed;
#ifdef FONTVM_CLI_WITH_REFERENCES
            failed = 0;
            t = pass_freetype(path, &ft, o, s, &failed);
            if (t < 0) {
                rc = CLI_BAD_INPUT;
                goto done;
            }
            if (rep == 0 || t < best_ft[s])
                best_ft[s] = t;
            if (rep == 0)
                rt->failed += failed;
#endif
        }
    }
    for (uint32_t s = 0; s < o->num_sizes; s++) {
        rf->glyphs += *num_glyphs;
        rf->seconds += best_fv[s];
#ifdef FONTVM_CLI_WITH_REFERENCES
        rt->glyphs += (uint64_t)ft.face->num_glyphs;
        rt->seconds += best_ft[s];
#endif
    }
done:
#ifdef FONTVM_CLI_WITH_REFERENCES
    ft_close(&ft);
#else
    (void)best_ft;
#endif
    cli_tt_close(&ss);
    return rc;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: fontvm bench FONT... [--sizes LIST] [--mode v35|v40|v40-mono|v40-lcd] "
            "[--repeat N]\n"
            "                    [--variations TAG=V,... | --named-instance N]\n\n"
            "Hints every glyph at every size with fontvm and with FreeType in the same run\n"
            "and prints glyphs/s for each, the ratio fontvm/FreeType (> 1: fontvm faster)\n"
            "and the memory of each engine (KiB): what an open face holds, and the most\n"
            "one size adds while every glyph is hinted (fontvm through its allocator,\n"
            "FreeType through an FT_Memory; a pass of its own, not timed).\n"
            "  --sizes LIST  ppem list (default " BENCH_DEFAULT_SIZES ")\n"
            "  --mode M      default v40\n"
            "  --repeat N    passes per size; each engine keeps its fastest (default 3)\n"
            "  --variations TAG=V,...  variable fonts at this location (design units, as\n"
            "                hb-view spells it), both engines at the same normalized\n"
            "                coordinates; --named-instance N a named instance (1-based)\n");
}

static double rate(const bench_result *r)
{
    return r->seconds > 0 ? (double)r->glyphs / r->seconds : 0.0;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

int cmd_bench(int argc, char **argv)
{
    bench_opts o;
    memset(&o, 0, sizeof o);
    o.mode = FV_TT_V40;
    o.repeat = 3;
    const char *sizes = BENCH_DEFAULT_SIZES;
    const char *fonts[BENCH_MAX_FONTS];
    uint32_t num_fonts = 0;
    static const struct option options[] = {
        {"help", no_argument, NULL, 'h'},        {"sizes", required_argument, NULL, 's'},
        {"mode", required_argument, NULL, 'm'},  {"repeat", required_argument, NULL, 'r'},
        {"variations", required_argument, NULL, 'V'},
        {"named-instance", required_argument, NULL, 'I'},
        {NULL, 0, NULL, 0}};
    int opt;
    cli_getopt_begin();
    while ((opt = cli_getopt(argc, argv, "bench", options)) != -1) {
        switch (opt) {
        case 'h': usage(stdout); return CLI_OK;
        case 's': sizes = optarg; break;
        case 'm':
            if (cli_tt_parse_mode(optarg, &o.mode))
                return cli_bad_value("bench", "--mode", optarg,
                                     "expected v35, v40, v40-mono or v40-lcd");
            break;
        case 'r':
            if (cli_opt_uint("bench", "--repeat", optarg, 1, 1000000, &o.repeat))
                return CLI_BAD_INPUT;
            break;
        case 'V': o.variations = optarg; break;
        case 'I': o.named = optarg; break;
        default: return CLI_BAD_INPUT;
        }
    }
    for (int i = optind; i < argc; i++) {
        if (num_fonts >= BENCH_MAX_FONTS)
            return cli_usage_error("bench", "more than 256 fonts");
        fonts[num_fonts++] = argv[i];
    }
    if (num_fonts == 0)
        return cli_usage_error("bench", "missing FONT");
    if (parse_sizes(sizes, &o))
        return cli_bad_value("bench", "--sizes", sizes,
                             "expected up to 64 sizes like 9,10,12,10.5,12x16, each from 0.016 "
                             "(1/64) to 16384 pixels per em");

    printf("fontvm bench: mode %s, %u sizes, best of %u pass(es) per size", fv_tt_mode_name(o.mode),
           o.num_sizes, o.repeat);
    if (o.variations || o.named)
        printf(", at %s%s", o.variations ? o.variations : "named instance ",
               o.variations ? "" : o.named);
#ifdef FONTVM_CLI_WITH_REFERENCES
    {
        FT_Library lib;
        FT_Int maj = 0, min = 0, pat = 0;
        if (FT_Init_FreeType(&lib) == 0) {
            FT_Library_Version(lib, &maj, &min, &pat);
            FT_Done_FreeType(lib);
        }
        printf(", fontvm %s vs FreeType %d.%d.%d\n", fv_version(), maj, min, pat);
    }
#else
    printf(", fontvm %s (built without FreeType: no comparison)\n", fv_version());
#endif
    printf("%-34s %7s %13s %13s %7s %10s %10s %10s %10s\n", "font", "glyphs", "fontvm g/s",
           "FreeType g/s", "ratio", "face fv", "face FT", "size fv", "size FT");
    bench_result tot_fv = {0, 0, 0, 0, 0}, tot_ft = {0, 0, 0, 0, 0};
    int rc = CLI_OK;
    for (uint32_t f = 0; f < num_fonts; f++) {
        bench_result rf, rt;
        uint32_t n = 0;
        int r = bench_font(fonts[f], &o, &rf, &rt, &n);
        if (r != CLI_OK) {
            rc = r;
            continue;
        }
        tot_fv.glyphs += rf.glyphs;
        tot_fv.seconds += rf.seconds;
        tot_fv.failed += rf.failed;
        char ft_rate[32] = "-", ratio[32] = "-";
#ifdef FONTVM_CLI_WITH_REFERENCES
        tot_ft.glyphs += rt.glyphs;
        tot_ft.seconds += rt.seconds;
        tot_ft.failed += rt.failed;
        snprintf(ft_rate, sizeof ft_rate, "%.0f", rate(&rt));
        if (rate(&rt) > 0)
            snprintf(ratio, sizeof ratio, "%.2f", rate(&rf) / rate(&rt));
#endif
        char ft_face[32] = "-", ft_size[32] = "-";
#ifdef FONTVM_CLI_WITH_REFERENCES
        snprintf(ft_face, sizeof ft_face, "%.1f", (double)rt.face_bytes / 1024.0);
        snprintf(ft_size, sizeof ft_size, "%.1f", (double)rt.size_bytes / 1024.0);
#endif
        printf("%-34s %7u %13.0f %13s %7s %10.1f %10s %10.1f %10s", base_name(fonts[f]), n,
               rate(&rf), ft_rate, ratio, (double)rf.face_bytes / 1024.0, ft_face,
               (double)rf.size_bytes / 1024.0, ft_size);
        if (rf.failed)
            printf("  (%llu fontvm loads failed)", (unsigned long long)rf.failed);
        printf("\n");
        fflush(stdout);
    }
    if (tot_fv.glyphs) {
        printf("%-34s %7s %13.0f", "total", "", rate(&tot_fv));
        if (tot_ft.glyphs && rate(&tot_ft) > 0)
            printf(" %13.0f %7.2f", rate(&tot_ft), rate(&tot_fv) / rate(&tot_ft));
        printf("   (%llu timed loads per engine, CPU time)\n", (unsigned long long)tot_fv.glyphs);
    }
    return rc;
}
