// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace unit test of bench/workload.c: lunqbench's IO stream generator
 * (sizes, rdpct, vdbench seekpct, range, align, offset, zipf and hot band
 * skews, stream start positions) and its option checks.
 * LINK: bench/workload.c bench/rng.c
 */
#include <stdio.h>
#include <string.h>
#include "../../bench/lb.h"

#define TAP_PREFIX "bench-workload-"
#include "tap.h"

#define KiB 1024ULL
#define MiB (1024 * KiB)
#define GiB (1024 * MiB)
#define SIZE GiB		/* the target */
#define IOS 100000

/* 4 KiB random reads over the whole target */
static struct lb_workload base(void)
{
	struct lb_workload w;

	memset(&w, 0, sizeof(w));
	w.bs[0] = 4096;
	w.bs_weight[0] = 1;
	w.nbs = 1;
	w.rdpct = 100;
	w.seek_ppm = LB_SEEK_ALL;
	return w;
}

static int pct_in(u64 count, u64 total, double lo, double hi)
{
	double p = 100.0 * (double)count / (double)total;

	return p >= lo && p <= hi;
}

/* lb_workload_check fails naming @opt, with @has in the message */
static int bad(const struct lb_workload *w, u64 size, u32 lbs, bool direct,
	       const char *opt, const char *has)
{
	const char *e = lb_workload_check(w, size, lbs, direct);

	if (e)
		diag("  %s", e);
	else
		diag("  (no error for %s)", opt);
	return e && !strncmp(e, opt, strlen(opt)) && e[strlen(opt)] == ':' &&
	       strstr(e, has);
}

/*
 * Jumps of @draws IOs of 4k over the whole target at @ppm: IOs that do
 * not start where the previous one ended, a wrap at the end aside.
 */
static u64 count_jumps(u32 ppm, u64 draws, u64 seed)
{
	struct lb_workload w = base();
	struct lb_gen g;
	struct lb_io io;
	u64 i, prev_end, jumps = 0;

	w.seek_ppm = ppm;
	lb_gen_init(&g, &w, SIZE, 0, 1, seed);
	lb_gen_next(&g, &io);
	for (i = 1, prev_end = io.off + io.len; i < draws; i++) {
		lb_gen_next(&g, &io);
		if (io.off != prev_end && !(prev_end == SIZE && io.off == 0))
			jumps++;
		prev_end = io.off + io.len;
	}
	return jumps;
}

/* @jumps within 5 standard deviations of the binomial's mean, @draws - 1
 * trials at @ppm (a jump that lands where the stream was anyway, 1 in
 * 262144, is not seen: far inside the bounds) */
static int binomial_ok(u64 jumps, u32 ppm, u64 draws, const char *what)
{
	double p = (double)ppm / LB_SEEK_ALL, nt = (double)(draws - 1);
	double mean = nt * p, sd = lb_pow(nt * p * (1 - p), 0.5);
	double lo = mean - 5 * sd, hi = mean + 5 * sd;

	diag("seekpct %s: %llu jumps in %llu IOs, want %.0f..%.0f (mean %.1f)",
	       what, (unsigned long long)jumps, (unsigned long long)draws, lo, hi,
	       mean);
	return (double)jumps >= lo && (double)jumps <= hi;
}

/* eof: the streams of a range of 256 4k blocks; every block exactly once,
 * in order within each stream, then nothing more */
static int eof_streams(u32 streams)
{
	struct lb_workload w = base();
	unsigned char seen[256];
	struct lb_gen g;
	struct lb_io io;
	u64 total = 0;
	int ok = 1;

	w.seek_ppm = 0;
	w.seek_eof = true;
	w.range_lo = 64 * KiB;
	w.range_hi = 64 * KiB + 1 * MiB;
	memset(seen, 0, sizeof(seen));
	for (u32 s = 0; s < streams; s++) {
		u64 prev_end = 0, n = 0;

		lb_gen_init(&g, &w, SIZE, s, streams, 13);
		while (lb_gen_next(&g, &io)) {
			u64 b = (io.off - w.range_lo) / 4096;

			if (io.off < w.range_lo || io.off + io.len > w.range_hi ||
			    io.len != 4096 || (n && io.off != prev_end) ||
			    seen[b]++)
				ok = 0;
			prev_end = io.off + io.len;
			if (++n > 256)
				return 0;
		}
		total += n;
		ok &= !lb_gen_next(&g, &io);	/* and stays ended */
	}
	for (int b = 0; b < 256; b++)
		ok &= seen[b] == 1;
	diag("eof, %u stream(s): %llu IOs for 256 blocks", streams,
	       (unsigned long long)total);
	return ok && total == 256;
}

static void seekpct_tests(void)
{
	static const struct {
		const char *s;
		int rc;
		u32 ppm;
		bool eof;
	} cases[] = {
		{ "0", 0, 0, false }, { "100", 0, LB_SEEK_ALL, false },
		{ "0.01", 0, 100, false }, { "12.5", 0, 125000, false },
		{ "0.0001", 0, 1, false }, { "0.00010", 0, 1, false },
		{ ".5", 0, 5000, false }, { "100.000", 0, LB_SEEK_ALL, false },
		{ "eof", 0, 0, true },
		{ "-1", -1, 0, false }, { "101", -2, 0, false },
		{ "100.0001", -2, 0, false }, { "0.00001", -3, 0, false },
		{ "0.0000001", -3, 0, false }, { "abc", -1, 0, false },
		{ "eofx", -1, 0, false }, { "1e2", -1, 0, false },
		{ "", -1, 0, false }, { ".", -1, 0, false }, { "5.", -1, 0, false },
		{ " 5", -1, 0, false }, { "5 ", -1, 0, false },
		{ "0x10", -1, 0, false },
	};
	struct lb_workload w;
	struct lb_gen g;
	struct lb_io io;
	u64 prev_end, n;
	char b[32];
	int ok = 1;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		u32 ppm = 12345;
		bool eof = !cases[i].eof;
		int rc = lb_parse_seekpct(cases[i].s, &ppm, &eof);

		if (rc != cases[i].rc ||
		    (!rc && (ppm != cases[i].ppm || eof != cases[i].eof))) {
			diag("  '%s': rc %d ppm %u eof %d", cases[i].s, rc, ppm, eof);
			ok = 0;
		}
	}
	ok(ok, "seekpct-parse");
	lb_fmt_seekpct(b, sizeof(b), 100);
	ok = !strcmp(b, "0.01");
	lb_fmt_seekpct(b, sizeof(b), LB_SEEK_ALL);
	ok &= !strcmp(b, "100");
	lb_fmt_seekpct(b, sizeof(b), 0);
	ok &= !strcmp(b, "0");
	lb_fmt_seekpct(b, sizeof(b), 125000);
	ok &= !strcmp(b, "12.5");
	lb_fmt_seekpct(b, sizeof(b), 1);
	ok &= !strcmp(b, "0.0001");
	ok(ok, "seekpct-format");

	/* 0.01 %: one IO in 10000 jumps, ~100 in a million */
	ok(binomial_ok(count_jumps(100, 1000000, 21), 100, 1000000, "0.01"),
	   "seek-0.01-one-in-10000");
	/* 12.5 %: a fraction, drawn in ppm */
	ok(binomial_ok(count_jumps(125000, 100000, 22), 125000, 100000, "12.5"),
	   "seek-12.5-ppm");
	/* 30 %: a whole percentage, the draws of before */
	ok(binomial_ok(count_jumps(300000, 100000, 23), 300000, 100000, "30"),
	   "seek-30-whole-pct");

	/* eof: exactly the range's blocks, once; with streams, slices */
	ok(eof_streams(1), "seek-eof-one-stream");
	ok(eof_streams(3), "seek-eof-three-streams-slices");
	ok(eof_streams(256), "seek-eof-a-block-per-stream");
	/* eof, mixed sizes: contiguous from lo, never past hi, ends when the
	 * next IO would not fit */
	w = base();
	w.seek_ppm = 0;
	w.seek_eof = true;
	w.range_hi = 1 * MiB;
	w.bs[1] = 64 * KiB;
	w.bs_weight[1] = 1;
	w.nbs = 2;
	lb_gen_init(&g, &w, SIZE, 0, 1, 14);
	for (n = 0, prev_end = 0, ok = 1; lb_gen_next(&g, &io); n++) {
		if (io.off != prev_end || io.off + io.len > w.range_hi)
			ok = 0;
		prev_end = io.off + io.len;
	}
	ok(ok && n > 0 && w.range_hi - prev_end < 64 * KiB, "seek-eof-mixed-sizes");
	w.seek_ppm = 1;
	ok(bad(&w, SIZE, 512, false, "--seekpct", "eof"), "check-seekpct-eof-not-random");
}


/* Of @n IOs drawn from each of @a and @b, how many are at the same offset */
static int same_draws(struct lb_gen *a, struct lb_gen *b, int n)
{
	struct lb_io io;
	int same = 0;
	u64 lo;

	for (int i = 0; i < n; i++) {
		lb_gen_next(a, &io);
		lo = io.off;
		lb_gen_next(b, &io);
		same += lo == io.off;
	}
	return same;
}
int main(void)
{
	struct lb_workload w;
	struct lb_gen g, g2;
	struct lb_io io;
	u64 i, prev_end, jumps, reads, small, wraps, dec[10], slot[16], lo, hi;
	u64 zc[1024];
	int ok, k;

	/* seekpct 0: strictly sequential, wrapping to range_lo at the end */
	w = base();
	w.seek_ppm = 0;
	w.range_lo = 64 * KiB;
	w.range_hi = 64 * KiB + 1 * MiB;
	ok(lb_workload_check(&w, SIZE, 512, true) == NULL, "seq-valid");
	lb_gen_init(&g, &w, SIZE, 0, 1, 1);
	lb_gen_next(&g, &io);
	ok = io.off == w.range_lo && io.len == 4096;
	wraps = 0;
	for (i = 1, prev_end = io.off + io.len; i < 10000; i++) {
		lb_gen_next(&g, &io);
		if (prev_end == w.range_hi && io.off == w.range_lo)
			wraps++;
		else if (io.off != prev_end)
			ok = 0;
		prev_end = io.off + io.len;
	}
	ok(ok && wraps == 10000 / 256 - (10000 % 256 == 0), "seq-0-sequential-wraps");
	/* mixed sizes: an IO that would pass the end starts over at range_lo */
	w.bs[1] = 64 * KiB;
	w.bs_weight[1] = 1;
	w.nbs = 2;
	lb_gen_init(&g, &w, SIZE, 0, 1, 1);
	lb_gen_next(&g, &io);
	ok = io.off == w.range_lo;
	wraps = 0;
	for (i = 1, prev_end = io.off + io.len; i < 10000; i++) {
		lb_gen_next(&g, &io);
		if (io.off == w.range_lo && prev_end + io.len > w.range_hi)
			wraps++;
		else if (io.off != prev_end)
			ok = 0;
		if (io.off + io.len > w.range_hi)
			ok = 0;
		prev_end = io.off + io.len;
	}
	ok(ok && wraps > 100, "seq-0-mixed-sizes-wrap");

	/* seekpct 100: every decile of the target gets 8..12 % */
	w = base();
	lb_gen_init(&g, &w, SIZE, 0, 1, 2);
	memset(dec, 0, sizeof(dec));
	ok = 1;
	for (i = 0; i < IOS; i++) {
		lb_gen_next(&g, &io);
		if (io.off % 4096 || io.off + io.len > SIZE)
			ok = 0;
		dec[io.off * 10 / SIZE]++;
	}
	for (k = 0; k < 10; k++)
		if (!pct_in(dec[k], IOS, 8, 12))
			ok = 0;
	ok(ok, "seek-100-spread");

	/* seekpct 30: 28..32 % of IOs do not start where the previous ended */
	w.seek_ppm = 30 * (LB_SEEK_ALL / 100);
	lb_gen_init(&g, &w, SIZE, 0, 1, 3);
	lb_gen_next(&g, &io);
	for (i = 1, jumps = 0, prev_end = io.off + io.len; i < IOS; i++) {
		lb_gen_next(&g, &io);
		jumps += io.off != prev_end;
		prev_end = io.off + io.len;
	}
	diag("seekpct 30: %.2f %% jumps", 100.0 * (double)jumps / (IOS - 1));
	ok(pct_in(jumps, IOS - 1, 28, 32), "seek-30-jumps");

	/* rdpct 70: 69..71 % reads; 0 and 100 exact */
	w = base();
	w.rdpct = 70;
	lb_gen_init(&g, &w, SIZE, 0, 1, 4);
	for (i = 0, reads = 0; i < IOS; i++) {
		lb_gen_next(&g, &io);
		reads += !io.write;
	}
	ok(pct_in(reads, IOS, 69, 71), "rdpct-70");
	w.rdpct = 0;
	lb_gen_init(&g, &w, SIZE, 0, 1, 4);
	for (i = 0, ok = 1; i < 1000; i++) {
		lb_gen_next(&g, &io);
		ok &= io.write;
	}
	w.rdpct = 100;
	lb_gen_init(&g, &w, SIZE, 0, 1, 4);
	for (i = 0; i < 1000; i++) {
		lb_gen_next(&g, &io);
		ok &= !io.write;
	}
	ok(ok, "rdpct-0-and-100");

	/* --bs 4k:3,64k:1: about 75 / 25 */
	w = base();
	w.bs[0] = 4096;
	w.bs_weight[0] = 3;
	w.bs[1] = 65536;
	w.bs_weight[1] = 1;
	w.nbs = 2;
	ok(lb_workload_check(&w, SIZE, 512, true) == NULL, "bs-list-valid");
	lb_gen_init(&g, &w, SIZE, 0, 1, 5);
	for (i = 0, small = 0, ok = 1; i < IOS; i++) {
		lb_gen_next(&g, &io);
		small += io.len == 4096;
		if ((io.len != 4096 && io.len != 65536) || io.off % io.len)
			ok = 0;
	}
	ok(ok && pct_in(small, IOS, 74, 76), "bs-weights-75-25");

	/* --bs 4k-64k step 4k: the 16 sizes about evenly */
	w = base();
	w.nbs = 0;
	w.bs_min = 4096;
	w.bs_max = 65536;
	w.bs_step = 4096;
	ok(lb_workload_check(&w, SIZE, 4096, true) == NULL, "bs-range-valid");
	lb_gen_init(&g, &w, SIZE, 0, 1, 6);
	memset(slot, 0, sizeof(slot));
	for (i = 0, ok = 1; i < IOS; i++) {
		lb_gen_next(&g, &io);
		if (io.len % 4096 || io.len < 4096 || io.len > 65536)
			ok = 0;
		else
			slot[io.len / 4096 - 1]++;
	}
	for (k = 0; k < 16; k++)
		if (!pct_in(slot[k], IOS, 5.5, 7))
			ok = 0;
	ok(ok, "bs-range-uniform");

	/* range and align: [1 MiB, 9 MiB), align 8k, 4k IOs */
	w = base();
	w.range_lo = 1 * MiB;
	w.range_hi = 9 * MiB;
	w.align = 8192;
	lb_gen_init(&g, &w, SIZE, 0, 1, 7);
	lo = ~0ULL;
	hi = 0;
	for (i = 0, ok = 1; i < IOS; i++) {
		lb_gen_next(&g, &io);
		if (io.off < w.range_lo || io.off + io.len > w.range_hi ||
		    io.off % 8192)
			ok = 0;
		lo = io.off < lo ? io.off : lo;
		hi = io.off > hi ? io.off : hi;
	}
	ok(ok && lo == 1 * MiB && hi == 9 * MiB - 8192, "range-and-align");
	/* align 0: random positions aligned to the IO's size */
	w.align = 0;
	w.bs[0] = 65536;
	lb_gen_init(&g, &w, SIZE, 0, 1, 7);
	for (i = 0, ok = 1; i < 10000; i++) {
		lb_gen_next(&g, &io);
		if (io.off % 65536 || io.off < w.range_lo || io.off + io.len > w.range_hi)
			ok = 0;
	}
	ok(ok, "align-0-is-io-size");

	/* --offset 512: every 4k IO at 512 mod 4096, still inside the target */
	w = base();
	w.align = 4096;
	w.offset = 512;
	ok(lb_workload_check(&w, SIZE, 512, true) == NULL, "offset-valid");
	lb_gen_init(&g, &w, SIZE, 0, 1, 8);
	for (i = 0, ok = 1, hi = 0; i < IOS; i++) {
		lb_gen_next(&g, &io);
		if (io.off % 4096 != 512 || io.off + io.len > SIZE)
			ok = 0;
		hi = io.off > hi ? io.off : hi;
	}
	ok(ok, "offset-512-random");
	/* a 64 KiB target shifted by 512: 15 aligned slots, the last at 56k */
	lb_gen_init(&g, &w, 64 * KiB, 0, 1, 8);
	for (i = 0, ok = 1, hi = 0; i < 10000; i++) {
		lb_gen_next(&g, &io);
		if (io.off % 4096 != 512 || io.off + io.len > 64 * KiB)
			ok = 0;
		hi = io.off > hi ? io.off : hi;
	}
	ok(ok && hi == 56 * KiB + 512, "offset-512-stays-in-target");
	w.seek_ppm = 0;
	w.range_hi = 64 * KiB;
	lb_gen_init(&g, &w, SIZE, 0, 1, 8);
	for (i = 0, ok = 1; i < 100; i++) {
		lb_gen_next(&g, &io);
		if (io.off != 512 + (i % 16) * 4096)
			ok = 0;
	}
	ok(ok, "offset-512-sequential");

	/* zipf over 1024 aligned slots: slot 0 gets 1/zeta, slots decrease */
	w = base();
	w.range_hi = 4 * MiB;
	w.skew = LB_SKEW_ZIPF;
	w.zipf_theta = 0.99;
	ok(lb_workload_check(&w, SIZE, 512, true) == NULL, "zipf-valid");
	lb_gen_init(&g, &w, SIZE, 0, 1, 9);
	memset(zc, 0, sizeof(zc));
	for (i = 0, ok = g.zipf.n == 1024; i < IOS * 10; i++) {
		lb_gen_next(&g, &io);
		if (io.off % 4096 || io.off + io.len > 4 * MiB)
			ok = 0;
		else
			zc[io.off / 4096]++;
	}
	for (k = 1; k < 8; k++)
		if (zc[k] >= zc[k - 1])
			ok = 0;
	diag("zipf: slot 0 %.4f (1/zeta %.4f), slot 1 %.4f, slot 1023 %.6f",
	       (double)zc[0] / (IOS * 10), 1 / lb_zeta(1024, 0.99),
	       (double)zc[1] / (IOS * 10), (double)zc[1023] / (IOS * 10));
	ok(ok && pct_in(zc[0], IOS * 10, 95 / lb_zeta(1024, 0.99),
			105 / lb_zeta(1024, 0.99)), "zipf-slots");
	/* zipf with mixed sizes: positions aligned to each IO's size */
	w.bs[1] = 65536;
	w.bs_weight[1] = 1;
	w.nbs = 2;
	lb_gen_init(&g, &w, SIZE, 0, 1, 9);
	for (i = 0, ok = 1, small = 0; i < IOS; i++) {
		lb_gen_next(&g, &io);
		if (io.off % io.len || io.off + io.len > 4 * MiB)
			ok = 0;
		small += io.off < 65536;
	}
	ok(ok && pct_in(small, IOS, 20, 80), "zipf-mixed-sizes");

	/* hot band 10/90: about 90 % of random IOs in the first 10 % */
	w = base();
	w.skew = LB_SKEW_HOT;
	w.hot_pct = 10;
	w.hot_io_pct = 90;
	ok(lb_workload_check(&w, SIZE, 512, true) == NULL, "hot-valid");
	lb_gen_init(&g, &w, SIZE, 0, 1, 10);
	memset(dec, 0, sizeof(dec));
	for (i = 0; i < IOS; i++) {
		lb_gen_next(&g, &io);
		dec[io.off * 10 / SIZE]++;
	}
	for (k = 1, ok = 1; k < 10; k++)
		if (!pct_in(dec[k], IOS, 0.8, 1.4))	/* 10 % over 9 deciles */
			ok = 0;
	ok(ok && pct_in(dec[0], IOS, 89, 91), "hot-10-90");

	/* streams: spread starts, their own draws */
	w = base();
	w.seek_ppm = 0;
	lb_gen_init(&g, &w, SIZE, 0, 2, 11);
	lb_gen_init(&g2, &w, SIZE, 1, 2, 11);
	lb_gen_next(&g, &io);
	lo = io.off;
	lb_gen_next(&g2, &io);
	ok(lo == 0 && io.off == SIZE / 2, "streams-start-apart");
	lb_gen_init(&g, &w, SIZE, 2, 3, 11);
	lb_gen_next(&g, &io);
	ok(io.off == SIZE * 2 / 3 / 4096 * 4096, "stream-start-on-grain");
	w.seek_ppm = LB_SEEK_ALL;
	lb_gen_init(&g, &w, SIZE, 0, 2, 11);
	lb_gen_init(&g2, &w, SIZE, 1, 2, 11);
	ok(same_draws(&g, &g2, 100) < 5, "streams-draw-apart");
	lb_gen_init(&g, &w, SIZE, 1, 2, 11);
	lb_gen_init(&g2, &w, SIZE, 1, 2, 11);
	ok(same_draws(&g, &g2, 100) == 100, "reproducible-per-seed");

	seekpct_tests();

	/* lb_workload_check: each bad case names its option */
	w = base();
	w.bs[0] = 0;
	ok(bad(&w, SIZE, 512, false, "--bs", "size 0"), "check-bs-size-0");
	w.bs[0] = 1000;
	ok(lb_workload_check(&w, SIZE, 512, false) == NULL &&
	   bad(&w, SIZE, 512, true, "--bs", "1000 is not a multiple of the device's 512-byte"),
	   "check-bs-not-sector-multiple");
	w = base();
	w.bs[0] = 4096;
	ok(bad(&w, SIZE, 8192, true, "--bs", "4096"), "check-bs-below-lbs");
	w.bs_weight[0] = 0;
	ok(bad(&w, SIZE, 512, false, "--bs", "weights are 0"), "check-bs-weights-0");
	w = base();
	w.nbs = LB_MAX_BS + 1;
	ok(bad(&w, SIZE, 512, false, "--bs", "at most 16"), "check-bs-too-many");
	w = base();
	w.nbs = 0;
	w.bs_min = 8192;
	w.bs_max = 4096;
	w.bs_step = 512;
	ok(bad(&w, SIZE, 512, false, "--bs", "minimum is above"), "check-bs-range-order");
	w.bs_min = 4096;
	w.bs_max = 8192;
	w.bs_step = 0;
	ok(bad(&w, SIZE, 512, false, "--bs", "step"), "check-bs-range-step-0");
	w.bs_min = 0;
	ok(bad(&w, SIZE, 512, false, "--bs", "size 0"), "check-bs-range-size-0");
	w = base();
	w.bs[0] = 2 * MiB;
	w.range_hi = 1 * MiB;
	ok(bad(&w, SIZE, 512, false, "--bs", "do not fit"), "check-io-larger-than-range");
	w = base();
	w.rdpct = 101;
	ok(bad(&w, SIZE, 512, false, "--rdpct", "101"), "check-rdpct");
	w = base();
	w.seek_ppm = 101 * (LB_SEEK_ALL / 100);
	ok(bad(&w, SIZE, 512, false, "--seekpct", "101"), "check-seekpct");
	w = base();
	w.offset = 1000;
	ok(bad(&w, SIZE, 512, false, "--offset", "1000 is not a multiple of 512"),
	   "check-offset-not-512");
	w.offset = 512;
	ok(lb_workload_check(&w, SIZE, 4096, false) == NULL &&
	   bad(&w, SIZE, 4096, true, "--offset", "4096-byte sectors"),
	   "check-offset-not-lbs-direct");
	w.offset = SIZE;
	ok(bad(&w, SIZE, 512, false, "--offset", "target"), "check-offset-beyond-target");
	w.offset = 0;
	ok(bad(&w, 0, 512, false, "--range", "0 bytes"), "check-target-empty");
	w = base();
	w.align = 1000;
	ok(bad(&w, SIZE, 512, false, "--align", "1000"), "check-align-not-512");
	w.align = 512;
	ok(bad(&w, SIZE, 4096, true, "--align", "4096-byte sectors"),
	   "check-align-not-lbs-direct");
	w = base();
	w.range_lo = 4096;
	w.range_hi = 4096;
	ok(bad(&w, SIZE, 512, false, "--range", "empty"), "check-range-empty");
	w.range_lo = 8192;
	ok(bad(&w, SIZE, 512, false, "--range", "empty"), "check-range-reversed");
	w.range_lo = 0;
	w.range_hi = SIZE + 4096;
	ok(bad(&w, SIZE, 512, false, "--range", "beyond the target"),
	   "check-range-beyond-target");
	w.range_hi = SIZE;
	w.offset = 512;
	ok(bad(&w, SIZE, 512, false, "--range", "--offset 512"),
	   "check-range-plus-offset-beyond-target");
	w = base();
	w.range_lo = 512;
	w.range_hi = 4096 + 512;
	ok(bad(&w, SIZE, 512, false, "--range", "aligned position"),
	   "check-no-aligned-slot");
	w.align = 512;
	ok(lb_workload_check(&w, SIZE, 512, false) == NULL, "check-align-512-fits");
	w.range_lo = 513;
	ok(lb_workload_check(&w, SIZE, 512, false) != NULL &&
	   bad(&w, SIZE, 512, true, "--range", "sectors"), "check-range-not-lbs-direct");
	w = base();
	w.skew = LB_SKEW_ZIPF;
	w.zipf_theta = 1;
	ok(bad(&w, SIZE, 512, false, "--zipf", "not 1"), "check-zipf-theta-1");
	w.zipf_theta = 0;
	ok(bad(&w, SIZE, 512, false, "--zipf", "above 0"), "check-zipf-theta-0");
	w = base();
	w.skew = LB_SKEW_HOT;
	w.hot_pct = 0;
	w.hot_io_pct = 90;
	ok(bad(&w, SIZE, 512, false, "--hot", "1..100"), "check-hot-band-0");
	w.hot_pct = 10;
	w.hot_io_pct = 101;
	ok(bad(&w, SIZE, 512, false, "--hot", "0..100"), "check-hot-share");
	/* good ones: whole-device defaults, 4k-sector direct */
	w = base();
	w.offset = 4096;
	w.align = 8192;
	w.range_lo = 1 * MiB;
	ok(lb_workload_check(&w, SIZE, 4096, true) == NULL, "check-valid-4k-direct");

	diag("%d checks, %d failed", tap_n, tap_failed);
	return tap_exit();
}
