/* Graphite fonts built to do the most work graphite2 allows (gr_bombs.h),
 * each shaped by fontvm under its work budget (vm/graphite/segment.h,
 * "work budget of a segment").  Each test asserts the named result and a
 * step bound (deterministic); the release build also asserts that a
 * 100-character segment finishes within 100 ms (README.md, "Hardening").
 * Where graphite2 itself refuses (slot growth past 64x), fontvm must refuse
 * the same way; where graphite2 accepts and works on (rule work, expansion
 * bombs) fontvm's refusal is a budget_* error, a hardening limit. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <time.h>

#include "gr_bombs.h"
#include "gr_compare.h"
#include "graphite/collide.h" /* the collision budgets (GRV_COLL_*) */

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define GRB_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(undefined_behavior_sanitizer)
#define GRB_SANITIZED 1
#endif
#endif
#if !defined(GRB_SANITIZED) && defined(NDEBUG)
#define GRB_TIME_BOUND_MS 100.0 /* the release build on these machines */
#endif

/* The most steps a run can add past a budget's limit: plain instructions
 * are checked when the run ends (a piece of code is at most 64K bytes),
 * helper opcodes as they end, the last of which may have positioned a tree
 * of at most 64 x 100 slots (16 steps each); plus one pass-loop step's FSM
 * work (64 slots, 62 rule lists of 128 merged). */
#define GRB_OVERSHOOT (65536u + 6400u * GRV_STEPS_PER_SLOT_POSITIONED + 1u + 64u + 62u * 256u)

typedef struct result {
    fv_status st;
    fv_error err;
    size_t slots;
    uint64_t steps;
    double ms;
} result;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); /* CPU time: the machine is shared */
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Shapes `text` with the face (rtl: the request's direction bits;
 * justify: justify_percent, 0 for none). */
static result shape_face(fv_gr_face *face, const uint32_t *text, size_t n, int rtl, float justify)
{
    result r;
    memset(&r, 0, sizeof r);
    fv_gr_shape_request req;
    memset(&req, 0, sizeof req);
    req.text = text;
    req.length = n;
    req.rtl = rtl;
    req.justify_percent = justify;
    fv_gr_segment *seg = NULL;
    double t0 = now_ms();
    r.st = fv_gr_shape(face, &req, &seg, &r.err);
    r.ms = now_ms() - t0;
    if (r.st == FV_OK) {
        r.slots = seg->num_slots;
        r.steps = seg->steps;
        fv_gr_segment_free(face, seg);
    } else if (r.st == FV_E_BUDGET_STEPS) {
        r.steps = (uint64_t)r.err.index;
    }
    print_message("  %s after %llu steps, %.1f ms: %s\n", fv_status_name(r.st),
                  (unsigned long long)r.steps, r.ms, r.err.detail);
    return r;
}

/* Shapes `text` with the font; the face must load. */
static result shape_font(const grb_buf *font, const uint32_t *text, size_t n)
{
    fv_font *f = NULL;
    fv_gr_face *face = NULL;
    fv_error err;
    assert_int_equal(fv_font_open_memory(font->d, font->n, 0, NULL, &f, &err), FV_OK);
    if (fv_gr_face_new(f, &face, &err) != FV_OK)
        fail_msg("generated font refused: %s", err.detail);
    result r = shape_face(face, text, n, 0, 0);
    fv_gr_face_free(face);
    fv_font_close(f);
    return r;
}

/* The time bound scales with the text, as the budget does. */
static void check_time_chars(const result *r, unsigned chars)
{
#ifdef GRB_TIME_BOUND_MS
    double bound = GRB_TIME_BOUND_MS * (chars < 100 ? 1.0 : chars / 100.0);
    if (r->ms > bound)
        fail_msg("a %u-character segment took %.1f ms (bound %.0f ms)", chars, r->ms, bound);
#else
    (void)r;
    (void)chars;
#endif
}

static void check_time(const result *r) { check_time_chars(r, 100); }

/* The char of the base font whose glyph has advance different from 'a''s,
 * and 'a''s advance: the constraints below hold on 'a' only. */
static void pick_chars(const grb_base *b, uint32_t *other, uint16_t *adv_a)
{
    fv_font *f = NULL;
    fv_gr_face *face = NULL;
    fv_error err;
    assert_int_equal(fv_font_open_memory(b->font, b->size, 0, NULL, &f, &err), FV_OK);
    assert_int_equal(fv_gr_face_new(f, &face, &err), FV_OK);
    uint16_t ga = (uint16_t)grv_cmap_lookup(face, 'a');
    assert_true(ga && ga < face->num_glyphs);
    *adv_a = face->glyphs[ga].advance;
    *other = 0;
    for (uint32_t c = 'b'; c <= 'z' && !*other; c++) {
        uint16_t g = (uint16_t)grv_cmap_lookup(face, c);
        if (g && g < face->num_glyphs && face->glyphs[g].advance != *adv_a)
            *other = c;
    }
    assert_true(*other != 0);
    fv_gr_face_free(face);
    fv_font_close(f);
}

/* A constraint `len` bytes long that holds on 'a' only: Nops, then
 * "advance width of this slot's glyph == adv_a". */
static uint8_t *a_only_constraint(size_t len, uint16_t adv_a)
{
    const uint8_t check[] = {GRV_OP_PUSH_GLYPH_METRIC, GRV_MET_ADVWIDTH, 0, 0,
                             GRV_OP_PUSH_SHORT_U, (uint8_t)(adv_a >> 8), (uint8_t)adv_a,
                             GRV_OP_EQUAL, GRV_OP_POP_RET};
    assert_true(len >= sizeof check);
    uint8_t *c = calloc(1, len);
    assert_non_null(c);
    memcpy(c + len - sizeof check, check, sizeof check);
    return c;
}

static const uint8_t ret_zero[] = {GRV_OP_RET_ZERO};

/* One adversarial font in the making: the base font, the character that
 * fails the 'a'-only constraint, that constraint, and the font built. */
typedef struct bomb {
    grb_base b;
    uint32_t other;
    uint16_t adv_a;
    uint8_t *cons;     /* NULL when made without one */
    size_t cons_len;
    grb_buf font;
} bomb;

static void bomb_begin(bomb *k, size_t cons_len)
{
    memset(k, 0, sizeof *k);
    grb_base_load(&k->b);
    pick_chars(&k->b, &k->other, &k->adv_a);
    k->cons_len = cons_len;
    if (cons_len)
        k->cons = a_only_constraint(cons_len, k->adv_a);
}

/* A pass of `rules` rules of `span` slots with the bomb's constraint and an
 * action that returns 0. */
static grb_pass bomb_pass(const bomb *k, uint8_t max_rule_loop, uint8_t span, uint16_t rules)
{
    return (grb_pass){.max_rule_loop = max_rule_loop, .span = span, .num_rules = rules,
                      .constraint = k->cons, .constraint_len = k->cons_len,
                      .action = ret_zero, .action_len = sizeof ret_zero};
}

/* The font with these passes (grb_silf's lz4 and pad). */
static void bomb_build(bomb *k, const grb_pass *passes, unsigned n, int lz4, size_t pad)
{
    grb_buf silf = grb_silf(&k->b, passes, n, lz4, pad);
    free(k->font.d);
    k->font = grb_font(&k->b, &silf);
    free(silf.d);
}

static void bomb_end(bomb *k)
{
    free(k->cons);
    free(k->font.d);
    free(k->b.font);
}

/* n characters: 'a' except every 62nd, so that each rule of span 62 runs
 * its constraint on 61 slots before the last one fails it. */
static void a_text(uint32_t *text, size_t n, uint32_t other)
{
    for (size_t i = 0; i < n; i++)
        text[i] = i % 62 == 61 ? other : 'a';
}

/* Shapes the bomb's 100-character text; the result must be `want`. */
static result shape_100(const bomb *k, fv_status want)
{
    uint32_t text[100];
    a_text(text, 100, k->other);
    result r = shape_font(&k->font, text, 100);
    assert_int_equal(r.st, want);
    check_time(&r);
    return r;
}

/* 128 rules x 62 slots x a 500-byte constraint per pass-loop step (about
 * 4M instructions a step, ~150M for the segment in graphite2, which has no
 * bound on it): the pass's share of the budget stops it. */
static void test_constraint_work(void **state)
{
    (void)state;
    bomb k;
    bomb_begin(&k, 500);
    grb_pass p = bomb_pass(&k, 255, 62, 128);
    bomb_build(&k, &p, 1, 0, 0);
    result r = shape_100(&k, FV_E_BUDGET_STEPS);
    assert_string_equal(fv_status_name(r.st), "budget_steps");
    assert_non_null(strstr(r.err.detail, "pass 0: pass step budget"));
    assert_true(r.steps >= grv_budget_pass_steps(100));
    assert_true(r.steps <= grv_budget_pass_steps(100) + GRB_OVERSHOOT);
    /* graphite2 loads the font: the refusal is fontvm's hardening limit */
    char msg[256];
    grc_gr2 *g = grc_gr2_open(k.font.d, k.font.n, msg, sizeof msg);
    assert_non_null(g);
    grc_gr2_close(g);
    bomb_end(&k);
}

/* The runner's verdict on the same bomb (63 characters: one match of 62
 * slots, whose first step alone is ~3.9M instructions): graphite2 shapes
 * it, fontvm stops at its budget, and the comparison calls that a
 * hardening limit, not a failure of fontvm, for graphite2 and for
 * HarfBuzz's derivation alike. */
static void test_runner_calls_it_hardening_limit(void **state)
{
    (void)state;
    bomb k;
    bomb_begin(&k, 500);
    grb_pass p = bomb_pass(&k, 255, 62, 128);
    bomb_build(&k, &p, 1, 0, 0);
    uint32_t text[63];
    a_text(text, 63, k.other);
    char msg[256];
    grc_gr2 *g = grc_gr2_open(k.font.d, k.font.n, msg, sizeof msg);
    assert_non_null(g);
    fv_font *f = NULL;
    fv_gr_face *face = NULL;
    fv_error err;
    assert_int_equal(fv_font_open_memory(k.font.d, k.font.n, 0, NULL, &f, &err), FV_OK);
    assert_int_equal(fv_gr_face_new(f, &face, &err), FV_OK);
    grc_request req = {text, 63, NULL, 0};
    grc_run ref, fv;
    double t0 = now_ms();
    assert_int_equal(grc_gr2_shape(g, &req, &ref), 0);
    double t_gr2 = now_ms() - t0;
    assert_int_equal(grc_fv_shape(face, &req, &fv), 0);
    print_message("  graphite2 %s in %.1f ms; fontvm: %s\n", ref.ok ? "shaped it" : "failed",
                  t_gr2, fv.error);
    assert_true(ref.ok);
    assert_false(fv.ok);
    assert_true(fv.hardening_limit);
    grc_diff d = grc_compare_gr(&ref, &fv);
    assert_int_equal(d.status, GRC_HARDENING_LIMIT);
    assert_string_equal(grc_status_name(d.status), "hardening_limit");
    grc_hb_run fvh;
    assert_int_equal(grc_derive_hb(&fv, &req, &fvh), 0);
    assert_true(fvh.hardening_limit);
    grc_hb_run_free(&fvh);
    grc_run_free(&ref);
    grc_run_free(&fv);
    fv_gr_face_free(face);
    fv_font_close(f);
    grc_gr2_close(g);
    bomb_end(&k);
}

/* The budget grows with the text: 128 rules of span 4 with 20-byte
 * constraints on 8 characters (each step tests 128 rules on up to 4 slots:
 * ~20K steps a step) stay well inside it and shape. */
static void test_short_text_shapes(void **state)
{
    (void)state;
    bomb k;
    bomb_begin(&k, 20);
    grb_pass p = bomb_pass(&k, 255, 4, 128);
    bomb_build(&k, &p, 1, 0, 0);
    const uint32_t text[] = {'a', 'a', 'a', k.other, 'a', 'a', 'a', k.other};
    result r = shape_font(&k.font, text, FV_ARRAY_LEN(text));
    assert_int_equal(r.st, FV_OK);
    assert_int_equal(r.slots, FV_ARRAY_LEN(text));
    assert_true(r.steps > 128u * 3u * 12u); /* at least one step's constraints ran */
    assert_true(r.steps < grv_budget_pass_steps(FV_ARRAY_LEN(text)) / 2);
    bomb_end(&k);
}

/* 128 passes (the most a Silf may have), each with 128 rules of span 62:
 * pass 0 spends its share and stops the segment; no later pass could
 * spend more than the segment has left. */
static void test_pass_count(void **state)
{
    (void)state;
    bomb k;
    bomb_begin(&k, 500);
    grb_pass passes[GRV_MAX_PASSES];
    for (int i = 0; i < GRV_MAX_PASSES; i++)
        passes[i] = bomb_pass(&k, 255, 62, 128);
    bomb_build(&k, passes, GRV_MAX_PASSES, 0, 0);
    result r = shape_100(&k, FV_E_BUDGET_STEPS);
    assert_true(r.steps <= grv_budget_segment_steps(100) + GRB_OVERSHOOT);
    bomb_end(&k);
}

/* Every pass spends just under its share (one rule of span 62 whose
 * 200-byte constraint fails on the 62nd slot: ~12K steps per pass-loop
 * step, ~40 steps per pass, under 1.375M for 100 chars), so the segment
 * budget is what stops the run, in a later pass. */
static void test_segment_budget_across_passes(void **state)
{
    (void)state;
    bomb k;
    bomb_begin(&k, 200);
    grb_pass passes[24];
    for (int i = 0; i < 24; i++)
        passes[i] = bomb_pass(&k, 1, 62, 1);
    bomb_build(&k, passes, 24, 0, 0);
    result r = shape_100(&k, FV_E_BUDGET_STEPS);
    assert_non_null(strstr(r.err.detail, "segment step budget"));
    assert_true(r.steps >= grv_budget_segment_steps(100));
    assert_true(r.steps <= grv_budget_segment_steps(100) + GRB_OVERSHOOT);
    bomb_end(&k);
}

/* One instruction that walks a whole attachment tree: pass 0 attaches 61
 * slots to the first of them; pass 1's 128 rules then ask, 97 times per
 * constraint, for the cluster's bounding box (PushGlyphMetric at level 1
 * positions the tree: 62 slots per instruction).  Counted per slot
 * positioned, the budget stops it like any other work. */
static void test_attachment_tree_metrics(void **state)
{
    (void)state;
    bomb k;
    bomb_begin(&k, 0);
    /* pass 0: for k = 1..61: Next; attach this slot to map entry 0 */
    uint8_t attach[61 * 5 + 1];
    size_t n = 0;
    for (int i = 1; i <= 61; i++) {
        attach[n++] = GRV_OP_NEXT;
        attach[n++] = GRV_OP_PUSH_BYTE;
        attach[n++] = (uint8_t)(int8_t)-i; /* AttTo adds the map position */
        attach[n++] = GRV_OP_ATTR_SET_SLOT;
        attach[n++] = GRV_SLAT_ATTTO;
    }
    attach[n++] = GRV_OP_RET_ZERO;
    /* pass 1: metric; 96 x (metric, Max); x 0; + (advance == adv_a) */
    uint8_t cons[500];
    size_t c = 0;
    const uint8_t metric[] = {GRV_OP_PUSH_GLYPH_METRIC, GRV_MET_BBWIDTH, 0, 1};
    memcpy(cons + c, metric, 4);
    c += 4;
    for (int i = 0; i < 96; i++) {
        memcpy(cons + c, metric, 4);
        c += 4;
        cons[c++] = GRV_OP_MAX;
    }
    const uint8_t tail[] = {GRV_OP_PUSH_BYTE, 0, GRV_OP_MUL, GRV_OP_PUSH_GLYPH_METRIC,
                            GRV_MET_ADVWIDTH, 0, 0, GRV_OP_PUSH_SHORT_U, (uint8_t)(k.adv_a >> 8),
                            (uint8_t)k.adv_a, GRV_OP_EQUAL, GRV_OP_ADD, GRV_OP_POP_RET};
    memcpy(cons + c, tail, sizeof tail);
    c += sizeof tail;
    grb_pass passes[2] = {
        {.max_rule_loop = 1, .span = 62, .num_rules = 1, .action = attach, .action_len = n},
        {.max_rule_loop = 255, .span = 62, .num_rules = 128, .constraint = cons,
         .constraint_len = c, .action = ret_zero, .action_len = sizeof ret_zero}};
    bomb_build(&k, passes, 2, 0, 0);
    result r = shape_100(&k, FV_E_BUDGET_STEPS);
    assert_non_null(strstr(r.err.detail, "pass 1:"));
    assert_true(r.steps <= grv_budget_segment_steps(100) + GRB_OVERSHOOT);
    bomb_end(&k);
}

/* Slot growth: every step inserts 8 slots.  graphite2 lets a segment grow
 * to 64 times its text (MAX_SEG_GROWTH_FACTOR) and then the inserting rule
 * dies and the segment fails; fontvm mirrors that (gr_segment_failed, not
 * a budget error), within its step budget and time bound. */
static void test_slot_growth(void **state)
{
    (void)state;
    bomb k;
    bomb_begin(&k, 0);
    uint8_t act[9];
    memset(act, GRV_OP_INSERT, 8);
    act[8] = GRV_OP_RET_ZERO;
    grb_pass p = {.max_rule_loop = 255, .span = 1, .num_rules = 1, .action = act,
                  .action_len = sizeof act};
    bomb_build(&k, &p, 1, 0, 0);
    uint32_t text[100];
    for (int i = 0; i < 100; i++)
        text[i] = 'a';
    result r = shape_font(&k.font, text, 100);
    assert_int_equal(r.st, FV_E_GR_SEGMENT_FAILED);
    check_time(&r);
    /* graphite2 fails the segment too */
    char msg[256];
    grc_gr2 *g = grc_gr2_open(k.font.d, k.font.n, msg, sizeof msg);
    assert_non_null(g);
    grc_request req = {text, 100, NULL, 0};
    grc_run run;
    memset(&run, 0, sizeof run);
    int rc = grc_gr2_shape(g, &req, &run);
    print_message("  graphite2: %s\n", rc == 0 && run.ok ? "shaped" : "segment failed");
    assert_false(rc == 0 && run.ok);
    grc_run_free(&run);
    grc_gr2_close(g);
    bomb_end(&k);
}

/* LZ4 expansion bombs: a Silf that expands to just over the table budget
 * (32 MB) is refused at load, before anything is allocated, by name, with
 * the size; graphite2 loads it (so this is a hardening limit: measured, it
 * loads such a table up to its 27-bit size field, 120 MB of zeros in 0.8 s
 * here).  One expanding to the budget exactly loads and shapes. */
static void test_lz4_bomb(void **state)
{
    (void)state;
    bomb k;
    bomb_begin(&k, 0);
    const uint8_t ret_true[] = {GRV_OP_RET_TRUE};
    grb_pass p = {.max_rule_loop = 1, .span = 1, .num_rules = 1, .constraint = ret_true,
                  .constraint_len = sizeof ret_true, .action = ret_zero,
                  .action_len = sizeof ret_zero};
    grb_buf plain = grb_silf(&k.b, &p, 1, 2, 0); /* the same table uncompressed */
    bomb_build(&k, &p, 1, 1, GRV_BUDGET_TABLE_BYTES + 1 - plain.n);
    print_message("  %zu-byte font, its Silf expanding to %u bytes\n", k.font.n,
                  GRV_BUDGET_TABLE_BYTES + 1);
    fv_font *f = NULL;
    fv_gr_face *face = NULL;
    fv_error err;
    assert_int_equal(fv_font_open_memory(k.font.d, k.font.n, 0, NULL, &f, &err), FV_OK);
    double t0 = now_ms();
    assert_int_equal(fv_gr_face_new(f, &face, &err), FV_E_BUDGET_TABLE_SIZE);
    double ms = now_ms() - t0;
    assert_string_equal(fv_status_name(err.kind), "budget_table_size");
    assert_int_equal(err.index, GRV_BUDGET_TABLE_BYTES + 1);
    assert_true(ms < 50.0); /* nothing was decompressed */
    fv_font_close(f);
    char msg[256];
    grc_gr2 *g = grc_gr2_open(k.font.d, k.font.n, msg, sizeof msg);
    print_message("  graphite2: %s\n", g ? "loads it" : msg);
    assert_non_null(g);
    grc_gr2_close(g);

    /* the largest expansion allowed: loads and shapes */
    bomb_build(&k, &p, 1, 1, GRV_BUDGET_TABLE_BYTES - plain.n);
    const uint32_t text[] = {'a', 'b'};
    result r = shape_font(&k.font, text, 2);
    assert_int_equal(r.st, FV_OK);
    free(plain.d);
    bomb_end(&k);
}

/* ---- collision avoidance (vm/graphite/collide*.c) ----
 * Awami Nastaliq (Debian fonts-sil-awami-nastaliq, as test_gr_collide),
 * the corpus's heaviest collision font, with every glyph's collision
 * attributes rewritten in the loaded face (what a Glat with those values
 * gives): collision.flags `flags` on every glyph and no range ends, so the
 * whole line is one collision range and every glyph is fixed (or kerned)
 * against every other; limits and margin as wide as the attributes allow;
 * every collision pass at 7 rounds (the most the pass flags hold).  The
 * work is bounded by the slots, but only as their cube (zones grow with
 * each neighbour): the pass's share of the budget stops it. */


#define AWAMI "/usr/share/fonts/truetype/awami/AwamiNastaliq-Regular.ttf"

static void coll_rewrite(fv_gr_face *face, uint16_t flags, int kern, int16_t margin, int16_t lim)
{
    const uint32_t a = face->silf.attr_collisions;
    assert_true(a && a + 6 < face->num_attrs);
    assert_int_equal(grv_glat_dense(face), FV_OK); /* rewritten in place below */
    for (uint32_t g = 0; g < face->num_glyphs; g++) {
        /* attribute a + k of glyph g at at[c[k].at] (every column whole) */
        int16_t *at = face->attrs + g;
        const grv_attr_col *c = face->attr_col + a;
        at[c[0].at] = (int16_t)flags;
        at[c[1].at] = (int16_t)-lim; /* min.x, min.y, max.x, max.y */
        at[c[2].at] = (int16_t)-lim;
        at[c[3].at] = lim;
        at[c[4].at] = lim;
        at[c[5].at] = margin;
        at[c[6].at] = 1000;   /* margin weight */
    }
    unsigned coll_passes = 0;
    for (unsigned i = 0; i < face->silf.num_passes; i++) {
        grv_pass *p = &face->silf.passes[i];
        if (p->num_coll_runs || p->kern_colls) {
            p->num_coll_runs = kern ? 0 : 7;
            p->kern_colls = kern ? 1 : 0;
            coll_passes++;
        }
    }
    assert_true(coll_passes > 0);
}

static result shape_awami_rewritten(uint16_t flags, int kern, int16_t margin, int16_t lim,
                                    const uint32_t *text, size_t n)
{
    fv_font *f = NULL;
    fv_gr_face *face = NULL;
    fv_error err;
    assert_int_equal(fv_font_open_file(AWAMI, 0, NULL, &f, &err), FV_OK);
    assert_int_equal(fv_gr_face_new(f, &face, &err), FV_OK);
    coll_rewrite(face, flags, kern, margin, lim);
    result r = shape_face(face, text, n, 1, 0);
    fv_gr_face_free(face);
    fv_font_close(f);
    return r;
}

/* 100 letters with dots above and below (beh, teh, theh, noon, yeh, jeem
 * in turn): every slot a neighbour of every other. */
static void awami_text(uint32_t *text, size_t n)
{

    static const uint32_t letters[] = {0x0628, 0x062A, 0x062B, 0x0646, 0x064A, 0x062C};
    for (size_t i = 0; i < n; i++)
        text[i] = letters[i % FV_ARRAY_LEN(letters)];
}

/* The most steps a collision pass can add past its share: the neighbour
 * merge under way when the budget ran out (per axis a few zone operations
 * of up to GRV_COLL_MAX_ZONES intervals, 17 boxes), the fix's positioning
 * of its attachment tree (64 slots per character), and the kerner's slices
 * of one neighbour (GRV_COLL_MAX_SLICES, 16 sub-boxes each). */
#define GRB_COLL_OVERSHOOT(chars)                                                       \
    (4u * 17u * 3u * (1u + GRV_COLL_MAX_ZONES / GRV_COLL_ZONE_ENTRIES_PER_STEP) +         \
     64u * (chars) * GRV_STEPS_PER_SLOT_POSITIONED + GRV_COLL_MAX_SLICES * 16u)

/* Every glyph fixed against every other of one long word.  The work grows
 * as the cube of the word (a 100-letter word of the real font costs 0.64 M
 * steps, with its glyphs all fixed 1.45 M): 100 letters shape within the
 * budget and the time bound; 1,000 letters, which graphite2 shapes (in
 * seconds), stop on the collision pass's share of the budget. */
static void test_collision_shifting(void **state)
{
    (void)state;
    static uint32_t text[1000];
    awami_text(text, 1000);
    result r = shape_awami_rewritten(GRV_COLL_FIX, 0, 1000, 32767, text, 100);
    assert_int_equal(r.st, FV_OK);
    assert_true(r.steps > grv_budget_pass_steps(100));
    assert_true(r.steps <= grv_budget_segment_steps(100));
    check_time(&r);
    r = shape_awami_rewritten(GRV_COLL_FIX, 0, 1000, 32767, text, 1000);
    assert_int_equal(r.st, FV_E_BUDGET_STEPS);
    assert_string_equal(fv_status_name(r.st), "budget_steps");
    assert_non_null(strstr(r.err.detail, "pass step budget"));
    assert_non_null(strstr(r.err.detail, "spent on its collision shifting"));
    assert_true(r.steps >= grv_budget_pass_steps(1000));
    assert_true(r.steps <= grv_budget_segment_steps(1000) + GRB_COLL_OVERSHOOT(1000));
    check_time_chars(&r, 1000);
}

/* 100 letters that do not join (alef, dal, thal, reh, zain, waw), each
 * with a mark: 50 clusters, every base kerned against all the glyphs
 * after it. */
static void awami_clusters(uint32_t *text, size_t n)
{
    static const uint32_t letters[] = {0x0627, 0x062F, 0x0630, 0x0631, 0x0632, 0x0648};
    for (size_t i = 0; i < n; i++)
        text[i] = i % 2 ? 0x064E : letters[(i / 2) % FV_ARRAY_LEN(letters)];
}

static void test_collision_kerning(void **state)
{
    (void)state;
    uint32_t text[100];
    awami_clusters(text, 100);
    result r = shape_awami_rewritten(GRV_COLL_FIX | GRV_COLL_KERN, 1, 10, 32767, text, 100);
    /* the kerner's profile is cheap per slice: this line, the most kerning
     * found, stays inside the budget */
    assert_int_equal(r.st, FV_OK);
    assert_true(r.steps > grv_budget_pass_steps(100) / 4);
    assert_true(r.steps <= grv_budget_segment_steps(100));
    check_time(&r);
}

/* Positioning and justification spend what the passes left: justifying
 * Awami's 100-letter line to 100 times its width (the most a request may
 * ask) is charged, and stays within the segment's budget and time. */
static void test_justification_charged(void **state)
{
    (void)state;
    uint32_t text[100];
    awami_text(text, 100);
    fv_font *f = NULL;
    fv_gr_face *face = NULL;
    fv_error err;
    assert_int_equal(fv_font_open_file(AWAMI, 0, NULL, &f, &err), FV_OK);
    assert_int_equal(fv_gr_face_new(f, &face, &err), FV_OK);
    result plain = shape_face(face, text, 100, 1, 0);
    result wide = shape_face(face, text, 100, 1, GRV_MAX_JUSTIFY_PERCENT);
    assert_int_equal(plain.st, FV_OK);
    assert_int_equal(wide.st, FV_OK);
    assert_true(wide.steps > plain.steps);
    assert_true(wide.steps <= grv_budget_segment_steps(100));
    check_time(&wide);
    fv_gr_face_free(face);
    fv_font_close(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constraint_work),
        cmocka_unit_test(test_runner_calls_it_hardening_limit),
        cmocka_unit_test(test_short_text_shapes),
        cmocka_unit_test(test_pass_count),
        cmocka_unit_test(test_segment_budget_across_passes),
        cmocka_unit_test(test_attachment_tree_metrics),
        cmocka_unit_test(test_slot_growth),
        cmocka_unit_test(test_lz4_bomb),
        cmocka_unit_test(test_collision_shifting),
        cmocka_unit_test(test_collision_kerning),
        cmocka_unit_test(test_justification_charged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
