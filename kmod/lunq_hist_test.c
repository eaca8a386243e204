// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for lunq_hist.c, the log-linear histogram shared by the
 * kernel and userspace: bucket index math at every edge, bucket bounds,
 * percentiles (ceil rank, clamping) and the exact power-of-two re-binning.
 * Run alone with
 *   tests/kunit/run lunq_hist
 */
#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include "lunq_hist.h"

#define BIT41		BIT_ULL(LUNQ_HIST_MAX_BITS)

/* First bucket of the range [2^k, 2^(k+1)), 8 <= k <= 40: 256 + (k-8)*128 */
#define GROUP(k)	(128U * ((k) - 6))

/* The counts array (4481 u64, 35 KiB) and a quantize row buffer. */
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
	KUNIT_EXPECT_EQ(test, LUNQ_HIST_SUB, 128U);
	KUNIT_EXPECT_EQ(test, LUNQ_HIST_EXACT, 256U);
	KUNIT_EXPECT_EQ(test, LUNQ_HIST_OVERFLOW, 4480U);
	KUNIT_EXPECT_EQ(test, LUNQ_HIST_BUCKETS, 4481U);
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
	{ 127, 127 },
	{ 128, 128 },
	{ 254, 254 },
	{ 255, 255 },			/* last exact bucket */
	{ 256, 256 },			/* [256, 257]: width 2 */
	{ 257, 256 },
	{ 258, 257 },
	{ 510, 383 },
	{ 511, 383 },			/* last bucket of [256, 512) */
	{ 512, 384 },			/* [512, 515]: width 4 */
	{ 515, 384 },
	{ 516, 385 },
	{ 1000, 506 },			/* [1000, 1003] */
	{ 1003, 506 },
	{ 1004, 507 },
	{ 1023, 511 },
	{ 1024, 512 },
	{ 1000000, 1780 },		/* [999424, 1003519] */
	{ (1ULL << 40) - 1, 4351 },
	{ 1ULL << 40, 4352 },		/* first bucket of the last range */
	{ (1ULL << 40) + (1ULL << 33) - 1, 4352 },
	{ (1ULL << 40) + (1ULL << 33), 4353 },
	{ BIT41 - (1ULL << 33), 4479 },
	{ BIT41 - 1, 4479 },		/* last binned value */
	{ BIT41, 4480 },		/* overflow */
	{ BIT41 + 1, 4480 },
	{ 1ULL << 42, 4480 },
	{ 1ULL << 63, 4480 },
	{ U64_MAX, 4480 },
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
 * Every power of two 2^k (k = 8 .. 40) opens a range of 128 buckets; 2^k - 1
 * is the last bucket of the range before; from 2^41 on everything overflows.
 */
static void lunq_hist_index_powers_of_two(struct kunit *test)
{
	unsigned int k;

	for (k = 0; k < 8; k++) {
		KUNIT_EXPECT_EQ_MSG(test, lunq_hist_index(1ULL << k), 1U << k,
				    "2^%u", k);
		KUNIT_EXPECT_EQ_MSG(test, lunq_hist_index((1ULL << k) - 1),
				    (1U << k) - 1, "2^%u - 1", k);
	}
	KUNIT_EXPECT_EQ(test, lunq_hist_index(255), 255U);
	for (k = 8; k <= 40; k++) {
		u64 p = 1ULL << k, w = 1ULL << (k - 7);

		KUNIT_EXPECT_EQ_MSG(test, lunq_hist_index(p), GROUP(k),
				    "2^%u", k);
		KUNIT_EXPECT_EQ_MSG(test, lunq_hist_index(p - 1), GROUP(k) - 1,
				    "2^%u - 1", k);
		KUNIT_EXPECT_EQ_MSG(test, lunq_hist_index(p + 1), GROUP(k),
				    "2^%u + 1", k);
		KUNIT_EXPECT_EQ_MSG(test, lunq_hist_index(p + w - 1), GROUP(k),
				    "2^%u + 2^%u - 1", k, k - 7);
		KUNIT_EXPECT_EQ_MSG(test, lunq_hist_index(p + w), GROUP(k) + 1,
				    "2^%u + 2^%u", k, k - 7);
		KUNIT_EXPECT_EQ_MSG(test, lunq_hist_index(2 * p - w),
				    GROUP(k) + 127, "2^%u - 2^%u", k + 1, k - 7);
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
 * are contiguous (upper(i) + 1 == lower(i + 1)), and from 256 on a bucket
 * is at most 1/128 of its lower bound wide.
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
			KUNIT_FAIL(test, "bucket %u [%llu, %llu] wider than 1/128",
				   i, lo, up);
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
	{ 255, 255, 255 },
	{ 256, 256, 257 },
	{ 383, 510, 511 },
	{ 384, 512, 515 },
	{ 512, 1024, 1031 },
	{ 4352, 1ULL << 40, (1ULL << 40) + (1ULL << 33) - 1 },
	{ 4479, BIT41 - (1ULL << 33), BIT41 - 1 },
	{ 4480, BIT41, U64_MAX },
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
			lunq_hist_upper(lunq_hist_index(150 * ms)));
	/* 2.4 commands in a hundred: the p99 is the third slowest, 150 ms */
	KUNIT_EXPECT_EQ(test, lunq_hist_percentile(c->counts, U64_MAX, 990000),
			lunq_hist_upper(lunq_hist_index(150 * ms)));
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
 * One value: every percentile is its bucket's upper bound clamped to max;
 * with the exact max (what the target passes) that is the value itself.
 */
static void lunq_hist_percentile_single(struct kunit *test)
{
	static const u64 vals[] = { 0, 1, 255, 256, 300, 1000, 1000000,
				    BIT41 - 1, BIT41, U64_MAX };
	static const u32 ppms[] = { 0, 1, 500000, 990000, 999999, 1000000,
				    2000000 };
	struct lunq_hist_ctx *c = ctx(test);
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		u64 v = vals[i], up = lunq_hist_upper(lunq_hist_index(v));

		memset(c->counts, 0, sizeof(c->counts));
		record(c, v, 1);
		for (j = 0; j < ARRAY_SIZE(ppms); j++) {
			KUNIT_EXPECT_EQ_MSG(test,
					    lunq_hist_percentile(c->counts, v,
								 ppms[j]),
					    v, "v=%llu ppm=%u", v, ppms[j]);
			/* a max above the bucket: the bucket's upper bound */
			KUNIT_EXPECT_EQ_MSG(test,
					    lunq_hist_percentile(c->counts,
								 U64_MAX,
								 ppms[j]),
					    up, "v=%llu ppm=%u no clamp", v,
					    ppms[j]);
		}
	}
	/* 300 is in [300, 301] */
	memset(c->counts, 0, sizeof(c->counts));
	record(c, 300, 5);
	KUNIT_EXPECT_EQ(test, lunq_hist_percentile(c->counts, 1000, 500000),
			301ULL);
	KUNIT_EXPECT_EQ(test, lunq_hist_percentile(c->counts, 300, 500000),
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
	{ 250000, 250 },	/* exact buckets below 256 */
	{ 255000, 255 },
	{ 256000, 257 },	/* 256 is in [256, 257] */
	{ 500000, 501 },	/* 500 is in [500, 501] */
	{ 500001, 501 },	/* ceil(500.001) = 501, same bucket */
	{ 501001, 503 },	/* ceil(501.001) = 502 in [502, 503] */
	{ 511000, 511 },
	{ 512000, 515 },	/* 512 is in [512, 515] */
	{ 990000, 991 },	/* 990 is in [988, 991] */
	{ 999000, 999 },	/* 999 is in [996, 999] */
	{ 999001, 1000 },	/* rank 1000 in [1000, 1003]: clamped */
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
 * the answer is its bucket's upper bound, clamped to 1000.
 */
static void lunq_hist_percentile_1_to_1000_sweep(struct kunit *test)
{
	struct lunq_hist_ctx *c = ctx(test);
	u32 ppm;

	fill_1_to_1000(c);
	for (ppm = 0; ppm <= 1000000; ppm += 7) {
		u64 rank = DIV_ROUND_UP_ULL((u64)ppm * 1000, 1000000);
		u64 want = lunq_hist_upper(lunq_hist_index(rank ? rank : 1));
		u64 got = lunq_hist_percentile(c->counts, 1000, ppm);

		if (want > 1000)
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
	/* rows 1 .. 8 are the exact buckets [2^(i-1), 2^i) */
	KUNIT_EXPECT_EQ(test, c->rows[0], 1ULL);
	KUNIT_EXPECT_EQ(test, c->rows[1], 4ULL);
	KUNIT_EXPECT_EQ(test, c->rows[2], 7ULL + 10);
	KUNIT_EXPECT_EQ(test, c->rows[8], 128ULL + 3 * (128 * 128 + 8128));
	/* row i (9 .. 41) is the 128 buckets GROUP(i-1) .. GROUP(i-1) + 127 */
	for (i = 9; i <= LUNQ_HIST_MAX_BITS; i++) {
		u64 g = GROUP(i - 1);

		KUNIT_EXPECT_EQ_MSG(test, c->rows[i], 128 + 3 * (128 * g + 8128),
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
