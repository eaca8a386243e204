// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the hdd's drive-side ordering (lun_order, model:hdd):
 * the queue of commands accepted while the head is busy, the pick of
 * shortest positioning time, fifo for comparison, the next event, and
 * the queue taken out by a reset.
 *   tests/kunit/run 'lunq_model_sptf*'
 */
#include "lunq_model_test.h"

/* 8 ms average seek over CAP sectors: 24 ns per sector of distance. */
static const struct lunq_model_cfg sptf_cfg = {
	.kind = LUNQ_MODEL_HDD, .svc_us = 1000, .seek_ms = 8, .pblk = 512,
	.rmw_x = 1, .capacity = CAP, .order = LUNQ_ORDER_SPTF,
};

static int cookies[4];
#define CK(i)	((void *)&cookies[i])

static u64 q(struct lunq_model *m, u64 now, u64 sector, int i)
{
	return lunq_model_io(m, now, sector, 8, LUNQ_MD_READ, CK(i));
}

/* Three commands at once, head at 0: nearest first, then nearest again. */
static void sptf_order(struct kunit *test)
{
	struct lunq_model *m = model(test, &sptf_cfg);
	u64 fin;

	KUNIT_EXPECT_EQ(test, q(m, 0, 900000, 0), LUNQ_FINISH_PENDING);
	KUNIT_EXPECT_EQ(test, q(m, 0, 1000, 1), LUNQ_FINISH_PENDING);
	KUNIT_EXPECT_EQ(test, q(m, 0, 500000, 2), LUNQ_FINISH_PENDING);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, 0, &fin), CK(1));
	KUNIT_EXPECT_EQ(test, fin, 1024000ULL);
	/* the head is busy: nothing starts, the next event is its end */
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, 0, &fin), NULL);
	KUNIT_EXPECT_EQ(test, lunq_model_next(m), 1024000ULL);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, 2 * MS, &fin), CK(2));
	KUNIT_EXPECT_EQ(test, fin, 13999808ULL);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, 14 * MS, &fin), CK(0));
	KUNIT_EXPECT_EQ(test, fin, 24599616ULL);
	KUNIT_EXPECT_EQ(test, lunq_model_next(m), 0ULL);
}

/* The same three in fifo order: 58.2 ms instead of 24.6. */
static void sptf_fifo(struct kunit *test)
{
	struct lunq_model_cfg c = sptf_cfg;
	struct lunq_model *m;
	u64 fin;

	c.order = LUNQ_ORDER_FIFO;
	m = model(test, &c);
	/* fifo does not queue: booked at once, in arrival order */
	KUNIT_EXPECT_EQ(test, q(m, 0, 900000, 0), 22600000ULL);
	KUNIT_EXPECT_EQ(test, q(m, 0, 1000, 1), 45176192ULL);
	KUNIT_EXPECT_EQ(test, q(m, 0, 500000, 2), 58152000ULL);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, SEC, &fin), NULL);
}

/*
 * Commands that arrive while the head is busy wait for it; with the head
 * idle since before they came, the first to arrive starts at its arrival.
 * A sequential one (no positioning) goes first.
 */
static void sptf_arrivals(struct kunit *test)
{
	struct lunq_model *m = model(test, &sptf_cfg);
	u64 fin;

	q(m, 0, 0, 0);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, 0, &fin), CK(0));
	KUNIT_EXPECT_EQ(test, fin, (u64)MS);	/* sequential from 0 */
	q(m, MS / 2, 500000, 1);
	q(m, MS / 2, 8, 2);			/* continues the last */
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, MS / 2, &fin), NULL);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, MS, &fin), CK(2));
	KUNIT_EXPECT_EQ(test, fin, 2 * MS);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, 2 * MS, &fin), CK(1));
	/* idle head: queued at 10 s, starts at 10 s (picked later) */
	q(m, 10 * SEC, 16, 3);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, 11 * SEC, &fin), CK(3));
	KUNIT_EXPECT_EQ(test, fin, 10 * SEC + MS + 24 * (500008 - 16));
}

/*
 * Without a cookie (the caller cannot wait) the command is booked at
 * once; drop takes one command out, unqueue all of them (a reset).
 */
static void sptf_drop_unqueue(struct kunit *test)
{
	struct lunq_model *m = model(test, &sptf_cfg);
	u64 fin;

	KUNIT_EXPECT_EQ(test, lunq_model_io(m, 0, 0, 8, LUNQ_MD_READ, NULL),
			(u64)MS);
	q(m, 0, 1000, 0);
	q(m, 0, 2000, 1);
	q(m, 0, 3000, 2);
	lunq_model_drop(m, CK(1));
	KUNIT_EXPECT_EQ(test, m->hdd.nq, 2U);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_pick(m, MS, &fin), CK(0));
	KUNIT_EXPECT_PTR_NE(test, lunq_model_unqueue(m), NULL);
	KUNIT_EXPECT_PTR_EQ(test, lunq_model_unqueue(m), NULL);
	KUNIT_EXPECT_EQ(test, lunq_model_next(m), 0ULL);
}

static struct kunit_case lunq_model_sptf_cases[] = {
	KUNIT_CASE(sptf_order),
	KUNIT_CASE(sptf_fifo),
	KUNIT_CASE(sptf_arrivals),
	KUNIT_CASE(sptf_drop_unqueue),
	{}
};

static struct kunit_suite lunq_model_sptf_suite = {
	.name = "lunq_model_sptf",
	.init = lunq_model_test_init,
	.test_cases = lunq_model_sptf_cases,
};
kunit_test_suite(lunq_model_sptf_suite);

MODULE_LICENSE("GPL");
