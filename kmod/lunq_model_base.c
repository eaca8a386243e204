// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq service-time models: what all models share, see
 * lunq_model_base.h.
 */
#include <linux/math64.h>
#include <linux/time64.h>
#include <linux/blk_types.h>

#include "lunq_model_base.h"

bool lunq_model_misaligned(const struct lunq_model_cfg *cfg, u64 sector,
			   u32 sectors)
{
	u64 mask = cfg->pblk > SECTOR_SIZE ? cfg->pblk / SECTOR_SIZE - 1 : 0;

	return (sector & mask) || (sectors & mask);
}

u64 lunq_xfer_ns(u32 sectors, u32 mbps)
{
	/* bytes / (mbps * 10^6 / s) = bytes * 1000 / mbps ns */
	return mbps ? div_u64((u64)sectors * SECTOR_SIZE * 1000, mbps) : 0;
}

u64 lunq_model_xfer(const struct lunq_model_cfg *cfg, u32 sectors)
{
	return lunq_xfer_ns(sectors, cfg->mbps);
}

u64 lunq_model_busy(const struct lunq_model_cfg *cfg, u64 sector,
		    u32 sectors, u64 extra)
{
	u64 t = (u64)cfg->svc_us * NSEC_PER_USEC + extra +
		lunq_model_xfer(cfg, sectors);

	if (cfg->rmw_x > 1 && lunq_model_misaligned(cfg, sector, sectors))
		t *= cfg->rmw_x;
	return t;
}
