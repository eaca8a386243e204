// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq model "flash": "channels" parallel channels; an IO takes the
 * channel that frees first and occupies it svc + xfer, so throughput grows
 * with queue depth up to the channel count, then queueing sets in.
 * State: when each channel is free.  KUnit: lunq_model_flash_test.c.
 */
#include <linux/minmax.h>

#include "lunq_model_base.h"

/* The channel that frees first. */
static u32 lunq_flash_first(const struct lunq_model *m)
{
	const u64 *chan_free = m->flash.chan_free;
	u32 n = clamp_t(u32, m->cfg.channels, 1, LUNQ_MAX_CHANNELS);
	u32 i, best = 0;

	for (i = 1; i < n; i++)
		if (chan_free[i] < chan_free[best])
			best = i;
	return best;
}

static u64 lunq_flash_start(struct lunq_model *m, u64 now, u64 sector,
			    u32 sectors)
{
	u64 *chan_free = m->flash.chan_free;
	u32 best = lunq_flash_first(m);
	u64 start;

	start = max(now, chan_free[best]);
	chan_free[best] = start + lunq_model_busy(&m->cfg, sector, sectors, 0);
	return chan_free[best];
}

static u64 lunq_flash_free_at(const struct lunq_model *m)
{
	return m->flash.chan_free[lunq_flash_first(m)];
}

const struct lunq_model_ops lunq_model_flash = {
	.name = "flash",
	.start = lunq_flash_start,
	.free_at = lunq_flash_free_at,
};
