// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for lunq_wd.c (suite lunq_wd): the watchdog's rules on a
 * policy from outside -- a callback's bound, a stalled device, the depth
 * held at its floor while a waiter ages, the timeout's default and
 * ceiling.  Run alone with
 *   tests/kunit/run 'lunq_wd*'
 */
#include <kunit/test.h>
#include "lunq_wd.h"

#define MS	1000000ULL	/* ns */
#define TICK	(50 * MS)	/* the window work's tick */

/* The timeout: 0 is the default, above the ceiling is the ceiling. */
static void lunq_wd_timeouts(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, lunq_wd_timeout_ns(0),
			LUNQ_WD_TIMEOUT_DFLT_MS * MS);
	KUNIT_EXPECT_EQ(test, lunq_wd_timeout_ns(1000), 1000 * MS);
	KUNIT_EXPECT_EQ(test, lunq_wd_timeout_ns(LUNQ_WD_TIMEOUT_MAX_MS + 1),
			LUNQ_WD_TIMEOUT_MAX_MS * MS);
	KUNIT_EXPECT_EQ(test, lunq_wd_timeout_ns(U32_MAX),
			LUNQ_WD_TIMEOUT_MAX_MS * MS);
}

/* A callback of 50 ms is allowed, one nanosecond more is not. */
static void lunq_wd_calls(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, lunq_wd_call(0), LUNQ_WD_NONE);
	KUNIT_EXPECT_EQ(test, lunq_wd_call(LUNQ_WD_CALL_NS), LUNQ_WD_NONE);
	KUNIT_EXPECT_EQ(test, lunq_wd_call(LUNQ_WD_CALL_NS + 1), LUNQ_WD_CALL);
	KUNIT_EXPECT_STREQ(test, lunq_wd_rule_name(LUNQ_WD_CALL), "callback");
	KUNIT_EXPECT_STREQ(test, lunq_wd_rule_name(LUNQ_WD_NR_RULES), "?");
}

/*
 * Stall: commands wait and nothing is sent.  Every tick until the timeout
 * (1 s) passes; the first at or past it ejects, with how far past.  A
 * command sent, or no waiter, starts the count again.
 */
static void lunq_wd_stall(struct kunit *test)
{
	struct lunq_wd wd;
	u64 now = 1000 * MS, ns, t;

	lunq_wd_start(&wd, 1000, now, 5);
	for (t = TICK; t < 1000 * MS; t += TICK)
		KUNIT_ASSERT_EQ_MSG(test, lunq_wd_tick(&wd, now + t, 5, 3, t,
						       8, 1, &ns),
				    LUNQ_WD_NONE, "tick at +%llu ms", t / MS);
	KUNIT_EXPECT_EQ(test, lunq_wd_tick(&wd, now + 1000 * MS + 7, 5, 3,
					   MS, 8, 1, &ns), LUNQ_WD_STALL);
	KUNIT_EXPECT_EQ(test, ns, 1000 * MS + 7);

	/* one command sent at +900 ms: the count starts there */
	lunq_wd_start(&wd, 1000, now, 5);
	KUNIT_EXPECT_EQ(test, lunq_wd_tick(&wd, now + 900 * MS, 6, 3, MS, 8, 1,
					   &ns), LUNQ_WD_NONE);
	KUNIT_EXPECT_EQ(test, lunq_wd_tick(&wd, now + 1800 * MS, 6, 3, MS, 8,
					   1, &ns), LUNQ_WD_NONE);
	KUNIT_EXPECT_EQ(test, lunq_wd_tick(&wd, now + 1900 * MS, 6, 3, MS, 8,
					   1, &ns), LUNQ_WD_STALL);

	/* an idle device sends nothing and is not stalled */
	lunq_wd_start(&wd, 1000, now, 5);
	KUNIT_EXPECT_EQ(test, lunq_wd_tick(&wd, now + 5000 * MS, 5, 0, 0, 8, 1,
					   &ns), LUNQ_WD_NONE);
	KUNIT_EXPECT_EQ(test, lunq_wd_tick(&wd, now + 5050 * MS, 5, 1, 0, 8, 1,
					   &ns), LUNQ_WD_NONE);
}

/*
 * Floor: commands are sent (no stall), but the depth sits at the floor
 * and the oldest waiter has waited past the timeout.  Above the floor, or
 * with younger waiters, nothing.
 */
static void lunq_wd_floor(struct kunit *test)
{
	struct lunq_wd wd;
	u64 now = 1000 * MS, ns;

	lunq_wd_start(&wd, 1000, now, 0);
	KUNIT_EXPECT_EQ(test, lunq_wd_tick(&wd, now + TICK, 1, 40, 1000 * MS,
					   1, 1, &ns), LUNQ_WD_NONE);
	KUNIT_EXPECT_EQ(test, lunq_wd_tick(&wd, now + 2 * TICK, 2, 40,
					   1001 * MS, 2, 1, &ns),
			LUNQ_WD_NONE);
	KUNIT_EXPECT_EQ(test, lunq_wd_tick(&wd, now + 3 * TICK, 3, 40,
					   1001 * MS, 1, 1, &ns),
			LUNQ_WD_FLOOR);
	KUNIT_EXPECT_EQ(test, ns, 1001 * MS);
	/* depth 0 is no limit, never a floor */
	KUNIT_EXPECT_EQ(test, lunq_wd_tick(&wd, now + 4 * TICK, 4, 40,
					   5000 * MS, 0, 0, &ns),
			LUNQ_WD_NONE);
	/* no floor (auto_min = auto_max: the policy has no choice) */
	KUNIT_EXPECT_EQ(test, lunq_wd_tick(&wd, now + 5 * TICK, 5, 40,
					   5000 * MS, 1, 0, &ns),
			LUNQ_WD_NONE);
	/* a resume after a long suspend: the stall counts from there */
	lunq_wd_start(&wd, 1000, now, 7);
	lunq_wd_resume(&wd, now + 60000 * MS, 7);
	KUNIT_EXPECT_EQ(test, lunq_wd_tick(&wd, now + 60050 * MS, 7, 3, MS, 8,
					   1, &ns), LUNQ_WD_NONE);
	/* the default timeout (10 s) */
	lunq_wd_start(&wd, 0, now, 0);
	KUNIT_EXPECT_EQ(test, lunq_wd_tick(&wd, now + TICK, 1, 40, 9999 * MS,
					   2, 2, &ns), LUNQ_WD_NONE);
	KUNIT_EXPECT_EQ(test, lunq_wd_tick(&wd, now + 2 * TICK, 2, 40,
					   10001 * MS, 2, 2, &ns),
			LUNQ_WD_FLOOR);
}

static struct kunit_case lunq_wd_cases[] = {
	KUNIT_CASE(lunq_wd_timeouts),
	KUNIT_CASE(lunq_wd_calls),
	KUNIT_CASE(lunq_wd_stall),
	KUNIT_CASE(lunq_wd_floor),
	{}
};

static struct kunit_suite lunq_wd_suite = {
	.name = "lunq_wd",
	.test_cases = lunq_wd_cases,
};

kunit_test_suites(&lunq_wd_suite);

MODULE_LICENSE("GPL");
