// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for lunq_auto.c, the adaptive throttle's controller, against
 * a simulated LUN: "channels" channels of a fixed service time under a
 * closed-loop load of "load" IOs (deterministic, fluid: at m commands in
 * flight the LUN completes min(m, channels) / svc per second, each after
 * svc x max(1, m / channels), p99 svc x ceil(m / channels)); optionally
 * "slots" commands at most (QUEUE FULL above).  Windows are cut on 50 ms
 * ticks as the target cuts them.  With "noise" (permille) every window's
 * rate and mean service time are off by a seeded pseudo-random amount:
 * a host stall (slower rate, longer service) and rate jitter, each about
 * normal with that standard deviation -- what TCG does to the VM tests.  Run alone with
 *   tests/kunit/run 'lunq_auto*'
 */
#include <kunit/test.h>
#include <linux/math.h>
#include <linux/math64.h>
#include "lunq_auto.h"
#include "lunq_hist.h"

#define MS	1000000ULL	/* ns */
#define SEC	(1000 * MS)
#define TICK	(50 * MS)

struct sim {
	u32 channels, slots, load;
	u64 svc;		/* ns */
	u64 ovh;		/* added to what the host measures */
	bool ovh_holds;		/* ... and the command holds its slot as long */
	u32 noise;		/* permille, 0: none */
	bool sort;		/* a LUN sorting its queue (rate: its root) */
	u64 rnd;		/* xorshift state */
	u64 now;
	u64 qfulls;
	struct lunq_auto a;
	/* over the last sim_run(): */
	u32 lo, hi;		/* depth range */
	u64 moves;
	u64 windows, over;	/* windows, those with p99 over target */
	u64 ios, svc_sum;	/* completions, service time */
	u64 win_ns;		/* time in windows */
	u32 run_depth;		/* the run of windows at a depth */
	u64 run_ios;
	u32 under;		/* with under_ns: the time in windows ... */
	u64 under_ns;		/* ... at a depth under it */
};

static void sim_start(struct sim *s, enum lunq_auto_mode mode, u32 start,
		      u32 channels, u64 svc, u32 load)
{
	struct lunq_auto_cfg cfg = {
		.mode = mode, .min = 1, .max = 256, .start = start,
		.target_ns = 0, .win_ns = 100 * MS, .win_ios = 16,
		.probe_every = 30, .rate_ns = 10 * SEC, .svc_ns = 10 * SEC,
		.hold_ns = SEC, .qhold_ns = SEC / 2, .qhold_max_ns = SEC,
		.hold_max_ns = 32 * SEC,
	};

	memset(s, 0, sizeof(*s));
	s->channels = channels;
	s->svc = svc;
	s->load = load;
	s->now = SEC;
	lunq_auto_init(&s->a, &cfg, s->now);
}

static void sim_target(struct sim *s, u64 target)
{
	struct lunq_auto_cfg cfg = s->a.cfg;

	cfg.mode = LUNQ_AUTO_TARGET;
	cfg.target_ns = target;
	lunq_auto_init(&s->a, &cfg, s->now);
}

/* The depth held (a probe's window counts as the depth it started from). */
static u32 held(const struct sim *s)
{
	return s->a.phase == LUNQ_AP_PROBE ? s->a.base : s->a.depth;
}

/* A pseudo-random 32-bit number (xorshift). */
static u64 sim_rand32(struct sim *s)
{
	s->rnd ^= s->rnd << 13;
	s->rnd ^= s->rnd >> 7;
	s->rnd ^= s->rnd << 17;
	return s->rnd >> 32;
}

/* About normal, mean 1000, standard deviation @sd (permille), >= 700. */
static u32 sim_noise(struct sim *s, u32 sd)
{
	s64 sum = 0;
	int i;

	/* the sum of 12 uniforms in [0, 1) has variance 1 */
	for (i = 0; i < 12; i++)
		sum += (s64)(sim_rand32(s) >> 22);	/* 0..1023 */
	sum = (sum - 12 * 512) * sd / 1024;
	return max_t(s64, 1000 + sum, 700);
}

static u64 roundup_tick(u64 t)
{
	return div64_u64(t + TICK - 1, TICK) * TICK;
}

/*
 * The run of windows at depth @d (struct lunq_pol_window's run_ios): a new
 * run after a change of depth or past 512 commands; its p99 is the
 * window's (the simulated LUN's p99 depends on the depth alone)
 */
static void sim_run_ios(struct sim *s, struct lunq_auto_sample *w, u32 d)
{
	if (d != s->run_depth || s->run_ios >= 512)
		s->run_ios = 0;
	s->run_depth = d;
	s->run_ios += w->ios;
	w->run_ios = s->run_ios;
	w->run_p99_ns = w->p99_ns;
}

/* Run windows for @dur ns of simulated time. */
static void sim_run(struct sim *s, u64 dur)
{
	u64 end = s->now + dur, moves0 = s->a.moves;

	s->lo = U32_MAX;
	s->hi = 0;
	s->windows = s->over = s->ios = s->svc_sum = s->win_ns = 0;
	while (s->now < end) {
		struct lunq_auto_sample w = { 0 };
		u32 m, busy, d;
		u64 ns = 0, ios = 0, rate_milli;
		u32 stall = 1000, jitter = 1000;
		bool idle;

		if (s->now < s->a.settle_until)
			s->now = roundup_tick(s->a.settle_until);
		d = s->a.depth;
		if (s->slots && d > s->slots && s->load > s->slots) {
			/* the (slots+1)th command is refused */
			s->qfulls++;
			d = lunq_auto_qfull(&s->a, s->now, s->slots);
			if (s->now < s->a.settle_until)
				s->now = roundup_tick(s->a.settle_until);
		}
		s->lo = min(s->lo, d);
		s->hi = max(s->hi, d);
		m = min(d, s->load);
		if (s->slots)
			m = min(m, s->slots);
		busy = min(m, s->channels);
		/* completions per 1000 s */
		rate_milli = div64_u64((u64)busy * 1000 * SEC, s->svc);
		if (s->ovh_holds)
			rate_milli = min(rate_milli,
					 div64_u64((u64)m * 1000 * SEC,
						   s->svc + s->ovh));
		if (s->sort && m > s->channels)
			rate_milli = div64_u64(rate_milli *
					       int_sqrt((u64)m * 1024 / s->channels),
					       32);
		if (s->noise) {
			stall = sim_noise(s, s->noise);
			jitter = sim_noise(s, s->noise);
			rate_milli = div64_u64(rate_milli * jitter, stall);
		}
		do {
			ns += TICK;
			ios = div64_u64(rate_milli * ns, 1000 * SEC);
		} while (!lunq_auto_window_ready(&s->a, ns, ios, 0, 0, &idle));
		s->now += ns;
		if (idle) {
			lunq_auto_idle(&s->a, s->now);
			continue;
		}
		w.ns = ns;
		w.ios = ios;
		w.svc_sum_ns = div_u64(ios * (div_u64(s->svc *
						      max(m, s->channels),
						      s->channels) + s->ovh) *
				       stall, 1000);
		w.p99_ns = s->svc * DIV_ROUND_UP(m, s->channels) + s->ovh;
		if (s->sort && m > s->channels) {
			/* Little: each IO m / rate */
			w.svc_sum_ns = div64_u64(ios * m * 1000 * SEC, rate_milli);
			w.p99_ns = 2 * div64_u64((u64)m * 1000 * SEC, rate_milli);
		}
		sim_run_ios(s, &w, d);
		w.wait_ns = s->load > m ? ns : 0;
		w.inflight_x1000 = (u64)m * 1000;
		s->windows++;
		s->ios += ios;
		s->win_ns += ns;
		if (d < s->under)
			s->under_ns += ns;
		s->svc_sum += w.svc_sum_ns;
		if (s->a.cfg.target_ns && w.p99_ns > s->a.cfg.target_ns)
			s->over++;
		lunq_auto_window(&s->a, &w, s->now);
	}
	s->moves = s->a.moves - moves0;
}

/* Flash: 16 channels x 8 ms, QD 64: the knee is 16 (2000 IOPS at 8 ms). */
static void lunq_auto_knee_from_below(struct kunit *test)
{
	struct sim s;

	sim_start(&s, LUNQ_AUTO_KNEE, 1, 16, 8 * MS, 64);
	sim_run(&s, 5 * SEC);
	KUNIT_EXPECT_EQ(test, held(&s), 16U);
	KUNIT_EXPECT_GE(test, s.a.phase, LUNQ_AP_HOLD);
	KUNIT_EXPECT_EQ(test, lunq_auto_peak_iops(&s.a, s.now), 2000ULL);
	KUNIT_EXPECT_EQ(test, lunq_auto_svc_min(&s.a, s.now), 8 * MS);
	/* then it stays: probes go one step up and come back */
	sim_run(&s, 60 * SEC);
	KUNIT_EXPECT_GE(test, s.lo, 16U);
	KUNIT_EXPECT_LE(test, s.hi, 18U);
	KUNIT_EXPECT_LE(test, s.moves, 2 * 60ULL / 3 + 2);
	KUNIT_EXPECT_EQ(test, held(&s), 16U);
}

static void lunq_auto_knee_from_above(struct kunit *test)
{
	struct sim s;

	sim_start(&s, LUNQ_AUTO_KNEE, 64, 16, 8 * MS, 64);
	s.under = 16;
	sim_run(&s, 5 * SEC);
	KUNIT_EXPECT_EQ(test, held(&s), 16U);
	/*
	 * Halving down to 8 found the knee: one window of half the time
	 * there, every command of the load waiting twice as long in lunq
	 */
	KUNIT_EXPECT_EQ(test, s.under_ns, 50 * MS);
	sim_run(&s, 60 * SEC);
	KUNIT_EXPECT_GE(test, s.lo, 16U);
	KUNIT_EXPECT_LE(test, s.hi, 18U);
	/* IOPS of the knee and its service time, within the probes' cost */
	KUNIT_EXPECT_GE(test, div64_u64(s.ios * SEC, s.win_ns), 1980ULL);
	KUNIT_EXPECT_LE(test, div64_u64(s.svc_sum, s.ios), 8 * MS + 8 * MS / 50);
}

/*
 * The host sees each service time 0.4 ms longer than the LUN's channels
 * are busy (completion path): the estimate is 16.8, the depth stays 16
 * (at 17 one IO in 17 would wait for a channel: p99 twice as long).
 */
static void lunq_auto_knee_overhead(struct kunit *test)
{
	struct sim s;

	sim_start(&s, LUNQ_AUTO_KNEE, 1, 16, 8 * MS, 64);
	s.ovh = 400000;
	sim_run(&s, 5 * SEC);
	KUNIT_EXPECT_EQ(test, held(&s), 16U);
	KUNIT_EXPECT_EQ(test, lunq_auto_knee(&s.a, s.now), 16U);
	sim_run(&s, 30 * SEC);
	KUNIT_EXPECT_GE(test, s.lo, 16U);
	KUNIT_EXPECT_LE(test, s.hi, 18U);
	KUNIT_EXPECT_EQ(test, held(&s), 16U);
}

/*
 * Knees that are not powers of two, from both sides, and hdd-like 1 (from
 * 256 the first windows last seconds: 4 mean service times each).
 */
static void lunq_auto_knee_other(struct kunit *test)
{
	static const u32 chans[] = { 1, 3, 12, 40, 100 };
	unsigned int i, j;
	struct sim s;

	for (i = 0; i < ARRAY_SIZE(chans); i++) {
		for (j = 0; j < 2; j++) {
			u32 start = j ? 256 : 1;

			sim_start(&s, LUNQ_AUTO_KNEE, start, chans[i], 5 * MS,
				  512);
			sim_run(&s, 40 * SEC);
			KUNIT_EXPECT_EQ_MSG(test, held(&s), chans[i],
					    "channels %u start %u", chans[i],
					    start);
		}
	}
}

/* The capacity moves: 16 -> 4 channels and back; followed within 10 s. */
static void lunq_auto_knee_step(struct kunit *test)
{
	struct sim s;

	sim_start(&s, LUNQ_AUTO_KNEE, 16, 16, 8 * MS, 64);
	sim_run(&s, 10 * SEC);
	KUNIT_ASSERT_EQ(test, held(&s), 16U);
	s.channels = 4;
	sim_run(&s, 3 * SEC);
	KUNIT_EXPECT_EQ(test, held(&s), 4U);
	sim_run(&s, 30 * SEC);
	KUNIT_EXPECT_GE(test, s.lo, 4U);
	KUNIT_EXPECT_LE(test, s.hi, 5U);
	s.channels = 16;
	sim_run(&s, 10 * SEC);
	KUNIT_EXPECT_EQ(test, held(&s), 16U);
	sim_run(&s, 30 * SEC);
	KUNIT_EXPECT_GE(test, s.lo, 16U);
	KUNIT_EXPECT_LE(test, s.hi, 18U);
}

/*
 * The same under 5% noise (the VM tests' t-auto failed once on the way
 * back to 16 channels: probes judged on noisy windows kept failing, and
 * the estimate's least service time, the lowest of noisy windows, held
 * the depth below the knee).  Forty seeded runs: back within [12, 20]
 * for good within 10 s in 36 at least (26 before the probes that grew
 * came back soon), and 16 -> 4 within 10 s in all but two.
 */
static void lunq_auto_knee_step_noise(struct kunit *test)
{
	u32 seed, back = 0, down = 0;

	for (seed = 1; seed <= 40; seed++) {
		struct sim s;
		u64 t0, ok_since = 0;
		bool ok = false;

		sim_start(&s, LUNQ_AUTO_KNEE, 16, 16, 8 * MS, 64);
		s.noise = 50;
		s.rnd = 0x9E3779B97F4A7C15ULL * seed;
		sim_run(&s, 6 * SEC);
		s.channels = 4;
		sim_run(&s, 10 * SEC);
		if (held(&s) >= 3 && held(&s) <= 5)
			down++;
		s.channels = 16;
		t0 = s.now;
		while (s.now < t0 + 10 * SEC) {
			sim_run(&s, TICK);
			if (s.a.phase == LUNQ_AP_PROBE)
				continue;
			if (s.a.depth >= 12 && s.a.depth <= 20) {
				if (!ok)
					ok_since = s.now;
				ok = true;
			} else {
				ok = false;
			}
		}
		if (ok && ok_since <= t0 + 10 * SEC)
			back++;
	}
	kunit_info(test, "40 runs at 5%% noise: 16 -> 4 in %u, 4 -> 16 in %u\n",
		   down, back);
	KUNIT_EXPECT_GE(test, down, 38U);
	KUNIT_EXPECT_GE(test, back, 36U);
}

/*
 * A LUN whose write cache fills: 64 channels x 8 ms (the cache takes
 * every command), then 4 channels sorting their queue (over 4 commands
 * the rate grows as the root of the queue: 1000 IOPS at 16, 2000 at
 * 64), QD 64.  The service time at 64 quadruples and keeps growing with
 * the depth, and so does the rate.  The queueing rule cuts, but each
 * cut loses far more than a tenth of the rate: undone, the depth stays
 * deep (it was walked down to 5-7, cut after cut with a shorter service
 * time each, under 32 for 99% of the time).
 */
static void lunq_auto_knee_sorting(struct kunit *test)
{
	struct sim s;

	sim_start(&s, LUNQ_AUTO_KNEE, 8, 64, 8 * MS, 64);
	sim_run(&s, 10 * SEC);
	KUNIT_ASSERT_GE(test, held(&s), 60U);
	s.channels = 4;
	s.sort = true;
	s.under = 32;
	sim_run(&s, 30 * SEC);
	kunit_info(test, "depth %u..%u, %llu ms of %llu under 32, held %u\n",
		   s.lo, s.hi, div_u64(s.under_ns, MS), div_u64(s.win_ns, MS),
		   held(&s));
	KUNIT_EXPECT_GE(test, held(&s), 32U);
	/* a cut is tried now and then: under 32 a tenth of the time at most */
	KUNIT_EXPECT_LE(test, s.under_ns * 10, s.win_ns);
}

/* The load stops (no completions) and comes back: the depth is kept. */
/*
 * Every IO gets slower (svc_us 8 -> 11 ms, the same 16 channels): the
 * windows queue by the rule (11 > 1.25 x 8) and the depth is cut, but
 * the cut costs rate in proportion -- not queueing: the knee is still 16
 * and the cut is undone instead of spiralling down to 1.  And faster
 * again (8 ms): still 16.
 */
static void lunq_auto_knee_slower(struct kunit *test)
{
	struct sim s;

	sim_start(&s, LUNQ_AUTO_KNEE, 16, 16, 8 * MS, 64);
	sim_run(&s, 10 * SEC);
	KUNIT_ASSERT_EQ(test, held(&s), 16U);
	s.svc = 11 * MS;
	sim_run(&s, 5 * SEC);
	KUNIT_EXPECT_GE(test, s.lo, 11U);	/* 16 -> 11, then back */
	KUNIT_EXPECT_GE(test, held(&s), 15U);
	KUNIT_EXPECT_EQ(test, lunq_auto_svc_min(&s.a, s.now), 11 * MS);
	sim_run(&s, 30 * SEC);
	KUNIT_EXPECT_GE(test, s.lo, 15U);
	KUNIT_EXPECT_LE(test, s.hi, 18U);
	KUNIT_EXPECT_GE(test, held(&s), 15U);
	KUNIT_EXPECT_LE(test, held(&s), 16U);
	s.svc = 8 * MS;
	sim_run(&s, 5 * SEC);
	KUNIT_EXPECT_GE(test, s.lo, 15U);
	KUNIT_EXPECT_GE(test, held(&s), 15U);
	KUNIT_EXPECT_LE(test, held(&s), 16U);
}

/*
 * A busy host: for 1 s every command takes 3 ms longer to complete at
 * the host (under TCG, the completion path of a loaded guest).  The rule
 * sees queueing and cuts, but the cut costs rate in proportion: undone,
 * the depth is the knee again within 2 s of the spike.
 */
static void lunq_auto_knee_busy_host(struct kunit *test)
{
	struct sim s;

	sim_start(&s, LUNQ_AUTO_KNEE, 16, 16, 8 * MS, 64);
	sim_run(&s, 10 * SEC);
	KUNIT_ASSERT_EQ(test, held(&s), 16U);
	s.ovh = 3 * MS;
	s.ovh_holds = true;
	sim_run(&s, SEC);
	s.ovh = 0;
	sim_run(&s, 2 * SEC);
	KUNIT_EXPECT_GE(test, held(&s), 15U);
	KUNIT_EXPECT_LE(test, held(&s), 16U);
	sim_run(&s, 30 * SEC);
	KUNIT_EXPECT_GE(test, s.lo, 15U);
	KUNIT_EXPECT_LE(test, s.hi, 18U);
}

static void lunq_auto_knee_idle(struct kunit *test)
{
	struct sim s;

	sim_start(&s, LUNQ_AUTO_KNEE, 1, 16, 8 * MS, 64);
	sim_run(&s, 5 * SEC);
	KUNIT_ASSERT_EQ(test, held(&s), 16U);
	s.load = 0;
	sim_run(&s, 30 * SEC);
	/* a probe under way when the load stopped ends with the idle window */
	KUNIT_EXPECT_EQ(test, s.lo, 16U);
	KUNIT_EXPECT_LE(test, s.hi, 18U);
	KUNIT_EXPECT_EQ(test, s.a.depth, 16U);
	s.load = 64;
	sim_run(&s, 1 * SEC);
	KUNIT_EXPECT_EQ(test, held(&s), 16U);
}

/* A load below the knee is not throttled below what it keeps in flight. */
static void lunq_auto_knee_app_limited(struct kunit *test)
{
	struct sim s;

	sim_start(&s, LUNQ_AUTO_KNEE, 64, 16, 8 * MS, 8);
	sim_run(&s, 10 * SEC);
	KUNIT_EXPECT_GE(test, held(&s), 8U);
	sim_run(&s, 30 * SEC);
	KUNIT_EXPECT_GE(test, s.lo, 8U);
	/* the load grows: the depth follows to the knee */
	s.load = 64;
	sim_run(&s, 10 * SEC);
	KUNIT_EXPECT_EQ(test, held(&s), 16U);
}

/*
 * A LUN with 6 slots (QUEUE FULL above) behind a knee of 16: the depth
 * settles at the slots, and QUEUE FULLs do not keep coming (hold-offs
 * of 0.5 s double from the eighth refusal up to 32 s).
 */
static void lunq_auto_knee_qfull(struct kunit *test)
{
	struct sim s;

	sim_start(&s, LUNQ_AUTO_KNEE, 1, 16, 8 * MS, 64);
	s.slots = 6;
	sim_run(&s, 5 * SEC);
	KUNIT_EXPECT_EQ(test, held(&s), 6U);
	s.qfulls = 0;
	sim_run(&s, 120 * SEC);
	KUNIT_EXPECT_GE(test, s.lo, 6U);
	/* it tries one command above the ceiling when a hold-off ends */
	KUNIT_EXPECT_LE(test, s.hi, 7U);
	/* hold-offs of 0.5 s, doubling from the eighth refusal up to 1 s */
	KUNIT_EXPECT_LE(test, s.qfulls, 2 * 120ULL);
	KUNIT_EXPECT_GE(test, s.qfulls, 100ULL);	/* it does try again */
	KUNIT_EXPECT_EQ(test, held(&s), 6U);
	/* the other initiators leave: found again within 2 s */
	s.slots = 0;
	sim_run(&s, 2 * SEC);
	KUNIT_EXPECT_GE(test, s.a.depth, 15U);
}

/*
 * Seed 004's other initiators coming and going: 4 s holding all but 8
 * slots, 4 s away, again and again (16 times).  auto finds the free slots
 * within a second of every free phase (hold-offs of 0.5 s, 1 s at most:
 * never a ceiling that outlives its cause), and provokes at most 2 QUEUE
 * FULLs a second while they stay.
 */
static void lunq_auto_knee_qfull_periodic(struct kunit *test)
{
	u64 busy_q = 0, worst = 0;
	struct sim s;
	int i;

	sim_start(&s, LUNQ_AUTO_KNEE, 16, 16, 8 * MS, 64);
	sim_run(&s, 5 * SEC);
	KUNIT_ASSERT_EQ(test, held(&s), 16U);
	for (i = 0; i < 16; i++) {
		u64 t, found = 4 * SEC;

		s.slots = 8;
		s.qfulls = 0;
		sim_run(&s, 4 * SEC);
		busy_q += s.qfulls;
		KUNIT_EXPECT_LE(test, s.hi, 16U);
		s.slots = 0;
		t = s.now;
		/* 50 ms steps: when it holds 15 or more again */
		while (s.now < t + 4 * SEC) {
			sim_run(&s, TICK);
			if (s.a.depth >= 15 && found == 4 * SEC)
				found = s.now - t;
		}
		worst = max(worst, found);
		KUNIT_EXPECT_LE(test, found, SEC);
	}
	kunit_info(test, "QUEUE FULL %llu in 16 busy phases of 4 s; free slots found within %llu ms at worst",
		   busy_q, div64_u64(worst, MS));
	KUNIT_EXPECT_LE(test, busy_q, 16 * 4 * 2ULL);
}

/*
 * auto:target on the same LUN: p99 is 8 ms up to depth 16, 16 ms up to
 * 32, 24 ms to 48.  A target of 19 ms: the largest depth meeting it is 32.
 */
static void lunq_auto_target(struct kunit *test)
{
	struct sim s;

	sim_start(&s, LUNQ_AUTO_KNEE, 1, 16, 8 * MS, 64);
	sim_target(&s, 19 * MS);
	KUNIT_EXPECT_EQ(test, s.a.phase, LUNQ_AP_TRACK);
	sim_run(&s, 20 * SEC);
	KUNIT_EXPECT_GE(test, held(&s), 28U);
	KUNIT_EXPECT_LE(test, held(&s), 32U);
	sim_run(&s, 120 * SEC);
	/*
	 * A miss cuts in proportion to the overshoot (33 -> 20 here, where
	 * the p99 steps from 16 to 24 ms): never below the knee
	 */
	KUNIT_EXPECT_GE(test, s.lo, 16U);
	KUNIT_EXPECT_LE(test, s.hi, 33U);
	/* misses are rare: a try at 33 after each hold-off */
	KUNIT_EXPECT_LE(test, s.over * 100, s.windows);
	KUNIT_EXPECT_GE(test, div64_u64(s.ios * SEC, s.win_ns), 1990ULL);
	/* a tighter target (9 ms): at most 16 */
	sim_target(&s, 9 * MS);
	sim_run(&s, 10 * SEC);
	sim_run(&s, 60 * SEC);
	KUNIT_EXPECT_GE(test, s.lo, 8U);
	KUNIT_EXPECT_LE(test, s.hi, 18U);
	/* a try at 17 after each hold-off (1 s, doubling): 6 in a minute */
	KUNIT_EXPECT_LE(test, s.over, 6ULL);
	KUNIT_EXPECT_GE(test, div64_u64(s.ios * SEC, s.win_ns), 1900ULL);
	/* the capacity halves: 8 channels, p99 16 ms above 8 */
	s.channels = 8;
	sim_run(&s, 10 * SEC);
	sim_run(&s, 60 * SEC);
	KUNIT_EXPECT_GE(test, s.lo, 4U);
	KUNIT_EXPECT_LE(test, s.hi, 9U);
	KUNIT_EXPECT_LE(test, s.over * 100, s.windows);
}

/* One window of @ns with @ios completions of mean service @svc, binding. */
static struct lunq_auto_sample win(u64 ns, u64 ios, u64 svc, bool bind)
{
	struct lunq_auto_sample w = {
		.ns = ns, .ios = ios, .svc_sum_ns = ios * svc,
		.p99_ns = 2 * svc, .wait_ns = bind ? ns : 0,
	};

	return w;
}

/*
 * The way down from 64 (flash, 16 channels x 8 ms: the knee is 16): each
 * halving's window starts at the step -- the old depth's commands only
 * drain -- and the step below the knee (8: half the rate) goes back to 16
 * after the settling of a move up (2 mean service times).
 */
static void lunq_auto_knee_down_goes_on(struct kunit *test)
{
	static const u32 depth[] = { 64, 32, 16 };
	struct lunq_auto_sample w;
	struct sim s;
	unsigned int i;

	sim_start(&s, LUNQ_AUTO_KNEE, 64, 16, 8 * MS, 64);
	for (i = 0; i < ARRAY_SIZE(depth); i++) {
		/* 2000 IOPS, the depth in flight: depth / 2000 s each */
		w = win(100 * MS, 200, depth[i] * (SEC / 2000), true);
		w.inflight_x1000 = depth[i] * 1000ULL;
		s.now += 100 * MS;
		KUNIT_EXPECT_EQ(test, lunq_auto_window(&s.a, &w, s.now),
				depth[i] / 2);
		KUNIT_EXPECT_EQ(test, s.a.phase, LUNQ_AP_DOWN);
		KUNIT_EXPECT_EQ(test, s.a.settle_until, s.now);
	}
	w = win(100 * MS, 100, 8 * MS, true);
	w.inflight_x1000 = 8000;
	s.now += 100 * MS;
	KUNIT_EXPECT_EQ(test, lunq_auto_window(&s.a, &w, s.now), 16U);
	KUNIT_EXPECT_EQ(test, s.a.phase, LUNQ_AP_HOLD);
	KUNIT_EXPECT_EQ(test, s.a.settle_until, s.now + 16 * MS);
}

/*
 * The bubble (demonstration 1, sched:disksort): a stream of 16 keeps the
 * wait queue full and the sorted queue passes one read by.  The oldest
 * waiter's age against what the others wait says so: the depth goes to
 * one that lets every waiter go, a floor held 2 s (4 s when it starves
 * again at once after); a FIFO's oldest, as old as the others, is not
 * starving.
 */
static void lunq_auto_knee_starving(struct kunit *test)
{
	struct sim s;
	struct lunq_auto_sample w;
	u32 d;

	sim_start(&s, LUNQ_AUTO_KNEE, 2, 16, 2 * MS, 16);
	/* arrival order: the oldest waited what the others did */
	w = win(100 * MS, 50, 2 * MS, true);
	w.inflight_x1000 = 2000;	/* a closed loop: the depth out */
	w.lwait_p99_ns = 40 * MS;
	w.waiting = 14;
	w.oldest_ns = 45 * MS;
	d = lunq_auto_window(&s.a, &w, s.now += 100 * MS);
	KUNIT_EXPECT_LE(test, d, 2U);
	/* sorted: one has waited 200 ms where the others wait 30 */
	w.lwait_p99_ns = 30 * MS;
	w.oldest_ns = 200 * MS;
	d = lunq_auto_window(&s.a, &w, s.now += 100 * MS);
	KUNIT_EXPECT_EQ(test, d, s.a.floor);
	/* down had halved it to 1: 1 + the 14 waiting */
	KUNIT_EXPECT_EQ(test, d, 15U);
	KUNIT_EXPECT_EQ(test, s.a.floor_until, s.now + 2 * SEC);
	/* queueing in the LUN at the floor: no cut below it while held */
	w = win(100 * MS, 50, 16 * MS, true);
	while (s.now + 100 * MS < s.a.floor_until) {
		s.now = max(s.now + 100 * MS, s.a.settle_until);
		KUNIT_EXPECT_GE(test, lunq_auto_window(&s.a, &w, s.now), d);
	}
	/* starving again at once after the hold: held twice as long */
	s.now = s.a.floor_until + 100 * MS;
	w = win(100 * MS, 50, 2 * MS, true);
	w.lwait_p99_ns = 30 * MS;
	w.waiting = 14;
	w.oldest_ns = 200 * MS;
	lunq_auto_window(&s.a, &w, s.now);
	KUNIT_EXPECT_EQ(test, s.a.floor_until, s.now + 4 * SEC);
}

/*
 * The bound auto puts on a wait in a sorting queue: 50 ms before its first
 * window, then 5/4 of the last window's mean response (wait in lunq and
 * service), 10 ms at least; none when off.
 */
static void lunq_auto_age_bound(struct kunit *test)
{
	struct sim s;
	struct lunq_auto_sample w;

	sim_start(&s, LUNQ_AUTO_KNEE, 2, 16, 2 * MS, 16);
	KUNIT_EXPECT_EQ(test, lunq_auto_age(&s.a), 50 * MS);
	w = win(100 * MS, 50, 2 * MS, true);
	w.lwait_mean_ns = 14 * MS;
	lunq_auto_window(&s.a, &w, s.now += 100 * MS);
	KUNIT_EXPECT_EQ(test, lunq_auto_age(&s.a), 20 * MS);
	w = win(100 * MS, 500, 100000, false);	/* 0.1 ms, no wait */
	s.now = max(s.now + 100 * MS, s.a.settle_until);
	lunq_auto_window(&s.a, &w, s.now);
	KUNIT_EXPECT_EQ(test, lunq_auto_age(&s.a), 10 * MS);
	sim_start(&s, LUNQ_AUTO_TARGET, 2, 16, 2 * MS, 16);
	KUNIT_EXPECT_EQ(test, lunq_auto_age(&s.a), 50 * MS);
	s.a.cfg.mode = LUNQ_AUTO_OFF;
	KUNIT_EXPECT_EQ(test, lunq_auto_age(&s.a), 0ULL);
}

/*
 * The bubble: the aging bound sent a read that the sort passed by.  The
 * floor lets every waiting read go (depth + reads, twice the depth at
 * least), for as long as the load lasts: queueing in the LUN does not cut
 * below it; another starved read raises it by the reads waiting only; the
 * load's end (an idle window) drops it.  auto:target keeps its depth.
 */
static void lunq_auto_knee_starved_read(struct kunit *test)
{
	struct sim s;
	struct lunq_auto_sample w;
	u32 d;
	int i;

	sim_start(&s, LUNQ_AUTO_KNEE, 2, 16, 2 * MS, 16);
	d = lunq_auto_starved(&s.a, s.now += 60 * MS, 14);
	KUNIT_EXPECT_EQ(test, d, 16U);
	KUNIT_EXPECT_EQ(test, s.a.floor, 16U);
	KUNIT_EXPECT_EQ(test, s.a.phase, LUNQ_AP_HOLD);
	/*
	 * starved again 5 ms later, 3 reads waiting: those that waited
	 * since before the rise, counted already -- no higher
	 */
	KUNIT_EXPECT_EQ(test, lunq_auto_starved(&s.a, s.now += 5 * MS, 3),
			16U);
	KUNIT_EXPECT_EQ(test, s.a.floor, 16U);
	/* queueing in the LUN at the floor, 10 s of it: held */
	w = win(100 * MS, 50, 32 * MS, true);
	for (i = 0; i < 100; i++) {
		s.now = max(s.now + 100 * MS, s.a.settle_until);
		KUNIT_EXPECT_GE(test, lunq_auto_window(&s.a, &w, s.now), 16U);
	}
	/* starved again with 1 read waiting: 17, not twice the depth */
	KUNIT_EXPECT_EQ(test, lunq_auto_starved(&s.a, s.now += 10 * MS, 1),
			17U);
	/* the load stops: the floor goes with it */
	lunq_auto_idle(&s.a, s.now += 1 * SEC);
	KUNIT_EXPECT_EQ(test, s.a.floor, 0U);
	sim_start(&s, LUNQ_AUTO_TARGET, 2, 16, 2 * MS, 16);
	KUNIT_EXPECT_EQ(test, lunq_auto_starved(&s.a, s.now += 60 * MS, 14),
			2U);
}

/*
 * Seed 004's writes behind reads: an open loop (the throttle never
 * binds) whose commands still wait in lunq -- its knee by the rate is 1.
 * The wait is what the user feels: after the load's first window, the
 * depth doubles at every window where a light load waits (the LUN had
 * room: under 7/8 of the depth in flight), and stays where it no longer
 * does.
 */
static void lunq_auto_knee_light_wait(struct kunit *test)
{
	struct sim s;
	struct lunq_auto_sample w;
	u32 d = 0;
	int i;

	sim_start(&s, LUNQ_AUTO_KNEE, 1, 1, 12 * MS, 1);
	s.a.phase = LUNQ_AP_HOLD;	/* the search ended at 1 */
	/* a load that ends: its rate falls by half or more, no move */
	w = win(500 * MS, 25, 6 * MS, false);
	KUNIT_EXPECT_EQ(test, lunq_auto_window(&s.a, &w, s.now += SEC), 1U);
	w = win(500 * MS, 10, 6 * MS, false);
	w.lwait_p99_ns = 10 * MS;
	KUNIT_EXPECT_EQ(test, lunq_auto_window(&s.a, &w, s.now += SEC), 1U);
	for (i = 0; i < 3; i++) {
		w = win(500 * MS, 25, 6 * MS, false);
		w.lwait_p99_ns = 10 * MS;
		s.now = max(s.now + 500 * MS, s.a.settle_until);
		d = lunq_auto_window(&s.a, &w, s.now);
		KUNIT_EXPECT_EQ(test, d, 2U << i);
	}
	for (i = 0; i < 20; i++) {
		w = win(500 * MS, 25, 6 * MS, false);
		s.now = max(s.now + 500 * MS, s.a.settle_until);
		d = lunq_auto_window(&s.a, &w, s.now);
		KUNIT_EXPECT_EQ(test, d, 8U);
	}
	/* a wait under 50 us, or an eighth of the service time, is none */
	w = win(500 * MS, 25, 6 * MS, false);
	w.lwait_p99_ns = 40 * 1000;
	KUNIT_EXPECT_EQ(test, lunq_auto_window(&s.a, &w, s.now += SEC), 8U);
}

/*
 * A light load that waits completes auto:knee's window after half of it
 * (50 ms), whatever its IOs: at depth 4, 2 commands in flight on average
 * (half the depth at most) and some time with commands waiting.  Not
 * above half the depth in flight, nor with nothing waiting, nor in a
 * probe, nor for auto:target.
 */
static void lunq_auto_light_window_early(struct kunit *test)
{
	struct sim s;
	bool idle;

	sim_start(&s, LUNQ_AUTO_KNEE, 4, 16, 8 * MS, 2);
	s.a.phase = LUNQ_AP_HOLD;
	/* 50 ms, 3 IOs, 1 ms with a waiter, 2 in flight on average */
	KUNIT_EXPECT_TRUE(test, lunq_auto_window_ready(&s.a, 50 * MS, 3,
						       MS, 100 * MS, &idle));
	/* 2.2 in flight: over half the depth, not a light load */
	KUNIT_EXPECT_FALSE(test, lunq_auto_window_ready(&s.a, 50 * MS, 3,
							MS, 110 * MS, &idle));
	KUNIT_EXPECT_FALSE(test, idle);
	/* under half a window, one IO, no wait, the depth full: not yet */
	KUNIT_EXPECT_FALSE(test, lunq_auto_window_ready(&s.a, 40 * MS, 3,
							MS, 80 * MS, &idle));
	KUNIT_EXPECT_FALSE(test, lunq_auto_window_ready(&s.a, 50 * MS, 1,
							MS, 100 * MS, &idle));
	KUNIT_EXPECT_FALSE(test, lunq_auto_window_ready(&s.a, 50 * MS, 3,
							0, 100 * MS, &idle));
	KUNIT_EXPECT_FALSE(test, lunq_auto_window_ready(&s.a, 50 * MS, 3,
							MS, 180 * MS, &idle));
	s.a.phase = LUNQ_AP_PROBE;
	KUNIT_EXPECT_FALSE(test, lunq_auto_window_ready(&s.a, 50 * MS, 3,
							MS, 100 * MS, &idle));
	sim_target(&s, 100 * MS);
	KUNIT_EXPECT_FALSE(test, lunq_auto_window_ready(&s.a, 50 * MS, 3,
							MS, 100 * MS, &idle));
}

/*
 * auto:target from 32 on a disk sorting its queue (lun_order:sptf): the
 * p99 grows with the depth, 22 ms a command; a target of 200 ms holds 9.
 * The first window is short (its slow commands are still out): Little's
 * mean (in flight / rate) times the p99/mean ratio judges it.  Below the
 * target within a second; above it after that in at most 1 window of 20
 * (a try one above after each hold-off), under 8 in 1 of 10.
 */
static void lunq_auto_target_sorting(struct kunit *test)
{
	struct sim s;
	u64 t0;
	u32 d, over = 0, low = 0, n = 0;
	int i;

	sim_start(&s, LUNQ_AUTO_KNEE, 32, 16, 8 * MS, 64);
	s.a.cfg.start = 32;
	sim_target(&s, 200 * MS);
	t0 = s.now;
	for (i = 0; i < 200; i++) {
		struct lunq_auto_sample w;
		u64 ns;

		d = s.a.depth;
		ns = max(100 * MS, 2ULL * 22 * MS * d);
		/* 150 IOPS; the first window sees only the short ones */
		w = win(ns, 15 * ns / (100 * MS), 22 * MS * d / 3, true);
		w.p99_ns = i ? 22 * MS * d : 100 * MS;
		sim_run_ios(&s, &w, d);
		w.inflight_x1000 = 1000 * d;
		s.now = max(s.now + ns, s.a.settle_until);
		lunq_auto_window(&s.a, &w, s.now);
		if (s.now > t0 + SEC) {
			n++;
			over += d > 9;
			low += d < 8;
		}
	}
	kunit_info(test, "windows after 1 s: %u, over the target %u, under 8 %u",
		   n, over, low);
	/* a try at 10 after each hold-off (1 s, doubling) */
	KUNIT_EXPECT_LE(test, over * 20, n);
	KUNIT_EXPECT_LE(test, low * 10, n);
	KUNIT_EXPECT_GE(test, s.a.depth, 8U);
}

/*
 * The arena's target LUN, sampled: a disk sorting its own queue whose
 * service p99 grows 14 ms a command (179 ms at 8, 193 at 9, 207 at 10).
 * A command's service time is drawn: 9 in 10 uniform up to 0.45 x the
 * p99, 1 in 10 from 0.45 to 1.06 x it (the mean 0.28 x the p99, the rate
 * Little's law gives: about 160 IOPS).  A window holds 20 to 30 commands,
 * and its p99 is its slowest or next: often far from the depth's.
 * Judged on the run of windows at the depth (struct lunq_pol_window's
 * run_ios and run_svc_p99_ns), auto:target holds 9 and the p99 of every
 * command after the first 5 s is within the 200 ms target; judged on
 * each window alone, a low window at 10 forgets that it failed, and the
 * climbs to 11-13 put it over (the arena's target scenario, 6.1: 200.28
 * ms).
 */
static void lunq_auto_target_sampled(struct kunit *test)
{
	u64 *win = kunit_kcalloc(test, 3 * LUNQ_HIST_BUCKETS, sizeof(u64),
				 GFP_KERNEL);
	u64 *run = win + LUNQ_HIST_BUCKETS, *all = run + LUNQ_HIST_BUCKETS;
	u64 run_ios = 0, t0, up = 0, cmds = 0, p99;
	u32 run_depth = 0, nw = 0, low = 0, d;
	struct sim s;

	KUNIT_ASSERT_NOT_NULL(test, win);
	sim_start(&s, LUNQ_AUTO_KNEE, 4, 16, 8 * MS, 32);
	sim_target(&s, 200 * MS);
	s.rnd = 0x9e3779b97f4a7c15ULL;
	t0 = s.now;
	while (s.now < t0 + 120 * SEC) {
		struct lunq_auto_sample w = { 0 };
		u64 top = (67 + 14 * (u64)s.a.depth) * MS, ns = 0, ios, k;
		u64 rate = div64_u64((u64)s.a.depth * SEC * 100, top * 28);
		bool idle, late = s.now >= t0 + 5 * SEC;

		d = s.a.depth;
		do {
			ns += TICK;
			ios = div64_u64(rate * ns, SEC);
		} while (!lunq_auto_window_ready(&s.a, ns, ios, ns, ns, &idle));
		memset(win, 0, LUNQ_HIST_BUCKETS * sizeof(u64));
		for (k = 0; k < ios; k++) {
			u64 v = sim_rand32(&s) * (top * 45 / 100) >> 32;

			if (sim_rand32(&s) % 10 == 0)
				v += top * 45 / 100 +
				     (sim_rand32(&s) * (top * 61 / 100) >> 32) -
				     v;
			w.svc_sum_ns += v;
			win[lunq_hist_index(v)]++;
			if (late)
				all[lunq_hist_index(v)]++;
		}
		if (d != run_depth || run_ios >= 512) {
			memset(run, 0, LUNQ_HIST_BUCKETS * sizeof(u64));
			run_depth = d;
		}
		run_ios = lunq_hist_add(run, win);
		w.ns = ns;
		w.ios = ios;
		w.p99_ns = lunq_hist_percentile_upper(win, U64_MAX, 990000);
		w.run_ios = run_ios;
		w.run_p99_ns = lunq_hist_percentile_upper(run, U64_MAX, 990000);
		w.wait_ns = ns;
		w.inflight_x1000 = 1000ULL * d;
		s.now += ns;
		if (late) {
			nw++;
			cmds += ios;
			up += d >= 10 ? ios : 0;
			low += d < 8;
		}
		lunq_auto_window(&s.a, &w, s.now);
		if (s.now < s.a.settle_until)
			s.now = roundup_tick(s.a.settle_until);
	}
	p99 = lunq_hist_percentile(all, U64_MAX, 990000);
	kunit_info(test, "after 5 s: %llu commands, p99 %llu ms, %llu at 10 or more; %u windows, %u under 8; depth now %u",
		   cmds, div64_u64(p99, MS), up, nw, low, s.a.depth);
	KUNIT_EXPECT_LE(test, p99, 200 * MS);
	/* at 9 mostly: 10 a try after each hold-off, 8 after a miss */
	KUNIT_EXPECT_LE(test, up * 10, cmds);
	KUNIT_EXPECT_LE(test, low * 10, nw);
	d = s.a.depth;
	KUNIT_EXPECT_GE(test, d, 8U);
	KUNIT_EXPECT_LE(test, d, 10U);
}

/* Bounds: auto_min and auto_max hold whatever the LUN does. */
static void lunq_auto_bounds(struct kunit *test)
{
	struct sim s;
	struct lunq_auto_cfg cfg;

	sim_start(&s, LUNQ_AUTO_KNEE, 1, 16, 8 * MS, 64);
	cfg = s.a.cfg;
	cfg.min = 4;
	cfg.max = 10;
	cfg.start = 1;		/* clamped */
	lunq_auto_init(&s.a, &cfg, s.now);
	KUNIT_EXPECT_EQ(test, held(&s), 4U);
	sim_run(&s, 20 * SEC);
	KUNIT_EXPECT_GE(test, s.lo, 4U);
	KUNIT_EXPECT_LE(test, s.hi, 10U);
	KUNIT_EXPECT_EQ(test, held(&s), 10U);
	s.channels = 1;
	sim_run(&s, 20 * SEC);
	KUNIT_EXPECT_EQ(test, held(&s), 4U);
	/* off: nothing moves */
	cfg.mode = LUNQ_AUTO_OFF;
	cfg.start = 7;
	lunq_auto_init(&s.a, &cfg, s.now);
	sim_run(&s, 5 * SEC);
	KUNIT_EXPECT_EQ(test, s.lo, 7U);
	KUNIT_EXPECT_EQ(test, s.hi, 7U);
	KUNIT_EXPECT_EQ(test, s.a.phase, LUNQ_AP_OFF);
}

/*
 * The hold-off helper: the base until the from-th repeat in a row, then
 * twice as long at every repeat, up to the cap; a reset starts over.
 * QUEUE FULL's numbers: 0.5 s seven times, 1 s at the eighth refusal,
 * 2, 4 ... 32 s and no more.
 */
static void lunq_auto_holdoff_qfull(struct kunit *test)
{
	static const u64 want[] = {
		500 * MS, 500 * MS, 500 * MS, 500 * MS, 500 * MS, 500 * MS,
		500 * MS, 1 * SEC, 2 * SEC, 4 * SEC, 8 * SEC, 16 * SEC,
		32 * SEC, 32 * SEC, 32 * SEC,
	};
	struct lunq_holdoff h;
	int i;

	lunq_holdoff_init(&h, LUNQ_AUTO_QHOLD_NS, LUNQ_AUTO_REFUSED,
			  LUNQ_AUTO_HOLD_MAX_NS);
	KUNIT_EXPECT_EQ(test, h.ns, 500 * MS);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		KUNIT_EXPECT_EQ_MSG(test, lunq_holdoff_again(&h), want[i],
				    "repeat #%d", i + 1);
	KUNIT_EXPECT_EQ(test, h.ns, 32 * SEC);
	lunq_holdoff_reset(&h);
	KUNIT_EXPECT_EQ(test, h.ns, 500 * MS);
	/* after a reset the count starts over: the eighth again */
	for (i = 0; i < LUNQ_AUTO_REFUSED - 1; i++)
		KUNIT_EXPECT_EQ(test, lunq_holdoff_again(&h), 500 * MS);
	KUNIT_EXPECT_EQ(test, lunq_holdoff_again(&h), 1 * SEC);
}

/*
 * The rate curve (lunq_auto_curve_floor()): a LUN that sorts its queue
 * (rates 50, 76, 100, 121, 136, 146, 150 at depths 1..128 by doubling,
 * r1-2244 of lunqsim's seed 1) -- an estimate of 2 lost rate at 4 to
 * 32, so the least depth is 64, the lowest that keeps 95% of 150; a
 * flash LUN with its knee at 8 (rates flat from 8 on, 4% of noise) -- the
 * estimate stands.  A point older than the horizon counts no more; a
 * point seen again weighs its new window half.
 */
static void lunq_auto_curve(struct kunit *test)
{
	static const u32 dep[] = { 1, 4, 8, 16, 32, 64, 128 };
	static const u64 sorting[] = { 50, 76, 100, 121, 136, 146, 150 };
	static const u64 flash[] = { 125, 500, 960, 1000, 960, 1000, 960 };
	struct lunq_auto_curve c = {};
	u64 best;
	int i;

	for (i = 0; i < ARRAY_SIZE(dep); i++)
		lunq_auto_curve_put(&c, i * SEC, 10 * SEC, dep[i],
				    sorting[i] * LUNQ_AUTO_X16);
	KUNIT_EXPECT_EQ(test, lunq_auto_curve_top(&c, 7 * SEC, 10 * SEC, &best),
			128U);
	KUNIT_EXPECT_EQ(test, best, 150ULL * LUNQ_AUTO_X16);
	KUNIT_EXPECT_EQ(test, lunq_auto_curve_floor(&c, 7 * SEC, 10 * SEC, 2,
						    128, best, false), 64U);
	/* held at 16: the cut to 2 is refused, 16 itself is the least */
	KUNIT_EXPECT_EQ(test, lunq_auto_curve_floor(&c, 7 * SEC, 10 * SEC, 2,
						    16, 121 * LUNQ_AUTO_X16, true),
			16U);
	/* 11 s on, the points of 0 and 1 s (depths 1 and 4) are forgotten */
	KUNIT_EXPECT_EQ(test, lunq_auto_curve_floor(&c, 11500 * MS, 10 * SEC,
						    2, 8, 100 * LUNQ_AUTO_X16, true),
			2U);
	/* seen again: half the old, half the new */
	lunq_auto_curve_put(&c, 8 * SEC, 10 * SEC, 64, 100 * LUNQ_AUTO_X16);
	lunq_auto_curve_top(&c, 8 * SEC, 10 * SEC, &best);
	KUNIT_EXPECT_EQ(test, best, 150ULL * LUNQ_AUTO_X16);
	KUNIT_EXPECT_EQ(test, lunq_auto_curve_floor(&c, 8 * SEC, 10 * SEC, 2,
						    128, best, false), 128U);

	memset(&c, 0, sizeof(c));
	for (i = 0; i < ARRAY_SIZE(dep); i++)
		lunq_auto_curve_put(&c, i * SEC, 10 * SEC, dep[i],
				    flash[i] * LUNQ_AUTO_X16);
	lunq_auto_curve_top(&c, 7 * SEC, 10 * SEC, &best);
	KUNIT_EXPECT_EQ(test, lunq_auto_curve_floor(&c, 7 * SEC, 10 * SEC, 8,
						    128, best, false), 8U);
	KUNIT_EXPECT_EQ(test, lunq_auto_curve_floor(&c, 7 * SEC, 10 * SEC, 8,
						    32, 1000 * LUNQ_AUTO_X16, true),
			8U);
	/* an empty curve allows any depth */
	memset(&c, 0, sizeof(c));
	KUNIT_EXPECT_EQ(test, lunq_auto_curve_top(&c, 0, 10 * SEC, &best), 0U);
	KUNIT_EXPECT_EQ(test, lunq_auto_curve_floor(&c, 0, 10 * SEC, 3, 64,
						    100, false), 3U);
}

/*
 * The rate curve past its peak (lunq_auto_curve_floor() entering hold,
 * the rate to keep the best point's, the deepest point's rate under it):
 * rates 100, 80, 85 at 4, 8, 16 -- 8 lost the rate and 16 does not keep
 * 95% of it.  The least depth is not the deepest point: from an estimate
 * of 2, the peak's 4; from 5 (the peak under it), the estimate.  Held at
 * 16 with its window's rate 100 (the queueing rule's cut), 16 itself.
 */
static void lunq_auto_curve_past_peak(struct kunit *test)
{
	static const u32 dep[] = { 4, 8, 16 };
	static const u64 rate[] = { 100, 80, 85 };
	struct lunq_auto_curve c = {};
	u64 best;
	int i;

	for (i = 0; i < ARRAY_SIZE(dep); i++)
		lunq_auto_curve_put(&c, i * SEC, 10 * SEC, dep[i],
				    rate[i] * LUNQ_AUTO_X16);
	KUNIT_ASSERT_EQ(test, lunq_auto_curve_top(&c, 3 * SEC, 10 * SEC, &best),
			16U);
	KUNIT_ASSERT_EQ(test, best, 100ULL * LUNQ_AUTO_X16);
	KUNIT_EXPECT_EQ(test, lunq_auto_curve_floor(&c, 3 * SEC, 10 * SEC, 2,
						    16, best, false), 4U);
	KUNIT_EXPECT_EQ(test, lunq_auto_curve_floor(&c, 3 * SEC, 10 * SEC, 5,
						    16, best, false), 5U);
	KUNIT_EXPECT_EQ(test, lunq_auto_curve_floor(&c, 3 * SEC, 10 * SEC, 2,
						    16, best, true), 16U);
}

/* auto:target's misses: 1 s, doubling from the first repeat, to 32 s. */
static void lunq_auto_holdoff_miss(struct kunit *test)
{
	struct lunq_holdoff h;
	u64 want = 2 * SEC;
	int i;

	lunq_holdoff_init(&h, LUNQ_AUTO_HOLD_NS, LUNQ_AUTO_MISSED,
			  LUNQ_AUTO_HOLD_MAX_NS);
	KUNIT_EXPECT_EQ(test, h.ns, 1 * SEC);
	for (i = 0; i < 8; i++) {
		KUNIT_EXPECT_EQ(test, lunq_holdoff_again(&h), want);
		want = min(2 * want, 32 * SEC);
	}
	/* a cap that is not a power of two of the base: the cap itself */
	lunq_holdoff_init(&h, 3 * MS, 2, 10 * MS);
	KUNIT_EXPECT_EQ(test, lunq_holdoff_again(&h), 3 * MS);
	KUNIT_EXPECT_EQ(test, lunq_holdoff_again(&h), 6 * MS);
	KUNIT_EXPECT_EQ(test, lunq_holdoff_again(&h), 10 * MS);
	KUNIT_EXPECT_EQ(test, lunq_holdoff_again(&h), 10 * MS);
}

/*
 * The ceiling's hold-off through lunq_auto_qfull(): refused at the
 * ceiling again each time its hold-off ends, it holds 0.5 s after the
 * first QUEUE FULL and the seven refusals after it, then 1 s from the
 * eighth refusal on (no longer: a ceiling must not outlive the other
 * initiators that caused it); a refusal above the ceiling starts over.
 */
static void lunq_auto_qfull_holdoff(struct kunit *test)
{
	struct sim s;
	u64 held;
	int i;

	sim_start(&s, LUNQ_AUTO_KNEE, 32, 4, MS, 64);
	for (i = 0; i < 15; i++) {
		lunq_auto_qfull(&s.a, s.now, 8);
		held = s.a.ceiling_until - s.now;
		KUNIT_EXPECT_EQ_MSG(test, held,
				    i < 8 ? 500 * MS : SEC,
				    "refusal #%d", i + 1);
		KUNIT_EXPECT_EQ(test, s.a.ceiling, 8U);
		s.now = s.a.ceiling_until + MS;
	}
	/* within the same episode: only lower, the hold-off stays */
	lunq_auto_qfull(&s.a, s.now - 2 * MS, 6);
	KUNIT_EXPECT_EQ(test, s.a.ceiling, 6U);
	/* above the known ceiling: another initiator left, start over */
	lunq_auto_qfull(&s.a, s.now, 12);
	KUNIT_EXPECT_EQ(test, s.a.ceiling_until - s.now, 500 * MS);
}

/*
 * Refusals while the cut settles (the old depth's commands, ours or a
 * pool's siblings', still out) change nothing; after it, the next cuts to
 * what is in transport again.
 */
static void lunq_auto_qfull_settling(struct kunit *test)
{
	struct sim s;
	struct lunq_auto_sample w;

	sim_start(&s, LUNQ_AUTO_KNEE, 8, 16, 8 * MS, 32);
	w = win(100 * MS, 100, 8 * MS, true);
	lunq_auto_window(&s.a, &w, s.now += 100 * MS);
	s.a.depth = 8;
	KUNIT_EXPECT_EQ(test, lunq_auto_qfull(&s.a, s.now, 4), 4U);
	KUNIT_EXPECT_EQ(test, s.a.settle_until, s.now + 16 * MS);
	KUNIT_EXPECT_EQ(test, lunq_auto_qfull(&s.a, s.now + 10 * MS, 1), 4U);
	KUNIT_EXPECT_EQ(test, s.a.ceiling, 4U);
	KUNIT_EXPECT_EQ(test, lunq_auto_qfull(&s.a, s.now + 20 * MS, 2), 2U);
	KUNIT_EXPECT_EQ(test, s.a.ceiling, 2U);
}

static struct kunit_case lunq_auto_cases[] = {
	KUNIT_CASE(lunq_auto_knee_from_below),
	KUNIT_CASE(lunq_auto_knee_from_above),
	KUNIT_CASE(lunq_auto_knee_down_goes_on),
	KUNIT_CASE(lunq_auto_knee_overhead),
	KUNIT_CASE(lunq_auto_knee_other),
	KUNIT_CASE(lunq_auto_knee_step),
	KUNIT_CASE(lunq_auto_knee_step_noise),
	KUNIT_CASE(lunq_auto_knee_slower),
	KUNIT_CASE(lunq_auto_knee_sorting),
	KUNIT_CASE(lunq_auto_knee_busy_host),
	KUNIT_CASE(lunq_auto_knee_idle),
	KUNIT_CASE(lunq_auto_knee_app_limited),
	KUNIT_CASE(lunq_auto_knee_qfull),
	KUNIT_CASE(lunq_auto_knee_qfull_periodic),
	KUNIT_CASE(lunq_auto_qfull_settling),
	KUNIT_CASE(lunq_auto_target),
	KUNIT_CASE(lunq_auto_knee_starving),
	KUNIT_CASE(lunq_auto_age_bound),
	KUNIT_CASE(lunq_auto_knee_starved_read),
	KUNIT_CASE(lunq_auto_knee_light_wait),
	KUNIT_CASE(lunq_auto_light_window_early),
	KUNIT_CASE(lunq_auto_target_sorting),
	KUNIT_CASE(lunq_auto_target_sampled),
	KUNIT_CASE(lunq_auto_bounds),
	KUNIT_CASE(lunq_auto_holdoff_qfull),
	KUNIT_CASE(lunq_auto_holdoff_miss),
	KUNIT_CASE(lunq_auto_curve),
	KUNIT_CASE(lunq_auto_curve_past_peak),
	KUNIT_CASE(lunq_auto_qfull_holdoff),
	{}
};

static struct kunit_suite lunq_auto_suite = {
	.name = "lunq_auto",
	.test_cases = lunq_auto_cases,
};
kunit_test_suite(lunq_auto_suite);

MODULE_LICENSE("GPL");
