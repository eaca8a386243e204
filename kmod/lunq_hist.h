/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq log-linear histograms: the bucket layout shared by the kernel
 * (latency, size histograms) and userspace (lunqctl, lunqbench), so counts
 * from either side can be merged bucket by bucket.  Pure logic, builds in
 * both (lunq_pure.h).
 *
 * Layout (values are ns, bytes, ...; any u64), HdrHistogram's log-linear
 * buckets with 5 significant bits:
 *   v < 64                 one bucket per value (index v);
 *   2^k <= v < 2^(k+1)     for k = 6 .. 40: 32 linear sub-buckets of width
 *                          2^(k-5), so every bucket is at most 1/32
 *                          (3.1%) of its lower bound wide, and its
 *                          midpoint within 1/64 (1.6%) of any value in it;
 *   v >= 2^41              one overflow bucket (2^41 ns is 36.6 minutes).
 * 1185 buckets, 9.3 KiB of u64 counts: the resolution that percentiles
 * within 2% of the exact value need (the midpoint of a bucket 1/32 wide),
 * a quarter of 128 sub-buckets' 35 KiB.
 * Every bucket lies inside one power-of-two range, so DTrace-style
 * quantize rows are exact sums of buckets.
 */
#ifndef LUNQ_HIST_H
#define LUNQ_HIST_H

#include "lunq_pure.h"

#define LUNQ_HIST_SUB_BITS	5
#define LUNQ_HIST_SUB		(1U << LUNQ_HIST_SUB_BITS)	/* 32 */
#define LUNQ_HIST_EXACT		(2 * LUNQ_HIST_SUB)		/* 64 */
#define LUNQ_HIST_MAX_BITS	41	/* values below 2^41 are binned */
#define LUNQ_HIST_OVERFLOW	(LUNQ_HIST_EXACT + \
	(LUNQ_HIST_MAX_BITS - LUNQ_HIST_SUB_BITS - 1) * LUNQ_HIST_SUB)
#define LUNQ_HIST_BUCKETS	(LUNQ_HIST_OVERFLOW + 1)	/* 1185 */

/* Rows of a quantize view: row 0 holds 0, row i (1..64) [2^(i-1), 2^i). */
#define LUNQ_QUANT_ROWS		65

/* Index of the most significant set bit of @v (v > 0). */
static inline unsigned int lunq_msb(u64 v)
{
#ifdef __KERNEL__
	return fls64(v) - 1;
#else
	return 63 - __builtin_clzll(v);
#endif
}

/* Index of the first bucket of 2^@k, @k >= 6, as a constant expression. */
#define LUNQ_HIST_IDX_POW2(k)	(LUNQ_HIST_EXACT + \
	((k) - LUNQ_HIST_SUB_BITS - 1) * LUNQ_HIST_SUB)

/* Index of the bucket holding @v: one fls64(), inline for the IO path. */
static inline u32 lunq_hist_idx(u64 v)
{
	unsigned int k;

	if (v < LUNQ_HIST_EXACT)
		return (u32)v;
	k = lunq_msb(v);
	if (k >= LUNQ_HIST_MAX_BITS)
		return LUNQ_HIST_OVERFLOW;
	return LUNQ_HIST_IDX_POW2(k) +
	       (u32)((v >> (k - LUNQ_HIST_SUB_BITS)) & (LUNQ_HIST_SUB - 1));
}

/* Index of the bucket holding 2^@k (the first of its power of two). */
static inline u32 lunq_hist_idx_pow2(unsigned int k)
{
	if (k < LUNQ_HIST_SUB_BITS + 1)
		return 1U << k;
	if (k >= LUNQ_HIST_MAX_BITS)
		return LUNQ_HIST_OVERFLOW;
	return LUNQ_HIST_EXACT + (k - LUNQ_HIST_SUB_BITS - 1) * LUNQ_HIST_SUB;
}

/* Index of the bucket holding @v (lunq_hist_idx(), out of line). */
u32 lunq_hist_index(u64 v);

/* Smallest value of bucket @idx (the overflow bucket: 2^41). */
u64 lunq_hist_lower(u32 idx);

/* Largest value of bucket @idx (the overflow bucket: U64_MAX). */
u64 lunq_hist_upper(u32 idx);

/* The value that stands for bucket @idx: its midpoint (overflow: 2^41). */
u64 lunq_hist_mid(u32 idx);

/*
 * The @ppm-th (parts per million: 990000 = p99, 999900 = p99.99)
 * percentile of @counts (LUNQ_HIST_BUCKETS of them): the midpoint of the
 * first bucket whose cumulative count reaches ceil(ppm * total / 10^6)
 * (the value itself below 64), clamped to @max (the exact largest value
 * recorded, and the answer when the rank is the last IO): within 1/64 of
 * the exact nearest-rank percentile.  0 when empty.
 */
u64 lunq_hist_percentile(const u64 *counts, u64 max, u32 ppm);

/*
 * The same rank's bucket upper bound, clamped to @max: never below the
 * exact percentile (at most 1/32 above it), what a controller comparing a
 * percentile with a bound needs (lunq_window.c).
 */
u64 lunq_hist_percentile_upper(const u64 *counts, u64 max, u32 ppm);

/* The lower bound of the lowest bucket counted in @counts, 0: none. */
u64 lunq_hist_min(const u64 *counts);

/* Sum of @counts. */
u64 lunq_hist_total(const u64 *counts);

/* Add @from to @to (bucket by bucket); returns the sum of @to. */
u64 lunq_hist_add(u64 *to, const u64 *from);

/*
 * A window's counts (lunq_window.c): the same buckets in 32 bits, half the
 * memory.  A window counts fewer than 2^32 IOs, and a window's counts are
 * the difference of two 32-bit truncations of the live counts, exact
 * modulo 2^32.  As the functions above.
 */
u64 lunq_hist32_min(const u32 *counts);
u64 lunq_hist32_total(const u32 *counts);
u64 lunq_hist32_add(u32 *to, const u32 *from);
u64 lunq_hist32_percentile_upper(const u32 *counts, u64 max, u32 ppm);

/* Re-bin @counts into LUNQ_QUANT_ROWS power-of-two rows (exact). */
void lunq_hist_quantize(const u64 *counts, u64 *rows);

#endif /* LUNQ_HIST_H */
