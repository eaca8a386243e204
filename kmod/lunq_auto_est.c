// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq auto's memories, numbers only (no struct lunq_auto): hold-offs
 * that grow, windowed extremes, Little's in-flight and the depth of an
 * estimate.
 */
#include <linux/minmax.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "lunq_auto_est.h"

/* a hold-off that grows doubles */
#define LUNQ_HOLDOFF_GROWTH	2
/*
 * Little's product's operands capped so that it fits in 64 bits (2^26 x
 * 2^33 x 16 = 2^63): 4 million IOPS (x 16), a service time of 8.6 s
 */
#define LUNQ_AUTO_RATE_CAP	(1ULL << 26)
#define LUNQ_AUTO_SVC_CAP	(1ULL << 33)
/*
 * A depth is 95% of the estimate: one command over the knee doubles a
 * service time, and the host's own completion time inflates the estimate
 * by a few percent
 */
#define LUNQ_AUTO_KNEE_PCT	95
/* ... + 0.3 of a command (x 256) before rounding down */
#define LUNQ_AUTO_KNEE_ROUND	77

/*
 * The rate curve: a depth lost rate under 90% of it (a window's own
 * noise: a tenth, 16 IOs of a disk, or a flash's completions in batches)
 */
#define LUNQ_AUTO_LOST_PCT	90
/* ... and keeps it at 95% (the estimate's margin, LUNQ_AUTO_KNEE_PCT) */
#define LUNQ_AUTO_KEEP_PCT	95
/* ... a point's rate: the newest window weighs half (a disk's 16 IOs: 10%) */
#define LUNQ_AUTO_PT_DEN	2

/* ---- hold-offs ---- */

void lunq_holdoff_init(struct lunq_holdoff *h, u64 base, u32 from, u64 max)
{
	h->base = base;
	h->from = from;
	h->max = max;
	lunq_holdoff_reset(h);
}

void lunq_holdoff_reset(struct lunq_holdoff *h)
{
	h->ns = h->base;
	h->n = 0;
}

u64 lunq_holdoff_again(struct lunq_holdoff *h)
{
	if (h->n < h->from)
		h->n++;
	if (h->n >= h->from)
		h->ns = min(LUNQ_HOLDOFF_GROWTH * h->ns, h->max);
	return h->ns;
}

/* ---- windowed extremes: LUNQ_AUTO_SLOTS sub-windows of horizon/SLOTS ---- */

static u64 ext_epoch(u64 now, u64 horizon)
{
	return div64_u64(now, max_t(u64, horizon / LUNQ_AUTO_SLOTS, 1)) + 1;
}

void lunq_auto_ext_put(struct lunq_auto_ext *e, u64 now, u64 horizon, u64 v,
		    bool want_max)
{
	u64 ep = ext_epoch(now, horizon);
	unsigned int i = ep % LUNQ_AUTO_SLOTS;

	if (e->epoch[i] != ep) {
		e->epoch[i] = ep;
		e->v[i] = v;
	} else {
		e->v[i] = want_max ? max(e->v[i], v) : min(e->v[i], v);
	}
}

/* The extreme of the last LUNQ_AUTO_SLOTS sub-windows; 0 when none. */
u64 lunq_auto_ext_get(const struct lunq_auto_ext *e, u64 now, u64 horizon,
		   bool want_max)
{
	u64 ep = ext_epoch(now, horizon), best = 0;
	bool any = false;
	unsigned int i;

	for (i = 0; i < LUNQ_AUTO_SLOTS; i++) {
		if (!e->epoch[i] || e->epoch[i] + LUNQ_AUTO_SLOTS <= ep ||
		    e->epoch[i] > ep)
			continue;
		if (!any || (want_max ? e->v[i] > best : e->v[i] < best))
			best = e->v[i];
		any = true;
	}
	return best;
}

/* Forget every value: @v alone from @now on. */
void lunq_auto_ext_reset(struct lunq_auto_ext *e, u64 now, u64 horizon, u64 v,
		      bool want_max)
{
	memset(e, 0, sizeof(*e));
	lunq_auto_ext_put(e, now, horizon, v, want_max);
}

/* @rate (IOPS x 16) x @svc (ns): commands in flight, x 256. */
u64 lunq_auto_inflight256(u64 rate, u64 svc)
{
	/* IOPS x 16 x ns x 256 / (16 x 10^9); rate <= 2^26, svc <= 2^33 */
	return div64_u64(min_t(u64, rate, LUNQ_AUTO_RATE_CAP) *
			 min_t(u64, svc, LUNQ_AUTO_SVC_CAP) *
			 (LUNQ_AUTO_X256 / LUNQ_AUTO_X16), NSEC_PER_SEC);
}

/* A depth from an estimate x 256: 95% of it + 0.3, rounded down. */
u32 lunq_auto_depth_of(u64 k256)
{
	return max_t(u32, div64_u64(k256 * LUNQ_AUTO_KNEE_PCT / 100 +
				       LUNQ_AUTO_KNEE_ROUND, LUNQ_AUTO_X256), 1);
}

/*
 * @d, the estimate's depth, or @proven if higher -- a depth the search
 * saw grow the rate (up) or hold it (down) -- when the estimate @k256
 * reaches 95% of it: the LUN showed it takes that many, and Little's
 * in-flight agrees within noise.  The estimate's 95% margin
 * (lunq_auto_depth_of()) is for a knee the search did not confirm; at a
 * confirmed one it would hold one command under it.
 */
u32 lunq_auto_proven_depth(u32 d, u32 k256, u32 proven)
{
	if ((u64)proven * LUNQ_AUTO_X256 * LUNQ_AUTO_KNEE_PCT <=
	    (u64)k256 * 100)
		return max(d, proven);
	return d;
}

/* ---- the rate curve ---- */

static bool pt_fresh(const struct lunq_auto_curve *c, int i, u64 now,
		     u64 horizon)
{
	return c->depth[i] && now - c->at[i] <= horizon;
}

void lunq_auto_curve_put(struct lunq_auto_curve *c, u64 now, u64 horizon,
			 u32 depth, u64 rate)
{
	int i, slot = 0;

	for (i = 0; i < LUNQ_AUTO_PTS; i++) {
		if (c->depth[i] == depth) {
			c->rate[i] = pt_fresh(c, i, now, horizon) ?
				(c->rate[i] * (LUNQ_AUTO_PT_DEN - 1) + rate) /
				LUNQ_AUTO_PT_DEN : rate;
			c->at[i] = now;
			return;
		}
		/* else an empty point, or the oldest */
		if (!c->depth[slot])
			continue;
		if (!c->depth[i] || c->at[i] < c->at[slot])
			slot = i;
	}
	c->depth[slot] = depth;
	c->rate[slot] = rate;
	c->at[slot] = now;
}

u32 lunq_auto_curve_floor(const struct lunq_auto_curve *c, u64 now,
			  u64 horizon, u32 t, u32 d, u64 rate, bool held)
{
	u32 lost = 0, above = 0, below = 0;
	int i;

	for (i = 0; i < LUNQ_AUTO_PTS; i++)
		if (pt_fresh(c, i, now, horizon) && c->depth[i] >= t &&
		    c->depth[i] < d &&
		    c->rate[i] * 100 < rate * LUNQ_AUTO_LOST_PCT)
			lost = max(lost, c->depth[i]);
	if (!lost)
		return t;
	/* the lowest point that keeps the rate: above every lost one, or under */
	for (i = 0; i < LUNQ_AUTO_PTS; i++) {
		if (!pt_fresh(c, i, now, horizon) || c->depth[i] < t ||
		    c->depth[i] > d ||
		    c->rate[i] * 100 < rate * LUNQ_AUTO_KEEP_PCT)
			continue;
		if (c->depth[i] > lost)
			above = above ? min(above, c->depth[i]) : c->depth[i];
		else
			below = below ? min(below, c->depth[i]) : c->depth[i];
	}
	if (above)
		return above;
	/*
	 * None above: @d held has the rate (it is its window's); a top
	 * that does not keep it is no answer -- the peak is under the lost
	 * point (a LUN past it), the lowest point that keeps it, else @t
	 */
	return held ? d : below ?: t;
}

u32 lunq_auto_curve_top(const struct lunq_auto_curve *c, u64 now,
			u64 horizon, u64 *best)
{
	u32 top = 0;
	int i;

	*best = 0;
	for (i = 0; i < LUNQ_AUTO_PTS; i++)
		if (pt_fresh(c, i, now, horizon)) {
			top = max(top, c->depth[i]);
			*best = max(*best, c->rate[i]);
		}
	return top;
}
