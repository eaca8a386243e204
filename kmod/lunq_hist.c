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

u64 lunq_hist_min(const u64 *counts)
{
	u32 i;

	for (i = 0; i < LUNQ_HIST_BUCKETS; i++)
		if (counts[i])
			return lunq_hist_lower(i);
	return 0;
}

u64 lunq_hist_total(const u64 *counts)
{
	u64 n = 0;
	u32 i;

	for (i = 0; i < LUNQ_HIST_BUCKETS; i++)
		n += counts[i];
	return n;
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
	u64 total = lunq_hist_total(counts), want, cum = 0;
	u32 i;

	if (!total)
		return 0;
	if (ppm > 1000000)
		ppm = 1000000;
	/* ceil(ppm * total / 10^6), at least the first IO */
	want = (total / 1000000) * ppm +
	       ((total % 1000000) * ppm + 999999) / 1000000;
	if (!want)
		want = 1;
	for (i = 0; i < LUNQ_HIST_BUCKETS; i++) {
		cum += counts[i];
		if (cum >= want) {
			u64 up = lunq_hist_upper(i);

			return up < max ? up : max;
		}
	}
	return max;
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
