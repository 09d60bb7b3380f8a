/* FDEF/IDEF tables. */
#include "tt/defs.h"

fv_status tt_defs_alloc(fv_mem *mem, tt_defs *d, uint32_t max_fdefs, uint32_t max_idefs)
{
    d->fdefs = fv_mem_array(mem, (size_t)max_fdefs + 1, sizeof(tt_def));
    d->slot_of = fv_mem_array(mem, (size_t)max_fdefs + 1, sizeof(uint32_t));
    d->idefs = fv_mem_array(mem, (size_t)max_idefs + 1, sizeof(tt_def));
    d->num_fdefs = d->num_idefs = 0;
    d->max_fdefs = max_fdefs;
    d->max_idefs = max_idefs;
    d->max_func = 0;
    d->max_ins = 0;
    if (!d->fdefs || !d->slot_of || !d->idefs) {
        tt_defs_free(mem, d);
        return FV_E_NOMEM;
    }
    return FV_OK;
}

void tt_defs_free(fv_mem *mem, tt_defs *d)
{
    fv_mem_free(mem, d->fdefs);
    fv_mem_free(mem, d->slot_of);
    fv_mem_free(mem, d->idefs);
    d->fdefs = d->idefs = NULL;
    d->slot_of = NULL;
}

void tt_defs_index_function(tt_defs *d, uint32_t f, uint32_t slot)
{
    if (f < d->max_fdefs && slot < d->num_fdefs)
        d->slot_of[f] = slot + 1;
}

const tt_def *tt_defs_function(const tt_defs *d, uint64_t f)
{
    if (f >= (uint64_t)d->max_func + 1 || d->fdefs == NULL)
        return NULL;
    const tt_def *def = NULL;
    if (f < d->max_fdefs) {
        uint32_t slot = d->slot_of[f];
        if (slot != 0 && slot <= d->num_fdefs && d->fdefs[slot - 1].opc == f)
            def = &d->fdefs[slot - 1];
    } else {
        for (uint32_t i = 0; i < d->num_fdefs; i++)
            if (d->fdefs[i].opc == f) {
                def = &d->fdefs[i];
                break;
            }
    }
    return def && def->active ? def : NULL;
}

const tt_def *tt_defs_instruction(const tt_defs *d, uint8_t op)
{
    for (uint32_t i = 0; i < d->num_idefs; i++)
        if (d->idefs[i].opc == op && d->idefs[i].active)
            return &d->idefs[i];
    return NULL;
}
