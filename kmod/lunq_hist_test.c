// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for lunq_hist.c, the log-linear histogram shared by the
 * kernel and userspace: bucket index math at every edge, bucket bounds,
 * percentiles (ceil rank, clamping), percentiles of known distributions
 * against the exact ones of their raw samples, a window's 32-bit counts
 * across their wrap, and the exact power-of-two re-binning.
 * Run alone with
 *   tests/kunit/run lunq_hist
 */
#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include "lunq_hist.h"

#define BIT41		BIT_ULL(LUNQ_HIST_MAX_BITS)

/* First bucket of the range [2^k, 2^(k+1)), 6 <= k <= 40: 64 + (k-6)*32 */
#define GROUP(k)	(32U * ((k) - 4))

/* The counts array (1185 u64, 9.3 KiB) and a quantize row buffer. */
struct lunq_hist_ctx {
	u64 counts[LUNQ_HIST_BUCKETS];
	u64 rows[LUNQ_QUANT_ROWS];
	u64 want[LUNQ_QUANT_ROWS];
};

static int lunq_hist_test_init(struct kunit *test)
{
	struct lunq_hist_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	test->priv = c;
	return 0;
}

static struct lunq_hist_ctx *ctx(struct kunit *test)
{
	return test->priv;
}

static void record(struct lunq_hist_ctx *c, u64 v, u64 times)
{
	c->counts[lunq_hist_index(v)] += times;
}

/* A deterministic 64-bit LCG (Knuth's MMIX constants). */
static u64 lcg_next(u64 *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s;
}

/* ---- layout constants ---- */

static void lunq_hist_layout_constants(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, LUNQ_HIST_SUB, 32U);
	KUNIT_EXPECT_EQ(test, LUNQ_HIST_EXACT, 64U);
	KUNIT_EXPECT_EQ(test, LUNQ_HIST_OVERFLOW, 1184U);
	KUNIT_EXPECT_EQ(test, LUNQ_HIST_BUCKETS, 1185U);
	KUNIT_EXPECT_EQ(test, LUNQ_QUANT_ROWS, 65);
}

/* ---- lunq_hist_index at hand-computed edges ---- */

struct index_case {
	u64 v;
	u32 idx;
};

static const struct index_case index_cases[] = {
	{ 0, 0 },
	{ 1, 1 },
	{ 31, 31 },
	{ 32, 32 },
	{ 62, 62 },
	{ 63, 63 },			/* last exact bucket */
	{ 64, 64 },			/* [64, 65]: width 2 */
	{ 65, 64 },
	{ 66, 65 },
	{ 126, 95 },
	{ 127, 95 },			/* last bucket of [64, 128) */
	{ 128, 96 },			/* [128, 131]: width 4 */
	{ 131, 96 },
	{ 132, 97 },
	{ 1000, 190 },			/* [992, 1007] */
	{ 1007, 190 },
	{ 1008, 191 },
	{ 1023, 191 },
	{ 1024, 192 },
	{ 1000000, 509 },		/* [999424, 1015807] */
	{ (1ULL << 40) - 1, 1151 },
	{ 1ULL << 40, 1152 },		/* first bucket of the last range */
	{ (1ULL << 40) + (1ULL << 35) - 1, 1152 },
	{ (1ULL << 40) + (1ULL << 35), 1153 },
	{ BIT41 - (1ULL << 35), 1183 },
	{ BIT41 - 1, 1183 },		/* last binned value */
	{ BIT41, 1184 },		/* overflow */
	{ BIT41 + 1, 1184 },
	{ 1ULL << 42, 1184 },
	{ 1ULL << 63, 1184 },
	{ U64_MAX, 1184 },
};

static void index_case_desc(const struct index_case *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "v=%llu idx=%u", p->v, p->idx);
}

KUNIT_ARRAY_PARAM(index_edges, index_cases, index_case_desc);

static void lunq_hist_index_edges(struct kunit *test)
{
	const struct index_case *p = test->param_value;

	KUNIT_EXPECT_EQ(test, lunq_hist_index(p->v), p->idx);
}

/*
 * Every power of two 2^k (k = 6 .. 40) opens a range of 32 buckets; 2^k - 1
 * is the last bucket of the range before; from 2^41 on everything overflows.
 */
static void lunq_hist_index_powers_of_two(struct kunit *test)
{
	unsigned int k;

	for (k = 0; k < 6; k++) {
		KUNIT_EXPECT_EQ_MSG(test, lunq_hist_index(1ULL << k), 1U << k,
				    "2^%u", k);
		KUNIT_EXPECT_EQ_MSG(test, lunq_hist_index((1ULL << k) - 1),
				    (1U << k) - 1, "2^%u - 1", k);
	}
	KUNIT_EXPECT_EQ(test, lunq_hist_index(63), 63U);
	for (k = 6; k <= 40; k++) {
		u64 p = 1ULL << k, w = 1ULL << (k - 5);

		KUNIT_EXPECT_EQ_MSG(test, lunq_hist_index(p), GROUP(k),
				    "2^%u", k);
		KUNIT_EXPECT_EQ_MSG(test, lunq_hist_index(p - 1), GROUP(k) - 1,
				    "2^%u - 1", k);
		KUNIT_EXPECT_EQ_MSG(test, lunq_hist_index(p + 1), GROUP(k),
				    "2^%u + 1", k);
		KUNIT_EXPECT_EQ_MSG(test, lunq_hist_index(p + w - 1), GROUP(k),
				    "2^%u + 2^%u - 1", k, k - 5);
		KUNIT_EXPECT_EQ_MSG(test, lunq_hist_index(p + w), GROUP(k) + 1,
				    "2^%u + 2^%u", k, k - 5);
		KUNIT_EXPECT_EQ_MSG(test, lunq_hist_index(2 * p - w),
				    GROUP(k) + 31, "2^%u - 2^%u", k + 1, k - 5);
	}
	KUNIT_EXPECT_EQ(test, lunq_hist_index(BIT41 - 1),
			(u32)LUNQ_HIST_OVERFLOW - 1);
	for (k = 41; k < 64; k++) {
		KUNIT_EXPECT_EQ_MSG(test, lunq_hist_index(1ULL << k),
				    (u32)LUNQ_HIST_OVERFLOW, "2^%u", k);
		KUNIT_EXPECT_EQ_MSG(test, lunq_hist_index((1ULL << k) - 1),
				    k == 41 ? (u32)LUNQ_HIST_OVERFLOW - 1 :
				    (u32)LUNQ_HIST_OVERFLOW, "2^%u - 1", k);
	}
	KUNIT_EXPECT_EQ(test, lunq_hist_index(U64_MAX),
			(u32)LUNQ_HIST_OVERFLOW);
}

/* Index never decreases with the value, and steps by at most one. */
static void lunq_hist_index_monotonic(struct kunit *test)
{
	u32 prev = 0, idx;
	u64 v;

	for (v = 0; v < (1ULL << 16); v++) {
		idx = lunq_hist_index(v);
		if (idx != prev && idx != prev + 1)
			KUNIT_FAIL(test, "index(%llu) = %u after %u", v, idx,
				   prev);
		prev = idx;
	}
}

/* ---- bucket bounds ---- */

/*
 * For every bucket: lower <= upper, both map back to the bucket, buckets
 * are contiguous (upper(i) + 1 == lower(i + 1)), from 64 on a bucket is
 * at most 1/32 of its lower bound wide, and its midpoint (what a
 * percentile reports) within 1/64 of every value in it.
 */
static void lunq_hist_bounds_round_trip(struct kunit *test)
{
	u32 i;

	KUNIT_EXPECT_EQ(test, lunq_hist_lower(0), 0ULL);
	for (i = 0; i < LUNQ_HIST_BUCKETS; i++) {
		u64 lo = lunq_hist_lower(i), up = lunq_hist_upper(i);

		if (lo > up || lunq_hist_index(lo) != i ||
		    lunq_hist_index(up) != i) {
			KUNIT_FAIL(test, "bucket %u [%llu, %llu]: index %u, %u",
				   i, lo, up, lunq_hist_index(lo),
				   lunq_hist_index(up));
			break;
		}
		if (i + 1 < LUNQ_HIST_BUCKETS &&
		    up + 1 != lunq_hist_lower(i + 1)) {
			KUNIT_FAIL(test, "bucket %u ends %llu, %u starts %llu",
				   i, up, i + 1, lunq_hist_lower(i + 1));
			break;
		}
		if (i < LUNQ_HIST_EXACT && lo != i) {
			KUNIT_FAIL(test, "exact bucket %u is [%llu, %llu]",
				   i, lo, up);
			break;
		}
		if (lo >= LUNQ_HIST_EXACT && i < LUNQ_HIST_OVERFLOW &&
		    (up - lo + 1) * LUNQ_HIST_SUB > lo) {
			KUNIT_FAIL(test, "bucket %u [%llu, %llu] wider than 1/32",
				   i, lo, up);
			break;
		}
		if (i < LUNQ_HIST_OVERFLOW &&
		    ((lunq_hist_mid(i) - lo) * 64 > lo ||
		     (up - lunq_hist_mid(i)) * 64 > lo)) {
			KUNIT_FAIL(test, "bucket %u [%llu, %llu]: midpoint %llu",
				   i, lo, up, lunq_hist_mid(i));
			break;
		}
		/* every binned bucket lies inside one power-of-two range */
		if (lo && i < LUNQ_HIST_OVERFLOW && fls64(lo) != fls64(up)) {
			KUNIT_FAIL(test, "bucket %u [%llu, %llu] spans a power of two",
				   i, lo, up);
			break;
		}
	}
	KUNIT_EXPECT_EQ(test, lunq_hist_upper(LUNQ_HIST_OVERFLOW - 1),
			BIT41 - 1);
	KUNIT_EXPECT_EQ(test, lunq_hist_lower(LUNQ_HIST_OVERFLOW), BIT41);
	KUNIT_EXPECT_EQ(test, lunq_hist_upper(LUNQ_HIST_OVERFLOW), U64_MAX);
}

/* Hand-checked bounds, one per width class. */
struct bounds_case {
	u32 idx;
	u64 lower, upper;
};

static const struct bounds_case bounds_cases[] = {
	{ 0, 0, 0 },
	{ 63, 63, 63 },
	{ 64, 64, 65 },
	{ 95, 126, 127 },
	{ 96, 128, 131 },
	{ 192, 1024, 1055 },
	{ 1152, 1ULL << 40, (1ULL << 40) + (1ULL << 35) - 1 },
	{ 1183, BIT41 - (1ULL << 35), BIT41 - 1 },
	{ 1184, BIT41, U64_MAX },
};

static void bounds_case_desc(const struct bounds_case *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "bucket %u", p->idx);
}

KUNIT_ARRAY_PARAM(bounds, bounds_cases, bounds_case_desc);

static void lunq_hist_bounds_table(struct kunit *test)
{
	const struct bounds_case *p = test->param_value;

	KUNIT_EXPECT_EQ(test, lunq_hist_lower(p->idx), p->lower);
	KUNIT_EXPECT_EQ(test, lunq_hist_upper(p->idx), p->upper);
}

/* Pseudo-random values of every magnitude fall inside their bucket. */
static void lunq_hist_value_within_bucket(struct kunit *test)
{
	u64 seed = 1, v;
	u32 i, idx;

	for (i = 0; i < 100000; i++) {
		v = lcg_next(&seed);
		v >>= v & 63;
		idx = lunq_hist_index(v);
		if (idx >= LUNQ_HIST_BUCKETS || lunq_hist_lower(idx) > v ||
		    lunq_hist_upper(idx) < v) {
			KUNIT_FAIL(test, "%llu in bucket %u [%llu, %llu]", v,
				   idx, lunq_hist_lower(idx),
				   lunq_hist_upper(idx));
			break;
		}
	}
}

/* ---- total, percentile ---- */

static void lunq_hist_total_sums(struct kunit *test)
{
	struct lunq_hist_ctx *c = ctx(test);

	KUNIT_EXPECT_EQ(test, lunq_hist_total(c->counts), 0ULL);
	c->counts[0] = 1;
	c->counts[LUNQ_HIST_OVERFLOW] = 2;
	c->counts[1000] = 1ULL << 40;
	KUNIT_EXPECT_EQ(test, lunq_hist_total(c->counts), (1ULL << 40) + 3);
}

/*
 * Windows added into a run: bucket by bucket, the run's total returned,
 * and the run's p99 that of all its commands -- a window of 60 whose
 * slowest is over a bound does not make the run of 240 over it
 */
static void lunq_hist_add_windows(struct kunit *test)
{
	struct lunq_hist_ctx *c = ctx(test);
	u64 *win = kunit_kcalloc(test, LUNQ_HIST_BUCKETS, sizeof(*win),
				 GFP_KERNEL);
	u64 ms = NSEC_PER_MSEC, n = 0;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, win);
	KUNIT_EXPECT_EQ(test, lunq_hist_add(c->counts, win), 0ULL);
	for (i = 0; i < 4; i++) {
		memset(win, 0, LUNQ_HIST_BUCKETS * sizeof(*win));
		win[lunq_hist_index(100 * ms)] = 59;
		win[lunq_hist_index((i == 1 ? 250 : 150) * ms)] = 1;
		n = lunq_hist_add(c->counts, win);
	}
	KUNIT_EXPECT_EQ(test, n, 240ULL);
	KUNIT_EXPECT_EQ(test, lunq_hist_total(c->counts), 240ULL);
	KUNIT_EXPECT_EQ(test, c->counts[lunq_hist_index(100 * ms)], 236ULL);
	KUNIT_EXPECT_EQ(test, lunq_hist_percentile(win, U64_MAX, 990000),
			lunq_hist_mid(lunq_hist_index(150 * ms)));
	/* 2.4 commands in a hundred: the p99 is the third slowest, 150 ms */
	KUNIT_EXPECT_EQ(test, lunq_hist_percentile(c->counts, U64_MAX, 990000),
			lunq_hist_mid(lunq_hist_index(150 * ms)));
}

static void lunq_hist_percentile_empty(struct kunit *test)
{
	struct lunq_hist_ctx *c = ctx(test);

	KUNIT_EXPECT_EQ(test, lunq_hist_percentile(c->counts, 0, 0), 0ULL);
	KUNIT_EXPECT_EQ(test, lunq_hist_percentile(c->counts, 0, 990000),
			0ULL);
	KUNIT_EXPECT_EQ(test, lunq_hist_percentile(c->counts, 12345, 1000000),
			0ULL);
}

/*
 * One value: every percentile is the last IO, so the exact max when it is
 * passed (what the target does); with no max (U64_MAX) the bucket's
 * midpoint, or U64_MAX for the overflow bucket, whose midpoint is unknown.
 */
static void lunq_hist_percentile_single(struct kunit *test)
{
	static const u64 vals[] = { 0, 1, 63, 64, 255, 256, 300, 1000, 1000000,
				    BIT41 - 1, BIT41, U64_MAX };
	static const u32 ppms[] = { 0, 1, 500000, 990000, 999999, 1000000,
				    2000000 };
	struct lunq_hist_ctx *c = ctx(test);
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		u64 v = vals[i], up;
		u32 idx = lunq_hist_index(v);

		up = idx == LUNQ_HIST_OVERFLOW ? U64_MAX : lunq_hist_mid(idx);

		memset(c->counts, 0, sizeof(c->counts));
		record(c, v, 1);
		for (j = 0; j < ARRAY_SIZE(ppms); j++) {
			KUNIT_EXPECT_EQ_MSG(test,
					    lunq_hist_percentile(c->counts, v,
								 ppms[j]),
					    v, "v=%llu ppm=%u", v, ppms[j]);
			/* no max: the bucket's midpoint */
			KUNIT_EXPECT_EQ_MSG(test,
					    lunq_hist_percentile(c->counts,
								 U64_MAX,
								 ppms[j]),
					    up, "v=%llu ppm=%u no clamp", v,
					    ppms[j]);
		}
	}
	/* 300 is in [296, 303]: p50 its midpoint, p100 the max */
	memset(c->counts, 0, sizeof(c->counts));
	record(c, 300, 5);
	KUNIT_EXPECT_EQ(test, lunq_hist_percentile(c->counts, 1000, 500000),
			299ULL);
	KUNIT_EXPECT_EQ(test, lunq_hist_percentile(c->counts, 300, 500000),
			299ULL);
	KUNIT_EXPECT_EQ(test, lunq_hist_percentile(c->counts, 300, 1000000),
			300ULL);
}

/* 1000 values 1 .. 1000 ns, max 1000: hand-computed ranks and buckets. */
struct pct_case {
	u32 ppm;
	u64 want;
};

static const struct pct_case pct_1000_cases[] = {
	{ 0, 1 },		/* rank 0 -> the first IO */
	{ 1, 1 },		/* ceil(0.001) = 1 */
	{ 1000, 1 },		/* rank exactly 1 */
	{ 1001, 2 },		/* ceil(1.001) = 2 */
	{ 63000, 63 },		/* exact buckets below 64 */
	{ 64000, 64 },		/* 64 is in [64, 65] */
	{ 65000, 64 },
	{ 250000, 249 },	/* 250 is in [248, 251] */
	{ 500000, 499 },	/* 500 is in [496, 503] */
	{ 501001, 499 },	/* ceil(501.001) = 502, same bucket */
	{ 504000, 507 },	/* 504 is in [504, 511] */
	{ 512000, 519 },	/* 512 is in [512, 527] */
	{ 990000, 983 },	/* 990 is in [976, 991] */
	{ 999000, 999 },	/* 999 is in [992, 1007] */
	{ 999001, 1000 },	/* rank 1000, the last: the max */
	{ 1000000, 1000 },	/* p100 is max */
	{ 1000001, 1000 },	/* ppm above 10^6 clamps to p100 */
	{ 4000000000U, 1000 },
};

static void pct_case_desc(const struct pct_case *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "ppm=%u", p->ppm);
}

KUNIT_ARRAY_PARAM(pct_1000, pct_1000_cases, pct_case_desc);

static void fill_1_to_1000(struct lunq_hist_ctx *c)
{
	u64 v;

	memset(c->counts, 0, sizeof(c->counts));
	for (v = 1; v <= 1000; v++)
		record(c, v, 1);
}

static void lunq_hist_percentile_1_to_1000(struct kunit *test)
{
	const struct pct_case *p = test->param_value;
	struct lunq_hist_ctx *c = ctx(test);

	fill_1_to_1000(c);
	KUNIT_EXPECT_EQ(test, lunq_hist_total(c->counts), 1000ULL);
	KUNIT_EXPECT_EQ(test, lunq_hist_percentile(c->counts, 1000, p->ppm),
			p->want);
}

/*
 * The same data against a reference for every ppm in steps of 7: the
 * value of rank ceil(ppm * 1000 / 10^6) (at least 1) is the rank itself;
 * the answer is its bucket's midpoint, rank 1000 the max.
 */
static void lunq_hist_percentile_1_to_1000_sweep(struct kunit *test)
{
	struct lunq_hist_ctx *c = ctx(test);
	u32 ppm;

	fill_1_to_1000(c);
	for (ppm = 0; ppm <= 1000000; ppm += 7) {
		u64 rank = DIV_ROUND_UP_ULL((u64)ppm * 1000, 1000000);
		u64 want = lunq_hist_mid(lunq_hist_index(rank ? rank : 1));
		u64 got = lunq_hist_percentile(c->counts, 1000, ppm);

		if (rank == 1000)
			want = 1000;
		if (got != want) {
			KUNIT_FAIL(test, "ppm %u: %llu, want %llu", ppm, got,
				   want);
			break;
		}
	}
}

/* Three values 10, 20, 30: each third of the ppm range picks one. */
static const struct pct_case pct_3_cases[] = {
	{ 0, 10 },
	{ 333333, 10 },		/* ceil(0.999999) = 1 */
	{ 333334, 20 },		/* ceil(1.000002) = 2 */
	{ 666666, 20 },		/* ceil(1.999998) = 2 */
	{ 666667, 30 },		/* ceil(2.000001) = 3 */
	{ 990000, 30 },
	{ 1000000, 30 },
	{ 1000001, 30 },
};

KUNIT_ARRAY_PARAM(pct_3, pct_3_cases, pct_case_desc);

static void lunq_hist_percentile_three(struct kunit *test)
{
	const struct pct_case *p = test->param_value;
	struct lunq_hist_ctx *c = ctx(test);

	record(c, 10, 1);
	record(c, 20, 1);
	record(c, 30, 1);
	KUNIT_EXPECT_EQ(test, lunq_hist_percentile(c->counts, 30, p->ppm),
			p->want);
}

/*
 * Totals above 10^6 take the split rank computation; ppm * total would
 * overflow u64 here (10^6 * 10^15 > 2^64).
 */
static void lunq_hist_percentile_large_total(struct kunit *test)
{
	struct lunq_hist_ctx *c = ctx(test);
	const u64 n = 1000000000000000ULL;	/* 10^15 */

	record(c, 10, n);
	record(c, 20, 1);
	/* rank 10^15 + 1: the single 20 */
	KUNIT_EXPECT_EQ(test, lunq_hist_percentile(c->counts, 20, 1000000),
			20ULL);
	/* ceil(999999 * (10^15 + 1) / 10^6) = 999999 * 10^9 + 1 <= 10^15 */
	KUNIT_EXPECT_EQ(test, lunq_hist_percentile(c->counts, 20, 999999),
			10ULL);

	/* 2 * 10^6 tens and one 20: p99.9999 is rank 2 * 10^6 */
	memset(c->counts, 0, sizeof(c->counts));
	record(c, 10, 2000000);
	record(c, 20, 1);
	KUNIT_EXPECT_EQ(test, lunq_hist_percentile(c->counts, 20, 999999),
			10ULL);
	KUNIT_EXPECT_EQ(test, lunq_hist_percentile(c->counts, 20, 1000000),
			20ULL);

	/* 1 in 10^4: p99.99 is the 9999th, p99.995 the 10000th */
	memset(c->counts, 0, sizeof(c->counts));
	record(c, 100, 9999);
	record(c, 5000000, 1);
	KUNIT_EXPECT_EQ(test, lunq_hist_percentile(c->counts, 5000000, 999900),
			100ULL);
	KUNIT_EXPECT_EQ(test, lunq_hist_percentile(c->counts, 5000000, 999901),
			5000000ULL);
}

/* ---- known distributions against their raw samples ---- */

#define DIST_N		20000	/* samples per distribution */

enum {
	DIST_UNIFORM, DIST_LOG_UNIFORM, DIST_BIMODAL, DIST_NARROW, DIST_SIZES,
	DIST_TAIL, DIST_NR
};

static const char *const dist_names[DIST_NR] = {
	"uniform 1 us .. 10 ms", "log-uniform 1 us .. 68 s",
	"bimodal 200 us / 50 ms", "narrow 2.000 .. 2.010 ms",
	"sizes 512 B .. 1 MiB", "1% tail at 100x",
};

/* Sample @i of distribution @d (ns or bytes), from the LCG @seed. */
static u64 dist_sample(int d, u64 *seed)
{
	u64 r = lcg_next(seed) >> 11, k;

	switch (d) {
	case DIST_UNIFORM:
		return 1000 + r % (10 * NSEC_PER_MSEC - 1000);
	case DIST_LOG_UNIFORM:
		k = 10 + (r & 0xff) % 26;		/* 2^10 .. 2^35 */
		return (1ULL << k) + ((r >> 8) & ((1ULL << k) - 1));
	case DIST_BIMODAL:
		if (r % 100 < 95)
			return 180000 + (r >> 8) % 40000;
		return 40 * NSEC_PER_MSEC + (r >> 8) % (20 * NSEC_PER_MSEC);
	case DIST_NARROW:
		return 2 * NSEC_PER_MSEC + r % 10000;
	case DIST_SIZES:
		return 512 * (1 + r % 2048);
	default:
		if (r % 100 == 0)
			return 100 * (100000 + (r >> 8) % 1000);
		return 100000 + (r >> 8) % 1000;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Each distribution's samples recorded and kept: every percentile from the
 * histogram is within 2% of the exact nearest-rank percentile of the
 * sorted samples (and within the layout's 1/64); the upper-bound variant
 * (lunq_window.c's) is never below it and at most 1/32 above.
 */
static void lunq_hist_percentile_distributions(struct kunit *test)
{
	static const u32 ppms[] = { 0, 1000, 100000, 250000, 500000, 750000,
				    900000, 950000, 990000, 999000, 999900,
				    1000000 };
	struct lunq_hist_ctx *c = ctx(test);
	u64 *raw = kunit_kcalloc(test, DIST_N, sizeof(*raw), GFP_KERNEL);
	u64 seed = 7, worst = 0;
	unsigned int d, i, j;

	KUNIT_ASSERT_NOT_NULL(test, raw);
	for (d = 0; d < DIST_NR; d++) {
		memset(c->counts, 0, sizeof(c->counts));
		for (i = 0; i < DIST_N; i++) {
			raw[i] = dist_sample(d, &seed);
			record(c, raw[i], 1);
		}
		sort(raw, DIST_N, sizeof(*raw), cmp_u64, NULL);
		for (j = 0; j < ARRAY_SIZE(ppms); j++) {
			u64 rank = DIV_ROUND_UP_ULL((u64)ppms[j] * DIST_N,
						    1000000);
			u64 exact = raw[(rank ? rank : 1) - 1];
			u64 got = lunq_hist_percentile(c->counts,
						       raw[DIST_N - 1],
						       ppms[j]);
			u64 err = got > exact ? got - exact : exact - got;
			u64 up = lunq_hist_percentile_upper(c->counts, U64_MAX,
							    ppms[j]);

			KUNIT_EXPECT_LE_MSG(test, err * 50, exact,
					    "%s ppm %u: %llu, exact %llu",
					    dist_names[d], ppms[j], got, exact);
			KUNIT_EXPECT_LE_MSG(test, err * 64, exact,
					    "%s ppm %u: %llu, exact %llu",
					    dist_names[d], ppms[j], got, exact);
			/* the controller's: never below, at most 1/32 above */
			KUNIT_EXPECT_GE_MSG(test, up, exact, "%s ppm %u upper",
					    dist_names[d], ppms[j]);
			KUNIT_EXPECT_LE_MSG(test, (up - exact) * 32, exact,
					    "%s ppm %u upper %llu", dist_names[d],
					    ppms[j], up);
			worst = max(worst, div64_u64(err * 1000000, exact));
		}
	}
	kunit_info(test, "worst relative error %llu ppm", worst);
}

/*
 * A window's 32-bit counts (lunq_window.c): the live counts just below
 * 2^32 in every bucket, so each bucket's truncation wraps during the
 * window; the difference of the truncations is the window exactly, and
 * the 32-bit total, minimum and percentiles are those of its 64-bit
 * counts, for each distribution; a run of two windows (lunq_hist32_add())
 * is two 64-bit adds.  Empty: 0 everywhere.
 */
static void lunq_hist32_window_wraps(struct kunit *test)
{
	static const u32 ppms[] = { 0, 500000, 990000, 999900, 1000000 };
	struct lunq_hist_ctx *c = ctx(test);
	u64 *live = kunit_kcalloc(test, LUNQ_HIST_BUCKETS, sizeof(*live),
				  GFP_KERNEL);
	u64 *run64 = kunit_kcalloc(test, LUNQ_HIST_BUCKETS, sizeof(*run64),
				   GFP_KERNEL);
	u32 *prev = kunit_kcalloc(test, LUNQ_HIST_BUCKETS, sizeof(*prev),
				  GFP_KERNEL);
	u32 *win = kunit_kcalloc(test, LUNQ_HIST_BUCKETS, sizeof(*win),
				 GFP_KERNEL);
	u32 *run = kunit_kcalloc(test, LUNQ_HIST_BUCKETS, sizeof(*run),
				 GFP_KERNEL);
	u64 seed = 11, total;
	unsigned int d, i, j, wrong;

	KUNIT_ASSERT_NOT_NULL(test, live);
	KUNIT_ASSERT_NOT_NULL(test, run64);
	KUNIT_ASSERT_NOT_NULL(test, prev);
	KUNIT_ASSERT_NOT_NULL(test, win);
	KUNIT_ASSERT_NOT_NULL(test, run);
	KUNIT_EXPECT_EQ(test, lunq_hist32_total(win), 0ULL);
	KUNIT_EXPECT_EQ(test, lunq_hist32_min(win), 0ULL);
	KUNIT_EXPECT_EQ(test, lunq_hist32_percentile_upper(win, U64_MAX,
							   990000), 0ULL);
	for (d = 0; d < DIST_NR; d++) {
		memset(c->counts, 0, sizeof(c->counts));
		for (i = 0; i < LUNQ_HIST_BUCKETS; i++) {
			live[i] = (5ULL << 32) - 1 - lcg_next(&seed) % 16;
			prev[i] = (u32)live[i];
		}
		for (i = 0; i < DIST_N; i++)
			record(c, dist_sample(d, &seed), 1);
		wrong = 0;
		for (i = 0; i < LUNQ_HIST_BUCKETS; i++) {
			live[i] += c->counts[i];
			win[i] = (u32)live[i] - prev[i];
			wrong += win[i] != c->counts[i];
		}
		KUNIT_EXPECT_EQ_MSG(test, wrong, 0U, "%s", dist_names[d]);
		total = lunq_hist_total(c->counts);
		KUNIT_EXPECT_EQ(test, total, (u64)DIST_N);
		KUNIT_EXPECT_EQ(test, lunq_hist32_total(win), total);
		KUNIT_EXPECT_EQ_MSG(test, lunq_hist32_min(win),
				    lunq_hist_min(c->counts), "%s",
				    dist_names[d]);
		for (j = 0; j < ARRAY_SIZE(ppms); j++)
			KUNIT_EXPECT_EQ_MSG(test,
				lunq_hist32_percentile_upper(win, U64_MAX,
							     ppms[j]),
				lunq_hist_percentile_upper(c->counts, U64_MAX,
							   ppms[j]),
				"%s ppm %u", dist_names[d], ppms[j]);
		memset(run, 0, LUNQ_HIST_BUCKETS * sizeof(*run));
		memset(run64, 0, LUNQ_HIST_BUCKETS * sizeof(*run64));
		KUNIT_EXPECT_EQ(test, lunq_hist32_add(run, win), total);
		KUNIT_EXPECT_EQ(test, lunq_hist32_add(run, win), 2 * total);
		lunq_hist_add(run64, c->counts);
		lunq_hist_add(run64, c->counts);
		KUNIT_EXPECT_EQ_MSG(test,
			lunq_hist32_percentile_upper(run, U64_MAX, 990000),
			lunq_hist_percentile_upper(run64, U64_MAX, 990000),
			"%s run", dist_names[d]);
	}
}

/* ---- quantize ---- */

static void quantize_check_one(struct kunit *test, struct lunq_hist_ctx *c,
			       u64 v)
{
	u32 row = v < BIT41 ? fls64(v) : LUNQ_HIST_MAX_BITS + 1;
	u32 i;

	memset(c->counts, 0, sizeof(c->counts));
	record(c, v, 3);
	lunq_hist_quantize(c->counts, c->rows);
	for (i = 0; i < LUNQ_QUANT_ROWS; i++)
		KUNIT_EXPECT_EQ_MSG(test, c->rows[i], i == row ? 3ULL : 0ULL,
				    "v=%llu row %u (want row %u)", v, i, row);
}

/*
 * A value v below 2^41 lands in row fls64(v) (0 in row 0), the overflow
 * bucket in row 42 ([2^41, 2^42)), at every power-of-two edge.
 */
static void lunq_hist_quantize_edges(struct kunit *test)
{
	struct lunq_hist_ctx *c = ctx(test);
	unsigned int k;

	quantize_check_one(test, c, 0);
	for (k = 0; k < 64; k++) {
		quantize_check_one(test, c, 1ULL << k);
		quantize_check_one(test, c, (1ULL << k) + 1);
		quantize_check_one(test, c, (2ULL << k) - 1);
	}
	quantize_check_one(test, c, 1000);
	quantize_check_one(test, c, U64_MAX);
	KUNIT_EXPECT_EQ(test, fls64(BIT41 - 1), 41);
}

/* Pseudo-random values: the quantize row of each is exact. */
static void lunq_hist_quantize_random(struct kunit *test)
{
	struct lunq_hist_ctx *c = ctx(test);
	u64 seed = 42, v;
	u32 i;

	for (i = 0; i < 200; i++) {
		v = lcg_next(&seed);
		v >>= 23 + (v & 31);	/* mostly below 2^41 */
		quantize_check_one(test, c, v);
	}
}

/*
 * Every bucket filled with a different count: the rows sum to the total,
 * and each row is the sum of the buckets whose lower bound is in it.
 */
static void lunq_hist_quantize_all_buckets(struct kunit *test)
{
	struct lunq_hist_ctx *c = ctx(test);
	u64 sum = 0;
	u32 i;

	for (i = 0; i < LUNQ_HIST_BUCKETS; i++) {
		u64 lo = lunq_hist_lower(i);

		c->counts[i] = i * 3 + 1;
		c->want[fls64(lo)] += c->counts[i];
	}
	lunq_hist_quantize(c->counts, c->rows);
	for (i = 0; i < LUNQ_QUANT_ROWS; i++) {
		KUNIT_EXPECT_EQ_MSG(test, c->rows[i], c->want[i], "row %u", i);
		sum += c->rows[i];
	}
	KUNIT_EXPECT_EQ(test, sum, lunq_hist_total(c->counts));
	KUNIT_EXPECT_EQ(test, c->rows[0], 1ULL);
	KUNIT_EXPECT_EQ(test, c->rows[1], 4ULL);
	KUNIT_EXPECT_EQ(test, c->rows[2], 7ULL + 10);
	/* rows 1 .. 6 are the exact buckets [2^(i-1), 2^i); 0+..+31 = 496 */
	KUNIT_EXPECT_EQ(test, c->rows[6], 32ULL + 3 * (32 * 32 + 496));
	/* row i (7 .. 41) is the 32 buckets GROUP(i-1) .. GROUP(i-1) + 31 */
	for (i = 7; i <= LUNQ_HIST_MAX_BITS; i++) {
		u64 g = GROUP(i - 1);

		KUNIT_EXPECT_EQ_MSG(test, c->rows[i], 32 + 3 * (32 * g + 496),
				    "row %u", i);
	}
	KUNIT_EXPECT_EQ(test, c->rows[LUNQ_HIST_MAX_BITS + 1],
			(u64)LUNQ_HIST_OVERFLOW * 3 + 1);
	for (i = LUNQ_HIST_MAX_BITS + 2; i < LUNQ_QUANT_ROWS; i++)
		KUNIT_EXPECT_EQ_MSG(test, c->rows[i], 0ULL, "row %u", i);
}

/* The mixed example: small values, two ranges, overflow. */
static void lunq_hist_quantize_mixed(struct kunit *test)
{
	struct lunq_hist_ctx *c = ctx(test);
	u32 i;

	record(c, 0, 3);
	record(c, 1, 1);
	record(c, 2, 2);
	record(c, 3, 2);
	record(c, 1000, 5);		/* [512, 1024): row 10 */
	record(c, 1023, 1);
	record(c, 1024, 7);		/* [1024, 2048): row 11 */
	record(c, 1ULL << 45, 4);	/* overflow: row 42 */
	lunq_hist_quantize(c->counts, c->rows);
	for (i = 0; i < LUNQ_QUANT_ROWS; i++) {
		u64 want;

		switch (i) {
		case 0:
			want = 3;
			break;
		case 1:
			want = 1;
			break;
		case 2:
			want = 4;
			break;
		case 10:
			want = 6;
			break;
		case 11:
			want = 7;
			break;
		case 42:
			want = 4;
			break;
		default:
			want = 0;
		}
		KUNIT_EXPECT_EQ_MSG(test, c->rows[i], want, "row %u", i);
	}
}

static struct kunit_case lunq_hist_cases[] = {
	KUNIT_CASE(lunq_hist_layout_constants),
	KUNIT_CASE_PARAM(lunq_hist_index_edges, index_edges_gen_params),
	KUNIT_CASE(lunq_hist_index_powers_of_two),
	KUNIT_CASE(lunq_hist_index_monotonic),
	KUNIT_CASE(lunq_hist_bounds_round_trip),
	KUNIT_CASE_PARAM(lunq_hist_bounds_table, bounds_gen_params),
	KUNIT_CASE(lunq_hist_value_within_bucket),
	KUNIT_CASE(lunq_hist_total_sums),
	KUNIT_CASE(lunq_hist_add_windows),
	KUNIT_CASE(lunq_hist_percentile_empty),
	KUNIT_CASE(lunq_hist_percentile_single),
	KUNIT_CASE_PARAM(lunq_hist_percentile_1_to_1000, pct_1000_gen_params),
	KUNIT_CASE(lunq_hist_percentile_1_to_1000_sweep),
	KUNIT_CASE_PARAM(lunq_hist_percentile_three, pct_3_gen_params),
	KUNIT_CASE(lunq_hist_percentile_large_total),
	KUNIT_CASE(lunq_hist_percentile_distributions),
	KUNIT_CASE(lunq_hist32_window_wraps),
	KUNIT_CASE(lunq_hist_quantize_edges),
	KUNIT_CASE(lunq_hist_quantize_random),
	KUNIT_CASE(lunq_hist_quantize_all_buckets),
	KUNIT_CASE(lunq_hist_quantize_mixed),
	{}
};

static struct kunit_suite lunq_hist_suite = {
	.name = "lunq_hist",
	.init = lunq_hist_test_init,
	.test_cases = lunq_hist_cases,
};

kunit_test_suites(&lunq_hist_suite);

MODULE_LICENSE("GPL");
