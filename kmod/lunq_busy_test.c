// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for dm-lunq's lock-free integrals (lunq_busy.h): busy
 * periods and active time from per-CPU edge sums, half-written edges seen
 * by a reader, and edges racing on every CPU against a reader.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/kthread.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/delay.h>
#include <linux/completion.h>
#include "lunq_busy.h"
#include "lunq_throttle.h"

#define NCPU 3

/* Sum the CPUs @c into one. */
static struct lunq_span sum_of(const struct lunq_span *c, int n)
{
	struct lunq_span s = { 0 };
	int i;

	for (i = 0; i < n; i++)
		lunq_span_add_opens(&s, &c[i]);
	for (i = 0; i < n; i++)
		lunq_span_add_closes(&s, &c[i]);
	return s;
}

static u64 value_of(const struct lunq_span *c, int n, u64 now)
{
	struct lunq_span s = sum_of(c, n);

	return lunq_span_value(&s, now);
}

/* Periods on one CPU: closed ones add t1 - t0, an open one now - t0. */
static void lunq_busy_one_cpu(struct kunit *test)
{
	struct lunq_span c[1] = { { 0 } };

	KUNIT_EXPECT_EQ(test, value_of(c, 1, 1000), 0ULL);
	lunq_span_open(&c[0], 100);
	KUNIT_EXPECT_EQ(test, value_of(c, 1, 130), 30ULL);
	lunq_span_close(&c[0], 150);
	KUNIT_EXPECT_EQ(test, value_of(c, 1, 150), 50ULL);
	KUNIT_EXPECT_EQ(test, value_of(c, 1, 999), 50ULL);
	lunq_span_open(&c[0], 1000);
	KUNIT_EXPECT_EQ(test, value_of(c, 1, 1007), 57ULL);
	KUNIT_EXPECT_EQ(test, lunq_span_opened(&c[0]), 2ULL);
}

/*
 * Opened on one CPU, closed on another (the usual case: completions come
 * where the device answers), and several open at once (active time).
 */
static void lunq_busy_across_cpus(struct kunit *test)
{
	struct lunq_span c[NCPU] = { { 0 } };

	lunq_span_open(&c[0], 10);	/* IO a: 10 .. 40 */
	lunq_span_open(&c[1], 20);	/* IO b: 20 .. 25 */
	lunq_span_close(&c[2], 25);
	KUNIT_EXPECT_EQ(test, value_of(c, NCPU, 30), 20ULL + 5);
	lunq_span_close(&c[1], 40);
	KUNIT_EXPECT_EQ(test, value_of(c, NCPU, 100), 30ULL + 5);
	/* a counter wraps on each CPU; the sum does not care */
	KUNIT_EXPECT_NE(test, c[1].ot, 0ULL);
}

/*
 * A reader that sees an edge half written reads short, never long: the
 * open's time before its count, the close's count before its time.  The
 * reader's view holds its last answer then, and catches up after.
 */
static void lunq_busy_half_edges(struct kunit *test)
{
	struct lunq_span c[2] = { { 0 } };
	struct lunq_span_rd r;
	u64 v;

	lunq_span_rd_init(&r, 0);
	lunq_span_open(&c[0], 100);
	KUNIT_EXPECT_EQ(test, lunq_span_rd(&r, value_of(c, 2, 120)), 20ULL);
	lunq_span_close(&c[1], 150);
	KUNIT_EXPECT_EQ(test, lunq_span_rd(&r, value_of(c, 2, 160)), 50ULL);
	/* an open half written (time, not count) at 200 */
	c[1].ot -= 200;
	v = value_of(c, 2, 210);
	KUNIT_EXPECT_LT(test, (s64)(v - 50), 0LL);	/* short: far below */
	KUNIT_EXPECT_EQ(test, lunq_span_rd(&r, v), 50ULL);
	c[1].on++;
	KUNIT_EXPECT_EQ(test, lunq_span_rd(&r, value_of(c, 2, 230)), 80ULL);
	/* a close half written (count, not time) at 240 */
	c[0].cn++;
	v = value_of(c, 2, 250);
	KUNIT_EXPECT_LT(test, (s64)(v - 80), 0LL);
	KUNIT_EXPECT_EQ(test, lunq_span_rd(&r, v), 80ULL);
	c[0].ct += 240;
	KUNIT_EXPECT_EQ(test, lunq_span_rd(&r, value_of(c, 2, 260)), 90ULL);
	/* a close seen before its open (another CPU's, read first): short */
	lunq_span_close(&c[0], 300);
	KUNIT_EXPECT_EQ(test, lunq_span_rd(&r, value_of(c, 2, 310)), 90ULL);
	lunq_span_open(&c[1], 280);
	KUNIT_EXPECT_EQ(test, lunq_span_rd(&r, value_of(c, 2, 320)), 110ULL);
}

/* the clock lunq_busy_put_if() reads when given no time */
static u64 test_clock_now;
static u64 test_clock(void)
{
	return test_clock_now;
}

/*
 * A slot given back while another is taken: the period closes and opens
 * again at the same time (exact); the last one closes it for good.
 */
static void lunq_busy_put_slots(struct kunit *test)
{
	struct lunq_span c[2] = { { 0 } };
	atomic_t n = ATOMIC_INIT(0);
	bool summed = true;

	KUNIT_EXPECT_EQ(test, lunq_fast_take(&n, LUNQ_FAST_NOLIMIT), 1);
	lunq_span_open(&c[0], 10);
	KUNIT_EXPECT_EQ(test, lunq_fast_take(&n, LUNQ_FAST_NOLIMIT), 2);
	KUNIT_EXPECT_FALSE(test, lunq_busy_put_if(&n, &summed, &c[1], 20,
						  test_clock));
	KUNIT_EXPECT_EQ(test, value_of(c, 2, 25), 15ULL);
	KUNIT_EXPECT_TRUE(test, lunq_busy_put_if(&n, &summed, &c[1], 30,
						 test_clock));
	KUNIT_EXPECT_EQ(test, atomic_read(&n), 0);
	KUNIT_EXPECT_EQ(test, value_of(c, 2, 99), 20ULL);
	KUNIT_EXPECT_EQ(test, c[1].cn, 1ULL);
}

/*
 * Busy periods summed and not (stats on and off): the last slot closes a
 * period as its opener said, whichever IO holds it.  A pure IO (no time
 * of its own: the clock read only to close) that joined a summed period
 * before its opener said so, and gives back the last slot, closes it; a
 * timed IO holding the last slot of a pure period closes nothing.
 */
static void lunq_busy_put_mixed(struct kunit *test)
{
	struct lunq_span c[2] = { { 0 } };
	atomic_t n = ATOMIC_INIT(0);
	bool summed = false;	/* as the period before left it */

	KUNIT_EXPECT_EQ(test, lunq_fast_take(&n, LUNQ_FAST_NOLIMIT), 1);
	KUNIT_EXPECT_EQ(test, lunq_fast_take(&n, LUNQ_FAST_NOLIMIT), 2);
	summed = true;		/* the opener, a timed IO, says so */
	lunq_span_open(&c[0], 10);
	KUNIT_EXPECT_FALSE(test, lunq_busy_put_if(&n, &summed, &c[0], 20,
						  test_clock));
	test_clock_now = 50;
	KUNIT_EXPECT_TRUE(test, lunq_busy_put_if(&n, &summed, &c[1], 0,
						 test_clock));
	KUNIT_EXPECT_EQ(test, c[1].cn, 1ULL);
	KUNIT_EXPECT_EQ(test, value_of(c, 2, 99), 40ULL);

	KUNIT_EXPECT_EQ(test, lunq_fast_take(&n, LUNQ_FAST_NOLIMIT), 1);
	summed = false;		/* a pure IO opens */
	KUNIT_EXPECT_EQ(test, lunq_fast_take(&n, LUNQ_FAST_NOLIMIT), 2);
	KUNIT_EXPECT_FALSE(test, lunq_busy_put_if(&n, &summed, &c[1], 0,
						  test_clock));
	KUNIT_EXPECT_TRUE(test, lunq_busy_put_if(&n, &summed, &c[0], 60,
						 test_clock));
	KUNIT_EXPECT_EQ(test, atomic_read(&n), 0);
	KUNIT_EXPECT_EQ(test, c[0].on + c[1].on, c[0].cn + c[1].cn);
	KUNIT_EXPECT_EQ(test, value_of(c, 2, 999), 40ULL);
}

/* The view: monotone, exact when whole; a reset is a new baseline. */
static void lunq_busy_reader_bounds(struct kunit *test)
{
	struct lunq_span_rd r;

	lunq_span_rd_init(&r, 1000);
	KUNIT_EXPECT_EQ(test, lunq_span_rd(&r, 1010), 10ULL);
	KUNIT_EXPECT_EQ(test, lunq_span_rd(&r, 1100), 100ULL);
	/* less than before: held */
	KUNIT_EXPECT_EQ(test, lunq_span_rd(&r, 1090), 100ULL);
	/* far below (a half-seen edge wraps): held */
	KUNIT_EXPECT_EQ(test, lunq_span_rd(&r, 1000 - (1ULL << 40)), 100ULL);
	KUNIT_EXPECT_EQ(test, lunq_span_rd(&r, 1110), 110ULL);
	/* a baseline near the wrap */
	lunq_span_rd_init(&r, (u64)-5);
	KUNIT_EXPECT_EQ(test, lunq_span_rd(&r, 5), 10ULL);
}

/*
 * Edges racing on every online CPU (up to 4), as the lock-free path makes
 * them: a shared slot count, the 0 -> 1 taker opens a busy period, the
 * 1 -> 0 giver closes it (lunq_busy_put_if()); a shared counter is the clock
 * (every read a new tick).  A reader on this CPU checks the views are
 * monotone; at the end the sums are exact (the busy time is the workers'
 * own tally of their edges) and the view is the sum, or ahead by what an
 * edge's writes took.
 */
struct race {
	atomic_t n;
	atomic64_t clock;
	struct lunq_span __percpu *busy, *io;
	atomic64_t tally;	/* sum of t1 - t0 of the periods (all summed) */
	atomic_t running;
	int rounds;
	int pure_every;		/* every Nth IO keeps no time (stats:off) */
	bool summed;		/* the period open is summed */
	atomic_t summed_opens;
};

/* the clock a pure IO's put reads to close a summed period */
static struct race *race_now;
static u64 race_clock(void)
{
	return atomic64_inc_return(&race_now->clock);
}

static int race_worker(void *data)
{
	struct race *rc = data;
	int i;

	for (i = 0; i < rc->rounds; i++) {
		bool timed = !rc->pure_every || i % rc->pure_every;
		int v = lunq_fast_take(&rc->n, LUNQ_FAST_NOLIMIT);
		u64 t0 = atomic64_inc_return(&rc->clock), t1;
		struct lunq_span *p = get_cpu_ptr(rc->busy);

		if (v == 1) {
			WRITE_ONCE(rc->summed, timed);
			if (timed) {
				lunq_span_open(p, t0);
				atomic64_sub(t0, &rc->tally);
				atomic_inc(&rc->summed_opens);
			}
		}
		lunq_span_open(this_cpu_ptr(rc->io), t0);
		put_cpu_ptr(rc->busy);
		if (i % 7 == 0)
			cond_resched();
		t1 = atomic64_inc_return(&rc->clock);
		p = get_cpu_ptr(rc->busy);
		lunq_span_close(this_cpu_ptr(rc->io), t1);
		if (lunq_busy_put_if(&rc->n, &rc->summed, p, timed ? t1 : 0,
				     race_clock) && !rc->pure_every)
			atomic64_add(t1, &rc->tally);
		put_cpu_ptr(rc->busy);
	}
	atomic_dec(&rc->running);
	return 0;
}

static struct lunq_span race_sum(struct lunq_span __percpu *pc)
{
	struct lunq_span s = { 0 };
	int cpu;

	for_each_possible_cpu(cpu)
		lunq_span_add_opens(&s, per_cpu_ptr(pc, cpu));
	smp_rmb();	/* opens before closes, as lunq_stats_fast_sum() */
	for_each_possible_cpu(cpu)
		lunq_span_add_closes(&s, per_cpu_ptr(pc, cpu));
	return s;
}

static void race_run(struct kunit *test, int rounds, int pure_every)
{
	struct race *rc = kunit_kzalloc(test, sizeof(*rc), GFP_KERNEL);
	struct lunq_span_rd r, ra;
	u64 last = 0, lasta = 0, reads = 0;
	struct lunq_span s, a;
	int cpu, workers = 0;

	KUNIT_ASSERT_NOT_NULL(test, rc);
	rc->busy = alloc_percpu(struct lunq_span);
	rc->io = alloc_percpu(struct lunq_span);
	KUNIT_ASSERT_TRUE(test, rc->busy && rc->io);
	rc->rounds = rounds;
	rc->pure_every = pure_every;
	race_now = rc;
	lunq_span_rd_init(&r, 0);
	lunq_span_rd_init(&ra, 0);
	for_each_online_cpu(cpu) {
		struct task_struct *k;

		if (workers == 4)
			break;
		k = kthread_create(race_worker, rc, "lunq_busy/%d", cpu);
		KUNIT_ASSERT_FALSE(test, IS_ERR(k));
		kthread_bind(k, cpu);
		atomic_inc(&rc->running);
		workers++;
		wake_up_process(k);
	}
	while (atomic_read(&rc->running)) {
		u64 now, v, va;

		s = race_sum(rc->busy);
		a = race_sum(rc->io);
		now = atomic64_inc_return(&rc->clock);
		v = lunq_span_rd(&r, lunq_span_value(&s, now));
		va = lunq_span_rd(&ra, lunq_span_value(&a, now));
		KUNIT_EXPECT_GE(test, v, last);
		KUNIT_EXPECT_GE(test, va, lasta);
		last = v;
		lasta = va;
		reads++;
		cond_resched();
	}
	s = race_sum(rc->busy);
	a = race_sum(rc->io);
	KUNIT_EXPECT_EQ(test, atomic_read(&rc->n), 0);
	KUNIT_EXPECT_EQ(test, s.on, s.cn);	/* every period closed */
	/* ... and opened only by the IOs that opened one summed */
	KUNIT_EXPECT_EQ(test, s.on, (u64)atomic_read(&rc->summed_opens));
	KUNIT_EXPECT_EQ(test, a.on, (u64)workers * rc->rounds);
	KUNIT_EXPECT_EQ(test, a.cn, a.on);
	KUNIT_EXPECT_LE(test, lunq_span_value(&s, 0),
			(u64)atomic64_read(&rc->clock));
	if (pure_every) {
		kunit_info(test, "%d workers, %llu reads, busy %llu of %llu ticks, %llu summed periods\n",
			   workers, reads, lunq_span_value(&s, 0),
			   (u64)atomic64_read(&rc->clock), s.on);
		goto out;
	}
	/* idle: the value does not depend on the time; it is the tally */
	KUNIT_EXPECT_EQ(test, lunq_span_value(&s, 0),
			(u64)atomic64_read(&rc->tally));
	/* the view: the sum, or ahead by what an edge's writes took */
	last = lunq_span_rd(&r, lunq_span_value(&s, 0));
	KUNIT_EXPECT_GE(test, last, (u64)atomic64_read(&rc->tally));
	KUNIT_EXPECT_LE(test, last - atomic64_read(&rc->tally),
			(u64)atomic64_read(&rc->clock) / 100);
	/* every IO lasted at least one tick, and they overlapped */
	KUNIT_EXPECT_GE(test, lunq_span_value(&a, 0), (u64)workers * rc->rounds);
	kunit_info(test, "%d workers, %llu reads, busy %llu (view %llu) of %llu ticks, %llu opens\n",
		   workers, reads, lunq_span_value(&s, 0), last,
		   (u64)atomic64_read(&rc->clock), s.on);
out:
	free_percpu(rc->busy);
	free_percpu(rc->io);
}

static void lunq_busy_race(struct kunit *test)
{
	race_run(test, 20000, 0);
}

/*
 * The same with every third IO keeping no time (stats switched under
 * IO): periods opened by either kind, closed by either kind's last slot;
 * every summed period opened is closed, no other is.
 */
static void lunq_busy_race_mixed(struct kunit *test)
{
	race_run(test, 10000, 3);
}

static struct kunit_case lunq_busy_cases[] = {
	KUNIT_CASE(lunq_busy_one_cpu),
	KUNIT_CASE(lunq_busy_across_cpus),
	KUNIT_CASE(lunq_busy_half_edges),
	KUNIT_CASE(lunq_busy_put_slots),
	KUNIT_CASE(lunq_busy_put_mixed),
	KUNIT_CASE(lunq_busy_reader_bounds),
	KUNIT_CASE(lunq_busy_race),
	KUNIT_CASE(lunq_busy_race_mixed),
	{}
};

static struct kunit_suite lunq_busy_suite = {
	.name = "lunq_busy",
	.test_cases = lunq_busy_cases,
};

kunit_test_suites(&lunq_busy_suite);

MODULE_LICENSE("GPL");
