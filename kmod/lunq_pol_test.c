// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the throttle policies' dispatch (lunq_pol.c) -- which built-in a
 * table selects, that every answer is clamped to the policy's limits, and
 * that the hooks a policy lacks leave the depth alone -- and the
 * throttle's one store (lunq_throttle.c).
 */
#include <kunit/test.h>
#include "lunq_args.h"
#include "lunq_pol.h"
#include "lunq_throttle.h"

static u32 garbage;	/* what the test policies answer */
static int stops;
static const struct lunq_pol_dev *seen;	/* the device ext callbacks got */

/* A policy from outside: struct lunq_policy_ops, read-only views. */
static u32 x_start(const struct lunq_pol_dev *d, const struct lunq_pol_view *v)
{
	seen = d;
	return garbage;
}

static u32 x_window(const struct lunq_pol_dev *d,
		    const struct lunq_pol_window *w)
{
	seen = d;
	return garbage;
}

static u32 x_qfull(const struct lunq_pol_dev *d, const struct lunq_pol_view *v)
{
	seen = d;
	return garbage;
}

static void x_stop(const struct lunq_pol_dev *d)
{
	seen = d;
	stops++;
}

static const struct lunq_policy_ops garbage_ops = {
	.name = "garbage", .start = x_start, .window = x_window,
	.qfull = x_qfull, .stop = x_stop,
};

/* The same answers from a built-in, limits 2..32. */
static u32 g_start(struct lunq_pol *p, const struct lunq_pol_view *v)
{
	return garbage;
}

static u32 g_window(struct lunq_pol *p, const struct lunq_pol_window *w)
{
	return garbage;
}

static u32 g_qfull(struct lunq_pol *p, const struct lunq_pol_view *v)
{
	return garbage;
}

static void g_stop(struct lunq_pol *p)
{
	stops++;
}

static void g_limits(const u32 *val, u32 *min, u32 *max)
{
	*min = 2;
	*max = 32;
}

static const struct lunq_builtin garbage_builtin = {
	.name = "garbage", .start = g_start, .window = g_window,
	.qfull = g_qfull, .stop = g_stop, .limits = g_limits,
};

static void lunq_pol_selects_builtin(struct kunit *test)
{
	struct lunq_keys p;

	lunq_keys_init(&p);
	KUNIT_EXPECT_PTR_EQ(test, lunq_pol_select(p.val), &lunq_pol_fixed);
	p.val[LUNQ_REACTION] = LUNQ_REACT_LINUX;
	KUNIT_EXPECT_PTR_EQ(test, lunq_pol_select(p.val), &lunq_pol_linux);
	p.val[LUNQ_REACTION] = LUNQ_REACT_SD;
	KUNIT_EXPECT_PTR_EQ(test, lunq_pol_select(p.val), &lunq_pol_sd);
	p.val[LUNQ_REACTION] = LUNQ_REACT_SD_FC;
	KUNIT_EXPECT_PTR_EQ(test, lunq_pol_select(p.val), &lunq_pol_sdfc);
	p.val[LUNQ_REACTION] = LUNQ_REACT_NONE;
	p.val[LUNQ_AUTO] = LUNQ_AUTO_KNEE;
	KUNIT_EXPECT_PTR_EQ(test, lunq_pol_select(p.val), &lunq_pol_knee);
	p.val[LUNQ_AUTO] = LUNQ_AUTO_TARGET;
	KUNIT_EXPECT_PTR_EQ(test, lunq_pol_select(p.val), &lunq_pol_target);
}

/*
 * auto's settling time (IOs of the old depth still out after a move) holds
 * windows back through the settling hook; other policies never settle,
 * and a window after their move always starts on a later tick.
 */
static void lunq_pol_auto_settles(struct kunit *test)
{
	struct lunq_pol_view v = { .now = 1000, .depth = 16 };
	struct lunq_pol p = { 0 };
	struct lunq_keys t;

	lunq_keys_init(&t);
	t.val[LUNQ_QDEPTH] = 16;
	lunq_pol_use(&p, &lunq_pol_fixed, t.val);
	KUNIT_EXPECT_FALSE(test, lunq_pol_settling(&p, 1000));
	KUNIT_EXPECT_FALSE(test, lunq_pol_goes_on(&p, 1000));
	t.val[LUNQ_AUTO] = LUNQ_AUTO_KNEE;
	t.val[LUNQ_AUTO_START] = 16;	/* auto's start (auto_start:16) */
	lunq_pol_use(&p, lunq_pol_select(t.val), t.val);
	KUNIT_EXPECT_EQ(test, lunq_pol_start(&p, &v), 16U);
	KUNIT_EXPECT_FALSE(test, lunq_pol_settling(&p, 1000));
	p.autoc.settle_until = 2000;
	KUNIT_EXPECT_TRUE(test, lunq_pol_settling(&p, 1999));
	KUNIT_EXPECT_FALSE(test, lunq_pol_settling(&p, 2000));
	/* a window after a move goes on from it once auto is not settling */
	KUNIT_EXPECT_FALSE(test, lunq_pol_goes_on(&p, 1999));
	KUNIT_EXPECT_TRUE(test, lunq_pol_goes_on(&p, 2000));
	/* target is the same controller: the same hooks, another name */
	KUNIT_EXPECT_PTR_EQ(test, lunq_pol_target.settling, lunq_pol_knee.settling);
	KUNIT_EXPECT_PTR_EQ(test, lunq_pol_target.window, lunq_pol_knee.window);
	KUNIT_EXPECT_STRNEQ(test, lunq_pol_target.name, lunq_pol_knee.name);
	/* a policy from outside never settles, whatever auto left */
	lunq_pol_use_ext(&p, &garbage_ops, t.val);
	KUNIT_EXPECT_FALSE(test, lunq_pol_settling(&p, 1999));
	KUNIT_EXPECT_FALSE(test, lunq_pol_goes_on(&p, 2000));
}

/* 0, 10^9 and everything between come back inside [min, max]. */
static void lunq_pol_clamps_every_answer(struct kunit *test)
{
	static const u32 answers[] = { 0, 1, 2, 31, 32, 33, 1000000000, U32_MAX };
	struct lunq_pol_window w = { .v = { .depth = 8 } };
	struct lunq_pol p = { 0 };
	u64 v[__LUNQ_ST_MAX] = { 0 };
	struct lunq_keys t;
	unsigned int i, k;

	lunq_keys_init(&t);
	t.val[LUNQ_AUTO_MIN] = 2;	/* a policy from outside: auto's */
	t.val[LUNQ_AUTO_MAX] = 32;
	for (k = 0; k < 2; k++) {
		if (k)
			lunq_pol_use_ext(&p, &garbage_ops, t.val);
		else
			lunq_pol_use(&p, &garbage_builtin, t.val);
		for (i = 0; i < ARRAY_SIZE(answers); i++) {
			u32 want = answers[i] < 2 ? 2 :
				   answers[i] > 32 ? 32 : answers[i];

			garbage = answers[i];
			KUNIT_EXPECT_EQ(test, lunq_pol_start(&p, &w.v), want);
			KUNIT_EXPECT_EQ(test, lunq_pol_window(&p, &w), want);
			KUNIT_EXPECT_EQ(test, lunq_pol_qfull(&p, &w.v), want);
		}
		/* hooks it lacks: the depth in force stays */
		KUNIT_EXPECT_EQ(test, lunq_pol_good(&p, 0, 7), 7U);
		KUNIT_EXPECT_EQ(test, lunq_pol_tick(&p, 0, 7), 7U);
		KUNIT_EXPECT_EQ(test, lunq_pol_idle(&p, 0, 7), 7U);
		KUNIT_EXPECT_EQ(test, lunq_pol_share(&p, 0, 3, 0, true, 7), 7U);
		KUNIT_EXPECT_FALSE(test, lunq_pol_shares(&p));
		KUNIT_EXPECT_EQ(test, lunq_pol_deadline(&p), 0ULL);
		KUNIT_EXPECT_TRUE(test, lunq_pol_steady(&p));
		KUNIT_EXPECT_TRUE(test, lunq_pol_windows(&p));
		KUNIT_EXPECT_STREQ(test, lunq_pol_name(&p), "garbage");
		/*
		 * three hooks x: 0; 1; 33, 10^9, U32_MAX (the built-in's
		 * counts do not carry over to the one from outside)
		 */
		lunq_pol_fill(&p, v, 0);
		KUNIT_EXPECT_EQ(test, v[LUNQ_ST_POL_ZERO], 3ULL);
		KUNIT_EXPECT_EQ(test, v[LUNQ_ST_POL_BELOW], 3ULL);
		KUNIT_EXPECT_EQ(test, v[LUNQ_ST_POL_ABOVE], 9ULL);
	}
	/* another policy takes over: the old one is stopped, once */
	stops = 0;
	t.val[LUNQ_QDEPTH] = 16;
	lunq_pol_use(&p, &lunq_pol_fixed, t.val);
	KUNIT_EXPECT_EQ(test, stops, 1);
	KUNIT_EXPECT_EQ(test, lunq_pol_start(&p, &w.v), 16U);
	w.v.depth = 16;		/* what fixed holds: none of its answers clamped */
	KUNIT_EXPECT_EQ(test, lunq_pol_qfull(&p, &w.v), 16U);
	KUNIT_EXPECT_STREQ(test, lunq_pol_name(&p), "fixed");
	lunq_pol_fill(&p, v, 0);
	KUNIT_EXPECT_EQ(test, v[LUNQ_ST_POL_ZERO] + v[LUNQ_ST_POL_BELOW] +
			v[LUNQ_ST_POL_ABOVE], 0ULL);
}

/* A policy from outside gets the device's view, never its state. */
static void lunq_pol_ext_sees_the_device(struct kunit *test)
{
	struct lunq_pol_window w = { .v = { .depth = 8 } };
	struct lunq_pol p = { 0 };
	struct lunq_keys t;

	lunq_keys_init(&t);
	p.dev.id = 42;
	strscpy(p.dev.name, "lun0", sizeof(p.dev.name));
	lunq_pol_use_ext(&p, &garbage_ops, t.val);
	KUNIT_EXPECT_PTR_EQ(test, p.bi, NULL);
	garbage = 8;
	seen = NULL;
	lunq_pol_start(&p, &w.v);
	KUNIT_EXPECT_PTR_EQ(test, seen, (const struct lunq_pol_dev *)&p.dev);
	seen = NULL;
	lunq_pol_window(&p, &w);
	KUNIT_EXPECT_PTR_EQ(test, seen, (const struct lunq_pol_dev *)&p.dev);
	KUNIT_EXPECT_EQ(test, seen->id, 42U);
	KUNIT_EXPECT_STREQ(test, seen->name, "lun0");
	/* the table's policy again: the one from outside is stopped */
	stops = 0;
	lunq_pol_use(&p, lunq_pol_select(t.val), t.val);
	KUNIT_EXPECT_EQ(test, stops, 1);
	KUNIT_EXPECT_PTR_EQ(test, p.ext, NULL);
}

/* The reactions keep their rules through the ops, inside [1, qdepth]. */
static void lunq_pol_reaction_through_ops(struct kunit *test)
{
	struct lunq_pol_view v = { .now = 1000 };
	struct lunq_pol p = { 0 };
	struct lunq_keys t;

	lunq_keys_init(&t);
	t.val[LUNQ_QDEPTH] = 16;
	t.val[LUNQ_REACTION] = LUNQ_REACT_SD;
	lunq_pol_use(&p, lunq_pol_select(t.val), t.val);
	v.depth = lunq_pol_start(&p, &v);
	KUNIT_EXPECT_EQ(test, v.depth, 16U);
	v.in_transport = 5;	/* sd: cut to the commands in transport */
	KUNIT_EXPECT_EQ(test, lunq_pol_qfull(&p, &v), 5U);
	KUNIT_EXPECT_FALSE(test, lunq_pol_steady(&p));	/* restore pending */
	KUNIT_EXPECT_NE(test, lunq_pol_deadline(&p), 0ULL);
	v.in_transport = 0;	/* none: 1, never 0 */
	KUNIT_EXPECT_EQ(test, lunq_pol_qfull(&p, &v), 1U);
}

/*
 * New table values: a policy from outside stays (not stopped), the depth
 * clamped to auto_min..auto_max; else the built-in they select starts.
 */
static void lunq_pol_restart_keeps_or_selects(struct kunit *test)
{
	struct lunq_pol p = { 0 };
	struct lunq_keys t;

	lunq_keys_init(&t);
	t.val[LUNQ_QDEPTH] = 16;
	KUNIT_EXPECT_EQ(test, lunq_pol_restart(&p, t.val, 3, 0, 1000), 16U);
	KUNIT_EXPECT_PTR_EQ(test, p.bi, &lunq_pol_fixed);
	lunq_pol_use_ext(&p, &garbage_ops, t.val);
	t.val[LUNQ_AUTO_MIN] = 4;
	t.val[LUNQ_AUTO_MAX] = 8;
	stops = 0;
	KUNIT_EXPECT_EQ(test, lunq_pol_restart(&p, t.val, 32, 0, 1000), 8U);
	KUNIT_EXPECT_EQ(test, lunq_pol_restart(&p, t.val, 2, 0, 1000), 4U);
	KUNIT_EXPECT_EQ(test, lunq_pol_restart(&p, t.val, 6, 0, 1000), 6U);
	KUNIT_EXPECT_EQ(test, stops, 0);
	KUNIT_EXPECT_PTR_EQ(test, p.ext, &garbage_ops);
}

static void lunq_throttle_store_logs_moves(struct kunit *test)
{
	struct lunq_throttle *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct lunq_tlog *log = kunit_kcalloc(test, LUNQ_TLOG_SIZE,
					      sizeof(*log), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, log);
	lunq_throttle_init(t);
	KUNIT_EXPECT_TRUE(test, lunq_throttle_store(t, 8, 0, 10, false));
	KUNIT_EXPECT_FALSE(test, lunq_throttle_store(t, 8, 1, 20, true));
	KUNIT_EXPECT_TRUE(test, lunq_throttle_store(t, 4, 1, 30, true));
	KUNIT_EXPECT_EQ(test, t->depth, 4U);
	KUNIT_EXPECT_EQ(test, t->changes, 1ULL);
	KUNIT_ASSERT_EQ(test, lunq_throttle_log(t, log), 2U);
	KUNIT_EXPECT_EQ(test, log[1].from, 8);
	KUNIT_EXPECT_EQ(test, log[1].to, 4);
	KUNIT_EXPECT_EQ(test, log[1].t, 30ULL);
	/* admission: 4 in flight at depth 4 is full; held closes it */
	KUNIT_EXPECT_TRUE(test, lunq_throttle_admits(t, 3));
	KUNIT_EXPECT_FALSE(test, lunq_throttle_admits(t, 4));
	t->held = true;
	KUNIT_EXPECT_FALSE(test, lunq_throttle_admits(t, 0));
	/* the log keeps the last LUNQ_TLOG_SIZE moves, oldest first */
	for (i = 0; i < 2 * LUNQ_TLOG_SIZE; i++)
		lunq_throttle_store(t, i % 2 ? 3 : 5, 1, 100 + i, true);
	KUNIT_ASSERT_EQ(test, lunq_throttle_log(t, log), LUNQ_TLOG_SIZE);
	KUNIT_EXPECT_EQ(test, log[0].t, 100ULL + LUNQ_TLOG_SIZE);
	KUNIT_EXPECT_EQ(test, log[LUNQ_TLOG_SIZE - 1].t,
			100ULL + 2 * LUNQ_TLOG_SIZE - 1);
	/* the gate: the depth, or no limit for 0; closed when not open */
	KUNIT_EXPECT_EQ(test, lunq_throttle_gate(t, false), 0U);
	KUNIT_EXPECT_EQ(test, lunq_throttle_gate(t, true), t->depth);
	lunq_throttle_store(t, 0, 0, 0, false);
	KUNIT_EXPECT_EQ(test, lunq_throttle_gate(t, true), LUNQ_FAST_NOLIMIT);
}

static struct kunit_case lunq_pol_cases[] = {
	KUNIT_CASE(lunq_pol_selects_builtin),
	KUNIT_CASE(lunq_pol_clamps_every_answer),
	KUNIT_CASE(lunq_pol_auto_settles),
	KUNIT_CASE(lunq_pol_ext_sees_the_device),
	KUNIT_CASE(lunq_pol_reaction_through_ops),
	KUNIT_CASE(lunq_pol_restart_keeps_or_selects),
	KUNIT_CASE(lunq_throttle_store_logs_moves),
	{}
};

static struct kunit_suite lunq_pol_suite = {
	.name = "lunq_pol",
	.test_cases = lunq_pol_cases,
};
kunit_test_suite(lunq_pol_suite);

MODULE_LICENSE("GPL");
