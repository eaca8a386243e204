// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the read cache (lunq_model_rc.c): a hit by LBA
 * locality (the segment a miss staged), LRU within a set, a read across
 * segments, off by default, a hit that never reaches an array's queue.
 *   tests/kunit/run 'lunq_model_rc*'
 */
#include "lunq_model_test.h"

#define RC	(LUNQ_RC_NS)

/* fixed, 5 ms a read; 1 MiB of cache: 16 segments, 2 sets of 8. */
static const struct lunq_model_cfg fix5 = {
	.kind = LUNQ_MODEL_FIXED, .svc_us = 5000, .pblk = 512, .rmw_x = 1,
	.capacity = CAP, .rcache_mb = 1,
};

/* Segment @s's first sector. */
#define SEG(s)	((u64)(s) * LUNQ_RC_SEG)

/* A miss stages its segment: a read elsewhere in it hits, the next not. */
static void rc_locality(struct kunit *test)
{
	struct lunq_model *m = model(test, &fix5);

	KUNIT_EXPECT_EQ(test, model_read(m, 0, 0, 8), 5 * MS);
	KUNIT_EXPECT_EQ(test, model_read(m, 10 * MS, 64, 8), 10 * MS + RC);
	KUNIT_EXPECT_EQ(test, model_read(m, 10 * MS, SEG(1), 8), 15 * MS);
	KUNIT_EXPECT_EQ(test, m->rc.hits, 1ULL);
	KUNIT_EXPECT_EQ(test, m->rc.misses, 2ULL);
	/* writes do not fill it */
	lunq_model_io(m, 20 * MS, SEG(5), 8, LUNQ_MD_WRITE, NULL);
	KUNIT_EXPECT_EQ(test, model_read(m, 30 * MS, SEG(5), 8), 35 * MS);
}

/*
 * Set 0 holds the even segments: eight fill it, a hit refreshes segment
 * 0, a ninth evicts the least recently used (segment 2).
 */
static void rc_lru(struct kunit *test)
{
	struct lunq_model *m = model(test, &fix5);
	int i;

	for (i = 0; i < 8; i++)
		model_read(m, 0, SEG(2 * i), 8);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, SEG(0), 8), (u64)RC);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, SEG(16), 8), 5 * MS);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, SEG(0), 8), (u64)RC);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, SEG(4), 8), (u64)RC);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, SEG(2), 8), 5 * MS);
	/* the odd segments' set was untouched */
	KUNIT_EXPECT_EQ(test, model_read(m, 0, SEG(1), 8), 5 * MS);
}

/*
 * A read across segments hits only when all are cached; rcache_mb:0 (the
 * default) has no cache.
 */
static void rc_span_and_off(struct kunit *test)
{
	struct lunq_model_cfg c = fix5;
	struct lunq_model *m = model(test, &c);

	model_read(m, 0, 0, 8);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 120, 16), 5 * MS);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 100, 100), (u64)RC);

	c.rcache_mb = 0;
	m = model(test, &c);
	model_read(m, 0, 0, 8);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 0, 8), 5 * MS);
	KUNIT_EXPECT_EQ(test, m->rc.hits + m->rc.misses, 0ULL);
}

/* An array with sorting members: a hit completes at once, unqueued. */
static void rc_array_sptf(struct kunit *test)
{
	static int cookie;
	const struct lunq_model_cfg c = {
		.kind = LUNQ_MODEL_ARRAY, .svc_us = 1000, .pblk = 512,
		.rmw_x = 1, .capacity = CAP, .spindles = 4, .stripe_kb = 64,
		.order = LUNQ_ORDER_SPTF, .spindle_depth = 32, .rcache_mb = 1,
	};
	struct lunq_model *m = model(test, &c);

	KUNIT_EXPECT_EQ(test, lunq_model_io(m, 0, 0, 8, LUNQ_MD_READ, &cookie),
			LUNQ_FINISH_PENDING);
	KUNIT_EXPECT_EQ(test, lunq_model_io(m, 0, 8, 8, LUNQ_MD_READ, &cookie),
			(u64)RC);
	KUNIT_EXPECT_EQ(test, m->hdd.nq, 1U);
}

static struct kunit_case lunq_model_rc_cases[] = {
	KUNIT_CASE(rc_locality),
	KUNIT_CASE(rc_lru),
	KUNIT_CASE(rc_span_and_off),
	KUNIT_CASE(rc_array_sptf),
	{}
};

static struct kunit_suite lunq_model_rc_suite = {
	.name = "lunq_model_rc",
	.init = lunq_model_test_init,
	.test_cases = lunq_model_rc_cases,
};
kunit_test_suite(lunq_model_rc_suite);

MODULE_LICENSE("GPL");
