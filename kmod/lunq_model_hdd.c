// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq model "hdd": one head, IOs served one at a time in the order
 * the LUN received them.  Each pays seek + rotation + svc + xfer: seek is
 * 0 when the IO starts where the last one ended, else
 * 3 * seek_ms * distance / capacity (linear in the LBA distance, so a full
 * stroke is 3x the average seek of uniform random IO; seek_curve:sqrt,
 * settle + a part in the root of the distance, same average); rotation
 * is half a
 * revolution at "rpm" (0 if rpm is 0 or the IO is sequential).
 * State: the head's position and when it is free.  With lun_order:sptf
 * the commands the LUN accepted while the head was busy wait in the
 * drive's queue, and when the head frees the one of shortest positioning
 * time (seek + rotation: the nearest, a sequential one first) starts, as
 * an NCQ drive orders them (no aging: a far command can wait long).
 * KUnit: lunq_model_hdd_test.c, lunq_model_sptf_test.c.
 */
#include <linux/math64.h>
#include <linux/limits.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/time64.h>

#include "lunq_model_base.h"

/*
 * seek_curve:sqrt.  A seek costs the settle time, then a part that grows
 * with the square root of the distance (the arm accelerates half the
 * way and brakes the other half; Ruemmler & Wilkes, "An introduction to
 * disk drive modeling", IEEE Computer 1994), scaled so that uniformly
 * random IO still averages seek_ms: with the distance a fraction x of
 * the stroke (density 2(1-x)), E[sqrt x] = 8/15, so the part is
 * (seek_ms - settle) x 15/8 x sqrt(x).  Short seeks cost more than the
 * linear curve says (1/30 of the stroke: 3.4 ms, not 0.8, at 8 ms), as
 * they do on a disk -- what a host elevator's short hops pay.
 */
#define LUNQ_SEEK_SETTLE_NS	1000000	/* shortest seek with settle, ~1 ms at 7200 rpm */
#define LUNQ_SQRT_ONE		(1ULL << 16)	/* sqrt of the stroke, fixed point */

static u64 lunq_hdd_seek_sqrt(const struct lunq_model_cfg *cfg, u64 cap,
			      u64 dist)
{
	u64 avg = (u64)cfg->seek_ms * NSEC_PER_MSEC, frac;

	if (avg <= LUNQ_SEEK_SETTLE_NS)
		return avg;
	/* the fraction of the stroke in 2^32 units, its root in 2^16 */
	frac = mul_u64_u64_div_u64(min(dist, cap), LUNQ_SQRT_ONE * LUNQ_SQRT_ONE,
				   cap);
	return LUNQ_SEEK_SETTLE_NS +
	       mul_u64_u64_div_u64((avg - LUNQ_SEEK_SETTLE_NS) * 15 / 8,
				   int_sqrt64(frac), LUNQ_SQRT_ONE);
}

u64 lunq_hdd_position(const struct lunq_model_cfg *cfg, u64 cap, u64 head,
		      u64 sector)
{
	u64 dist = sector > head ? sector - head : head - sector;
	u64 pos;

	if (!dist)
		return 0;
	cap = max_t(u64, cap, 1);
	if (cfg->seek_curve == LUNQ_SEEK_SQRT)
		pos = lunq_hdd_seek_sqrt(cfg, cap, dist);
	else
		pos = mul_u64_u64_div_u64(3ULL * cfg->seek_ms * NSEC_PER_MSEC,
					  min(dist, cap), cap);
	if (cfg->rpm)	/* half a revolution: 30 s / rpm */
		pos += div_u64(30ULL * NSEC_PER_SEC, cfg->rpm);
	return pos;
}

/* Seek + rotation from the head's position to @sector. */
static u64 lunq_hdd_pos(const struct lunq_model *m, u64 sector)
{
	return lunq_hdd_position(&m->cfg, m->cfg.capacity, m->hdd.head,
				 sector);
}

static u64 lunq_hdd_start(struct lunq_model *m, u64 now, u64 sector,
			  u32 sectors)
{
	struct lunq_model_hdd_state *h = &m->hdd;
	u64 start = max(now, h->head_free);
	u64 pos = lunq_hdd_pos(m, sector);

	h->head = sector + sectors;
	h->head_free = start + lunq_model_busy(&m->cfg, sector, sectors, pos);
	return h->head_free;
}

bool lunq_hdd_enqueue(struct lunq_model *m, u64 now, u64 sector,
		      u32 sectors, void *cookie)
{
	struct lunq_model_hdd_state *h = &m->hdd;

	if (h->nq >= LUNQ_DRIVE_Q)
		return false;
	h->q[h->nq++] = (struct lunq_model_dq) {
		.cookie = cookie, .t = now, .sector = sector,
		.sectors = sectors, .in_drive = 1,
	};
	return true;
}

void *lunq_hdd_pick(struct lunq_model *m, u64 now, u64 *finish,
		    u32 *sectors)
{
	struct lunq_model_hdd_state *h = &m->hdd;
	u32 i, best = 0, first = 0;
	u64 at, best_pos = U64_MAX;
	void *cookie;

	if (!h->nq || h->head_free > now)
		return NULL;
	for (i = 1; i < h->nq; i++)
		if (h->q[i].t < h->q[first].t)
			first = i;
	/*
	 * The head frees at head_free: the commands there by then compete;
	 * if none was (the head went idle), the first to arrive starts.
	 */
	at = max(h->head_free, h->q[first].t);
	best = first;
	if (m->cfg.order == LUNQ_ORDER_SPTF) {
		for (i = 0; i < h->nq; i++) {
			u64 pos;

			if (h->q[i].t > at)
				continue;
			pos = lunq_hdd_pos(m, h->q[i].sector);
			if (pos < best_pos ||
			    (pos == best_pos && h->q[i].t < h->q[best].t)) {
				best_pos = pos;
				best = i;
			}
		}
	}
	cookie = h->q[best].cookie;
	*sectors = h->q[best].sectors;
	*finish = lunq_hdd_start(m, at, h->q[best].sector,
				 h->q[best].sectors);
	h->q[best] = h->q[--h->nq];
	return cookie;
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
