/* fvfuzz-replay: runs files through the fuzz targets without any fuzzing
 * engine, so ctest, scripts/repro and users can replay crashes and corpora.
 *
 *   fvfuzz-replay [--target NAME] [--trace] FILE|DIR...
 *   fvfuzz-replay --list
 *
 * Without --target the target is taken from the path: the directory name
 * after "corpus/" (corpus/<target>/regress/<id>-<kind>), else the file's
 * parent directory's parent.  Directories are replayed file by file (one
 * level, skipping *.note files).  Exit status 0 when every file ran.
 *
 * --work: one line per input on stdout with its CPU time (ms=; wall_ms=
 * the wall time) and the most
 * budget steps any one unit took (glyph load, fpgm/prep run, segment,
 * pass) of that unit's budget; scripts/fuzz --hunt-slow ranks inputs by it.
 *
 * --skip-open: in directories, skip the regression cases whose note starts
 * with "OPEN" (a finding in a part of the library not fixed yet, listed in
 * fuzz/FINDINGS.md); ctest replays each of those separately and expects it
 * to fail, so the fix is noticed. */
/* clock_gettime (POSIX) under -std=c11 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "fuzz.h"

#define X(name) extern const fvfuzz_target fvfuzz_target_##name;
#include "fvfuzz_targets.h"
#undef X

static const fvfuzz_target *const targets[] = {
#define X(name) &fvfuzz_target_##name,
#include "fvfuzz_targets.h"
#undef X
};

static const fvfuzz_target *find_target(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
        if (strlen(targets[i]->name) == len && strncmp(targets[i]->name, name, len) == 0)
            return targets[i];
    return NULL;
}

/* The target named by a path component: corpus/<t>/..., or any component
 * that is a target name (the nearest to the file wins). */
static const fvfuzz_target *target_from_path(const char *path)
{
    const char *c = strstr(path, "corpus/");
    if (c != NULL) {
        c += strlen("corpus/");
        const char *end = strchr(c, '/');
        if (end != NULL) {
            const fvfuzz_target *t = find_target(c, (size_t)(end - c));
            if (t != NULL)
                return t;
        }
    }
    const fvfuzz_target *found = NULL;
    const char *p = path;
    while (*p) {
        const char *end = strchr(p, '/');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const fvfuzz_target *t = find_target(p, len);
        if (t != NULL)
            found = t;
        p += len;
        if (*p == '/')
            p++;
    }
    return found;
}

static int read_file(const char *path, uint8_t **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return -1;
    int bad = fvfuzz_read_stream(f, out, len);
    fclose(f);
    return bad;
}

static int replay_file(const char *path, const fvfuzz_target *forced, const fvfuzz_ctx *ctx)
{
    const fvfuzz_target *t = forced ? forced : target_from_path(path);
    if (t == NULL) {
        fprintf(stderr, "fvfuzz-replay: %s: cannot tell the target from the path; use --target\n",
                path);
        return 1;
    }
    uint8_t *data;
    size_t len;
    if (read_file(path, &data, &len) != 0) {
        fprintf(stderr, "fvfuzz-replay: %s: cannot read\n", path);
        return 1;
    }
    fprintf(stderr, "fvfuzz-replay: %s: %s (%zu bytes)\n", t->name, path, len);
    if (ctx->work == NULL) {
        fvfuzz_entry(t, ctx, data, len);
        free(data);
        return 0;
    }
    /* --work: one line per input with its costliest units and its time */
    memset(ctx->work, 0, sizeof *ctx->work);
    /* CPU time ranks inputs (on a shared machine wall time is mostly the
     * other processes'); wall time is printed too */
    struct timespec t0, t1, c0, c1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    fvfuzz_entry(t, ctx, data, len);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (double)(c1.tv_sec - c0.tv_sec) * 1e3 + (double)(c1.tv_nsec - c0.tv_nsec) / 1e6;
    double wall = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    static const char *const kinds[FVFUZZ_WORK_KINDS] = {"tt_load", "tt_run", "gr_segment",
                                                          "gr_pass"};
    printf("work %s bytes=%zu ms=%.3f wall_ms=%.3f", path, len, ms, wall);
    for (int k = 0; k < FVFUZZ_WORK_KINDS; k++)
        if (ctx->work->budget[k] != 0 || ctx->work->stopped[k] != 0)
            printf(" %s=%llu/%llu stopped=%llu", kinds[k],
                   (unsigned long long)ctx->work->steps[k], (unsigned long long)ctx->work->budget[k],
                   (unsigned long long)ctx->work->stopped[k]);
    printf("\n");
    fflush(stdout);
    free(data);
    return 0;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* 1 when path's note (path + ".note") starts with "OPEN". */
static int is_open_finding(const char *path)
{
    char note[4096], head[5] = {0};
    snprintf(note, sizeof note, "%s.note", path);
    FILE *f = fopen(note, "rb");
    if (f == NULL)
        return 0;
    size_t got = fread(head, 1, 4, f);
    fclose(f);
    return got == 4 && memcmp(head, "OPEN", 4) == 0;
}

static int replay_dir(const char *dir, const fvfuzz_target *forced, const fvfuzz_ctx *ctx,
                      int skip_open, int *count)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        fprintf(stderr, "fvfuzz-replay: %s: cannot open directory\n", dir);
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || has_suffix(e->d_name, ".note"))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **nn = realloc(names, cap * sizeof *names);
            if (nn == NULL)
                break;
            names = nn;
        }
        size_t l = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(l);
        if (names[n] == NULL)
            break;
        snprintf(names[n], l, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    if (n > 0)
        qsort(names, n, sizeof *names, cmp_str);
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (!is_dir(names[i]) && !(skip_open && is_open_finding(names[i]))) {
            bad |= replay_file(names[i], forced, ctx);
            (*count)++;
        }
        free(names[i]);
    }
    free(names);
    return bad;
}

/* The TrueType opcode coverage table: every opcode byte (each flag variant
 * of an instruction is its own byte) with its execution count. */
/* `vm` "tt": all 256 opcode bytes (instructions x flag variants);
 * "gr": the 0x43 Graphite opcodes graphite2 1.3.14 knows. */
static void print_opcodes(const char *vm, const uint64_t *counts, int n)
{
    int hit = 0, any = 0;
    for (int op = 0; op < 256; op++) {
        hit += op < n && counts[op] != 0;
        any |= counts[op] != 0;
    }
    if (!any)
        return;
    printf("%s opcodes executed: %d/%d opcode bytes%s\n", vm, hit, n,
           n == 256 ? " (instruction x flag variants)" : "");
    printf("never executed:");
    for (int op = 0; op < n; op++)
        if (counts[op] == 0)
            printf(" %02X", op);
    printf("\n");
    for (int op = 0; op < 256; op++)
        if (counts[op] != 0)
            printf("  %s %02X %llu\n", vm, op, (unsigned long long)counts[op]);
}

int main(int argc, char **argv)
{
    const fvfuzz_target *forced = NULL;
    fvfuzz_ctx ctx = {0, stderr, NULL, NULL, NULL};
    int bad = 0, files = 0, i = 1, opcodes = 0, skip_open = 0;
    uint64_t tt_counts[256] = {0}, gr_counts[256] = {0};
    fvfuzz_work work;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--target") == 0 && i + 1 < argc) {
            const char *name = argv[++i];
            forced = find_target(name, strlen(name));
            if (forced == NULL) {
                fprintf(stderr, "fvfuzz-replay: unknown target '%s' (see --list)\n", name);
                return 2;
            }
        } else if (strcmp(argv[i], "--trace") == 0) {
            ctx.trace = 1;
        } else if (strcmp(argv[i], "--skip-open") == 0) {
            skip_open = 1;
        } else if (strcmp(argv[i], "--opcodes") == 0) {
            opcodes = 1;
        } else if (strcmp(argv[i], "--work") == 0) {
            ctx.work = &work;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            ctx.log = NULL;
        } else if (strcmp(argv[i], "--list") == 0) {
            for (size_t k = 0; k < sizeof targets / sizeof targets[0]; k++)
                printf("%s\n", targets[k]->name);
            return 0;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: %s [--target NAME] [--trace] [--opcodes] [--work] [--quiet] [--skip-open] FILE|DIR...\n"
                   "       %s --list\n"
                   "--work: per input, one line on stdout: its CPU and wall time and the most budget steps\n"
                   "one unit took (tt_load, tt_run, gr_segment, gr_pass) of that unit's budget\n",
                   argv[0], argv[0]);
            return 0;
        } else if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "fvfuzz-replay: unknown option '%s'\n", argv[i]);
            return 2;
        } else {
            break;
        }
    }
    if (opcodes) {
        ctx.tt_opcodes = tt_counts;
        ctx.gr_opcodes = gr_counts;
    }
    if (i >= argc) {
        fprintf(stderr, "usage: %s [--target NAME] [--trace] FILE|DIR...\n", argv[0]);
        return 2;
    }
    for (; i < argc; i++) {
        if (is_dir(argv[i])) {
            bad |= replay_dir(argv[i], forced, &ctx, skip_open, &files);
        } else {
            bad |= replay_file(argv[i], forced, &ctx);
            files++;
        }
    }
    fprintf(stderr, "fvfuzz-replay: %d file(s) replayed%s\n", files, bad ? ", some unreadable" : "");
    if (opcodes) {
        print_opcodes("tt", tt_counts, 256);
        print_opcodes("gr", gr_counts, 0x43); /* vm/graphite/opcodes.def */
    }
    return bad;
}
