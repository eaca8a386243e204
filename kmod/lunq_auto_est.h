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
/* the knee's estimate in 1/256 of a command: 95% of it stays exact */
#define LUNQ_AUTO_X256		256

/*
 * A hold-off that grows while what it holds off keeps coming back: @base
 * at first; from the @from-th repeat in a row (lunq_holdoff_again()) each
 * repeat doubles it, up to @max; lunq_holdoff_reset() starts over.
 */
struct lunq_holdoff {
	u64 base, max;
	u32 from;
	u64 ns;			/* the hold-off now */
	u32 n;			/* repeats in a row (stops counting at @from) */
};

void lunq_holdoff_init(struct lunq_holdoff *h, u64 base, u32 from, u64 max);
void lunq_holdoff_reset(struct lunq_holdoff *h);
/* Another repeat in a row.  Returns the hold-off now. */
u64 lunq_holdoff_again(struct lunq_holdoff *h);

/* The extreme of the values of the last @horizon ns (LUNQ_AUTO_SLOTS). */
struct lunq_auto_ext {
	u64 v[LUNQ_AUTO_SLOTS];
	u64 epoch[LUNQ_AUTO_SLOTS];	/* 1 + t / (horizon / SLOTS); 0 empty */
};

/* Put @v at @now into the extreme of the last @horizon ns. */
void lunq_auto_ext_put(struct lunq_auto_ext *e, u64 now, u64 horizon, u64 v,
		       bool want_max);
/* The extreme of the last @horizon ns at @now; 0 when none. */
u64 lunq_auto_ext_get(const struct lunq_auto_ext *e, u64 now, u64 horizon,
		      bool want_max);
/* Forget every value: @v alone from @now on. */
void lunq_auto_ext_reset(struct lunq_auto_ext *e, u64 now, u64 horizon, u64 v,
			 bool want_max);
/* @rate (IOPS x 16) x @svc (ns): commands in flight, x 256. */
u64 lunq_auto_inflight256(u64 rate, u64 svc);
/* A depth from an estimate x 256 (95% of it, rounded down; 1 at least). */
u32 lunq_auto_depth_of(u64 k256);
/* @d, or @proven when the estimate @k256 reaches 95% of it. */
u32 lunq_auto_proven_depth(u32 d, u32 k256, u32 proven);

#endif /* LUNQ_AUTO_EST_H */
