// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq log-linear histograms, see lunq_hist.h.  Pure logic: builds in
 * the kernel and in userspace.
 */
#include "lunq_hist.h"

u32 lunq_hist_index(u64 v)
{
	return lunq_hist_idx(v);
}

u64 lunq_hist_lower(u32 idx)
{
	u32 g, sub;
	unsigned int k;

	if (idx < LUNQ_HIST_EXACT)
		return idx;
	if (idx >= LUNQ_HIST_OVERFLOW)
		return 1ULL << LUNQ_HIST_MAX_BITS;
	g = (idx - LUNQ_HIST_EXACT) / LUNQ_HIST_SUB;
	sub = (idx - LUNQ_HIST_EXACT) % LUNQ_HIST_SUB;
	k = g + LUNQ_HIST_SUB_BITS + 1;
	return (1ULL << k) + ((u64)sub << (k - LUNQ_HIST_SUB_BITS));
}

u64 lunq_hist_upper(u32 idx)
{
	if (idx >= LUNQ_HIST_OVERFLOW)
		return ~0ULL;
	return lunq_hist_lower(idx + 1) - 1;
}

u64 lunq_hist_mid(u32 idx)
{
	u64 lo = lunq_hist_lower(idx);

	if (idx >= LUNQ_HIST_OVERFLOW)
		return lo;
	return lo + (lunq_hist_upper(idx) - lo) / 2;
}

/*
 * What the 64-bit counts and a window's 32-bit ones (lunq_hist32_*())
 * share: @counts is u64[] when @wide, else u32[].
 */
static inline u64 lunq_hist_at(const void *counts, bool wide, u32 i)
{
	return wide ? ((const u64 *)counts)[i] : ((const u32 *)counts)[i];
}

/* The first bucket counted (LUNQ_HIST_BUCKETS: none). */
static u32 lunq_hist_first(const void *counts, bool wide)
{
	u32 i;

	for (i = 0; i < LUNQ_HIST_BUCKETS; i++)
		if (lunq_hist_at(counts, wide, i))
			return i;
	return LUNQ_HIST_BUCKETS;
}

static u64 lunq_hist_sum(const void *counts, bool wide)
{
	u64 n = 0;
	u32 i;

	for (i = 0; i < LUNQ_HIST_BUCKETS; i++)
		n += lunq_hist_at(counts, wide, i);
	return n;
}

/*
 * The bucket holding the @ppm-th percentile of @counts (LUNQ_HIST_BUCKETS
 * on return: empty); *@last: its rank is the last IO's.
 */
static u32 lunq_hist_pct_bucket(const void *counts, bool wide, u32 ppm,
				bool *last)
{
	u64 total = lunq_hist_sum(counts, wide), want, cum = 0;
	u32 i;

	*last = false;
	if (!total)
		return LUNQ_HIST_BUCKETS;
	if (ppm > 1000000)
		ppm = 1000000;
	/* ceil(ppm * total / 10^6), at least the first IO */
	want = (total / 1000000) * ppm +
	       ((total % 1000000) * ppm + 999999) / 1000000;
	if (!want)
		want = 1;
	*last = want == total;
	for (i = 0; i < LUNQ_HIST_BUCKETS; i++) {
		cum += lunq_hist_at(counts, wide, i);
		if (cum >= want)
			return i;
	}
	return LUNQ_HIST_BUCKETS;
}

/* Bucket @i's upper bound clamped to @max; 0 for none (empty). */
static u64 lunq_hist_upper_max(u32 i, u64 max)
{
	u64 up;

	if (i >= LUNQ_HIST_BUCKETS)
		return 0;
	up = lunq_hist_upper(i);
	return up < max ? up : max;
}

/* The lowest bucket's lower bound, 64-bit (@wide) or 32-bit counts. */
static u64 lunq_hist_min_of(const void *counts, bool wide)
{
	u32 i = lunq_hist_first(counts, wide);

	return i < LUNQ_HIST_BUCKETS ? lunq_hist_lower(i) : 0;
}

/* The @ppm percentile's bucket's upper bound, clamped to @max. */
static u64 lunq_hist_upper_of(const void *counts, bool wide, u64 max, u32 ppm)
{
	bool last;

	return lunq_hist_upper_max(lunq_hist_pct_bucket(counts, wide, ppm,
							 &last), max);
}

u64 lunq_hist_min(const u64 *counts)
{
	return lunq_hist_min_of(counts, true);
}

u64 lunq_hist_total(const u64 *counts)
{
	return lunq_hist_sum(counts, true);
}

u64 lunq_hist_add(u64 *to, const u64 *from)
{
	u64 n = 0;
	u32 i;

	for (i = 0; i < LUNQ_HIST_BUCKETS; i++) {
		to[i] += from[i];
		n += to[i];
	}
	return n;
}

u64 lunq_hist_percentile(const u64 *counts, u64 max, u32 ppm)
{
	bool last;
	u32 i = lunq_hist_pct_bucket(counts, true, ppm, &last);
	u64 mid;

	if (i >= LUNQ_HIST_BUCKETS)
		return 0;
	/* the largest value: @max, when it is known */
	if (last && max <= lunq_hist_upper(i))
		return max;
	mid = lunq_hist_mid(i);
	return mid < max ? mid : max;
}

u64 lunq_hist_percentile_upper(const u64 *counts, u64 max, u32 ppm)
{
	return lunq_hist_upper_of(counts, true, max, ppm);
}

u64 lunq_hist32_min(const u32 *counts)
{
	return lunq_hist_min_of(counts, false);
}

u64 lunq_hist32_total(const u32 *counts)
{
	return lunq_hist_sum(counts, false);
}

u64 lunq_hist32_add(u32 *to, const u32 *from)
{
	u64 n = 0;
	u32 i;

	for (i = 0; i < LUNQ_HIST_BUCKETS; i++) {
		to[i] += from[i];
		n += to[i];
	}
	return n;
}

u64 lunq_hist32_percentile_upper(const u32 *counts, u64 max, u32 ppm)
{
	return lunq_hist_upper_of(counts, false, max, ppm);
}

void lunq_hist_quantize(const u64 *counts, u64 *rows)
{
	u32 i;

	for (i = 0; i < LUNQ_QUANT_ROWS; i++)
		rows[i] = 0;
	for (i = 0; i < LUNQ_HIST_BUCKETS; i++) {
		u64 lo = lunq_hist_lower(i);

		rows[lo ? lunq_msb(lo) + 1 : 0] += counts[i];
	}
}
