/* Graphics state: defaults, vector-derived functions (projection, movement
 * along the freedom vector), rounding.  FreeType's function pointers
 * (func_project, func_move, func_round...) are plain branches here. */
#ifndef FV_TT_GSTATE_H
#define FV_TT_GSTATE_H

#include "tt/interp.h"

/* tt_default_graphics_state. */
void tt_gs_default(tt_gs *gs);
/* Compute_Funcs: F_dot_P and the cached ratio after a vector change. */
void tt_compute_funcs(tt_ctx *c);
/* Normalize(): sets *vx,*vy (2.14) to the unit vector along (x, y), as
 * FreeType's FT_Vector_NormLen does; (0,0) leaves them unchanged. */
void tt_normalize(int64_t x, int64_t y, int16_t *vx, int16_t *vy);
/* FT_Hypot: the length of (x, y) by FreeType's CORDIC (gstate.c), 16.16. */
int64_t tt_hypot(int64_t x, int64_t y);

/* Projection of (dx, dy) on the projection / dual vector. */
int64_t tt_project(const tt_ctx *c, int64_t dx, int64_t dy);
int64_t tt_dualproj(const tt_ctx *c, int64_t dx, int64_t dy);
static inline int64_t tt_project_pts(const tt_ctx *c, tt_vec a, tt_vec b)
{
    return tt_project(c, tt_sub(a.x, b.x), tt_sub(a.y, b.y));
}
static inline int64_t tt_dualproj_pts(const tt_ctx *c, tt_vec a, tt_vec b)
{
    return tt_dualproj(c, tt_sub(a.x, b.x), tt_sub(a.y, b.y));
}

/* Moves point p of zone z by `distance` along the freedom vector (cur, or
 * org for _orig), with the v40 backward-compatibility rules.  The caller
 * has checked p. */
void tt_move(tt_ctx *c, tt_zone *z, uint32_t p, int64_t distance);
void tt_move_orig(tt_ctx *c, tt_zone *z, uint32_t p, int64_t distance);
/* Move_Zp2_Point. */
void tt_move_zp2(tt_ctx *c, uint32_t p, int64_t dx, int64_t dy, int touch);

/* Rounds with the current round state (func_round) / with none. */
int64_t tt_round_value(const tt_ctx *c, int64_t distance);
int64_t tt_round_none(int64_t distance);
/* SetSuperRound. */
void tt_set_super_round(tt_ctx *c, int64_t grid_period, int64_t selector);

/* Whether x moves are suppressed / post-IUP freeze is on (v40 compat). */
static inline int tt_compat(const tt_ctx *c)
{
    return c->mode.v40 && c->backward_compatibility;
}
static inline int tt_compat_frozen(const tt_ctx *c)
{
    return tt_compat(c) && c->iupx_called && c->iupy_called;
}

#endif
