// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace unit test of kmod/lunq_hist.c (the log-linear histogram shared
 * by the kernel, lunqctl and lunqbench), compiled from the module's own
 * source.  Prints one "ok N name" / "not ok N name" line per check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../kmod/lunq_hist.h"

#define TAP_PREFIX "hist-"
#include "tap.h"

static u64 counts[LUNQ_HIST_BUCKETS];

static void record(u64 v, u64 times)
{
	counts[lunq_hist_index(v)] += times;
}

int main(void)
{
	u64 rows[LUNQ_QUANT_ROWS], v, seed = 1;
	int ok_layout = 1, ok_width = 1, ok_mid = 1, ok_range = 1, ok_mono = 1;
	u32 i, prev = 0;

	ok(LUNQ_HIST_BUCKETS == 1185, "bucket-count");
	ok(lunq_hist_index(0) == 0 && lunq_hist_index(63) == 63 &&
	   lunq_hist_index(64) == 64 && lunq_hist_index(65) == 64 &&
	   lunq_hist_index(66) == 65 && lunq_hist_index(127) == 95 &&
	   lunq_hist_index(128) == 96, "index-edges");
	ok(lunq_hist_index((1ULL << 41) - 1) == LUNQ_HIST_OVERFLOW - 1 &&
	   lunq_hist_index(1ULL << 41) == LUNQ_HIST_OVERFLOW &&
	   lunq_hist_index(~0ULL) == LUNQ_HIST_OVERFLOW, "index-overflow");

	/* buckets tile [0, 2^41) without gap or overlap, each <= 1/32 wide */
	for (i = 0; i + 1 < LUNQ_HIST_BUCKETS; i++) {
		u64 lo = lunq_hist_lower(i), up = lunq_hist_upper(i);

		if (lunq_hist_lower(i + 1) != up + 1 || lunq_hist_index(lo) != i ||
		    lunq_hist_index(up) != i)
			ok_layout = 0;
		if (lo >= 64 && (up - lo + 1) * 32 > lo)
			ok_width = 0;
		/* the midpoint within 1/64 of every value of the bucket */
		if ((lunq_hist_mid(i) - lo) * 64 > lo ||
		    (up - lunq_hist_mid(i)) * 64 > lo)
			ok_mid = 0;
	}
	ok(ok_layout, "tiles-without-gaps");
	ok(ok_width, "width-at-most-1/32");
	ok(ok_mid, "midpoint-within-1/64");
	ok(lunq_hist_lower(LUNQ_HIST_OVERFLOW) == 1ULL << 41 &&
	   lunq_hist_upper(LUNQ_HIST_OVERFLOW) == ~0ULL, "overflow-bounds");

	/* random values: lower <= v <= upper, index monotonic in v */
	for (i = 0; i < 200000; i++) {
		u32 idx;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		v = seed >> (seed & 63);
		idx = lunq_hist_index(v);
		if (lunq_hist_lower(idx) > v || lunq_hist_upper(idx) < v)
			ok_range = 0;
	}
	for (v = 0; v < (1ULL << 20); v += 7) {
		if (lunq_hist_index(v) < prev)
			ok_mono = 0;
		prev = lunq_hist_index(v);
	}
	ok(ok_range, "value-within-its-bucket");
	ok(ok_mono, "index-monotonic");

	/* percentiles: 100 IOs of 1..100 us */
	memset(counts, 0, sizeof(counts));
	for (v = 1; v <= 100; v++)
		record(v * 1000, 1);
	ok(lunq_hist_total(counts) == 100, "total");
	v = lunq_hist_percentile(counts, 100000, 500000);
	ok(v >= 50000 - 50000 / 64 && v <= 50000 + 50000 / 64, "p50-within-1/64");
	v = lunq_hist_percentile(counts, 100000, 990000);
	ok(v >= 99000 - 99000 / 64 && v <= 99000 + 99000 / 64, "p99-within-1/64");
	ok(lunq_hist_percentile(counts, 100000, 1000000) == 100000,
	   "p100-clamped-to-max");
	ok(lunq_hist_percentile(counts, 100000, 0) ==
	   lunq_hist_mid(lunq_hist_index(1000)), "p0-first-bucket");
	/* ceil: 1 slow IO in 10000: p99.99 is the 9999th, p99.995 the 10000th */
	memset(counts, 0, sizeof(counts));
	record(50, 9999);
	record(5000000, 1);
	ok(lunq_hist_percentile(counts, 5000000, 999900) == 50,
	   "p99.99-ceil-rank");
	ok(lunq_hist_percentile(counts, 5000000, 999950) == 5000000,
	   "p99.995-reaches-outlier");
	memset(counts, 0, sizeof(counts));
	ok(lunq_hist_percentile(counts, 0, 990000) == 0, "empty");

	/* quantize: exact power-of-two rows */
	memset(counts, 0, sizeof(counts));
	record(0, 3);
	record(1, 1);
	record(2, 2);
	record(3, 2);
	record(1000, 5);	/* [512, 1024) */
	record(1023, 1);
	record(1024, 7);	/* [1024, 2048) */
	record(1ULL << 45, 4);	/* overflow: [2^41, ...) row 42 */
	lunq_hist_quantize(counts, rows);
	ok(rows[0] == 3 && rows[1] == 1 && rows[2] == 4 && rows[10] == 6 &&
	   rows[11] == 7 && rows[42] == 4, "quantize-rows");
	v = 0;
	for (i = 0; i < LUNQ_QUANT_ROWS; i++)
		v += rows[i];
	ok(v == lunq_hist_total(counts), "quantize-keeps-total");

	/*
	 * A window's 32-bit counts (lunq_hist32_*()): live counts just below
	 * 2^32 wrap during the window; the truncations' difference is the
	 * window, and its total, minimum, p50/p99 and run are the 64-bit ones
	 */
	{
		static u64 live[LUNQ_HIST_BUCKETS], run64[LUNQ_HIST_BUCKETS];
		static u32 prev32[LUNQ_HIST_BUCKETS], win[LUNQ_HIST_BUCKETS];
		static u32 run[LUNQ_HIST_BUCKETS];
		int same = 1;

		memset(counts, 0, sizeof(counts));
		ok(lunq_hist32_total(win) == 0 && lunq_hist32_min(win) == 0 &&
		   lunq_hist32_percentile_upper(win, ~0ULL, 990000) == 0,
		   "hist32-empty");
		for (i = 0; i < LUNQ_HIST_BUCKETS; i++) {
			live[i] = (3ULL << 32) - 1 - i % 7;
			prev32[i] = (u32)live[i];
		}
		for (i = 0; i < 50000; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			record(1000 + (seed >> 20) % 100000000, 1);
		}
		for (i = 0; i < LUNQ_HIST_BUCKETS; i++) {
			live[i] += counts[i];
			win[i] = (u32)live[i] - prev32[i];
			same &= win[i] == counts[i];
		}
		ok(same, "hist32-window-across-wrap");
		ok(lunq_hist32_total(win) == 50000 &&
		   lunq_hist32_min(win) == lunq_hist_min(counts) &&
		   lunq_hist32_percentile_upper(win, ~0ULL, 500000) ==
		   lunq_hist_percentile_upper(counts, ~0ULL, 500000) &&
		   lunq_hist32_percentile_upper(win, ~0ULL, 990000) ==
		   lunq_hist_percentile_upper(counts, ~0ULL, 990000),
		   "hist32-as-hist64");
		lunq_hist32_add(run, win);
		lunq_hist_add(run64, counts);
		lunq_hist_add(run64, counts);
		ok(lunq_hist32_add(run, win) == 100000 &&
		   lunq_hist32_percentile_upper(run, ~0ULL, 990000) ==
		   lunq_hist_percentile_upper(run64, ~0ULL, 990000),
		   "hist32-run");
	}

	return tap_exit();
}
