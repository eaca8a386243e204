// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq model "hdd": one head, IOs served one at a time in the order
 * the LUN received them.  Each pays seek + rotation + svc + xfer: seek is
 * 0 when the IO starts where the last one ended, else
 * 3 * seek_ms * distance / capacity (linear in the LBA distance, so a full
 * stroke is 3x the average seek of uniform random IO); rotation is half a
 * revolution at "rpm" (0 if rpm is 0 or the IO is sequential).
 * State: the head's position and when it is free.  KUnit:
 * lunq_model_hdd_test.c.
 */
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/time64.h>

#include "lunq_model_base.h"

static u64 lunq_hdd_start(struct lunq_model *m, u64 now, u64 sector,
			  u32 sectors)
{
	struct lunq_model_hdd_state *h = &m->hdd;
	u64 dist = sector > h->head ? sector - h->head : h->head - sector;
	u64 start = max(now, h->head_free);
	u64 pos = 0;

	if (dist) {
		u64 cap = max_t(u64, m->cfg.capacity, 1);

		pos = mul_u64_u64_div_u64(3ULL * m->cfg.seek_ms * NSEC_PER_MSEC,
					  min(dist, cap), cap);
		if (m->cfg.rpm)	/* half a revolution: 30 s / rpm */
			pos += div_u64(30ULL * NSEC_PER_SEC, m->cfg.rpm);
	}
	h->head = sector + sectors;
	h->head_free = start + lunq_model_busy(&m->cfg, sector, sectors, pos);
	return h->head_free;
}

static u64 lunq_hdd_free_at(const struct lunq_model *m)
{
	return m->hdd.head_free;
}

const struct lunq_model_ops lunq_model_hdd = {
	.name = "hdd",
	.start = lunq_hdd_start,
	.free_at = lunq_hdd_free_at,
};
