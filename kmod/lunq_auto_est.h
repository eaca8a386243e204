/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq auto's memories, numbers only (lunq_auto_est.c): hold-offs that
 * grow, windowed extremes, Little's in-flight and an estimate's depth.
 * Also a pool's hold-off (lunq_pool.c).
 */
#ifndef LUNQ_AUTO_EST_H
#define LUNQ_AUTO_EST_H

#include <linux/types.h>

#define LUNQ_AUTO_SLOTS	4	/* sub-windows of a windowed min or max */
/* rates (IOPS) and auto:target's p99/mean ratio are kept x 16 */
#define LUNQ_AUTO_X16		16
/* the knee's estimate in 1/256 of a command: 95% of it is taken to 1/256 */
#define LUNQ_AUTO_X256		256

/**
 * struct lunq_holdoff - a hold-off that grows while what it holds off
 * keeps coming back
 * @base: the hold-off at first
 * @max: the longest
 * @from: from the @from-th repeat in a row (lunq_holdoff_again()) each
 *	repeat doubles it; lunq_holdoff_reset() starts over
 * @ns: the hold-off now
 * @n: repeats in a row (stops counting at @from)
 */
struct lunq_holdoff {
	u64 base, max;
	u32 from;
	u64 ns;
	u32 n;
};

/**
 * lunq_holdoff_init() - a hold-off at @base, doubling from the @from-th
 * repeat in a row up to @max
 * @h: the hold-off
 * @base: its first length, ns
 * @from: the repeat in a row that starts the doubling
 * @max: its longest, ns
 */
void lunq_holdoff_init(struct lunq_holdoff *h, u64 base, u32 from, u64 max);

/**
 * lunq_holdoff_reset() - back to @h->base, no repeat counted
 * @h: the hold-off
 */
void lunq_holdoff_reset(struct lunq_holdoff *h);

/**
 * lunq_holdoff_again() - another repeat in a row
 * @h: the hold-off
 *
 * Return: the hold-off now, ns.
 */
u64 lunq_holdoff_again(struct lunq_holdoff *h);

/**
 * struct lunq_auto_ext - the extreme of the values of the last horizon
 * (LUNQ_AUTO_SLOTS sub-windows of it)
 * @v: each sub-window's extreme
 * @epoch: each one's 1 + t / (horizon / LUNQ_AUTO_SLOTS); 0: empty
 */
struct lunq_auto_ext {
	u64 v[LUNQ_AUTO_SLOTS];
	u64 epoch[LUNQ_AUTO_SLOTS];
};

/**
 * lunq_auto_ext_put() - a value into a windowed extreme
 * @e: the extreme
 * @now: the time, ns
 * @horizon: its memory, ns
 * @v: the value
 * @want_max: a maximum (else a minimum)
 */
void lunq_auto_ext_put(struct lunq_auto_ext *e, u64 now, u64 horizon, u64 v,
		       bool want_max);

/**
 * lunq_auto_ext_get() - the extreme of the last @horizon ns
 * @e: the extreme
 * @now: the time, ns
 * @horizon: its memory, ns
 * @want_max: a maximum (else a minimum)
 *
 * Return: the extreme; 0 when there is none.
 */
u64 lunq_auto_ext_get(const struct lunq_auto_ext *e, u64 now, u64 horizon,
		      bool want_max);

/**
 * lunq_auto_ext_reset() - forget every value: @v alone from @now on
 * @e: the extreme
 * @now: the time, ns
 * @horizon: its memory, ns
 * @v: the value
 * @want_max: a maximum (else a minimum)
 */
void lunq_auto_ext_reset(struct lunq_auto_ext *e, u64 now, u64 horizon, u64 v,
			 bool want_max);

/**
 * lunq_auto_inflight256() - Little's in-flight
 * @rate: IOPS x 16
 * @svc: a mean service time, ns
 *
 * Return: @rate x @svc, commands in flight x 256.
 */
u64 lunq_auto_inflight256(u64 rate, u64 svc);

/**
 * lunq_auto_depth_of() - the depth of an estimate
 * @k256: the estimate, commands x 256
 *
 * Return: 95% of it + 0.3, rounded down; 1 at least.
 */
u32 lunq_auto_depth_of(u64 k256);

/**
 * lunq_auto_proven_depth() - a depth the search saw, where the estimate
 * agrees
 * @d: the estimate's depth
 * @k256: the estimate, commands x 256
 * @proven: the last depth the search saw grow the rate (or hold it)
 *
 * Return: @proven when higher than @d and @k256 reaches 95% of it, else @d.
 */
u32 lunq_auto_proven_depth(u32 d, u32 k256, u32 proven);

/* the rate curve's points: the depths of a search (1..256 by doubling) */
#define LUNQ_AUTO_PTS	8

/**
 * struct lunq_auto_curve - the rate seen at each of a few depths lately
 * (a LUN that sorts its own queue gains rate with every command more,
 * where Little's estimate -- its service time grows with the queue --
 * says it has no knee)
 * @depth: each point's depth; 0: empty
 * @rate: ... its rate, IOPS x 16 (the mean of its windows, the newest
 *	weighing half)
 * @at: ... when last seen, ns
 */
struct lunq_auto_curve {
	u32 depth[LUNQ_AUTO_PTS];
	u64 rate[LUNQ_AUTO_PTS];
	u64 at[LUNQ_AUTO_PTS];
};

/**
 * lunq_auto_curve_put() - a window's rate at a depth
 * @c: the curve
 * @now: the time, ns
 * @horizon: its memory, ns (a point older is forgotten)
 * @depth: the depth
 * @rate: the window's rate, IOPS x 16
 */
void lunq_auto_curve_put(struct lunq_auto_curve *c, u64 now, u64 horizon,
			 u32 depth, u64 rate);

/**
 * lunq_auto_curve_floor() - the least depth the curve allows
 * @c: the curve
 * @now: the time, ns
 * @horizon: its memory, ns
 * @t: the depth an estimate asks for
 * @d: the depth held (or the deepest point)
 * @rate: the rate to keep (IOPS x 16)
 * @held: @d is the depth held, where @rate was seen (else the deepest
 *	point, whose rate may be under it)
 *
 * A point at or above @t and under @d that lost more than 10% of @rate
 * shows that @t loses it too (the rate does not fall with more depth):
 * the least depth is then the lowest point above every such one, up to
 * @d, that keeps 95% of @rate.  When none does: @d if @held (it has
 * the rate); else the depths above the lost point lose the rate too and
 * the peak is under it -- the lowest point from @t that keeps 95%, else
 * @t (never the deepest point for want of one).
 *
 * Return: @t, or the depth above it the curve asks for.
 */
u32 lunq_auto_curve_floor(const struct lunq_auto_curve *c, u64 now,
			  u64 horizon, u32 t, u32 d, u64 rate, bool held);

/**
 * lunq_auto_curve_top() - the deepest point of the curve, and its best rate
 * @c: the curve
 * @now: the time, ns
 * @horizon: its memory, ns
 * @best: set to the highest rate of its points (IOPS x 16; 0: none)
 *
 * Return: the deepest point's depth; 0 when the curve is empty.
 */
u32 lunq_auto_curve_top(const struct lunq_auto_curve *c, u64 now,
			u64 horizon, u64 *best);

#endif /* LUNQ_AUTO_EST_H */
