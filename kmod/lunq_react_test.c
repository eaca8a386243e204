// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for lunq_react.c: the host's reaction to QUEUE FULL (none,
 * linux, sd, sd-fc) as scripted sequences of QUEUE FULLs, good completions
 * and restore ticks at given times, with the throttle (and the pending
 * restore) expected after every step.  Run alone with
 *   tests/kunit/run 'lunq_react*'
 */
#include <kunit/test.h>
#include "lunq_react.h"

#define MS	1000000ULL	/* ns */
#define SEC	(1000 * MS)

/* Periods used throughout: Linux's at HZ=250, sd's defaults. */
#define BUCKET	(64 * MS)	/* 16 jiffies */
#define RAMP	(120 * SEC)	/* queue_ramp_up_period */
#define RESTORE	(60 * SEC)	/* SD_THROTTLE_RESET_INTERVAL */
#define STEP	(10 * SEC)	/* SD_QFULL_THROTTLE_RESET_INTERVAL */

static struct lunq_react_cfg react_cfg(enum lunq_reaction mode, u32 max,
				       u32 min)
{
	return (struct lunq_react_cfg) {
		.mode = mode,
		.max = max,
		.min = min,
		.bucket_ns = BUCKET,
		.ramp_up_ns = RAMP,
		.restore_ns = RESTORE,
		.step_ns = STEP,
	};
}

static void react_start(struct lunq_react *r, enum lunq_reaction mode,
			u32 max, u32 min)
{
	struct lunq_react_cfg cfg = react_cfg(mode, max, min);

	lunq_react_init(r, &cfg);
}

/* One scripted event and what must hold after it. */
struct react_step {
	char op;		/* 'q' QUEUE FULL, 'g' good completion, 't' tick */
	u64 t;			/* ns */
	u32 in_transport;	/* 'q' only */
	u32 want;		/* the throttle after the step */
	u64 deadline;		/* lunq_react_deadline() after the step */
};

static u32 react_do(struct lunq_react *r, char op, u64 t, u32 in_transport)
{
	switch (op) {
	case 'q':
		return lunq_react_qfull(r, t, in_transport);
	case 'g':
		return lunq_react_good(r, t);
	default:
		return lunq_react_tick(r, t);
	}
}

static void run_steps(struct kunit *test, struct lunq_react *r,
		      const struct react_step *s, int n)
{
	int i;

	for (i = 0; i < n; i++, s++) {
		u32 got = react_do(r, s->op, s->t, s->in_transport);

		KUNIT_EXPECT_EQ_MSG(test, got, s->want,
				    "step %d ('%c' at %llu ns): returned", i,
				    s->op, s->t);
		KUNIT_EXPECT_EQ_MSG(test, r->cur, s->want,
				    "step %d ('%c' at %llu ns): throttle", i,
				    s->op, s->t);
		KUNIT_EXPECT_EQ_MSG(test, lunq_react_deadline(r), s->deadline,
				    "step %d ('%c' at %llu ns): deadline", i,
				    s->op, s->t);
	}
}

/*
 * @n QUEUE FULLs at @t0, @t0 + @gap, ...; after the k-th (1-based) the
 * throttle must be @want0 - k / 11 (each in a bucket of its own).
 */
static void linux_qfulls(struct kunit *test, struct lunq_react *r, u64 t0,
			 u64 gap, int n, u32 want0)
{
	int k;

	for (k = 1; k <= n; k++) {
		u32 got = lunq_react_qfull(r, t0 + (k - 1) * gap, 0);

		KUNIT_EXPECT_EQ_MSG(test, got, want0 - k / 11,
				    "QUEUE FULL #%d", k);
	}
}

/* none: the throttle stays at the maximum whatever happens. */
static void lunq_react_none_never_moves(struct kunit *test)
{
	struct lunq_react r;
	int i;

	react_start(&r, LUNQ_REACT_NONE, 16, 8);
	KUNIT_EXPECT_EQ(test, r.cur, 16U);
	for (i = 0; i < 200; i++) {
		KUNIT_EXPECT_EQ_MSG(test, lunq_react_qfull(&r, i * MS, i % 5),
				    16U, "QUEUE FULL #%d", i);
		KUNIT_EXPECT_EQ_MSG(test, lunq_react_qfull(&r, i * SEC, 0),
				    16U, "QUEUE FULL #%d (s)", i);
		KUNIT_EXPECT_EQ_MSG(test, lunq_react_good(&r, i * RAMP), 16U,
				    "good #%d", i);
		KUNIT_EXPECT_EQ_MSG(test, lunq_react_tick(&r, i * RESTORE),
				    16U, "tick #%d", i);
		KUNIT_EXPECT_EQ_MSG(test, lunq_react_deadline(&r), 0ULL,
				    "deadline #%d", i);
	}
}

/* linux: the 11th counted QUEUE FULL at one depth lowers it by one. */
static void lunq_react_linux_eleventh_lowers(struct kunit *test)
{
	struct lunq_react r;
	int i;

	react_start(&r, LUNQ_REACT_LINUX, 16, 8);
	for (i = 0; i < 10; i++)
		KUNIT_EXPECT_EQ_MSG(test, lunq_react_qfull(&r, i * 100 * MS, 3),
				    16U, "QUEUE FULL #%d", i + 1);
	KUNIT_EXPECT_EQ(test, lunq_react_qfull(&r, 1000 * MS, 3), 15U);
	/* the count starts over at the new depth */
	KUNIT_EXPECT_EQ(test, lunq_react_qfull(&r, 1100 * MS, 3), 15U);
	KUNIT_EXPECT_EQ(test, r.count, 1U);
	KUNIT_EXPECT_EQ(test, r.last_depth, 14U);
	/* sd's clock never runs for linux */
	KUNIT_EXPECT_EQ(test, lunq_react_deadline(&r), 0ULL);
	KUNIT_EXPECT_EQ(test, lunq_react_tick(&r, 1000 * SEC), 15U);
}

/*
 * linux: QUEUE FULLs in one bucket (now / bucket_ns, as jiffies >> 4)
 * count once; buckets are fixed slots, not a distance from the last one.
 */
static void lunq_react_linux_bucket_counts_once(struct kunit *test)
{
	struct lunq_react r;
	u64 k, j;

	react_start(&r, LUNQ_REACT_LINUX, 16, 8);
	for (k = 0; k < 10; k++) {
		/* 0, 10, ..., 60 ms and 63.999999 ms into bucket k */
		for (j = 0; j < 7; j++)
			KUNIT_EXPECT_EQ_MSG(test,
					    lunq_react_qfull(&r, k * BUCKET +
							     j * 10 * MS, 1),
					    16U, "bucket %llu, #%llu", k, j);
		KUNIT_EXPECT_EQ_MSG(test,
				    lunq_react_qfull(&r, (k + 1) * BUCKET - 1,
						     1),
				    16U, "bucket %llu, last ns", k);
	}
	KUNIT_EXPECT_EQ(test, r.count, 10U);
	/* 1 ns after the last one, but in the 11th bucket */
	KUNIT_EXPECT_EQ(test, lunq_react_qfull(&r, 10 * BUCKET, 1), 15U);
	KUNIT_EXPECT_EQ(test, r.last_qfull, 10 * BUCKET);
	/* a QUEUE FULL that did not count does not move last_qfull */
	KUNIT_EXPECT_EQ(test, lunq_react_qfull(&r, 11 * BUCKET - 1, 1), 15U);
	KUNIT_EXPECT_EQ(test, r.last_qfull, 10 * BUCKET);
	KUNIT_EXPECT_EQ(test, r.count, 11U);
	/* the next bucket counts, at the new depth */
	KUNIT_EXPECT_EQ(test, lunq_react_qfull(&r, 11 * BUCKET, 1), 15U);
	KUNIT_EXPECT_EQ(test, r.last_qfull, 11 * BUCKET);
	KUNIT_EXPECT_EQ(test, r.last_depth, 14U);
	KUNIT_EXPECT_EQ(test, r.count, 1U);
}

/*
 * linux: 16 -> 4 takes 12 steps of 11 counted QUEUE FULLs: with one every
 * 100 ms (one bucket each) the 132nd, at 13.1 s, reaches 4.
 */
static void lunq_react_linux_full_ramp_down(struct kunit *test)
{
	struct lunq_react r;

	react_start(&r, LUNQ_REACT_LINUX, 16, 8);
	linux_qfulls(test, &r, 0, 100 * MS, 131, 16);
	KUNIT_EXPECT_EQ(test, r.cur, 5U);
	KUNIT_EXPECT_EQ(test, r.count, 10U);
	KUNIT_EXPECT_EQ(test, lunq_react_qfull(&r, 13100 * MS, 0), 4U);
	KUNIT_EXPECT_EQ(test, r.last_qfull, 13100 * MS);
	/* a QUEUE FULL in the same bucket changes nothing */
	KUNIT_EXPECT_EQ(test, lunq_react_qfull(&r, 13100 * MS + 1, 0), 4U);
	KUNIT_EXPECT_EQ(test, r.last_qfull, 13100 * MS);
	/* 4 -> 3 takes 11 more */
	linux_qfulls(test, &r, 13200 * MS, 100 * MS, 11, 4);
	KUNIT_EXPECT_EQ(test, r.cur, 3U);
}

/* linux: the depth never drops below 1 (depth 0 is ignored). */
static void lunq_react_linux_floor_one(struct kunit *test)
{
	struct lunq_react r;
	int i;

	react_start(&r, LUNQ_REACT_LINUX, 3, 8);
	linux_qfulls(test, &r, 0, 100 * MS, 22, 3);
	KUNIT_EXPECT_EQ(test, r.cur, 1U);
	for (i = 0; i < 100; i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    lunq_react_qfull(&r, (23 + i) * 100 * MS, 0),
				    1U, "QUEUE FULL #%d at 1", i);
}

/*
 * linux: +1 on a good completion only when the last ramp-up and the last
 * counted QUEUE FULL are both at least ramp_up_ns ago.
 */
static void lunq_react_linux_ramp_up_quiet(struct kunit *test)
{
	const u64 tq = 2100 * MS;	/* 22nd (last) QUEUE FULL: 16 -> 14 */
	const u64 tr = tq + RAMP;	/* first ramp-up */
	const u64 tq2 = tr + 10 * SEC;	/* a QUEUE FULL after it */
	const struct react_step s[] = {
		{ 'g', tq + 1, 0, 14 },
		{ 'g', tq + RAMP - 1, 0, 14 },	/* QUEUE FULL too recent */
		{ 'g', tr, 0, 15 },
		{ 'g', tr + 1, 0, 15 },		/* ramp-up too recent */
		/*
		 * depth 14 again, whose count (11) carries on: the 12th
		 * lowers at once, as in scsi_track_queue_full()
		 */
		{ 'q', tq2, 9, 14 },
		{ 'g', tr + RAMP, 0, 14 },	/* ramp-up old, QUEUE FULL not */
		{ 'g', tq2 + RAMP - 1, 0, 14 },
		{ 'g', tq2 + RAMP, 0, 15 },
		{ 'g', tq2 + 2 * RAMP - 1, 0, 15 },
		{ 'g', tq2 + 2 * RAMP, 0, 16 },
		{ 'g', tq2 + 3 * RAMP, 0, 16 },	/* stops at max */
		{ 't', tq2 + 4 * RAMP, 0, 16 },
		{ 'g', tq2 + 10 * RAMP, 0, 16 },
	};
	struct lunq_react r;

	react_start(&r, LUNQ_REACT_LINUX, 16, 8);
	linux_qfulls(test, &r, 0, 100 * MS, 22, 16);
	KUNIT_ASSERT_EQ(test, r.cur, 14U);
	run_steps(test, &r, s, ARRAY_SIZE(s));
}

/*
 * linux: with a good completion every second, 13 -> 16 takes exactly one
 * ramp-up per ramp_up_ns, the first ramp_up_ns after the last QUEUE FULL,
 * and never goes beyond the maximum.
 */
static void lunq_react_linux_ramp_up_per_period(struct kunit *test)
{
	const u64 tq = 3200 * MS;	/* 33rd (last) QUEUE FULL */
	struct lunq_react r;
	u32 k;

	react_start(&r, LUNQ_REACT_LINUX, 16, 8);
	linux_qfulls(test, &r, 0, 100 * MS, 33, 16);
	KUNIT_ASSERT_EQ(test, r.cur, 13U);
	for (k = 0; k <= 600; k++)
		KUNIT_EXPECT_EQ_MSG(test, lunq_react_good(&r, tq + k * SEC),
				    13 + min(k / 120, 3U), "good at +%u s", k);
	KUNIT_EXPECT_EQ(test, r.last_ramp, tq + 360 * SEC);
}

/*
 * sd: cut to the commands in transport, 1 when none; a throttle of 1 is
 * not cut again (nor raised by a QUEUE FULL).
 */
static void lunq_react_sd_cut(struct kunit *test)
{
	const struct react_step s[] = {
		{ 'q', 1 * SEC, 20, 20, 61 * SEC },
		{ 'q', 2 * SEC, 12, 12, 61 * SEC },
		{ 'q', 3 * SEC, 0, 1, 61 * SEC },
		{ 'q', 4 * SEC, 5, 1, 61 * SEC },
		{ 'g', 5 * SEC, 0, 1, 61 * SEC },	/* no ramp-up in sd */
		{ 't', 6 * SEC, 0, 1, 61 * SEC },	/* not due yet */
	};
	struct lunq_react r;

	react_start(&r, LUNQ_REACT_SD, 32, 8);
	run_steps(test, &r, s, ARRAY_SIZE(s));

	/* 0 in transport from the maximum goes straight to 1 */
	react_start(&r, LUNQ_REACT_SD, 32, 8);
	KUNIT_EXPECT_EQ(test, lunq_react_qfull(&r, 7 * SEC, 0), 1U);
}

/*
 * sd: restore_ns after the FIRST cut (later cuts do not postpone it) the
 * throttle is back at the maximum at once; the next cut starts a new
 * period.
 */
static void lunq_react_sd_restore(struct kunit *test)
{
	const struct react_step s[] = {
		{ 't', 0, 0, 32, 0 },			/* nothing pending */
		{ 'q', 10 * SEC, 30, 30, 70 * SEC },
		{ 'q', 40 * SEC, 16, 16, 70 * SEC },
		{ 'q', 69 * SEC, 2, 2, 70 * SEC },
		{ 't', 70 * SEC - 1, 0, 2, 70 * SEC },
		{ 't', 70 * SEC, 0, 32, 0 },		/* max at once */
		{ 't', 80 * SEC, 0, 32, 0 },
		{ 'q', 100 * SEC, 0, 1, 160 * SEC },	/* a new period */
		{ 'g', 150 * SEC, 0, 1, 160 * SEC },
		{ 't', 165 * SEC, 0, 32, 0 },		/* late tick */
	};
	struct lunq_react r;

	react_start(&r, LUNQ_REACT_SD, 32, 8);
	run_steps(test, &r, s, ARRAY_SIZE(s));
}

/* sd-fc: cut to the commands in transport, unchanged when none. */
static void lunq_react_sd_fc_cut(struct kunit *test)
{
	const struct react_step s[] = {
		{ 'q', 1 * SEC, 0, 32, 61 * SEC },	/* restore armed */
		{ 'q', 2 * SEC, 20, 20, 61 * SEC },
		{ 'q', 3 * SEC, 0, 20, 61 * SEC },
		{ 'q', 4 * SEC, 10, 10, 61 * SEC },
		{ 'g', 5 * SEC, 0, 10, 61 * SEC },
		{ 't', 61 * SEC, 0, 11, 71 * SEC },
	};
	struct lunq_react r;

	react_start(&r, LUNQ_REACT_SD_FC, 32, 8);
	run_steps(test, &r, s, ARRAY_SIZE(s));
}

/*
 * sd-fc: restore_ns after the first cut, then every step_ns, the throttle
 * grows by max(throttle / 10, 1) up to the maximum.
 */
static void lunq_react_sd_fc_steps(struct kunit *test)
{
	const struct react_step s[] = {
		{ 'q', 1 * SEC, 20, 20, 61 * SEC },
		{ 't', 61 * SEC - 1, 0, 20, 61 * SEC },
		{ 't', 61 * SEC, 0, 22, 71 * SEC },
		{ 't', 71 * SEC - 1, 0, 22, 71 * SEC },
		{ 't', 71 * SEC, 0, 24, 81 * SEC },
		{ 't', 81 * SEC, 0, 26, 91 * SEC },
		{ 't', 91 * SEC, 0, 28, 101 * SEC },
		{ 't', 101 * SEC, 0, 30, 111 * SEC },
		{ 't', 111 * SEC, 0, 32, 0 },		/* 33 capped, done */
		{ 't', 121 * SEC, 0, 32, 0 },
		/* small throttles step by 1; a late tick counts from itself */
		{ 'q', 200 * SEC, 3, 3, 260 * SEC },
		{ 't', 265 * SEC, 0, 4, 275 * SEC },
		/* a cut while stepping keeps the pending step's time */
		{ 'q', 270 * SEC, 2, 2, 275 * SEC },
		{ 't', 275 * SEC, 0, 3, 285 * SEC },
		{ 't', 285 * SEC, 0, 4, 295 * SEC },
		{ 't', 295 * SEC, 0, 5, 305 * SEC },
	};
	/* the step is 1 up to 19, 2 from 20 */
	const struct react_step s19[] = {
		{ 'q', 1 * SEC, 19, 19, 61 * SEC },
		{ 't', 61 * SEC, 0, 20, 71 * SEC },
		{ 't', 71 * SEC, 0, 22, 81 * SEC },
	};
	struct lunq_react r;

	react_start(&r, LUNQ_REACT_SD_FC, 32, 1);
	run_steps(test, &r, s, ARRAY_SIZE(s));
	react_start(&r, LUNQ_REACT_SD_FC, 32, 1);
	run_steps(test, &r, s19, ARRAY_SIZE(s19));
}

/* sd-fc: a restored throttle still below min jumps straight to the max. */
static void lunq_react_sd_fc_min_jumps(struct kunit *test)
{
	const struct react_step s[] = {
		{ 'q', 1 * SEC, 4, 4, 61 * SEC },
		{ 't', 61 * SEC, 0, 32, 0 },		/* 5 < 8: max, done */
		{ 'q', 100 * SEC, 7, 7, 160 * SEC },
		{ 't', 160 * SEC, 0, 8, 170 * SEC },	/* 8 is not below 8 */
		{ 't', 170 * SEC, 0, 9, 180 * SEC },
		{ 'q', 175 * SEC, 1, 1, 180 * SEC },
		{ 't', 180 * SEC, 0, 32, 0 },		/* 2 < 8 */
	};
	struct lunq_react r;

	react_start(&r, LUNQ_REACT_SD_FC, 32, 8);
	run_steps(test, &r, s, ARRAY_SIZE(s));
}

/*
 * lunq_react_config(): new periods (same mode and maximum) keep the
 * throttle and the history; a new mode or maximum starts over.
 */
static void lunq_react_config_keeps_or_resets(struct kunit *test)
{
	struct lunq_react_cfg cfg = react_cfg(LUNQ_REACT_SD_FC, 32, 1);
	struct lunq_react r;

	lunq_react_init(&r, &cfg);
	KUNIT_EXPECT_EQ(test, lunq_react_qfull(&r, 1 * SEC, 20), 20U);
	cfg.restore_ns = 30 * SEC;
	cfg.step_ns = 5 * SEC;
	lunq_react_config(&r, &cfg);
	/* the pending restore keeps its time; the next step is 5 s later */
	KUNIT_EXPECT_EQ(test, r.cur, 20U);
	KUNIT_EXPECT_EQ(test, lunq_react_deadline(&r), 61 * SEC);
	KUNIT_EXPECT_EQ(test, lunq_react_tick(&r, 61 * SEC), 22U);
	KUNIT_EXPECT_EQ(test, lunq_react_deadline(&r), 66 * SEC);
	/* a new maximum: back to it, nothing pending */
	cfg.max = 40;
	lunq_react_config(&r, &cfg);
	KUNIT_EXPECT_EQ(test, r.cur, 40U);
	KUNIT_EXPECT_EQ(test, lunq_react_deadline(&r), 0ULL);
	KUNIT_EXPECT_EQ(test, lunq_react_tick(&r, 66 * SEC), 40U);
	/* the new restore_ns applies to the next cut */
	KUNIT_EXPECT_EQ(test, lunq_react_qfull(&r, 70 * SEC, 5), 5U);
	KUNIT_EXPECT_EQ(test, lunq_react_deadline(&r), 100 * SEC);
	/* a new mode: back to the maximum, nothing pending */
	cfg.mode = LUNQ_REACT_SD;
	lunq_react_config(&r, &cfg);
	KUNIT_EXPECT_EQ(test, r.cur, 40U);
	KUNIT_EXPECT_EQ(test, lunq_react_deadline(&r), 0ULL);

	/* linux: 10 counted QUEUE FULLs survive a change of periods... */
	cfg = react_cfg(LUNQ_REACT_LINUX, 16, 8);
	lunq_react_init(&r, &cfg);
	linux_qfulls(test, &r, 0, 100 * MS, 10, 16);
	cfg.ramp_up_ns = 60 * SEC;
	lunq_react_config(&r, &cfg);
	KUNIT_EXPECT_EQ(test, lunq_react_qfull(&r, 1000 * MS, 0), 15U);
	/* ...and the new ramp-up period applies */
	KUNIT_EXPECT_EQ(test, lunq_react_good(&r, 61 * SEC - 1), 15U);
	KUNIT_EXPECT_EQ(test, lunq_react_good(&r, 61 * SEC), 16U);
	/* but not a change of mode: 10 + 1 QUEUE FULLs do not lower */
	lunq_react_init(&r, &cfg);
	linux_qfulls(test, &r, 0, 100 * MS, 10, 16);
	cfg.mode = LUNQ_REACT_NONE;
	lunq_react_config(&r, &cfg);
	cfg.mode = LUNQ_REACT_LINUX;
	lunq_react_config(&r, &cfg);
	KUNIT_EXPECT_EQ(test, lunq_react_qfull(&r, 1000 * MS, 0), 16U);
	KUNIT_EXPECT_EQ(test, r.count, 1U);
	/* nor of the maximum */
	lunq_react_init(&r, &cfg);
	linux_qfulls(test, &r, 0, 100 * MS, 10, 16);
	cfg.max = 17;
	lunq_react_config(&r, &cfg);
	KUNIT_EXPECT_EQ(test, r.cur, 17U);
	cfg.max = 16;
	lunq_react_config(&r, &cfg);
	KUNIT_EXPECT_EQ(test, lunq_react_qfull(&r, 1000 * MS, 0), 16U);
	KUNIT_EXPECT_EQ(test, r.count, 1U);
}

/*
 * lunq_react_deadline(): when the next restore is due, 0 when none; never
 * 0 while one is pending, even for a restore at time 0.
 */
static void lunq_react_deadline_values(struct kunit *test)
{
	struct lunq_react_cfg cfg = react_cfg(LUNQ_REACT_LINUX, 16, 8);
	struct lunq_react r;
	int i;

	lunq_react_init(&r, &cfg);
	for (i = 0; i < 11; i++)
		lunq_react_qfull(&r, i * SEC, 4);
	KUNIT_EXPECT_EQ(test, r.cur, 15U);
	KUNIT_EXPECT_EQ(test, lunq_react_deadline(&r), 0ULL);

	cfg = react_cfg(LUNQ_REACT_SD, 16, 8);
	lunq_react_init(&r, &cfg);
	KUNIT_EXPECT_EQ(test, lunq_react_deadline(&r), 0ULL);
	KUNIT_EXPECT_EQ(test, lunq_react_qfull(&r, 5 * SEC, 3), 3U);
	KUNIT_EXPECT_EQ(test, lunq_react_deadline(&r), 65 * SEC);
	KUNIT_EXPECT_EQ(test, lunq_react_tick(&r, 65 * SEC), 16U);
	KUNIT_EXPECT_EQ(test, lunq_react_deadline(&r), 0ULL);

	/* restore_ns 0 at time 0: due at once, but still reported */
	cfg.restore_ns = 0;
	lunq_react_init(&r, &cfg);
	KUNIT_EXPECT_EQ(test, lunq_react_qfull(&r, 0, 3), 3U);
	KUNIT_EXPECT_EQ(test, lunq_react_deadline(&r), 1ULL);
	KUNIT_EXPECT_EQ(test, lunq_react_tick(&r, 0), 3U);
	KUNIT_EXPECT_EQ(test, lunq_react_tick(&r, 1), 16U);
	KUNIT_EXPECT_EQ(test, lunq_react_deadline(&r), 0ULL);
	/* restore_ns 0 later: due at the QUEUE FULL's own time */
	KUNIT_EXPECT_EQ(test, lunq_react_qfull(&r, 7 * SEC, 2), 2U);
	KUNIT_EXPECT_EQ(test, lunq_react_deadline(&r), 7 * SEC);
	KUNIT_EXPECT_EQ(test, lunq_react_tick(&r, 7 * SEC), 16U);

	/* sd-fc: the next step while below the maximum, 0 once there */
	cfg = react_cfg(LUNQ_REACT_SD_FC, 12, 1);
	lunq_react_init(&r, &cfg);
	KUNIT_EXPECT_EQ(test, lunq_react_qfull(&r, 0, 10), 10U);
	KUNIT_EXPECT_EQ(test, lunq_react_deadline(&r), RESTORE);
	KUNIT_EXPECT_EQ(test, lunq_react_tick(&r, RESTORE), 11U);
	KUNIT_EXPECT_EQ(test, lunq_react_deadline(&r), RESTORE + STEP);
	KUNIT_EXPECT_EQ(test, lunq_react_tick(&r, RESTORE + STEP), 12U);
	KUNIT_EXPECT_EQ(test, lunq_react_deadline(&r), 0ULL);
}

static struct kunit_case lunq_react_cases[] = {
	KUNIT_CASE(lunq_react_none_never_moves),
	KUNIT_CASE(lunq_react_linux_eleventh_lowers),
	KUNIT_CASE(lunq_react_linux_bucket_counts_once),
	KUNIT_CASE(lunq_react_linux_full_ramp_down),
	KUNIT_CASE(lunq_react_linux_floor_one),
	KUNIT_CASE(lunq_react_linux_ramp_up_quiet),
	KUNIT_CASE(lunq_react_linux_ramp_up_per_period),
	KUNIT_CASE(lunq_react_sd_cut),
	KUNIT_CASE(lunq_react_sd_restore),
	KUNIT_CASE(lunq_react_sd_fc_cut),
	KUNIT_CASE(lunq_react_sd_fc_steps),
	KUNIT_CASE(lunq_react_sd_fc_min_jumps),
	KUNIT_CASE(lunq_react_config_keeps_or_resets),
	KUNIT_CASE(lunq_react_deadline_values),
	{}
};

static struct kunit_suite lunq_react_suite = {
	.name = "lunq_react",
	.test_cases = lunq_react_cases,
};

kunit_test_suites(&lunq_react_suite);

MODULE_LICENSE("GPL");
