// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites for lunq_sched.c: wait-queue order (lunq_sched) and the
 * throttle's accounting (lunq_throttle).  Run alone with
 *   tests/kunit/run 'lunq_sched*'
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include "lunq_sched.h"

/* The depth through the throttle's one store, then the queue's order. */
static bool host_set(struct lunq_host *h, u32 depth,
		     enum lunq_sched_mode mode, u64 max_wait_ns)
{
	lunq_throttle_store(&h->thr, depth, 0, 0, false);
	return lunq_host_set(h, mode, max_wait_ns);
}

#define MS	1000000ULL	/* ns */

struct lunq_sched_ctx {
	struct lunq_queue q;
	struct lunq_waiter w[1100];
};

static int lunq_sched_init(struct kunit *test)
{
	struct lunq_sched_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	lunq_queue_init(&c->q);
	test->priv = c;
	return 0;
}

/* Queue waiters w[0..n) with the given LBAs, at time 0, no barrier. */
static void add_lbas(struct lunq_sched_ctx *c, const u64 *lba, int n)
{
	int i;

	for (i = 0; i < n; i++)
		lunq_queue_add(&c->q, &c->w[i], lba[i], false, 0);
}

/* Expect the queue to hand out w[idx[0]], w[idx[1]], ... then nothing. */
static void expect_order(struct kunit *test, struct lunq_sched_ctx *c,
			 const int *idx, int n, u64 now)
{
	int i;

	for (i = 0; i < n; i++) {
		struct lunq_waiter *w = lunq_queue_next(&c->q, now);

		KUNIT_ASSERT_NOT_NULL(test, w);
		KUNIT_EXPECT_EQ_MSG(test, (int)(w - c->w), idx[i],
				    "dispatch #%d", i);
	}
	KUNIT_EXPECT_NULL(test, lunq_queue_next(&c->q, now));
	KUNIT_EXPECT_EQ(test, c->q.nr, 0U);
}

static void lunq_fifo_arrival_order(struct kunit *test)
{
	struct lunq_sched_ctx *c = test->priv;
	static const u64 lba[] = { 50, 10, 30, 10, 90 };
	static const int want[] = { 0, 1, 2, 3, 4 };

	add_lbas(c, lba, ARRAY_SIZE(lba));
	expect_order(test, c, want, ARRAY_SIZE(want), 0);
}

/* disksort(9F): ascending from the cursor, then wrap to the lowest. */
static void lunq_disksort_two_runs(struct kunit *test)
{
	struct lunq_sched_ctx *c = test->priv;
	static const u64 lba[] = { 100, 50, 150, 120, 10, 200, 100 };
	static const int want[] = { 3, 2, 5, 4, 1 };

	c->q.mode = LUNQ_SCHED_DISKSORT;
	lunq_queue_add(&c->q, &c->w[0], lba[0], false, 0);
	KUNIT_EXPECT_PTR_EQ(test, lunq_queue_next(&c->q, 0), &c->w[0]);
	KUNIT_EXPECT_EQ(test, c->q.cursor, 100ULL);
	add_lbas(c, lba, 6);	/* re-adds w[0]: skip it below */
	KUNIT_EXPECT_PTR_EQ(test, lunq_queue_next(&c->q, 0), &c->w[0]);
	expect_order(test, c, want, ARRAY_SIZE(want), 0);
}

/* An IO at the cursor's LBA belongs to the current run; ties by arrival. */
static void lunq_disksort_ties_keep_arrival(struct kunit *test)
{
	struct lunq_sched_ctx *c = test->priv;
	static const u64 lba[] = { 40, 40, 7, 40, 7 };
	static const int want[] = { 2, 4, 0, 1, 3 };

	c->q.mode = LUNQ_SCHED_DISKSORT;
	add_lbas(c, lba, ARRAY_SIZE(lba));
	expect_order(test, c, want, ARRAY_SIZE(want), 0);
}

/*
 * The bubble, in miniature: while IOs keep arriving ahead of the sweep,
 * an IO behind the cursor is never dispatched; it goes when they stop.
 */
static void lunq_disksort_starves_behind(struct kunit *test)
{
	struct lunq_sched_ctx *c = test->priv;
	struct lunq_waiter *far = &c->w[1099];
	u64 lba = 1000;
	int i;

	c->q.mode = LUNQ_SCHED_DISKSORT;
	c->q.cursor = 1000;
	lunq_queue_add(&c->q, far, 0, false, 0);
	for (i = 0; i < 1000; i++) {
		lunq_queue_add(&c->q, &c->w[i], lba, false, i * MS);
		lba += 8;
		KUNIT_ASSERT_PTR_EQ(test, lunq_queue_next(&c->q, i * MS),
				    &c->w[i]);
	}
	KUNIT_EXPECT_PTR_EQ(test, lunq_queue_next(&c->q, 1000 * MS), far);
}

/* max_wait_ns: an IO waiting that long goes next, oldest first. */
static void lunq_aging_bound(struct kunit *test)
{
	struct lunq_sched_ctx *c = test->priv;
	u64 lba = 1000;
	int i;

	c->q.mode = LUNQ_SCHED_DISKSORT;
	c->q.max_wait_ns = 10 * MS;
	c->q.cursor = 1000;
	lunq_queue_add(&c->q, &c->w[1000], 0, false, 0);
	lunq_queue_add(&c->q, &c->w[1001], 5, false, 1 * MS);
	for (i = 0; i < 10; i++) {
		lunq_queue_add(&c->q, &c->w[i], lba, false, i * MS);
		lba += 8;
		KUNIT_ASSERT_PTR_EQ(test, lunq_queue_next(&c->q, i * MS),
				    &c->w[i]);
	}
	lunq_queue_add(&c->q, &c->w[10], lba, false, 10 * MS);
	/* at 10 ms w[1000] has waited 10 ms: it goes, then the sweep */
	KUNIT_EXPECT_PTR_EQ(test, lunq_queue_next(&c->q, 10 * MS),
			    &c->w[1000]);
	/* the cursor moved to LBA 0: w[1001] (LBA 5) is next in the sweep */
	KUNIT_EXPECT_PTR_EQ(test, lunq_queue_next(&c->q, 10 * MS),
			    &c->w[1001]);
	KUNIT_EXPECT_PTR_EQ(test, lunq_queue_next(&c->q, 10 * MS), &c->w[10]);
}

static void lunq_aging_oldest_first(struct kunit *test)
{
	struct lunq_sched_ctx *c = test->priv;
	static const int want[] = { 0, 1, 2 };

	c->q.mode = LUNQ_SCHED_DISKSORT;
	c->q.max_wait_ns = 5 * MS;
	lunq_queue_add(&c->q, &c->w[0], 300, false, 0);
	lunq_queue_add(&c->q, &c->w[1], 200, false, 1 * MS);
	lunq_queue_add(&c->q, &c->w[2], 100, false, 2 * MS);
	/* all three have waited >= 5 ms at 7 ms: arrival order */
	expect_order(test, c, want, ARRAY_SIZE(want), 7 * MS);
}

/*
 * The policy's bound (auto's, age_ns) ages the queue while the table sets
 * none; the user's max_wait_ns, when set, is the one that holds.
 */
static void lunq_aging_policy_bound(struct kunit *test)
{
	struct lunq_sched_ctx *c = test->priv;
	u64 lba = 1000;
	int i;

	c->q.mode = LUNQ_SCHED_DISKSORT;
	c->q.age_ns = 4 * MS;
	c->q.cursor = 1000;
	c->w[1000].read = true;
	lunq_queue_add(&c->q, &c->w[1000], 0, false, 0);
	KUNIT_EXPECT_EQ(test, c->q.reads, 1U);
	for (i = 0; i < 4; i++) {
		lunq_queue_add(&c->q, &c->w[i], lba, false, i * MS);
		lba += 8;
		KUNIT_ASSERT_PTR_EQ(test, lunq_queue_next(&c->q, i * MS),
				    &c->w[i]);
	}
	lunq_queue_add(&c->q, &c->w[4], lba, false, 4 * MS);
	lunq_queue_add(&c->q, &c->w[5], lba + 8, false, 4 * MS);
	/* the user's 8 ms wins over the policy's 4 */
	c->q.max_wait_ns = 8 * MS;
	KUNIT_EXPECT_PTR_EQ(test, lunq_queue_next(&c->q, 4 * MS), &c->w[4]);
	/* none set by the user: the policy's 4 ms, and w[1000] waited 5 */
	c->q.max_wait_ns = 0;
	KUNIT_EXPECT_EQ(test, c->q.aged_reads, 0U);
	KUNIT_EXPECT_PTR_EQ(test, lunq_queue_next(&c->q, 5 * MS),
			    &c->w[1000]);
	/* a read the sort passed by, counted; no read waits now */
	KUNIT_EXPECT_EQ(test, c->q.aged_reads, 1U);
	KUNIT_EXPECT_EQ(test, c->q.reads, 0U);
	KUNIT_EXPECT_PTR_EQ(test, lunq_queue_next(&c->q, 5 * MS), &c->w[5]);
}

/*
 * Only reads the sort passed by count as aged: a write sent by the bound
 * is not, nor a read that the sort would have sent anyway.
 */
static void lunq_aging_counts_passed_reads(struct kunit *test)
{
	struct lunq_sched_ctx *c = test->priv;

	c->q.mode = LUNQ_SCHED_DISKSORT;
	c->q.age_ns = 4 * MS;
	c->q.cursor = 1000;
	/* a write behind the cursor, aged: sent, not counted */
	lunq_queue_add(&c->q, &c->w[0], 10, false, 0);
	lunq_queue_add(&c->q, &c->w[1], 2000, false, 1 * MS);
	KUNIT_EXPECT_PTR_EQ(test, lunq_queue_next(&c->q, 5 * MS), &c->w[0]);
	KUNIT_EXPECT_EQ(test, c->q.aged_reads, 0U);
	/* an aged read that is also the sort's pick: not counted */
	c->w[2].read = true;
	lunq_queue_add(&c->q, &c->w[2], 20, false, 2 * MS);
	KUNIT_EXPECT_EQ(test, c->q.reads, 1U);
	KUNIT_EXPECT_PTR_EQ(test, lunq_queue_next(&c->q, 5 * MS), &c->w[1]);
	KUNIT_EXPECT_PTR_EQ(test, lunq_queue_next(&c->q, 7 * MS), &c->w[2]);
	KUNIT_EXPECT_EQ(test, c->q.aged_reads, 0U);
	KUNIT_EXPECT_EQ(test, c->q.reads, 0U);
}

/* A clock read before a waiter's arrival never makes it look aged. */
static void lunq_aging_clock_before_arrival(struct kunit *test)
{
	struct lunq_sched_ctx *c = test->priv;

	c->q.mode = LUNQ_SCHED_DISKSORT;
	c->q.max_wait_ns = 10 * MS;
	c->q.cursor = 100;
	lunq_queue_add(&c->q, &c->w[0], 0, false, 50 * MS);
	lunq_queue_add(&c->q, &c->w[1], 200, false, 50 * MS);
	KUNIT_EXPECT_PTR_EQ(test, lunq_queue_next(&c->q, 49 * MS), &c->w[1]);
}

/* A barrier splits the queue: sorting only on either side of it. */
static void lunq_barrier_keeps_place(struct kunit *test)
{
	struct lunq_sched_ctx *c = test->priv;
	static const int want[] = { 1, 0, 2, 4, 3, 5, 6, 7 };

	c->q.mode = LUNQ_SCHED_DISKSORT;
	lunq_queue_add(&c->q, &c->w[0], 300, false, 0);
	lunq_queue_add(&c->q, &c->w[1], 100, false, 0);
	lunq_queue_add(&c->q, &c->w[2], 50, true, 0);	/* FUA write */
	lunq_queue_add(&c->q, &c->w[3], 20, false, 0);
	lunq_queue_add(&c->q, &c->w[4], 10, false, 0);
	lunq_queue_add(&c->q, &c->w[5], LUNQ_NO_LBA, true, 0); /* flush */
	lunq_queue_add(&c->q, &c->w[6], 5, true, 0);	/* back to back */
	lunq_queue_add(&c->q, &c->w[7], 1, false, 0);
	expect_order(test, c, want, ARRAY_SIZE(want), 0);
}

static void lunq_empty_flush_keeps_cursor(struct kunit *test)
{
	struct lunq_sched_ctx *c = test->priv;

	c->q.mode = LUNQ_SCHED_DISKSORT;
	c->q.cursor = 500;
	lunq_queue_add(&c->q, &c->w[0], LUNQ_NO_LBA, true, 0);
	KUNIT_EXPECT_PTR_EQ(test, lunq_queue_next(&c->q, 0), &c->w[0]);
	KUNIT_EXPECT_EQ(test, c->q.cursor, 500ULL);
}

/* Switching order with waiters present keeps every waiter. */
static void lunq_switch_keeps_waiters(struct kunit *test)
{
	struct lunq_sched_ctx *c = test->priv;
	static const u64 lba[] = { 70, 30, 50, 10 };
	static const int want_sorted[] = { 3, 1 };
	static const int want_fifo[] = { 0, 2 };

	c->q.mode = LUNQ_SCHED_DISKSORT;
	add_lbas(c, lba, ARRAY_SIZE(lba));
	KUNIT_EXPECT_PTR_EQ(test, lunq_queue_next(&c->q, 0),
			    &c->w[want_sorted[0]]);
	KUNIT_EXPECT_PTR_EQ(test, lunq_queue_next(&c->q, 0),
			    &c->w[want_sorted[1]]);
	c->q.mode = LUNQ_SCHED_FIFO;
	expect_order(test, c, want_fifo, ARRAY_SIZE(want_fifo), 0);
}

static void lunq_pop_oldest_drains(struct kunit *test)
{
	struct lunq_sched_ctx *c = test->priv;
	int i;

	c->q.mode = LUNQ_SCHED_DISKSORT;
	for (i = 0; i < 6; i++)
		lunq_queue_add(&c->q, &c->w[i], 100 - i, i == 2, i);
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_PTR_EQ(test, lunq_queue_pop_oldest(&c->q),
				    &c->w[i]);
	KUNIT_EXPECT_NULL(test, lunq_queue_pop_oldest(&c->q));
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_ROOT(&c->q.tree));
	KUNIT_EXPECT_NULL(test, c->q.barrier);
}

/*
 * 1000 pseudo-random LBAs, interleaved adds and dispatches: the tree's
 * choice equals a linear scan for the disksort rule.
 */
static void lunq_disksort_matches_scan(struct kunit *test)
{
	struct lunq_sched_ctx *c = test->priv;
	bool *queued = kunit_kcalloc(test, 1000, sizeof(bool), GFP_KERNEL);
	u32 x = 12345;
	int i, added = 0, left = 0;

	KUNIT_ASSERT_NOT_NULL(test, queued);
	c->q.mode = LUNQ_SCHED_DISKSORT;
	while (added < 1000 || left) {
		struct lunq_waiter *w, *want = NULL, *low = NULL;

		x = x * 1103515245 + 12345;
		if (added < 1000 && (x >> 16) % 3) {
			lunq_queue_add(&c->q, &c->w[added],
				       (x >> 8) % 256, false, 0);
			queued[added++] = true;
			left++;
			continue;
		}
		if (!left)
			continue;
		for (i = 0; i < added; i++) {
			struct lunq_waiter *v = &c->w[i];

			if (!queued[i])
				continue;
			if (v->lba >= c->q.cursor &&
			    (!want || v->lba < want->lba))
				want = v;
			if (!low || v->lba < low->lba)
				low = v;
		}
		if (!want)
			want = low;
		w = lunq_queue_next(&c->q, 0);
		KUNIT_ASSERT_PTR_EQ(test, w, want);
		queued[w - c->w] = false;
		left--;
	}
	KUNIT_EXPECT_EQ(test, c->q.nr, 0U);
}

static struct kunit_case lunq_sched_cases[] = {
	KUNIT_CASE(lunq_fifo_arrival_order),
	KUNIT_CASE(lunq_disksort_two_runs),
	KUNIT_CASE(lunq_disksort_ties_keep_arrival),
	KUNIT_CASE(lunq_disksort_starves_behind),
	KUNIT_CASE(lunq_aging_bound),
	KUNIT_CASE(lunq_aging_oldest_first),
	KUNIT_CASE(lunq_aging_policy_bound),
	KUNIT_CASE(lunq_aging_counts_passed_reads),
	KUNIT_CASE(lunq_aging_clock_before_arrival),
	KUNIT_CASE(lunq_barrier_keeps_place),
	KUNIT_CASE(lunq_empty_flush_keeps_cursor),
	KUNIT_CASE(lunq_switch_keeps_waiters),
	KUNIT_CASE(lunq_pop_oldest_drains),
	KUNIT_CASE(lunq_disksort_matches_scan),
	{}
};

static struct kunit_suite lunq_sched_suite = {
	.name = "lunq_sched",
	.init = lunq_sched_init,
	.test_cases = lunq_sched_cases,
};

/* ---- throttle accounting ---- */

struct lunq_throttle_ctx {
	struct lunq_host h;
	struct lunq_waiter w[16];
};

static int lunq_throttle_ctx_init(struct kunit *test)
{
	struct lunq_throttle_ctx *c = kunit_kzalloc(test, sizeof(*c),
						    GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	lunq_host_init(&c->h);
	test->priv = c;
	return 0;
}

static void lunq_throttle_holds_qdepth(struct kunit *test)
{
	struct lunq_throttle_ctx *c = test->priv;
	int i;

	host_set(&c->h, 4, LUNQ_SCHED_FIFO, 0);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_TRUE(test, lunq_host_try_send(&c->h, 0));
	KUNIT_EXPECT_FALSE(test, lunq_host_try_send(&c->h, 0));
	lunq_host_wait(&c->h, &c->w[0], 8, false, 0);
	lunq_host_wait(&c->h, &c->w[1], 16, false, 0);
	KUNIT_EXPECT_FALSE(test, lunq_host_needs_kick(&c->h));
	KUNIT_EXPECT_NULL(test, lunq_host_next(&c->h, 0));
	KUNIT_EXPECT_EQ(test, c->h.inflight, 4U);
	KUNIT_EXPECT_TRUE(test, lunq_host_done(&c->h));
	KUNIT_EXPECT_PTR_EQ(test, lunq_host_next(&c->h, 0), &c->w[0]);
	KUNIT_EXPECT_NULL(test, lunq_host_next(&c->h, 0));
	KUNIT_EXPECT_EQ(test, c->h.inflight, 4U);
	KUNIT_EXPECT_EQ(test, c->h.max_inflight, 4U);
	KUNIT_EXPECT_EQ(test, c->h.max_waiting, 2U);
}

static void lunq_throttle_unlimited(struct kunit *test)
{
	struct lunq_throttle_ctx *c = test->priv;
	int i;

	for (i = 0; i < 1000; i++)
		KUNIT_EXPECT_TRUE(test, lunq_host_try_send(&c->h, 0));
	KUNIT_EXPECT_EQ(test, c->h.inflight, 1000U);
	KUNIT_EXPECT_EQ(test, c->h.max_inflight, 1000U);
}

/* A free slot does not let a new IO overtake waiters or a batch. */
static void lunq_throttle_no_overtaking(struct kunit *test)
{
	struct lunq_throttle_ctx *c = test->priv;

	host_set(&c->h, 1, LUNQ_SCHED_FIFO, 0);
	KUNIT_EXPECT_TRUE(test, lunq_host_try_send(&c->h, 0));
	lunq_host_wait(&c->h, &c->w[0], 0, false, 0);
	KUNIT_EXPECT_TRUE(test, lunq_host_done(&c->h));
	KUNIT_EXPECT_FALSE(test, lunq_host_try_send(&c->h, 0));
	KUNIT_EXPECT_PTR_EQ(test, lunq_host_next(&c->h, 0), &c->w[0]);
	KUNIT_EXPECT_FALSE(test, lunq_host_done(&c->h));
	c->h.dispatching = true;
	KUNIT_EXPECT_FALSE(test, lunq_host_try_send(&c->h, 0));
	c->h.dispatching = false;
	KUNIT_EXPECT_TRUE(test, lunq_host_try_send(&c->h, 0));
}

/*
 * held (lock-free IOs still in flight): no slot is free, whatever the
 * throttle; nothing is sent, nothing dispatched, no kick; then as before.
 */
static void lunq_throttle_held(struct kunit *test)
{
	struct lunq_throttle_ctx *c = test->priv;

	host_set(&c->h, 0, LUNQ_SCHED_FIFO, 0);
	c->h.thr.held = true;
	KUNIT_EXPECT_FALSE(test, lunq_host_try_send(&c->h, 0));
	lunq_host_wait(&c->h, &c->w[0], 0, false, 0);
	KUNIT_EXPECT_FALSE(test, lunq_host_needs_kick(&c->h));
	KUNIT_EXPECT_NULL(test, lunq_host_next(&c->h, 0));
	KUNIT_EXPECT_EQ(test, c->h.inflight, 0U);
	c->h.thr.held = false;
	KUNIT_EXPECT_TRUE(test, lunq_host_needs_kick(&c->h));
	KUNIT_EXPECT_PTR_EQ(test, lunq_host_next(&c->h, 0), &c->w[0]);
	KUNIT_EXPECT_EQ(test, c->h.inflight, 1U);
}

/*
 * Fenced (a zoned write refused, its answer on its way): free slots send
 * nothing, neither a new IO nor a waiter; the refused write, back on the
 * retry list, goes before every waiter once the fence and block lift.
 */
static void lunq_throttle_fence(struct kunit *test)
{
	struct lunq_throttle_ctx *c = test->priv;

	host_set(&c->h, 8, LUNQ_SCHED_FIFO, 0);
	KUNIT_EXPECT_TRUE(test, lunq_host_try_send(&c->h, 0));	/* w[0] */
	lunq_host_fence(&c->h);
	KUNIT_EXPECT_FALSE(test, lunq_host_try_send(&c->h, 8));
	lunq_host_wait(&c->h, &c->w[1], 8, true, 0);
	lunq_host_wait(&c->h, &c->w[2], 16, true, 0);
	KUNIT_EXPECT_FALSE(test, lunq_host_needs_kick(&c->h));
	KUNIT_EXPECT_NULL(test, lunq_host_next(&c->h, 0));
	KUNIT_EXPECT_EQ(test, c->h.inflight, 1U);
	/* the answer arrives: w[0] to the retries, a retry delay of 10 */
	lunq_host_unfence(&c->h);
	lunq_host_requeue(&c->h, &c->w[0], 0, 100, 10);
	KUNIT_EXPECT_EQ(test, c->h.inflight, 0U);
	KUNIT_EXPECT_NULL(test, lunq_host_next(&c->h, 105));
	KUNIT_EXPECT_TRUE(test, lunq_host_unblock(&c->h, 110));
	KUNIT_EXPECT_TRUE(test, lunq_host_needs_kick(&c->h));
	KUNIT_EXPECT_PTR_EQ(test, lunq_host_next(&c->h, 110), &c->w[0]);
	KUNIT_EXPECT_PTR_EQ(test, lunq_host_next(&c->h, 110), &c->w[1]);
	KUNIT_EXPECT_PTR_EQ(test, lunq_host_next(&c->h, 110), &c->w[2]);
	KUNIT_EXPECT_EQ(test, c->h.fenced, 0U);
}

/*
 * The lock-free path's slots: from 0 too (a busy period starts at 1),
 * never more than the limit, the last one given back says so.
 */
static void lunq_throttle_fast_slots(struct kunit *test)
{
	atomic_t n = ATOMIC_INIT(0);
	int i;

	KUNIT_EXPECT_EQ(test, lunq_fast_take(&n, 3), 1);
	KUNIT_EXPECT_EQ(test, lunq_fast_take(&n, 3), 2);
	KUNIT_EXPECT_EQ(test, lunq_fast_take(&n, 3), 3);
	KUNIT_EXPECT_EQ(test, lunq_fast_take(&n, 3), -1);
	KUNIT_EXPECT_EQ(test, atomic_read(&n), 3);
	/* a lower limit taken while more are in flight: nothing more */
	KUNIT_EXPECT_EQ(test, lunq_fast_take(&n, 2), -1);
	KUNIT_EXPECT_FALSE(test, lunq_fast_put(&n));
	KUNIT_EXPECT_FALSE(test, lunq_fast_put(&n));
	KUNIT_EXPECT_TRUE(test, lunq_fast_put(&n));
	KUNIT_EXPECT_EQ(test, atomic_read(&n), 0);
	/* no throttle: as many as come */
	for (i = 1; i <= 1000; i++)
		KUNIT_EXPECT_EQ(test, lunq_fast_take(&n, LUNQ_FAST_NOLIMIT), i);
}

/* Lowering qdepth never touches IOs in flight; it only holds new ones. */
static void lunq_throttle_lower_live(struct kunit *test)
{
	struct lunq_throttle_ctx *c = test->priv;
	int i;

	host_set(&c->h, 8, LUNQ_SCHED_FIFO, 0);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_TRUE(test, lunq_host_try_send(&c->h, 0));
	lunq_host_wait(&c->h, &c->w[0], 0, false, 0);
	KUNIT_EXPECT_FALSE(test, host_set(&c->h, 2, LUNQ_SCHED_FIFO, 0));
	KUNIT_EXPECT_EQ(test, c->h.inflight, 8U);
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_FALSE(test, lunq_host_done(&c->h));
	KUNIT_EXPECT_NULL(test, lunq_host_next(&c->h, 0));
	KUNIT_EXPECT_TRUE(test, lunq_host_done(&c->h));
	KUNIT_EXPECT_PTR_EQ(test, lunq_host_next(&c->h, 0), &c->w[0]);
	KUNIT_EXPECT_EQ(test, c->h.inflight, 2U);
}

/* Raising qdepth (or 0 = unlimited) releases waiters at once. */
static void lunq_throttle_raise_live(struct kunit *test)
{
	struct lunq_throttle_ctx *c = test->priv;
	int i, n = 0;

	host_set(&c->h, 1, LUNQ_SCHED_FIFO, 0);
	KUNIT_EXPECT_TRUE(test, lunq_host_try_send(&c->h, 0));
	for (i = 0; i < 10; i++)
		lunq_host_wait(&c->h, &c->w[i], i, false, 0);
	KUNIT_EXPECT_TRUE(test, host_set(&c->h, 4, LUNQ_SCHED_FIFO, 0));
	while (lunq_host_next(&c->h, 0))
		n++;
	KUNIT_EXPECT_EQ(test, n, 3);
	KUNIT_EXPECT_TRUE(test, host_set(&c->h, 0, LUNQ_SCHED_FIFO, 0));
	while (lunq_host_next(&c->h, 0))
		n++;
	KUNIT_EXPECT_EQ(test, n, 10);
	KUNIT_EXPECT_EQ(test, c->h.inflight, 11U);
}

/* A direct send moves the disksort cursor like a dispatched waiter. */
static void lunq_throttle_direct_send_moves_cursor(struct kunit *test)
{
	struct lunq_throttle_ctx *c = test->priv;

	host_set(&c->h, 1, LUNQ_SCHED_DISKSORT, 0);
	KUNIT_EXPECT_TRUE(test, lunq_host_try_send(&c->h, 500));
	KUNIT_EXPECT_EQ(test, c->h.q.cursor, 500ULL);
	lunq_host_wait(&c->h, &c->w[0], 100, false, 0);
	lunq_host_wait(&c->h, &c->w[1], 600, false, 0);
	lunq_host_done(&c->h);
	KUNIT_EXPECT_PTR_EQ(test, lunq_host_next(&c->h, 0), &c->w[1]);
	KUNIT_EXPECT_FALSE(test, lunq_host_try_send(&c->h, LUNQ_NO_LBA));
	lunq_host_done(&c->h);
	KUNIT_EXPECT_PTR_EQ(test, lunq_host_next(&c->h, 0), &c->w[0]);
	lunq_host_done(&c->h);
	KUNIT_EXPECT_TRUE(test, lunq_host_try_send(&c->h, LUNQ_NO_LBA));
	KUNIT_EXPECT_EQ(test, c->h.q.cursor, 100ULL);
}

static void lunq_throttle_reset_max(struct kunit *test)
{
	struct lunq_throttle_ctx *c = test->priv;
	int i;

	for (i = 0; i < 5; i++)
		lunq_host_try_send(&c->h, 0);
	for (i = 0; i < 3; i++)
		lunq_host_done(&c->h);
	lunq_host_reset_max(&c->h);
	KUNIT_EXPECT_EQ(test, c->h.max_inflight, 2U);
	KUNIT_EXPECT_EQ(test, c->h.max_waiting, 0U);
}

static struct kunit_case lunq_throttle_cases[] = {
	KUNIT_CASE(lunq_throttle_holds_qdepth),
	KUNIT_CASE(lunq_throttle_unlimited),
	KUNIT_CASE(lunq_throttle_no_overtaking),
	KUNIT_CASE(lunq_throttle_held),
	KUNIT_CASE(lunq_throttle_fence),
	KUNIT_CASE(lunq_throttle_fast_slots),
	KUNIT_CASE(lunq_throttle_lower_live),
	KUNIT_CASE(lunq_throttle_raise_live),
	KUNIT_CASE(lunq_throttle_direct_send_moves_cursor),
	KUNIT_CASE(lunq_throttle_reset_max),
	{}
};

static struct kunit_suite lunq_throttle_suite = {
	.name = "lunq_throttle",
	.init = lunq_throttle_ctx_init,
	.test_cases = lunq_throttle_cases,
};

kunit_test_suites(&lunq_sched_suite, &lunq_throttle_suite);

MODULE_LICENSE("GPL");
