// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites for the emulated LUN (lunq_lun.c: slots, pool, foreign
 * commands, resets; suite lunq_lun) and for the host's retry list in
 * lunq_sched.c (requeue, block, unblock, pop_any; suite lunq_retry).
 * Run alone with
 *   tests/kunit/run 'lunq_lun*'
 *   tests/kunit/run 'lunq_retry*'
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include "lunq_lun.h"
#include "lunq_sched.h"

/* The depth through the throttle's one store, then the queue's order. */
static bool host_set(struct lunq_host *h, u32 depth,
		     enum lunq_sched_mode mode, u64 max_wait_ns)
{
	lunq_throttle_store(&h->thr, depth, 0, 0, false);
	return lunq_host_set(h, mode, max_wait_ns);
}

#define MS	1000000ULL	/* ns */

/* Admit @n commands at @now; each must be accepted. */
static void admit_n(struct kunit *test, struct lunq_lun *l, int n, u64 now)
{
	int i;

	for (i = 0; i < n; i++)
		KUNIT_EXPECT_TRUE_MSG(test, lunq_lun_admit(l, now),
				      "admit #%d at %llu ns", i, now);
}

/* lun_depth: accept until full, QUEUE FULL, a release frees a slot. */
static void lunq_lun_depth_accounting(struct kunit *test)
{
	struct lunq_lun l = { .depth = 4 };

	admit_n(test, &l, 4, 0);
	KUNIT_EXPECT_EQ(test, l.inflight, 4U);
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&l, 0));
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&l, 10 * MS));
	KUNIT_EXPECT_EQ(test, l.inflight, 4U);
	lunq_lun_release(&l);
	KUNIT_EXPECT_EQ(test, l.inflight, 3U);
	KUNIT_EXPECT_TRUE(test, lunq_lun_admit(&l, 20 * MS));
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&l, 20 * MS));
	lunq_lun_release(&l);
	lunq_lun_release(&l);
	admit_n(test, &l, 2, 30 * MS);
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&l, 30 * MS));
	KUNIT_EXPECT_EQ(test, l.inflight, 4U);
}

/* lun_depth 0: no limit of its own. */
static void lunq_lun_depth_unlimited(struct kunit *test)
{
	struct lunq_lun l = { .depth = 0 };

	admit_n(test, &l, 100000, 0);
	KUNIT_EXPECT_EQ(test, l.inflight, 100000U);
	/* a foreign load changes nothing without a depth to fill */
	l.foreign = 1000000;
	KUNIT_EXPECT_TRUE(test, lunq_lun_admit(&l, 0));
	KUNIT_EXPECT_EQ(test, l.consecutive, 0U);
}

/*
 * A pool is shared: a LUN with nothing in flight gets QUEUE FULL while the
 * other LUN holds every pool slot, and gets in once that one releases.
 */
static void lunq_lun_pool_shared(struct kunit *test)
{
	struct lunq_pool pool;
	struct lunq_lun a = { .pool = &pool }, b = { .pool = &pool };

	lunq_pool_init_slots(&pool, 4);
	admit_n(test, &a, 4, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&pool.inflight), 4);
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&b, 0));
	KUNIT_EXPECT_EQ(test, b.inflight, 0U);
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&a, 0));
	KUNIT_EXPECT_EQ(test, a.inflight, 4U);
	KUNIT_EXPECT_EQ(test, atomic_read(&pool.inflight), 4);

	lunq_lun_release(&a);
	KUNIT_EXPECT_EQ(test, atomic_read(&pool.inflight), 3);
	KUNIT_EXPECT_TRUE(test, lunq_lun_admit(&b, 1 * MS));
	KUNIT_EXPECT_EQ(test, b.inflight, 1U);
	KUNIT_EXPECT_EQ(test, atomic_read(&pool.inflight), 4);
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&a, 1 * MS));
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&b, 1 * MS));

	/* releases by either LUN return pool slots */
	lunq_lun_release(&b);
	lunq_lun_release(&a);
	KUNIT_EXPECT_EQ(test, atomic_read(&pool.inflight), 2);
	admit_n(test, &b, 2, 2 * MS);
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&a, 2 * MS));
	KUNIT_EXPECT_EQ(test, a.inflight, 2U);
	KUNIT_EXPECT_EQ(test, b.inflight, 2U);
}

/*
 * A QUEUE FULL takes no slot: a LUN refused by its own lun_depth does not
 * hold a pool slot, and a LUN refused by the pool does not hold its own.
 */
static void lunq_lun_refusal_takes_no_slot(struct kunit *test)
{
	struct lunq_pool pool;
	struct lunq_lun a = { .depth = 2, .pool = &pool };
	struct lunq_lun b = { .depth = 8, .pool = &pool };
	int i;

	lunq_pool_init_slots(&pool, 4);
	admit_n(test, &a, 2, 0);
	for (i = 0; i < 10; i++)
		KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&a, 0));
	KUNIT_EXPECT_EQ(test, atomic_read(&pool.inflight), 2);
	admit_n(test, &b, 2, 0);
	for (i = 0; i < 10; i++)
		KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&b, 0));
	KUNIT_EXPECT_EQ(test, b.inflight, 2U);
	KUNIT_EXPECT_EQ(test, atomic_read(&pool.inflight), 4);
	lunq_lun_release(&a);
	admit_n(test, &b, 1, 0);
	KUNIT_EXPECT_EQ(test, b.inflight, 3U);
	KUNIT_EXPECT_EQ(test, atomic_read(&pool.inflight), 4);
}

/* Constant foreign commands fill LUN and pool slots. */
static void lunq_lun_foreign_constant(struct kunit *test)
{
	struct lunq_pool pool;
	struct lunq_lun l = { .depth = 4, .foreign = 3 };
	struct lunq_lun p = { .pool = &pool, .foreign = 3 };
	u64 t;

	for (t = 0; t < 1000 * MS; t += 7 * MS)
		KUNIT_EXPECT_EQ_MSG(test, lunq_lun_foreign(&l, t), 3U,
				    "at %llu ns", t);
	admit_n(test, &l, 1, 0);
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&l, 0));
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&l, 500 * MS));
	lunq_lun_release(&l);
	admit_n(test, &l, 1, 600 * MS);

	/* foreign >= lun_depth: nothing gets in */
	l.inflight = 0;
	l.foreign = 4;
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&l, 0));
	KUNIT_EXPECT_EQ(test, l.inflight, 0U);

	/* in the pool: pool inflight + foreign < pool_depth */
	lunq_pool_init_slots(&pool, 5);
	admit_n(test, &p, 2, 0);
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&p, 0));
	KUNIT_EXPECT_EQ(test, atomic_read(&pool.inflight), 2);
}

/*
 * foreign_period_ns: foreign commands during the first half of each
 * period, counted from t0, none in the second half.
 */
static void lunq_lun_foreign_periodic(struct kunit *test)
{
	/* t0 at 1030 ms: phase from 0 would give other answers below */
	struct lunq_lun l = {
		.depth = 4, .foreign = 4, .foreign_period_ns = 100 * MS,
		.t0 = 1030 * MS,
	};
	static const struct {
		u64 t_us;
		u32 foreign;
	} want[] = {
		{ 1030000, 4 }, { 1079999, 4 }, { 1080000, 0 },
		{ 1100000, 0 }, { 1129999, 0 }, { 1130000, 4 },
		{ 1150000, 4 }, { 1180000, 0 }, { 1200000, 0 },
		{ 1230000, 4 }, { 9979999, 4 }, { 9980000, 0 },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(want); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    lunq_lun_foreign(&l, want[i].t_us * 1000),
				    want[i].foreign, "at %llu us",
				    want[i].t_us);
	/* the last ns of the first half, the first of the second */
	KUNIT_EXPECT_EQ(test, lunq_lun_foreign(&l, 1080 * MS - 1), 4U);
	KUNIT_EXPECT_EQ(test, lunq_lun_foreign(&l, 1080 * MS), 0U);

	/* first half: the foreign commands fill every slot */
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&l, 1030 * MS));
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&l, 1080 * MS - 1));
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&l, 1150 * MS));
	KUNIT_EXPECT_EQ(test, l.inflight, 0U);
	/* second half: all four slots are ours */
	admit_n(test, &l, 3, 1080 * MS);
	admit_n(test, &l, 1, 1100 * MS);
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&l, 1100 * MS));
	lunq_lun_release(&l);
	lunq_lun_release(&l);
	/* first half again: 2 + 4 > 4 */
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&l, 1130 * MS));
	admit_n(test, &l, 1, 1180 * MS);
}

/* The same pattern counts against the pool's slots. */
static void lunq_lun_foreign_periodic_pool(struct kunit *test)
{
	struct lunq_pool pool;
	struct lunq_lun p = {
		.pool = &pool, .foreign = 2, .foreign_period_ns = 100 * MS,
		.t0 = 1030 * MS,
	};

	lunq_pool_init_slots(&pool, 4);
	admit_n(test, &p, 2, 1030 * MS);
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&p, 1079 * MS));
	admit_n(test, &p, 2, 1080 * MS);
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&p, 1080 * MS));
	KUNIT_EXPECT_EQ(test, atomic_read(&pool.inflight), 4);
	lunq_lun_release(&p);
	/* 3 + 2 > 4 in the first half, 3 + 0 < 4 in the second */
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&p, 1130 * MS));
	admit_n(test, &p, 1, 1180 * MS);
}

/* reset_after K: the K-th QUEUE FULL in a row resets (gen moves on). */
static void lunq_lun_reset_after(struct kunit *test)
{
	struct lunq_lun l = { .depth = 1, .reset_after = 3 };
	int i;

	admit_n(test, &l, 1, 0);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&l, 0));
		KUNIT_EXPECT_FALSE(test, lunq_lun_qfull(&l));
		KUNIT_EXPECT_FALSE(test, lunq_lun_qfull(&l));
		KUNIT_EXPECT_EQ(test, l.gen, (u32)i);
		KUNIT_EXPECT_TRUE_MSG(test, lunq_lun_qfull(&l), "run %d", i);
		KUNIT_EXPECT_EQ(test, l.gen, (u32)i + 1);
		KUNIT_EXPECT_EQ(test, l.consecutive, 0U);
	}
	/* reset_after 1: every QUEUE FULL resets */
	l.reset_after = 1;
	KUNIT_EXPECT_TRUE(test, lunq_lun_qfull(&l));
	KUNIT_EXPECT_TRUE(test, lunq_lun_qfull(&l));
	KUNIT_EXPECT_EQ(test, l.gen, 5U);
}

/* An accepted command in between starts the run over; a refused one not. */
static void lunq_lun_reset_admit_restarts(struct kunit *test)
{
	struct lunq_lun l = { .depth = 1, .reset_after = 3 };

	KUNIT_EXPECT_FALSE(test, lunq_lun_qfull(&l));
	KUNIT_EXPECT_FALSE(test, lunq_lun_qfull(&l));
	admit_n(test, &l, 1, 0);
	KUNIT_EXPECT_EQ(test, l.consecutive, 0U);
	KUNIT_EXPECT_FALSE(test, lunq_lun_qfull(&l));
	KUNIT_EXPECT_FALSE(test, lunq_lun_admit(&l, 0));	/* refused */
	KUNIT_EXPECT_FALSE(test, lunq_lun_qfull(&l));
	KUNIT_EXPECT_EQ(test, l.gen, 0U);
	KUNIT_EXPECT_TRUE(test, lunq_lun_qfull(&l));
	KUNIT_EXPECT_EQ(test, l.gen, 1U);
	/* the slot of the command accepted before the reset is still held */
	KUNIT_EXPECT_EQ(test, l.inflight, 1U);
}

/* reset_after 0: never. */
static void lunq_lun_reset_never(struct kunit *test)
{
	struct lunq_lun l = { .depth = 1, .reset_after = 0 };
	int i;

	for (i = 0; i < 100000; i++)
		KUNIT_EXPECT_FALSE_MSG(test, lunq_lun_qfull(&l),
				       "QUEUE FULL #%d", i);
	KUNIT_EXPECT_EQ(test, l.gen, 0U);
}

static struct kunit_case lunq_lun_cases[] = {
	KUNIT_CASE(lunq_lun_depth_accounting),
	KUNIT_CASE(lunq_lun_depth_unlimited),
	KUNIT_CASE(lunq_lun_pool_shared),
	KUNIT_CASE(lunq_lun_refusal_takes_no_slot),
	KUNIT_CASE(lunq_lun_foreign_constant),
	KUNIT_CASE(lunq_lun_foreign_periodic),
	KUNIT_CASE(lunq_lun_foreign_periodic_pool),
	KUNIT_CASE(lunq_lun_reset_after),
	KUNIT_CASE(lunq_lun_reset_admit_restarts),
	KUNIT_CASE(lunq_lun_reset_never),
	{}
};

static struct kunit_suite lunq_lun_suite = {
	.name = "lunq_lun",
	.test_cases = lunq_lun_cases,
};

/* ---- the host's retry list (lunq_sched.c) ---- */

struct lunq_retry_ctx {
	struct lunq_host h;
	struct lunq_waiter w[8];
};

static int lunq_retry_init(struct kunit *test)
{
	struct lunq_retry_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	lunq_host_init(&c->h);
	test->priv = c;
	return 0;
}

/*
 * A refused command gives its slot back and blocks the host until
 * now + delay; then it is the next to go.
 */
static void lunq_retry_requeue_blocks(struct kunit *test)
{
	struct lunq_retry_ctx *c = test->priv;

	host_set(&c->h, 2, LUNQ_SCHED_FIFO, 0);
	KUNIT_EXPECT_TRUE(test, lunq_host_try_send(&c->h, 100));
	KUNIT_EXPECT_TRUE(test, lunq_host_try_send(&c->h, 200));
	lunq_host_requeue(&c->h, &c->w[0], 100, 10 * MS, 5 * MS);
	KUNIT_EXPECT_EQ(test, c->h.inflight, 1U);
	KUNIT_EXPECT_EQ(test, c->h.nr_retry, 1U);
	KUNIT_EXPECT_TRUE(test, c->h.blocked);
	KUNIT_EXPECT_EQ(test, c->h.unblock_at, 15 * MS);
	/* a slot is free, but the host is blocked */
	KUNIT_EXPECT_FALSE(test, lunq_host_needs_kick(&c->h));
	KUNIT_EXPECT_NULL(test, lunq_host_next(&c->h, 10 * MS));
	KUNIT_EXPECT_FALSE(test, lunq_host_unblock(&c->h, 15 * MS - 1));
	KUNIT_EXPECT_TRUE(test, c->h.blocked);
	KUNIT_EXPECT_NULL(test, lunq_host_next(&c->h, 15 * MS - 1));
	KUNIT_EXPECT_TRUE(test, lunq_host_unblock(&c->h, 15 * MS));
	KUNIT_EXPECT_FALSE(test, c->h.blocked);
	KUNIT_EXPECT_FALSE(test, lunq_host_unblock(&c->h, 15 * MS));
	KUNIT_EXPECT_TRUE(test, lunq_host_needs_kick(&c->h));
	KUNIT_EXPECT_PTR_EQ(test, lunq_host_next(&c->h, 15 * MS), &c->w[0]);
	KUNIT_EXPECT_EQ(test, c->h.inflight, 2U);
	KUNIT_EXPECT_EQ(test, c->h.nr_retry, 0U);
	KUNIT_EXPECT_EQ(test, c->h.q.cursor, 100ULL);
	KUNIT_EXPECT_NULL(test, lunq_host_next(&c->h, 15 * MS));
	KUNIT_EXPECT_FALSE(test, lunq_host_needs_kick(&c->h));
}

/*
 * Retries go before waiters that arrived earlier, in requeue order, and
 * move the disksort cursor like any dispatch.
 */
static void lunq_retry_before_waiters(struct kunit *test)
{
	struct lunq_retry_ctx *c = test->priv;

	host_set(&c->h, 2, LUNQ_SCHED_DISKSORT, 0);
	KUNIT_EXPECT_TRUE(test, lunq_host_try_send(&c->h, 900));	/* w0 */
	KUNIT_EXPECT_TRUE(test, lunq_host_try_send(&c->h, 800));	/* w1 */
	lunq_host_wait(&c->h, &c->w[2], 850, false, 0);
	lunq_host_wait(&c->h, &c->w[3], 950, false, 1 * MS);
	lunq_host_requeue(&c->h, &c->w[1], 800, 2 * MS, 1 * MS);
	lunq_host_requeue(&c->h, &c->w[0], 900, 2 * MS, 1 * MS);
	KUNIT_EXPECT_EQ(test, c->h.inflight, 0U);
	KUNIT_EXPECT_EQ(test, c->h.unblock_at, 3 * MS);
	KUNIT_EXPECT_NULL(test, lunq_host_next(&c->h, 2 * MS));
	KUNIT_EXPECT_TRUE(test, lunq_host_unblock(&c->h, 3 * MS));
	KUNIT_EXPECT_PTR_EQ(test, lunq_host_next(&c->h, 3 * MS), &c->w[1]);
	KUNIT_EXPECT_PTR_EQ(test, lunq_host_next(&c->h, 3 * MS), &c->w[0]);
	KUNIT_EXPECT_NULL(test, lunq_host_next(&c->h, 3 * MS));	/* full */
	KUNIT_EXPECT_EQ(test, c->h.q.cursor, 900ULL);
	KUNIT_EXPECT_TRUE(test, lunq_host_done(&c->h));
	/* the sweep goes on from 900: 950 first, then it wraps to 850 */
	KUNIT_EXPECT_PTR_EQ(test, lunq_host_next(&c->h, 3 * MS), &c->w[3]);
	KUNIT_EXPECT_TRUE(test, lunq_host_done(&c->h));
	KUNIT_EXPECT_PTR_EQ(test, lunq_host_next(&c->h, 3 * MS), &c->w[2]);
	KUNIT_EXPECT_NULL(test, lunq_host_next(&c->h, 3 * MS));
	KUNIT_EXPECT_EQ(test, c->h.inflight, 2U);
}

/* A new IO never overtakes a retry, nor goes out while blocked. */
static void lunq_retry_try_send_refused(struct kunit *test)
{
	struct lunq_retry_ctx *c = test->priv;

	host_set(&c->h, 4, LUNQ_SCHED_FIFO, 0);
	/* a block alone (a LUN reset under way) */
	lunq_host_block(&c->h, 10 * MS);
	KUNIT_EXPECT_FALSE(test, lunq_host_try_send(&c->h, 0));
	KUNIT_EXPECT_FALSE(test, lunq_host_unblock(&c->h, 9 * MS));
	KUNIT_EXPECT_FALSE(test, lunq_host_try_send(&c->h, 0));
	KUNIT_EXPECT_TRUE(test, lunq_host_unblock(&c->h, 10 * MS));
	KUNIT_EXPECT_TRUE(test, lunq_host_try_send(&c->h, 0));
	KUNIT_EXPECT_EQ(test, c->h.inflight, 1U);
	/* a retry, no delay: unblocked at once, but the retry goes first */
	lunq_host_requeue(&c->h, &c->w[0], 0, 20 * MS, 0);
	KUNIT_EXPECT_EQ(test, c->h.inflight, 0U);
	KUNIT_EXPECT_FALSE(test, lunq_host_try_send(&c->h, 0));
	KUNIT_EXPECT_TRUE(test, lunq_host_unblock(&c->h, 20 * MS));
	KUNIT_EXPECT_FALSE(test, lunq_host_try_send(&c->h, 0));
	KUNIT_EXPECT_EQ(test, c->h.inflight, 0U);
	KUNIT_EXPECT_PTR_EQ(test, lunq_host_next(&c->h, 20 * MS), &c->w[0]);
	KUNIT_EXPECT_TRUE(test, lunq_host_try_send(&c->h, 0));
	KUNIT_EXPECT_EQ(test, c->h.inflight, 2U);
}

/* pop_any: retries first, in order, then the oldest waiters. */
static void lunq_retry_pop_any_order(struct kunit *test)
{
	struct lunq_retry_ctx *c = test->priv;
	int i;

	host_set(&c->h, 2, LUNQ_SCHED_DISKSORT, 0);
	lunq_host_try_send(&c->h, 50);
	lunq_host_try_send(&c->h, 60);
	lunq_host_wait(&c->h, &c->w[2], 300, false, 0);
	lunq_host_wait(&c->h, &c->w[3], 200, false, 1);
	lunq_host_wait(&c->h, &c->w[4], 100, false, 2);
	lunq_host_requeue(&c->h, &c->w[1], 60, 3, 100 * MS);
	lunq_host_requeue(&c->h, &c->w[0], 50, 3, 100 * MS);
	/* blocked or not, pop_any hands everything back */
	KUNIT_EXPECT_PTR_EQ(test, lunq_host_pop_any(&c->h), &c->w[1]);
	KUNIT_EXPECT_PTR_EQ(test, lunq_host_pop_any(&c->h), &c->w[0]);
	KUNIT_EXPECT_EQ(test, c->h.nr_retry, 0U);
	for (i = 2; i <= 4; i++)
		KUNIT_EXPECT_PTR_EQ(test, lunq_host_pop_any(&c->h), &c->w[i]);
	KUNIT_EXPECT_NULL(test, lunq_host_pop_any(&c->h));
	KUNIT_EXPECT_EQ(test, c->h.q.nr, 0U);
	KUNIT_EXPECT_TRUE(test, list_empty(&c->h.retry));
	KUNIT_EXPECT_EQ(test, c->h.inflight, 0U);
}

/* A requeue never shortens a block that ends later. */
static void lunq_retry_block_keeps_later(struct kunit *test)
{
	struct lunq_retry_ctx *c = test->priv;

	host_set(&c->h, 4, LUNQ_SCHED_FIFO, 0);
	lunq_host_try_send(&c->h, 0);
	lunq_host_try_send(&c->h, 8);
	lunq_host_block(&c->h, 100 * MS);		/* LUN reset */
	lunq_host_requeue(&c->h, &c->w[0], 0, 10 * MS, 5 * MS);
	KUNIT_EXPECT_EQ(test, c->h.unblock_at, 100 * MS);
	KUNIT_EXPECT_FALSE(test, lunq_host_unblock(&c->h, 15 * MS));
	KUNIT_EXPECT_NULL(test, lunq_host_next(&c->h, 15 * MS));
	/* a shorter block keeps the later end too */
	lunq_host_block(&c->h, 50 * MS);
	KUNIT_EXPECT_EQ(test, c->h.unblock_at, 100 * MS);
	/* a later one moves it */
	lunq_host_requeue(&c->h, &c->w[1], 8, 90 * MS, 20 * MS);
	KUNIT_EXPECT_EQ(test, c->h.unblock_at, 110 * MS);
	KUNIT_EXPECT_FALSE(test, lunq_host_unblock(&c->h, 100 * MS));
	KUNIT_EXPECT_TRUE(test, lunq_host_unblock(&c->h, 110 * MS));
	KUNIT_EXPECT_PTR_EQ(test, lunq_host_next(&c->h, 110 * MS), &c->w[0]);
	KUNIT_EXPECT_PTR_EQ(test, lunq_host_next(&c->h, 110 * MS), &c->w[1]);
	/* once unblocked, a new block ends at its own time */
	lunq_host_block(&c->h, 120 * MS);
	KUNIT_EXPECT_EQ(test, c->h.unblock_at, 120 * MS);
	KUNIT_EXPECT_TRUE(test, lunq_host_unblock(&c->h, 120 * MS));
}

/*
 * Two retries (an order a LUN reset can produce): the first is refused
 * again and goes back to the head, so the order of first refusal holds.
 */
static void lunq_retry_again_keeps_head(struct kunit *test)
{
	struct lunq_retry_ctx *c = test->priv;
	struct lunq_waiter *w;

	host_set(&c->h, 4, LUNQ_SCHED_FIFO, 0);
	KUNIT_EXPECT_TRUE(test, lunq_host_try_send(&c->h, 10));	/* w0 */
	KUNIT_EXPECT_TRUE(test, lunq_host_try_send(&c->h, 20));	/* w1 */
	lunq_host_requeue(&c->h, &c->w[0], 10, 0, 0);
	lunq_host_requeue(&c->h, &c->w[1], 20, 0, 0);
	KUNIT_EXPECT_TRUE(test, lunq_host_unblock(&c->h, 0));
	w = lunq_host_next(&c->h, 0);
	KUNIT_EXPECT_PTR_EQ(test, w, &c->w[0]);
	KUNIT_EXPECT_EQ(test, c->h.inflight, 1U);
	lunq_host_retry_again(&c->h, w, 5 * MS, 3 * MS);
	KUNIT_EXPECT_EQ(test, c->h.inflight, 0U);
	KUNIT_EXPECT_EQ(test, c->h.nr_retry, 2U);
	KUNIT_EXPECT_NULL(test, lunq_host_next(&c->h, 7 * MS));
	KUNIT_EXPECT_FALSE(test, lunq_host_unblock(&c->h, 8 * MS - 1));
	KUNIT_EXPECT_TRUE(test, lunq_host_unblock(&c->h, 8 * MS));
	KUNIT_EXPECT_PTR_EQ(test, lunq_host_next(&c->h, 8 * MS), &c->w[0]);
	KUNIT_EXPECT_PTR_EQ(test, lunq_host_next(&c->h, 8 * MS), &c->w[1]);
	KUNIT_EXPECT_EQ(test, c->h.nr_retry, 0U);
}

static struct kunit_case lunq_retry_cases[] = {
	KUNIT_CASE(lunq_retry_requeue_blocks),
	KUNIT_CASE(lunq_retry_before_waiters),
	KUNIT_CASE(lunq_retry_try_send_refused),
	KUNIT_CASE(lunq_retry_pop_any_order),
	KUNIT_CASE(lunq_retry_block_keeps_later),
	KUNIT_CASE(lunq_retry_again_keeps_head),
	{}
};

static struct kunit_suite lunq_retry_suite = {
	.name = "lunq_retry",
	.init = lunq_retry_init,
	.test_cases = lunq_retry_cases,
};

kunit_test_suites(&lunq_lun_suite, &lunq_retry_suite);

MODULE_LICENSE("GPL");
