// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq auto:target (kmod/dm-lunq.rst, "auto"): the largest depth whose
 * service p99 stays within the target.
 */
#include <linux/minmax.h>
#include <linux/math64.h>

#include "lunq_auto.h"

/* the mean in flight (x 1000) capped against overflow of Little's mean */
#define LUNQ_AUTO_INFLIGHT_CAP	(1ULL << 32)
/* a window 2 p99s long has seen its slowest: it tells p99 / mean */
#define LUNQ_AUTO_TELL_P99S	2
/* p99 / mean is 1 to 16 (x LUNQ_AUTO_X16) */
#define LUNQ_AUTO_RATIO_MAX	16
/* a run that tells: half a run clearly within, two in the last eighth */
#define LUNQ_AUTO_TOLD_CLEAR	(LUNQ_AUTO_RUN_IOS / 2)
#define LUNQ_AUTO_TOLD_NEAR	(2 * LUNQ_AUTO_RUN_IOS)
/* under half the target, a step up needs no run to tell */
#define LUNQ_AUTO_FAR_DEN	2
/* under 3/4 of it: clearly within, steps of a quarter; a run of 64 tells */
#define LUNQ_AUTO_CLEAR_NUM	3
#define LUNQ_AUTO_CLEAR_DEN	4
/* an eighth to spare (7/8): the last eighth is near; cuts keep it spare */
#define LUNQ_AUTO_SPARE_NUM	7
#define LUNQ_AUTO_SPARE_DEN	8
/* a miss cuts by three quarters at most: the p99 of a queue is its depth's */
#define LUNQ_AUTO_CUT_DIV	4
/* up after 2 binding windows within, 4 in the last eighth */
#define LUNQ_AUTO_WITHIN	2
#define LUNQ_AUTO_WITHIN_NEAR	4
/* up by a quarter while clearly within */
#define LUNQ_AUTO_UP_DIV	4
/* in the last eighth, up only while the p99 grew under a sixteenth (17/16) */
#define LUNQ_AUTO_P99_GROW_NUM	17
#define LUNQ_AUTO_P99_GROW_DEN	16

/*
 * auto:target's p99 of a window: the one measured over the run of windows
 * at this depth (a window of 60 commands has its slowest for p99), or
 * where the window is too short to have seen it (its commands still out
 * are the slow ones), the mean service time Little's law gives (in flight
 * / rate) times the ratio of p99 to mean of the last windows long enough
 * to tell.
 */
static u64 target_p99(struct lunq_auto *a, const struct lunq_auto_sample *s)
{
	u64 mean = div64_u64(min_t(u64, s->inflight_x1000,
				   LUNQ_AUTO_INFLIGHT_CAP) * s->ns,
			     s->ios * LUNQ_AUTO_X1000);
	u64 p99 = s->run_ios > s->ios ? s->run_p99_ns : s->p99_ns;

	if (s->ns >= LUNQ_AUTO_TELL_P99S * s->p99_ns) {
		if (a->svc) {
			u64 r = div64_u64(s->p99_ns * LUNQ_AUTO_X16, a->svc);

			r = clamp_t(u64, r, LUNQ_AUTO_X16,
				    LUNQ_AUTO_RATIO_MAX * LUNQ_AUTO_X16);
			a->ratio16 = (LUNQ_AUTO_AVG_OLD * a->ratio16 + r) /
				     LUNQ_AUTO_AVG_DEN;
		}
		return p99;
	}
	return max(p99, mean * a->ratio16 / LUNQ_AUTO_X16);
}

/*
 * The commands a run at the depth needs before a step up: none while its
 * p99 is under half the target; nearer, more -- the p99 of 40 commands
 * is their slowest, under three quarters of the target one time in seven
 * where the depth's own is 97% of it
 */
static u64 target_told(const struct lunq_auto *a, u64 p99)
{
	u64 t = a->cfg.target_ns;

	if (p99 * LUNQ_AUTO_FAR_DEN < t)
		return 0;
	if (p99 * LUNQ_AUTO_CLEAR_DEN < t * LUNQ_AUTO_CLEAR_NUM)
		return LUNQ_AUTO_TOLD_CLEAR;
	if (p99 * LUNQ_AUTO_SPARE_DEN < t * LUNQ_AUTO_SPARE_NUM)
		return LUNQ_AUTO_RUN_IOS;
	return LUNQ_AUTO_TOLD_NEAR;
}

u32 lunq_auto_target_window(struct lunq_auto *a,
			 const struct lunq_auto_sample *s, u64 now)
{
	u32 d = a->depth, limit = a->cfg.max;
	u64 prev = a->p99_est, p99 = target_p99(a, s);

	a->p99_est = p99;

	if (a->failed && d >= a->failed && p99 * LUNQ_AUTO_SPARE_DEN <=
	    a->cfg.target_ns * LUNQ_AUTO_SPARE_NUM &&
	    s->run_ios >= LUNQ_AUTO_RUN_IOS) {
		/*
		 * The failed depth meets the target now, with an eighth to
		 * spare, told by a run: forget it (a depth a few percent
		 * over passes a run of 128 about every other time)
		 */
		a->failed = 0;
		lunq_holdoff_reset(&a->miss);
	}
	if (p99 > a->cfg.target_ns) {
		u64 t;

		/* the failed depth missed again after its hold-off */
		if (a->failed == d && now >= a->failed_until)
			lunq_holdoff_again(&a->miss);
		a->within = 0;
		if (!a->failed || d <= a->failed) {
			a->failed = d;
			a->failed_until = now + a->miss.ns;
		}
		/*
		 * In proportion to the overshoot, with an eighth to spare,
		 * by three quarters at most: the service time of a queue in
		 * the LUN grows with its depth
		 */
		t = div64_u64((u64)d * a->cfg.target_ns * LUNQ_AUTO_SPARE_NUM,
			      p99 * LUNQ_AUTO_SPARE_DEN);
		t = max_t(u64, t, d / LUNQ_AUTO_CUT_DIV);
		/* a step up missed: back to the depth that met it */
		if (a->good && a->good < d)
			t = max_t(u64, t, a->good);
		else
			a->good = 0;	/* it no longer meets it */
		return max_t(u32, min_t(u64, t, d - 1), a->cfg.min);
	}
	if (!lunq_auto_binding(s))
		return d;
	a->good = d;
	/*
	 * Up only after windows within (two, four in the last eighth) and
	 * a run that tells (target_told())
	 */
	if (++a->within < LUNQ_AUTO_WITHIN ||
	    s->run_ios < target_told(a, p99) ||
	    (p99 * LUNQ_AUTO_SPARE_DEN >=
	     a->cfg.target_ns * LUNQ_AUTO_SPARE_NUM &&
	     a->within < LUNQ_AUTO_WITHIN_NEAR))
		return d;
	/*
	 * Never up to a failed depth in its hold-off, nor past it until it
	 * is forgotten
	 */
	if (a->failed)
		limit = min(limit, now < a->failed_until ? a->failed - 1 :
				   a->failed);
	/*
	 * Up while clearly within: a quarter; then 1 -- in the last eighth
	 * only while the p99 does not grow with the depth (the step before
	 * did not raise it by a sixteenth)
	 */
	if (p99 * LUNQ_AUTO_CLEAR_DEN < a->cfg.target_ns * LUNQ_AUTO_CLEAR_NUM)
		d += max(d / LUNQ_AUTO_UP_DIV, 1U);
	else if (p99 * LUNQ_AUTO_SPARE_DEN <
		 a->cfg.target_ns * LUNQ_AUTO_SPARE_NUM || !prev ||
		 p99 * LUNQ_AUTO_P99_GROW_DEN <= prev * LUNQ_AUTO_P99_GROW_NUM)
		d++;
	return max(min(d, limit), a->depth > limit ? limit : a->depth);
}
