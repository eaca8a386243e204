// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for lunq_integ.c, the iostat -x time integrals (wlentime,
 * rlentime, wtime, rtime): exact pieces, clocks going backwards, stats
 * reset, and pseudo-random schedules against a brute-force simulation
 * that integrates one time unit at a time.  Run alone with
 *   tests/kunit/run lunq_integ
 */
#include <kunit/test.h>
#include "lunq_integ.h"

static void expect_integ(struct kunit *test, const struct lunq_integ *g,
			 u64 wlentime, u64 rlentime, u64 wtime, u64 rtime)
{
	KUNIT_EXPECT_EQ(test, g->wlentime, wlentime);
	KUNIT_EXPECT_EQ(test, g->rlentime, rlentime);
	KUNIT_EXPECT_EQ(test, g->wtime, wtime);
	KUNIT_EXPECT_EQ(test, g->rtime, rtime);
}

/* init: nothing integrated, nothing waiting or active, last = now. */
static void lunq_integ_init_zero(struct kunit *test)
{
	struct lunq_integ g;

	memset(&g, 0xa5, sizeof(g));
	lunq_integ_init(&g, 12345);
	KUNIT_EXPECT_EQ(test, g.last, 12345ULL);
	KUNIT_EXPECT_EQ(test, g.nwait, 0U);
	KUNIT_EXPECT_EQ(test, g.nact, 0U);
	expect_integ(test, &g, 0, 0, 0, 0);

	/* time passing with nothing in flight integrates nothing */
	lunq_integ_update(&g, 99999, 0, 0);
	KUNIT_EXPECT_EQ(test, g.last, 99999ULL);
	expect_integ(test, &g, 0, 0, 0, 0);
}

/* Two IOs waiting for 10 ns, then none: wlentime 20, wtime 10. */
static void lunq_integ_two_waiting(struct kunit *test)
{
	struct lunq_integ g;

	lunq_integ_init(&g, 0);
	lunq_integ_update(&g, 0, 2, 0);
	expect_integ(test, &g, 0, 0, 0, 0);
	lunq_integ_update(&g, 10, 0, 0);
	expect_integ(test, &g, 20, 0, 10, 0);
	KUNIT_EXPECT_EQ(test, g.last, 10ULL);
	lunq_integ_update(&g, 1000, 0, 0);
	expect_integ(test, &g, 20, 0, 10, 0);
}

/*
 * One piece: @nwait waiting and @nact active for @dt after a start at
 * @t0, then an update at t0 + dt.
 */
struct piece_case {
	const char *name;
	u64 t0, dt;
	u32 nwait, nact;
	u64 wlentime, rlentime, wtime, rtime;
};

static const struct piece_case piece_cases[] = {
	{ "idle", 0, 100, 0, 0, 0, 0, 0, 0 },
	{ "waiting-only", 0, 10, 2, 0, 20, 0, 10, 0 },
	{ "active-only", 5, 7, 0, 3, 0, 21, 0, 7 },
	{ "both", 1000, 1000, 5, 4, 5000, 4000, 1000, 1000 },
	{ "one-each-1ns", 1, 1, 1, 1, 1, 1, 1, 1 },
	{ "zero-length", 500, 0, 9, 9, 0, 0, 0, 0 },
	{ "deep-queue", 0, 1000000, 4096, 256,
	  4096000000ULL, 256000000ULL, 1000000, 1000000 },
	{ "u32-max-counts", 1ULL << 40, 1ULL << 20, U32_MAX, U32_MAX,
	  (u64)U32_MAX << 20, (u64)U32_MAX << 20, 1ULL << 20, 1ULL << 20 },
	{ "hour-long", 3600ULL * 1000000000, 3600ULL * 1000000000, 1, 0,
	  3600ULL * 1000000000, 0, 3600ULL * 1000000000, 0 },
};

static void piece_case_desc(const struct piece_case *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", p->name);
}

KUNIT_ARRAY_PARAM(pieces, piece_cases, piece_case_desc);

static void lunq_integ_piece(struct kunit *test)
{
	const struct piece_case *p = test->param_value;
	struct lunq_integ g;

	lunq_integ_init(&g, p->t0);
	lunq_integ_update(&g, p->t0, p->nwait, p->nact);
	lunq_integ_update(&g, p->t0 + p->dt, 0, 0);
	expect_integ(test, &g, p->wlentime, p->rlentime, p->wtime, p->rtime);
	KUNIT_EXPECT_EQ(test, g.last, p->t0 + p->dt);
}

/* rtime counts only the time with nact > 0, whatever nwait is. */
static void lunq_integ_rtime_only_active(struct kunit *test)
{
	struct lunq_integ g;

	lunq_integ_init(&g, 0);
	lunq_integ_update(&g, 0, 3, 0);		/*   0 ..  50: 3 waiting */
	lunq_integ_update(&g, 50, 3, 1);	/*  50 ..  70: 1 active */
	lunq_integ_update(&g, 70, 0, 0);	/*  70 .. 100: idle */
	lunq_integ_update(&g, 100, 0, 2);	/* 100 .. 105: 2 active */
	lunq_integ_update(&g, 105, 1, 0);	/* 105 .. 111: 1 waiting */
	lunq_integ_update(&g, 111, 0, 0);
	KUNIT_EXPECT_EQ(test, g.rtime, 25ULL);
	KUNIT_EXPECT_EQ(test, g.rlentime, 30ULL);
	KUNIT_EXPECT_EQ(test, g.wtime, 76ULL);
	KUNIT_EXPECT_EQ(test, g.wlentime, 3 * 70ULL + 6);
}

/*
 * Counts changing at the same instant (several updates at one now)
 * integrate only the counts in force over time.
 */
static void lunq_integ_same_instant(struct kunit *test)
{
	struct lunq_integ g;

	lunq_integ_init(&g, 100);
	lunq_integ_update(&g, 100, 7, 7);
	lunq_integ_update(&g, 100, 1, 0);
	lunq_integ_update(&g, 100, 0, 1);
	lunq_integ_update(&g, 110, 0, 0);
	expect_integ(test, &g, 0, 10, 0, 10);
}

/*
 * A now earlier than the last update (a clock read outside the lock)
 * integrates nothing and does not move last back, but its counts apply.
 */
static void lunq_integ_backwards_now(struct kunit *test)
{
	struct lunq_integ g;

	lunq_integ_init(&g, 0);
	lunq_integ_update(&g, 0, 1, 1);
	lunq_integ_update(&g, 100, 1, 1);
	expect_integ(test, &g, 100, 100, 100, 100);

	lunq_integ_update(&g, 50, 2, 2);
	KUNIT_EXPECT_EQ(test, g.last, 100ULL);
	expect_integ(test, &g, 100, 100, 100, 100);
	KUNIT_EXPECT_EQ(test, g.nwait, 2U);
	KUNIT_EXPECT_EQ(test, g.nact, 2U);

	/* from 100 on with the new counts, never from 50 */
	lunq_integ_update(&g, 110, 0, 3);
	expect_integ(test, &g, 120, 120, 110, 110);
	KUNIT_EXPECT_EQ(test, g.last, 110ULL);

	/* way back (0) and just before: still nothing */
	lunq_integ_update(&g, 0, 0, 3);
	lunq_integ_update(&g, 109, 0, 3);
	expect_integ(test, &g, 120, 120, 110, 110);
	KUNIT_EXPECT_EQ(test, g.last, 110ULL);
	lunq_integ_update(&g, 111, 0, 0);
	expect_integ(test, &g, 120, 123, 110, 111);
}

/* reset zeroes the integrals at now; the counts in force stay. */
static void lunq_integ_reset_keeps_counts(struct kunit *test)
{
	struct lunq_integ g;

	lunq_integ_init(&g, 0);
	lunq_integ_update(&g, 0, 3, 2);
	lunq_integ_update(&g, 100, 3, 2);
	expect_integ(test, &g, 300, 200, 100, 100);

	lunq_integ_reset(&g, 150);
	expect_integ(test, &g, 0, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, g.last, 150ULL);
	KUNIT_EXPECT_EQ(test, g.nwait, 3U);
	KUNIT_EXPECT_EQ(test, g.nact, 2U);

	/* integration resumes from the reset, with the kept counts */
	lunq_integ_update(&g, 160, 0, 0);
	expect_integ(test, &g, 30, 20, 10, 10);

	/* a reset with a clock behind last: zero, last stays */
	lunq_integ_update(&g, 200, 1, 0);
	lunq_integ_reset(&g, 180);
	expect_integ(test, &g, 0, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, g.last, 200ULL);
	KUNIT_EXPECT_EQ(test, g.nwait, 1U);
	lunq_integ_update(&g, 205, 0, 0);
	expect_integ(test, &g, 5, 0, 5, 0);
}

/* ---- pseudo-random schedules against a brute-force simulation ---- */

struct sim {
	u64 t;			/* time units simulated so far */
	u32 nwait, nact;
	u64 wlentime, rlentime, wtime, rtime;	/* in time units */
};

/* Advance the simulation one time unit at a time up to @t. */
static void sim_advance(struct sim *s, u64 t)
{
	for (; s->t < t; s->t++) {
		s->wlentime += s->nwait;
		s->rlentime += s->nact;
		if (s->nwait)
			s->wtime++;
		if (s->nact)
			s->rtime++;
	}
}

static u32 xorshift32(u32 *s)
{
	u32 x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return x;
}

/* A small count, zero about a third of the time. */
static u32 random_count(u32 *s)
{
	u32 r = xorshift32(s) % 12;

	return r < 4 ? 0 : r - 3;
}

/*
 * @steps events at pseudo-random times (seed @seed), each time unit
 * @scale ns long, starting at @t0 ns: mostly forward steps of 0 .. 40
 * units, sometimes a clock up to 5 units behind the last one, sometimes a
 * reset.  After every event the integrals equal the simulation's times
 * @scale.
 */
struct schedule_case {
	u32 seed;
	u32 steps;
	u64 t0, scale;
};

static const struct schedule_case schedule_cases[] = {
	{ 1, 2000, 0, 1 },
	{ 0xdeadbeef, 2000, 1000, 1 },
	{ 12345, 1000, 5ULL << 40, 1000003 },	/* about 1 ms units */
	{ 777, 1000, 0, 1000000000 },		/* 1 s units */
};

static void schedule_case_desc(const struct schedule_case *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "seed=%u scale=%llu", p->seed,
		 p->scale);
}

KUNIT_ARRAY_PARAM(schedules, schedule_cases, schedule_case_desc);

static void lunq_integ_random_vs_brute_force(struct kunit *test)
{
	const struct schedule_case *p = test->param_value;
	struct sim s = { 0 };
	struct lunq_integ g;
	u32 seed = p->seed, i, resets = 0, backwards = 0;
	u64 t = 0;		/* the clock of this event, in units */

	lunq_integ_init(&g, p->t0);
	for (i = 0; i < p->steps; i++) {
		u32 r = xorshift32(&seed) % 100;
		u32 nwait = random_count(&seed), nact = random_count(&seed);

		if (r < 10 && s.t > 0) {
			/* behind the last update by 1 .. 5 units */
			u32 back = 1 + xorshift32(&seed) % 5;

			t = s.t > back ? s.t - back : 0;
			backwards++;
		} else {
			t = s.t + xorshift32(&seed) % 41;
		}

		if (r >= 95) {
			lunq_integ_reset(&g, p->t0 + t * p->scale);
			sim_advance(&s, t);
			s.wlentime = 0;
			s.rlentime = 0;
			s.wtime = 0;
			s.rtime = 0;
			resets++;
		} else {
			lunq_integ_update(&g, p->t0 + t * p->scale, nwait,
					  nact);
			sim_advance(&s, t);
			s.nwait = nwait;
			s.nact = nact;
		}

		if (g.wlentime != s.wlentime * p->scale ||
		    g.rlentime != s.rlentime * p->scale ||
		    g.wtime != s.wtime * p->scale ||
		    g.rtime != s.rtime * p->scale ||
		    g.last != p->t0 + s.t * p->scale ||
		    g.nwait != s.nwait || g.nact != s.nact) {
			KUNIT_FAIL(test,
				   "step %u (t %llu, sim t %llu): wlen %llu rlen %llu w %llu r %llu, sim %llu %llu %llu %llu",
				   i, t, s.t, g.wlentime, g.rlentime, g.wtime,
				   g.rtime, s.wlentime * p->scale,
				   s.rlentime * p->scale, s.wtime * p->scale,
				   s.rtime * p->scale);
			return;
		}
	}
	/* the schedule exercised what it is meant to */
	KUNIT_EXPECT_GT(test, resets, 0U);
	KUNIT_EXPECT_GT(test, backwards, 0U);
	KUNIT_EXPECT_GT(test, s.wtime, 0ULL);
	KUNIT_EXPECT_GT(test, s.rtime, 0ULL);
	KUNIT_EXPECT_LT(test, s.rtime, s.t);
}

static struct kunit_case lunq_integ_cases[] = {
	KUNIT_CASE(lunq_integ_init_zero),
	KUNIT_CASE(lunq_integ_two_waiting),
	KUNIT_CASE_PARAM(lunq_integ_piece, pieces_gen_params),
	KUNIT_CASE(lunq_integ_rtime_only_active),
	KUNIT_CASE(lunq_integ_same_instant),
	KUNIT_CASE(lunq_integ_backwards_now),
	KUNIT_CASE(lunq_integ_reset_keeps_counts),
	KUNIT_CASE_PARAM(lunq_integ_random_vs_brute_force,
			 schedules_gen_params),
	{}
};

static struct kunit_suite lunq_integ_suite = {
	.name = "lunq_integ",
	.test_cases = lunq_integ_cases,
};

kunit_test_suites(&lunq_integ_suite);

MODULE_LICENSE("GPL");
