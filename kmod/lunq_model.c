// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq service-time models, see lunq_model.h.
 */
#include <linux/minmax.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <linux/blk_types.h>

#include "lunq_model.h"

void lunq_model_init(struct lunq_model *m, const struct lunq_model_cfg *cfg)
{
	memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
}

void lunq_model_config(struct lunq_model *m, const struct lunq_model_cfg *cfg)
{
	m->cfg = *cfg;
}

bool lunq_model_misaligned(const struct lunq_model_cfg *cfg, u64 sector,
			   u32 sectors)
{
	u64 mask = cfg->pblk > SECTOR_SIZE ? cfg->pblk / SECTOR_SIZE - 1 : 0;

	return (sector & mask) || (sectors & mask);
}

/* svc + xfer for @sectors, times rmw_x when misaligned. */
static u64 lunq_model_busy(const struct lunq_model_cfg *cfg, u64 sector,
			   u32 sectors, u64 extra)
{
	u64 t = (u64)cfg->svc_us * NSEC_PER_USEC + extra;

	/* bytes / (mbps * 10^6 / s) = bytes * 1000 / mbps ns */
	if (cfg->mbps)
		t += div_u64((u64)sectors * SECTOR_SIZE * 1000, cfg->mbps);
	if (cfg->rmw_x > 1 && lunq_model_misaligned(cfg, sector, sectors))
		t *= cfg->rmw_x;
	return t;
}

static u64 lunq_model_flash(struct lunq_model *m, u64 now, u64 sector,
			    u32 sectors)
{
	u32 n = clamp_t(u32, m->cfg.channels, 1, LUNQ_MAX_CHANNELS);
	u32 i, best = 0;
	u64 start;

	for (i = 1; i < n; i++)
		if (m->chan_free[i] < m->chan_free[best])
			best = i;
	start = max(now, m->chan_free[best]);
	m->chan_free[best] = start + lunq_model_busy(&m->cfg, sector,
						     sectors, 0);
	return m->chan_free[best];
}

static u64 lunq_model_hdd(struct lunq_model *m, u64 now, u64 sector,
			  u32 sectors)
{
	u64 dist = sector > m->head ? sector - m->head : m->head - sector;
	u64 start = max(now, m->head_free);
	u64 pos = 0;

	if (dist) {
		u64 cap = max_t(u64, m->cfg.capacity, 1);

		pos = mul_u64_u64_div_u64(3ULL * m->cfg.seek_ms * NSEC_PER_MSEC,
					  min(dist, cap), cap);
		if (m->cfg.rpm)	/* half a revolution: 30 s / rpm */
			pos += div_u64(30ULL * NSEC_PER_SEC, m->cfg.rpm);
	}
	m->head = sector + sectors;
	m->head_free = start + lunq_model_busy(&m->cfg, sector, sectors, pos);
	return m->head_free;
}

u64 lunq_model_start(struct lunq_model *m, u64 now, u64 sector, u32 sectors)
{
	switch (m->cfg.kind) {
	case LUNQ_MODEL_FIXED:
		return now + lunq_model_busy(&m->cfg, sector, sectors, 0);
	case LUNQ_MODEL_FLASH:
		return lunq_model_flash(m, now, sector, sectors);
	case LUNQ_MODEL_HDD:
		return lunq_model_hdd(m, now, sector, sectors);
	default:
		return now;
	}
}
