// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for lunq_stats.c's histograms: what the IO path records
 * (lunq_stats_done()) read back (lunq_stats_hist()) in the whole layout,
 * percentiles within 2% of the exact ones of the raw samples; latencies
 * of 2^36 ns and more in the last live bucket with the exact maximum; a
 * bucket's 32-bit live count driven across 2^31 and 2^32, exact before
 * and after the fold; a reset and a reload's merge with carries.
 * Run alone with
 *   tests/kunit/run lunq_stats
 */
#include <kunit/test.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include "lunq_stats.h"

#define N_SAMPLES	20000

struct lunq_stats_ctx {
	struct lunq_stats st;
	u64 counts[LUNQ_HIST_BUCKETS];
	u64 raw[N_SAMPLES];
};

static int lunq_stats_test_init(struct kunit *test)
{
	struct lunq_stats_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, lunq_stats_alloc(&c->st), 0);
	test->priv = c;
	return 0;
}

static void lunq_stats_test_exit(struct kunit *test)
{
	struct lunq_stats_ctx *c = test->priv;

	lunq_stats_free(&c->st);
}

/* A deterministic 64-bit LCG (Knuth's MMIX constants). */
static u64 lcg_next(u64 *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

enum {
	D_UNIFORM, D_LOG_UNIFORM, D_BIMODAL, D_NARROW, D_TAIL, D_SIZES, D_NR
};

static const char *const d_names[D_NR] = {
	"uniform 1 us .. 10 ms", "log-uniform 1 us .. 68 s",
	"bimodal 200 us / 50 ms", "narrow 2.000 .. 2.010 ms",
	"1% tail at 100x", "sizes 512 B .. 1 MiB",
};

static u64 d_sample(int d, u64 *seed)
{
	u64 r = lcg_next(seed) >> 11, k;

	switch (d) {
	case D_UNIFORM:
		return 1000 + r % (10 * NSEC_PER_MSEC - 1000);
	case D_LOG_UNIFORM:
		k = 10 + (r & 0xff) % 26;		/* 2^10 .. 2^35 */
		return (1ULL << k) + ((r >> 8) & ((1ULL << k) - 1));
	case D_BIMODAL:
		if (r % 100 < 95)
			return 180000 + (r >> 8) % 40000;
		return 40 * NSEC_PER_MSEC + (r >> 8) % (20 * NSEC_PER_MSEC);
	case D_NARROW:
		return 2 * NSEC_PER_MSEC + r % 10000;
	case D_TAIL:
		if (r % 100 == 0)
			return 100 * (100000 + (r >> 8) % 1000);
		return 100000 + (r >> 8) % 1000;
	default:
		return 512 * (1 + r % 2048);
	}
}

/* Every percentile of histogram @kind within 2% of the sorted @c->raw. */
static void check_percentiles(struct kunit *test, struct lunq_stats_ctx *c,
			      enum lunq_hist_kind kind, const char *what)
{
	static const u32 ppms[] = { 0, 1000, 100000, 250000, 500000, 750000,
				    900000, 950000, 990000, 999000, 999900,
				    1000000 };
	u64 sum, max, n = 0;
	unsigned int i, j;

	lunq_stats_hist(&c->st, kind, c->counts, &sum, &max);
	for (i = 0; i < LUNQ_HIST_BUCKETS; i++)
		n += c->counts[i];
	KUNIT_EXPECT_EQ_MSG(test, n, (u64)N_SAMPLES, "%s count", what);
	sort(c->raw, N_SAMPLES, sizeof(u64), cmp_u64, NULL);
	KUNIT_EXPECT_EQ_MSG(test, max, c->raw[N_SAMPLES - 1], "%s max", what);
	for (j = 0; j < ARRAY_SIZE(ppms); j++) {
		u64 rank = DIV_ROUND_UP_ULL((u64)ppms[j] * N_SAMPLES, 1000000);
		u64 exact = c->raw[(rank ? rank : 1) - 1];
		u64 got = lunq_hist_percentile(c->counts, max, ppms[j]);
		u64 err = got > exact ? got - exact : exact - got;

		KUNIT_EXPECT_LE_MSG(test, err * 50, exact,
				    "%s ppm %u: %llu, exact %llu", what,
				    ppms[j], got, exact);
	}
}

/*
 * The six distributions recorded by the IO path: service times of reads
 * that did not wait (read back as service and total), waits of writes
 * that did (their service 1 ms), sizes; each within 2%.
 */
static void lunq_stats_percentiles(struct kunit *test)
{
	struct lunq_stats_ctx *c = test->priv;
	u64 seed = 7;
	unsigned int d, i;

	for (d = 0; d < D_NR; d++) {
		lunq_stats_zero(&c->st);
		for (i = 0; i < N_SAMPLES; i++) {
			u64 v = d_sample(d, &seed);

			c->raw[i] = v;
			if (d == D_SIZES)
				lunq_stats_done(&c->st, REQ_OP_WRITE, 8, v,
						0, 1000);
			else
				lunq_stats_done(&c->st, REQ_OP_READ, 8, 4096,
						0, v);
		}
		if (d == D_SIZES) {
			check_percentiles(test, c, LUNQ_HIST_SIZE, d_names[d]);
			check_percentiles(test, c, LUNQ_HIST_SIZE_WRITE,
					  d_names[d]);
			continue;
		}
		check_percentiles(test, c, LUNQ_HIST_SVC_READ, d_names[d]);
		check_percentiles(test, c, LUNQ_HIST_TOTAL_READ, d_names[d]);
		/* the same as writes' waits */
		lunq_stats_zero(&c->st);
		for (i = 0; i < N_SAMPLES; i++)
			lunq_stats_done(&c->st, REQ_OP_WRITE, 8, 4096,
					c->raw[i], NSEC_PER_MSEC);
		check_percentiles(test, c, LUNQ_HIST_WAIT_WRITE, d_names[d]);
	}
}

/*
 * Latencies kept from 2^9 to 2^36 ns: each live bucket is the layout's
 * bucket LUNQ_LAT_FIRST + i at every edge; below 512 ns in the layout's
 * bucket of 504 .. 511, 2^36 ns (68.7 s) and more in its bucket of 2^36,
 * the maximum exact (p100 the midpoint of that bucket).
 */
static void lunq_stats_latency_cut(struct kunit *test)
{
	static const u64 vals[] = { 512, 513, 527, 528, 1023, 1024, 4096,
				    123456, 999999999, (1ULL << 36) - 1 };
	struct lunq_stats_ctx *c = test->priv;
	u64 big = 1000ULL * NSEC_PER_SEC, sum, max;
	u32 top = LUNQ_HIST_IDX_POW2(LUNQ_LAT_MAX_BITS), low = lunq_hist_index(511);
	unsigned int i;

	KUNIT_EXPECT_EQ(test, LUNQ_LAT_FIRST, low);
	KUNIT_EXPECT_EQ(test, LUNQ_LAT_BUCKETS, 866U);
	KUNIT_EXPECT_EQ(test, LUNQ_SIZE_BUCKETS, 608U);
	KUNIT_EXPECT_EQ(test, lunq_hist_index(U32_MAX >> LUNQ_SIZE_SHIFT),
			LUNQ_SIZE_BUCKETS - 1);
	for (i = 0; i < ARRAY_SIZE(vals); i++)
		KUNIT_EXPECT_EQ_MSG(test, LUNQ_LAT_FIRST + lunq_lat_idx(vals[i]),
				    lunq_hist_index(vals[i]), "%llu", vals[i]);
	KUNIT_EXPECT_EQ(test, lunq_lat_idx(0), 0U);
	KUNIT_EXPECT_EQ(test, lunq_lat_idx(511), 0U);
	KUNIT_EXPECT_EQ(test, lunq_lat_idx(1ULL << 36), LUNQ_LAT_BUCKETS - 1);
	KUNIT_EXPECT_EQ(test, lunq_lat_idx(U64_MAX), LUNQ_LAT_BUCKETS - 1);
	lunq_stats_done(&c->st, REQ_OP_READ, 0, 4096, 0, big);
	lunq_stats_done(&c->st, REQ_OP_READ, 0, 4096, 0, 1000);
	lunq_stats_done(&c->st, REQ_OP_READ, 0, 4096, 0, 100);
	lunq_stats_hist(&c->st, LUNQ_HIST_SVC_READ, c->counts, &sum, &max);
	KUNIT_EXPECT_EQ(test, c->counts[top], 1ULL);
	KUNIT_EXPECT_EQ(test, c->counts[lunq_hist_index(1000)], 1ULL);
	KUNIT_EXPECT_EQ(test, c->counts[low], 1ULL);
	KUNIT_EXPECT_EQ(test, max, big);
	KUNIT_EXPECT_EQ(test, sum, big + 1000 + 100);
	/* read as the bucket of 2^36: its midpoint, below the maximum */
	KUNIT_EXPECT_EQ(test, lunq_hist_percentile(c->counts, max, 1000000),
			lunq_hist_mid(top));
	/* a wait below 512 ns is not a wait of 0 */
	lunq_stats_done(&c->st, REQ_OP_WRITE, 0, 4096, 100, 1000);
	lunq_stats_done(&c->st, REQ_OP_WRITE, 0, 4096, 0, 1000);
	lunq_stats_hist(&c->st, LUNQ_HIST_WAIT_WRITE, c->counts, &sum, &max);
	KUNIT_EXPECT_EQ(test, c->counts[0], 1ULL);
	KUNIT_EXPECT_EQ(test, c->counts[low], 1ULL);
}

/* Bucket @idx of histogram @kind as read. */
static u64 bucket(struct lunq_stats_ctx *c, enum lunq_hist_kind kind, u32 idx)
{
	u64 sum, max;

	lunq_stats_hist(&c->st, kind, c->counts, &sum, &max);
	return c->counts[idx];
}

/*
 * A bucket's live count set to just below 2^31 (as if that many IOs had
 * been counted), then IOs through the IO path: exact before the fold has
 * run and after (2^31 moved into the carry); set again below 2^31 with
 * the carry at 2^31, so the bucket's count passes 2^32: exact again.
 * The window's 32-bit counts see the IOs since the last one.
 */
static void lunq_stats_carry(struct kunit *test)
{
	struct lunq_stats_ctx *c = test->priv;
	struct lunq_stats *st = &c->st;
	const u64 svc = 50000;
	u32 idx = lunq_hist_index(svc);		/* the layout's */
	atomic_t *live = &st->hist[LUNQ_HIST_NOWAIT_READ]->count[lunq_lat_idx(svc)];
	u32 *prev = kunit_kcalloc(test, LUNQ_WIN_START + LUNQ_HIST_BUCKETS,
				  sizeof(u32), GFP_KERNEL);
	u32 *win;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, prev);
	win = prev + LUNQ_WIN_START;
	lunq_stats_svc_window(st, prev, win);
	atomic_set(live, LUNQ_HIST_FOLD - 2);
	lunq_stats_svc_window(st, prev, win);
	KUNIT_EXPECT_EQ(test, win[idx], LUNQ_HIST_FOLD - 2);
	for (i = 0; i < 3; i++)
		lunq_stats_done(st, REQ_OP_READ, 0, 4096, 0, svc);
	/* the live count is at 2^31 + 1, the fold queued */
	KUNIT_EXPECT_EQ(test, bucket(c, LUNQ_HIST_SVC_READ, idx),
			(u64)LUNQ_HIST_FOLD + 1);
	flush_delayed_work(&st->fold);
	KUNIT_ASSERT_NOT_NULL(test, st->carry[LUNQ_HIST_NOWAIT_READ]);
	KUNIT_EXPECT_EQ(test, st->carry[LUNQ_HIST_NOWAIT_READ][lunq_lat_idx(svc)],
			(u64)LUNQ_HIST_FOLD);
	KUNIT_EXPECT_EQ(test, (u32)atomic_read(live), 1U);
	KUNIT_EXPECT_EQ(test, bucket(c, LUNQ_HIST_SVC_READ, idx),
			(u64)LUNQ_HIST_FOLD + 1);
	KUNIT_EXPECT_EQ(test, bucket(c, LUNQ_HIST_TOTAL_READ, idx),
			(u64)LUNQ_HIST_FOLD + 1);
	KUNIT_EXPECT_EQ(test, bucket(c, LUNQ_HIST_WAIT_READ, 0),
			(u64)LUNQ_HIST_FOLD + 1);
	lunq_stats_svc_window(st, prev, win);
	KUNIT_EXPECT_EQ(test, win[idx], 3U);

	/* 2^32 - 2 counted: 2^31 carried, 2^31 - 2 live */
	atomic_set(live, LUNQ_HIST_FOLD - 2);
	lunq_stats_svc_window(st, prev, win);
	for (i = 0; i < 3; i++)
		lunq_stats_done(st, REQ_OP_READ, 0, 4096, 0, svc);
	KUNIT_EXPECT_EQ(test, bucket(c, LUNQ_HIST_SVC_READ, idx),
			(1ULL << 32) + 1);
	flush_delayed_work(&st->fold);
	KUNIT_EXPECT_EQ(test, st->carry[LUNQ_HIST_NOWAIT_READ][lunq_lat_idx(svc)],
			1ULL << 32);
	KUNIT_EXPECT_EQ(test, (u32)atomic_read(live), 1U);
	KUNIT_EXPECT_EQ(test, bucket(c, LUNQ_HIST_SVC_READ, idx),
			(1ULL << 32) + 1);
	lunq_stats_svc_window(st, prev, win);
	KUNIT_EXPECT_EQ(test, win[idx], 3U);
	/* only that histogram was ever folded */
	KUNIT_EXPECT_NULL(test, st->carry[LUNQ_HIST_SVC_READ]);
	KUNIT_EXPECT_NULL(test, st->carry[LUNQ_HIST_SIZE]);

	lunq_stats_zero(st);
	KUNIT_EXPECT_EQ(test, bucket(c, LUNQ_HIST_SVC_READ, idx), 0ULL);
}

/*
 * A reload's merge: the old table's 2^32 + 1 (carried: the new table,
 * without a carry, takes the old one's over) and a live count at
 * 2^31 + 5 (not yet folded: a fresh carry) added to the new table's 7
 * and 0: exact.
 */
static void lunq_stats_merge_carry(struct kunit *test)
{
	struct lunq_stats_ctx *c = test->priv;
	struct lunq_stats *old = kunit_kzalloc(test, sizeof(*old), GFP_KERNEL);
	/* live buckets a, b; the layout's ua, ub */
	u32 a = lunq_lat_idx(50000), b = lunq_lat_idx(70000);
	u32 ua = lunq_hist_index(50000), ub = lunq_hist_index(70000);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, old);
	KUNIT_ASSERT_EQ(test, lunq_stats_alloc(old), 0);
	atomic_set(&old->hist[LUNQ_HIST_NOWAIT_READ]->count[a],
		   LUNQ_HIST_FOLD - 1);
	lunq_stats_done(old, REQ_OP_READ, 0, 4096, 0, 50000);
	flush_delayed_work(&old->fold);
	atomic_set(&old->hist[LUNQ_HIST_NOWAIT_READ]->count[a],
		   LUNQ_HIST_FOLD + 1);
	atomic_set(&old->hist[LUNQ_HIST_NOWAIT_WRITE]->count[b],
		   LUNQ_HIST_FOLD + 5);
	for (i = 0; i < 7; i++)
		lunq_stats_done(&c->st, REQ_OP_READ, 0, 4096, 0, 50000);
	lunq_stats_merge(&c->st, old);
	KUNIT_EXPECT_NULL(test, old->carry[LUNQ_HIST_NOWAIT_READ]);
	KUNIT_EXPECT_NOT_NULL(test, c->st.carry[LUNQ_HIST_NOWAIT_READ]);
	lunq_stats_free(old);
	KUNIT_EXPECT_EQ(test, bucket(c, LUNQ_HIST_SVC_READ, ua),
			(1ULL << 32) + 1 + 7);
	KUNIT_EXPECT_EQ(test, bucket(c, LUNQ_HIST_SVC_WRITE, ub),
			(u64)LUNQ_HIST_FOLD + 5);
	KUNIT_EXPECT_EQ(test, bucket(c, LUNQ_HIST_WAIT_WRITE, 0),
			(u64)LUNQ_HIST_FOLD + 5);
	/* folded by the merge: the live count 5, one more IO 6 */
	lunq_stats_done(&c->st, REQ_OP_WRITE, 0, 4096, 0, 70000);
	flush_delayed_work(&c->st.fold);
	KUNIT_EXPECT_EQ(test,
			(u32)atomic_read(&c->st.hist[LUNQ_HIST_NOWAIT_WRITE]->count[b]),
			6U);
	KUNIT_EXPECT_EQ(test, bucket(c, LUNQ_HIST_SVC_WRITE, ub),
			(u64)LUNQ_HIST_FOLD + 6);
}

/*
 * The window as lunq_window.c cuts it -- its start in the live buckets
 * and bucket 0 alone (LUNQ_WIN_START), one window's counts computed at
 * the cut -- against the computation it replaced on the same counts: the
 * start as 32-bit truncations of the whole layout's counts
 * (lunq_stats_hist()), a window their difference, bucket by bucket.
 * Windows of IOs that waited and did not, reads and writes, latencies
 * below 2^9 ns and beyond 2^36 ns; the same buckets, so the same
 * figures (counts, percentiles, minimum, the run of windows): and the
 * service windows count nothing outside the live buckets, so the run
 * kept in them alone adds up to the same.
 */
static void lunq_stats_window_same(struct kunit *test)
{
	struct lunq_stats_ctx *c = test->priv;
	struct lunq_stats *st = &c->st;
	const size_t nb = LUNQ_HIST_BUCKETS;
	u32 *sp = kunit_kcalloc(test, 2 * LUNQ_WIN_START, sizeof(u32),
				GFP_KERNEL);
	u32 *ref = kunit_kcalloc(test, 5 * nb, sizeof(u32), GFP_KERNEL);
	u64 *a = kunit_kcalloc(test, 2 * nb, sizeof(u64), GFP_KERNEL);
	u32 *wp = sp + LUNQ_WIN_START, *win, *rsp, *rwp, *rwin, *rrun;
	u64 seed = 65, sum, max, run = 0;
	int w, k, kind;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, sp);
	KUNIT_ASSERT_NOT_NULL(test, ref);
	KUNIT_ASSERT_NOT_NULL(test, a);
	win = ref;
	rsp = ref + nb;
	rwp = ref + 2 * nb;
	rwin = ref + 3 * nb;
	rrun = ref + 4 * nb;
	for (w = 0; w < 12; w++) {
		int n = w == 5 ? 0 : 1 + (int)(lcg_next(&seed) >> 40) % 3000;

		for (k = 0; k < n; k++) {
			u64 r = lcg_next(&seed) >> 11;
			u64 svc = d_sample((int)(r % D_SIZES), &seed);
			u64 wait = r & 1 ? 0 : d_sample((int)((r >> 1) % D_SIZES),
							 &seed);

			if (r % 97 == 0)
				svc = 100 + r % 400;	/* below 2^9 ns */
			if (r % 89 == 0)
				wait = 1ULL << 37;	/* beyond 2^36 ns */
			lunq_stats_done(st, r & 2 ? REQ_OP_WRITE : REQ_OP_READ,
					8 * (r % 1000), 4096, wait, svc);
		}
		/* svc, then wait: each as the window reads it */
		for (kind = 0; kind < 2; kind++) {
			enum lunq_hist_kind hr = kind ? LUNQ_HIST_WAIT_READ :
							LUNQ_HIST_SVC_READ;
			enum lunq_hist_kind hw = kind ? LUNQ_HIST_WAIT_WRITE :
							LUNQ_HIST_SVC_WRITE;
			u32 *rp = kind ? rwp : rsp;

			if (kind)
				lunq_stats_wait_window(st, wp, win);
			else
				lunq_stats_svc_window(st, sp, win);
			lunq_stats_hist(st, hr, a, &sum, &max);
			lunq_stats_hist(st, hw, a + nb, &sum, &max);
			for (i = 0; i < nb; i++) {
				u32 now = (u32)(a[i] + a[nb + i]);

				rwin[i] = now - rp[i];
				rp[i] = now;
			}
			KUNIT_EXPECT_EQ_MSG(test, memcmp(win, rwin, nb * 4), 0,
					    "window %d kind %d", w, kind);
			KUNIT_EXPECT_EQ(test, lunq_hist32_total(win),
					lunq_hist32_total(rwin));
			KUNIT_EXPECT_EQ(test, lunq_hist32_min(win),
					lunq_hist32_min(rwin));
			KUNIT_EXPECT_EQ(test,
					lunq_hist32_percentile_upper(win, U64_MAX, 990000),
					lunq_hist32_percentile_upper(rwin, U64_MAX, 990000));
			KUNIT_EXPECT_EQ(test,
					lunq_hist32_percentile_upper(win, U64_MAX, 500000),
					lunq_hist32_percentile_upper(rwin, U64_MAX, 500000));
			if (kind)
				continue;
			for (i = 0; i < nb; i++)
				if (i < LUNQ_LAT_FIRST ||
				    i >= LUNQ_LAT_FIRST + LUNQ_LAT_BUCKETS)
					KUNIT_EXPECT_EQ_MSG(test, rwin[i], 0U,
							    "bucket %u", i);
			run = lunq_hist32_add(rrun, rwin);
		}
	}
	KUNIT_EXPECT_GT(test, run, 0ULL);
}

/*
 * Sizes kept in sectors read back in bytes exactly: for every sector
 * bucket, its lowest and highest sector count (below 2^23, what a u32 of
 * bytes holds) have the byte bucket it is read back as
 * (lunq_size_bucket()), and so, the index growing with the value, does
 * every count between them; the sector buckets read back as distinct
 * byte buckets, in order.  Through the IO path, sizes at the edges of
 * buckets: each one's byte bucket counts it, the maximum in bytes.
 */
static void lunq_stats_size_sectors(struct kunit *test)
{
	static const u32 sizes[] = { 512, 1024, 4096, 32256, 32768, 33792,
				     65536, 1048064, 1048576, 0xfffffe00U };
	struct lunq_stats_ctx *c = test->priv;
	u64 sum, max, lo, hi;
	u32 i, j;

	for (j = 0; j < LUNQ_SIZE_BUCKETS; j++) {
		lo = lunq_hist_lower(j);
		hi = lunq_hist_upper(j);
		KUNIT_EXPECT_EQ(test, lunq_hist_idx(lo), j);
		KUNIT_EXPECT_EQ(test, lunq_hist_idx(hi), j);
		KUNIT_EXPECT_LT(test, hi, 1ULL << (32 - LUNQ_SIZE_SHIFT));
		KUNIT_EXPECT_EQ_MSG(test, lunq_hist_idx(lo << LUNQ_SIZE_SHIFT),
				    lunq_size_bucket(j), "bucket %u", j);
		KUNIT_EXPECT_EQ_MSG(test, lunq_hist_idx(hi << LUNQ_SIZE_SHIFT),
				    lunq_size_bucket(j), "bucket %u", j);
		if (j)
			KUNIT_EXPECT_GT(test, lunq_size_bucket(j),
					lunq_size_bucket(j - 1));
	}
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		lunq_stats_done(&c->st, REQ_OP_WRITE, 8, sizes[i], 0, 1000);
	lunq_stats_hist(&c->st, LUNQ_HIST_SIZE_WRITE, c->counts, &sum, &max);
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		KUNIT_EXPECT_EQ_MSG(test, c->counts[lunq_hist_index(sizes[i])],
				    1ULL, "%u bytes", sizes[i]);
	KUNIT_EXPECT_EQ(test, lunq_hist_total(c->counts), (u64)ARRAY_SIZE(sizes));
	KUNIT_EXPECT_EQ(test, max, (u64)0xfffffe00U);
}

static struct kunit_case lunq_stats_cases[] = {
	KUNIT_CASE(lunq_stats_percentiles),
	KUNIT_CASE(lunq_stats_latency_cut),
	KUNIT_CASE(lunq_stats_carry),
	KUNIT_CASE(lunq_stats_merge_carry),
	KUNIT_CASE(lunq_stats_window_same),
	KUNIT_CASE(lunq_stats_size_sectors),
	{}
};

static struct kunit_suite lunq_stats_suite = {
	.name = "lunq_stats",
	.init = lunq_stats_test_init,
	.exit = lunq_stats_test_exit,
	.test_cases = lunq_stats_cases,
};

kunit_test_suites(&lunq_stats_suite);

MODULE_LICENSE("GPL");
