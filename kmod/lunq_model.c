// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq service-time models: the family's front, see lunq_model.h.
 * Each model is in lunq_model_<name>.c, what they share in
 * lunq_model_base.c.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/blk_types.h>

#include "lunq_model.h"

static const struct lunq_model_ops *const lunq_models[] = {
	[LUNQ_MODEL_FIXED] = &lunq_model_fixed,
	[LUNQ_MODEL_FLASH] = &lunq_model_flash,
	[LUNQ_MODEL_HDD] = &lunq_model_hdd,
};

const struct lunq_model_ops *lunq_model_ops(enum lunq_model_kind kind)
{
	return (unsigned int)kind < ARRAY_SIZE(lunq_models) ?
		lunq_models[kind] : NULL;
}

/*
 * bus_mbps: one transfer path for the whole LUN, booked in arrival order
 * from the moment the LUN accepts a command; the command completes when
 * both its media (or cache) time and its transfer are done.
 */
static u64 lunq_bus(struct lunq_model *m, u64 now, u32 sectors, u64 t)
{
	if (!m->cfg.bus_mbps)
		return t;
	m->bus_free = max(now, m->bus_free) +
		      div_u64((u64)sectors * SECTOR_SIZE * 1000,
			      m->cfg.bus_mbps);
	return max(t, m->bus_free);
}

u64 lunq_model_io(struct lunq_model *m, u64 now, u64 sector, u32 sectors,
		  enum lunq_model_dir dir)
{
	u64 t;

	if (!m->ops)
		return now;
	lunq_wc_advance(m, now);
	if (dir == LUNQ_MD_WRITE && m->cfg.wce)
		t = lunq_wc_write(m, now, sector, sectors);
	else
		t = m->ops->start(m, now, sector, sectors);
	return lunq_bus(m, now, sectors, t);
}

u64 lunq_model_flush(struct lunq_model *m, u64 now)
{
	u64 t;

	if (!m->ops)
		return now;
	t = lunq_wc_flush(m, now);
	if (m->ops->flush)
		t = max(t, m->ops->flush(m, now));
	return t;
}

u64 lunq_model_dirty(const struct lunq_model *m)
{
	return m->wc.dirty;
}

void lunq_model_init(struct lunq_model *m, const struct lunq_model_cfg *cfg)
{
	memset(m, 0, sizeof(*m));
	lunq_model_config(m, cfg);
}

void lunq_model_config(struct lunq_model *m, const struct lunq_model_cfg *cfg)
{
	m->cfg = *cfg;
	m->ops = lunq_model_ops(cfg->kind);
}
