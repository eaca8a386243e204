// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for model "array" (lunq_model_array.c): stripe mapping,
 * spindles in parallel, an IO cut at stripe units, seeks over a
 * spindle's share of the capacity, the write cache in front.
 *   tests/kunit/run 'lunq_model_array*'
 */
#include "lunq_model_test.h"

/* 4 spindles of 1 ms per command, stripe 64 KiB (128 sectors). */
static const struct lunq_model_cfg arr4 = {
	.kind = LUNQ_MODEL_ARRAY, .svc_us = 1000, .pblk = 512, .rmw_x = 1,
	.capacity = CAP, .spindles = 4, .stripe_kb = 64,
};

/* One stripe unit on each spindle at once; the fifth waits for spindle 0. */
static void array_parallel(struct kunit *test)
{
	const struct model_io io[] = {
		{ 0, 0, 8, MS },
		{ 0, 128, 8, MS },
		{ 0, 256, 8, MS },
		{ 0, 384, 8, MS },
		{ 0, 512, 8, 2 * MS },		/* stripe 4: spindle 0 */
		{ 0, 640 + 8, 8, 2 * MS },	/* stripe 5: spindle 1 */
	};

	run_ios(test, model(test, &arr4), io, ARRAY_SIZE(io));
}

/* 128 KiB from sector 64: 64 sectors on 0, 128 on 1, 64 on 2, at once. */
static void array_cut(struct kunit *test)
{
	struct lunq_model_cfg c = arr4;
	struct lunq_model *m;

	c.mbps = 64;	/* 64 sectors = 32 KiB: 512000 ns; 128: 1024000 */
	m = model(test, &c);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 64, 256),
			MS + 1024000ULL);
	KUNIT_EXPECT_EQ(test, m->array.head[0], 128ULL);
	KUNIT_EXPECT_EQ(test, m->array.head[1], 128ULL);
	KUNIT_EXPECT_EQ(test, m->array.head[2], 64ULL);
	KUNIT_EXPECT_EQ(test, m->array.head_free[3], 0ULL);
}

/*
 * Seeks are over a spindle's share: stripe 400 is spindle 0 at
 * 100 x 128 = 12800, a quarter of the way... of 250000 sectors:
 * 3 x 8 ms x 12800 / 250000 = 1.2288 ms.
 */
static void array_seek(struct kunit *test)
{
	struct lunq_model_cfg c = arr4;
	struct lunq_model *m;

	c.seek_ms = 8;
	m = model(test, &c);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 400 * 128, 8),
			MS + 1228800ULL);
	KUNIT_EXPECT_EQ(test, m->array.head[0], 12808ULL);
	/* sequential on the same spindle: no seek */
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 400 * 128 + 8, 8),
			2 * MS + 1228800ULL);
}

/* The write cache in front: destages spread over the free spindles. */
static void array_cache(struct kunit *test)
{
	struct lunq_model_cfg c = arr4;
	struct lunq_model *m;
	int i;

	c.wce = 1;
	c.cache_mb = 1;
	m = model(test, &c);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, lunq_model_io(m, 0, i * 128, 8,
						    LUNQ_MD_WRITE, NULL),
				(u64)LUNQ_WC_NS);
	/* each destage on its own spindle, 1 ms, in parallel */
	KUNIT_EXPECT_EQ(test, lunq_model_flush(m, 0), (u64)MS);
}

static struct kunit_case lunq_model_array_cases[] = {
	KUNIT_CASE(array_parallel),
	KUNIT_CASE(array_cut),
	KUNIT_CASE(array_seek),
	KUNIT_CASE(array_cache),
	{}
};

static struct kunit_suite lunq_model_array_suite = {
	.name = "lunq_model_array",
	.init = lunq_model_test_init,
	.test_cases = lunq_model_array_cases,
};
kunit_test_suite(lunq_model_array_suite);

MODULE_LICENSE("GPL");
