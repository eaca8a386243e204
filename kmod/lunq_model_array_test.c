// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for model "array" (lunq_model_array.c): stripe mapping,
 * spindles in parallel, an IO cut at stripe units, seeks over a
 * spindle's share of the capacity, the write cache in front; with
 * lun_order:sptf each spindle's drive orders its queue (spindle_depth
 * commands, the rest in the controller's queue in arrival order).
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

/*
 * Sorting members: 4 spindles, 8 ms average seek over a spindle's
 * 250000 sectors: 96 ns per sector of distance, no rotation.
 */
static const struct lunq_model_cfg arr_sptf = {
	.kind = LUNQ_MODEL_ARRAY, .svc_us = 1000, .seek_ms = 8, .pblk = 512,
	.rmw_x = 1, .capacity = CAP, .spindles = 4, .stripe_kb = 64,
	.order = LUNQ_ORDER_SPTF, .spindle_depth = 32,
};

static int ck[4];
#define CK(i)	((void *)&ck[i])

/* Spindle 0's sector @local (stripe unit 4k is spindle 0's unit k). */
#define SP0(local)	((local) / 128 * 512 + (local) % 128)

static u64 aq(struct lunq_model *m, u64 now, u64 sector, int i)
{
	return lunq_model_io(m, now, sector, 8, LUNQ_MD_READ, CK(i));
}

/*
 * Three commands on spindle 0 and one on spindle 1 at once: spindle 0's
 * drive takes the nearest first, spindle 1 serves its own at the same
 * time; then nearest again from where spindle 0's head is.
 */
static void array_sptf_order(struct kunit *test)
{
	struct lunq_model *m = model(test, &arr_sptf);
	u64 fin;

	KUNIT_EXPECT_EQ(test, aq(m, 0, SP0(128000), 0), LUNQ_FINISH_PENDING);
	KUNIT_EXPECT_EQ(test, aq(m, 0, SP0(1280), 1), LUNQ_FINISH_PENDING);
	KUNIT_EXPECT_EQ(test, aq(m, 0, SP0(12800), 2), LUNQ_FINISH_PENDING);
	KUNIT_EXPECT_EQ(test, aq(m, 0, 128, 3), LUNQ_FINISH_PENDING);
	KUNIT_EXPECT_EQ(test, m->array.in_drive[0], 3U);
	/* 1 ms + 1280 x 96 ns */
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, 0, &fin), CK(1));
	KUNIT_EXPECT_EQ(test, fin, 1122880ULL);
	/* spindle 1: sector 0, where its head is */
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, 0, &fin), CK(3));
	KUNIT_EXPECT_EQ(test, fin, (u64)MS);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, 0, &fin), NULL);
	KUNIT_EXPECT_EQ(test, lunq_model_next(m), 1122880ULL);
	/* from 1288: 11512 x 96 ns to 12800, then 115192 x 96 to 128000 */
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, 2 * MS, &fin), CK(2));
	KUNIT_EXPECT_EQ(test, fin, 1122880ULL + MS + 1105152ULL);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, 4 * MS, &fin), CK(0));
	KUNIT_EXPECT_EQ(test, fin, 3228032ULL + MS + 11058432ULL);
	KUNIT_EXPECT_EQ(test, lunq_model_next(m), 0ULL);
	KUNIT_EXPECT_EQ(test, m->array.in_drive[0], 0U);
}

/*
 * spindle_depth:1, seed 004's throttle of one per drive: the drive holds
 * only the first, so the far one runs first and the near one, kept in
 * the controller, reaches the drive when it frees.
 */
static void array_spindle_depth(struct kunit *test)
{
	struct lunq_model_cfg c = arr_sptf;
	struct lunq_model *m;
	u64 fin;

	c.spindle_depth = 1;
	m = model(test, &c);
	aq(m, 0, SP0(128000), 0);
	aq(m, 0, SP0(1280), 1);
	KUNIT_EXPECT_EQ(test, m->array.in_drive[0], 1U);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, 0, &fin), CK(0));
	KUNIT_EXPECT_EQ(test, fin, MS + 128000ULL * 96);
	KUNIT_EXPECT_EQ(test, m->array.in_drive[0], 1U);	/* CK1 now */
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, 0, &fin), NULL);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, 20 * MS, &fin), CK(1));
	KUNIT_EXPECT_EQ(test, fin, 2 * MS + 128000ULL * 96 +
				   (128008ULL - 1280) * 96);
}

/*
 * A command across stripe units, or one without a cookie, is booked at
 * once; drop and unqueue refill the drive from the controller's queue.
 */
static void array_sptf_cross_drop(struct kunit *test)
{
	struct lunq_model_cfg c = arr_sptf;
	struct lunq_model *m;
	u64 fin;

	c.spindle_depth = 1;
	m = model(test, &c);
	KUNIT_EXPECT_EQ(test, lunq_model_io(m, 0, 120, 16, LUNQ_MD_READ,
					    CK(0)), MS + 120ULL * 96);
	KUNIT_EXPECT_EQ(test, model_read(m, 0, 256, 8), (u64)MS);
	KUNIT_EXPECT_EQ(test, m->hdd.nq, 0U);
	aq(m, 0, SP0(1280), 1);
	aq(m, 0, SP0(2560), 2);
	aq(m, 0, SP0(3840), 3);
	lunq_model_drop(m, CK(1));
	KUNIT_EXPECT_EQ(test, m->array.in_drive[0], 1U);
	KUNIT_EXPECT_EQ(test, m->hdd.nq, 2U);
	/* spindle 0 frees at 1 ms + 120 x 96 ns: CK2 reached its drive */
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, 2 * MS, &fin), CK(2));
	KUNIT_EXPECT_PTR_NE(test, lunq_model_unqueue(m), NULL);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_unqueue(m), NULL);
	KUNIT_EXPECT_EQ(test, m->array.in_drive[0], 0U);
	KUNIT_EXPECT_EQ(test, lunq_model_next(m), 0ULL);
}

/*
 * Live changes of model with commands queued: model:none (no media ops)
 * drains the queue in arrival order, and back on the array each drive
 * takes what waits for it in the controller (spindle_depth:1: CK1 was
 * kept there while CK0 was in the drive).
 */
static void array_live_model(struct kunit *test)
{
	struct lunq_model_cfg c = arr_sptf, none = arr_sptf;
	struct lunq_model *m;
	u64 fin;

	c.spindle_depth = 1;
	none.kind = LUNQ_MODEL_NONE;
	none.order = LUNQ_ORDER_FIFO;
	m = model(test, &c);
	aq(m, 0, SP0(128000), 0);
	aq(m, 0, SP0(1280), 1);
	KUNIT_EXPECT_EQ(test, m->array.in_drive[0], 1U);
	lunq_model_config(m, &none);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, 0, &fin), CK(0));
	KUNIT_EXPECT_EQ(test, m->hdd.nq, 1U);
	lunq_model_config(m, &c);
	KUNIT_EXPECT_EQ(test, m->array.in_drive[0], 1U);
	KUNIT_EXPECT_NE(test, lunq_model_next(m), 0ULL);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, 100 * MS, &fin), CK(1));
	KUNIT_EXPECT_EQ(test, m->hdd.nq, 0U);
}

static struct kunit_case lunq_model_array_cases[] = {
	KUNIT_CASE(array_parallel),
	KUNIT_CASE(array_cut),
	KUNIT_CASE(array_seek),
	KUNIT_CASE(array_cache),
	KUNIT_CASE(array_sptf_order),
	KUNIT_CASE(array_spindle_depth),
	KUNIT_CASE(array_sptf_cross_drop),
	KUNIT_CASE(array_live_model),
	{}
};

static struct kunit_suite lunq_model_array_suite = {
	.name = "lunq_model_array",
	.init = lunq_model_test_init,
	.test_cases = lunq_model_array_cases,
};
kunit_test_suite(lunq_model_array_suite);

MODULE_LICENSE("GPL");
