// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq model "array": "spindles" hdd spindles striped by "stripe_kb"
 * (RAID 0 over the LUN's capacity).  Stripe unit s of the LUN lives on
 * spindle s % spindles at (s / spindles) x stripe; an IO is cut at the
 * stripe units it crosses, each part served by its spindle as the hdd
 * model serves an IO (seek over the spindle's share of the capacity +
 * rotation + svc + xfer, in the order the array received them), the parts
 * on different spindles at the same time; the IO completes with its last
 * part.  With the write cache (wce) in front, what seed 004 calls "most
 * disk arrays": many drives and a cache.  State: each spindle's head and
 * when it is free.  KUnit: lunq_model_array_test.c.
 */
#include <linux/math64.h>
#include <linux/minmax.h>

#include "lunq_model_base.h"

static u32 lunq_array_n(const struct lunq_model *m)
{
	return clamp_t(u32, m->cfg.spindles, 1, LUNQ_MAX_SPINDLES);
}

static u64 lunq_array_start(struct lunq_model *m, u64 now, u64 sector,
			    u32 sectors)
{
	struct lunq_model_array_state *a = &m->array;
	u32 n = lunq_array_n(m);
	u64 unit = max_t(u64, (u64)m->cfg.stripe_kb * 2, 1);
	u64 cap = max_t(u64, div_u64(m->cfg.capacity, n), 1);
	u64 end = now;

	while (sectors) {
		u64 off, stripe = div64_u64_rem(sector, unit, &off);
		u32 len = min_t(u64, sectors, unit - off);
		u32 sp = do_div(stripe, n);	/* stripe becomes stripe / n */
		u64 local = stripe * unit + off;
		u64 start = max(now, a->head_free[sp]);
		u64 pos = lunq_hdd_position(&m->cfg, cap, a->head[sp], local);

		a->head[sp] = local + len;
		a->head_free[sp] = start + lunq_model_busy(&m->cfg, local, len,
							   pos);
		end = max(end, a->head_free[sp]);
		sector += len;
		sectors -= len;
	}
	return end;
}

static u64 lunq_array_free_at(const struct lunq_model *m)
{
	u32 i, n = lunq_array_n(m);
	u64 t = m->array.head_free[0];

	for (i = 1; i < n; i++)
		t = min(t, m->array.head_free[i]);
	return t;
}

const struct lunq_model_ops lunq_model_array = {
	.name = "array",
	.start = lunq_array_start,
	.free_at = lunq_array_free_at,
};
