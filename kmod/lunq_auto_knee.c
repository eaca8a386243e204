// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq auto:knee's search (kmod/dm-lunq.rst, "auto"): down, up, hold
 * and the queueing rule's cut, judged (the probe: lunq_auto_probe.c), and
 * auto:knee's window.
 */
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/math64.h>
#include <linux/string.h>

#include "lunq_auto.h"

/* after the search, a probe 2 windows into hold: the estimate keeps a margin */
#define LUNQ_AUTO_PROBE_SOON	2U
/* down: the rate held at 85% of the best: the old depth's IOs still drain */
#define LUNQ_AUTO_HELD_PCT	85
/* down halves, up doubles: the knee within log2(auto_max) windows */
#define LUNQ_AUTO_DOWN_DIV	2
#define LUNQ_AUTO_UP_X		2
/* ... four times while the rate grows with the depth: each window costs */
#define LUNQ_AUTO_UP_FAST	4
/*
 * up goes on while the rate grows by a sixteenth (17/16): a full pipe
 * when not -- a LUN that sorts its queue gains a little with each doubling
 */
#define LUNQ_AUTO_GROW_NUM	17
#define LUNQ_AUTO_GROW_DEN	16
/* a probe's step: a sixteenth of the depth (the estimate's 5% margin) */
#define LUNQ_AUTO_STEP_DIV	16
/* a cut judged: still queueing with a service time under 1/8 shorter */
#define LUNQ_AUTO_CUT_NUM	7
#define LUNQ_AUTO_CUT_DEN	8
/* ... or the rate fell by half the depth's share: the cut was noise */
#define LUNQ_AUTO_CUT_SHARE_DEN	2
/*
 * ... or the rate fell under 90% (a tenth: the rate curve's loss, over a
 * window's noise): the rate grows with the queue
 */
#define LUNQ_AUTO_CUT_LOST_PCT	90
/* hold's rules read two windows at least: one slow window is noise */
#define LUNQ_AUTO_HOLD_N	2
/* a light load's wait: a window that lost half the rate ended a load */
#define LUNQ_AUTO_LIGHT_RATE_DIV	2
/* ... the second such window, or the first after the load's first */
#define LUNQ_AUTO_LIGHT_N	2
/* ... doubles the depth */
#define LUNQ_AUTO_LIGHT_X	2ULL
/* down: under 15/16 of the depth in flight, the load does not fill it */
#define LUNQ_AUTO_FILL_NUM	15
#define LUNQ_AUTO_FILL_DEN	16
/* ... twice in a row: a load starting fills no depth in its first window */
#define LUNQ_AUTO_ROOMY_N	2


/* Entering hold at the end of down or up (@proven: see above). */
static u32 knee_enter_hold(struct lunq_auto *a, u64 now, u32 proven)
{
	u32 d = lunq_auto_knee_depth(a, now, a->depth, true), top;
	u64 best;

	/*
	 * The estimate keeps a margin under the knee: a probe soon says
	 * whether the knee is there (one step at a time, from 1)
	 */
	a->hold_windows = a->cfg.probe_every -
			  min(a->cfg.probe_every, LUNQ_AUTO_PROBE_SOON);
	d = lunq_auto_proven_depth(d, a->knee256, proven);
	/*
	 * Where the search saw a depth at or above it lose rate, the
	 * estimate is too low (a LUN sorting its queue: its service time
	 * grows with the depth, and so does its rate): the least depth
	 * of the search that kept the peak
	 */
	top = lunq_auto_curve_top(&a->curve, now, a->cfg.rate_ns, &best);
	return lunq_auto_curve_floor(&a->curve, now, a->cfg.rate_ns, d, top,
				     best, false);
}


/* Phase down: halve while the rate holds. */
static u32 knee_down_window(struct lunq_auto *a, u64 now)
{
	u32 d = a->depth;

	a->roomy_n = 0;

	if (!a->ref_depth || a->rate * 100 >= a->ref_rate * LUNQ_AUTO_HELD_PCT) {
		/* the rate held: the knee is lower still */
		a->ref_rate = max(a->ref_rate, a->rate);
		a->ref_depth = d;
		if (d > a->cfg.min)
			return max(d / LUNQ_AUTO_DOWN_DIV, a->cfg.min);
	} else if (a->ref_depth == a->cfg.start) {
		/* fell at once: the start was at or below the knee */
		a->phase = LUNQ_AP_UP;
		a->ref_depth = a->cfg.start;
		return min_t(u32, a->cfg.start * LUNQ_AUTO_UP_X, a->cfg.max);
	}
	/* fell after holding, or held down to min: hold between */
	d = a->ref_depth;
	lunq_auto_to_hold(a);
	return knee_enter_hold(a, now, d);
}

/*
 * Phase up: double while the rate grows by a sixteenth (@bind: binding;
 * @s: the window).
 */
static u32 knee_up_window(struct lunq_auto *a, const struct lunq_auto_sample *s,
			  bool bind, u64 now)
{
	u32 d = a->depth;
	u64 svc_min = lunq_auto_ext_get(&a->svc_min, now, a->cfg.svc_ns, false);

	if (!a->ref_depth || (bind && a->rate * LUNQ_AUTO_GROW_DEN >=
				    a->ref_rate * LUNQ_AUTO_GROW_NUM)) {
		/*
		 * Four times the depth while the rate grows with it (three
		 * quarters of the depth's growth at least, or the first
		 * step): far below the knee every window costs the load
		 */
		u32 f = !a->ref_depth ||
			(u64)a->rate * a->ref_depth * LUNQ_AUTO_WITH_DEN >=
			(u64)a->ref_rate *
			(a->ref_depth + LUNQ_AUTO_WITH_NUM * d) ?
			LUNQ_AUTO_UP_FAST : LUNQ_AUTO_UP_X;

		if (a->ref_depth)
			a->proven = d;
		a->ref_rate = a->rate;
		a->ref_depth = d;
		if (d < a->cfg.max)
			return min_t(u64, (u64)d * f, a->cfg.max);
	}
	/*
	 * The load did not fill the depth and the LUN served what it sent
	 * without a queue (its service time at the least): no knee under
	 * the load's commands in flight, which the LUN showed it takes
	 */
	if (!bind && !lunq_auto_queues(a->svc, svc_min))
		a->proven = max_t(u32, a->proven,
				  min_t(u64, DIV_ROUND_UP_ULL(s->inflight_x1000,
							      LUNQ_AUTO_X1000),
					a->cfg.max));
	/* no more growth, or the throttle does not limit the load */
	d = a->ref_depth;
	lunq_auto_to_hold(a);
	return knee_enter_hold(a, now, d);
}


/*
 * In hold, two windows after a queueing cut: judge it.  Still queueing
 * and the service time did not fall by an eighth: every IO got slower (a
 * slower device, a busy host), the service time now is the new floor.
 * No longer queueing but the rate fell by half the depth's share or more
 * (above the knee a cut keeps the rate): the windows that triggered it
 * were noise.  Else the rate fell by a tenth: the rate grows with the
 * queue (a LUN sorting it), not past the knee.  Each way the cut is
 * undone: returns the depth before it.  Otherwise it stands (the rate
 * kept, still queueing with a shorter service time: the capacity fell,
 * the queueing rule goes on): returns 0.
 */
static u32 knee_judge_cut(struct lunq_auto *a, u64 now, u64 svc_min)
{
	bool q = lunq_auto_queues(a->hold_svc, svc_min);
	u64 r0 = a->cut_rate;
	u32 d0 = a->cut_depth;

	a->cut_rate = 0;
	if (q && a->hold_svc * LUNQ_AUTO_CUT_DEN >= a->cut_svc * LUNQ_AUTO_CUT_NUM) {
		lunq_auto_ext_reset(&a->svc_min, now, a->cfg.svc_ns, a->hold_svc, false);
		/*
		 * their product is d0 (Little): the rate d0 had, with the
		 * service time every IO takes now -- not the cut depth's
		 * rate, whose product would hold the estimate under d0
		 */
		lunq_auto_ext_reset(&a->rate_max, now, a->cfg.rate_ns,
				    max(a->hold_rate, r0), true);
		memset(&a->curve, 0, sizeof(a->curve));
		lunq_auto_to_hold(a);
		return d0;
	}
	/*
	 * Else (a shorter service time, or no queue) the rate fell by a
	 * tenth: the LUN's rate grows with its queue (it sorts it, or a
	 * write cache destages it in order) and so does its service time
	 * -- it is not past its knee
	 */
	if (a->hold_rate * 100 < r0 * LUNQ_AUTO_CUT_LOST_PCT) {
		lunq_auto_to_hold(a);
		return d0;
	}
	if (!q && a->hold_rate * LUNQ_AUTO_CUT_SHARE_DEN * d0 <
	    r0 * (d0 + a->depth)) {
		lunq_auto_ext_put(&a->rate_max, now, a->cfg.rate_ns, r0, true);
		lunq_auto_to_hold(a);
		return d0;
	}
	return 0;
}

/*
 * In hold, queueing inside the LUN: the mean service time, averaged over
 * the hold windows (two at least: one slow window is noise), a quarter
 * above the least.  The depth is above the knee -- the capacity fell, or
 * the estimate was high.  The rate now, not the remembered peak, times
 * the least service time says where the knee is now: returns that depth
 * when below the depth held (the cut, judged two windows later by
 * knee_judge_cut()), else 0.
 */
static u32 knee_queueing_cut(struct lunq_auto *a, u64 now, u64 svc_min)
{
	u64 k = min_t(u64, lunq_auto_inflight256(a->rate, svc_min), U32_MAX);
	u32 t = lunq_auto_proven_depth(lunq_auto_depth_of(k), k, a->proven);

	/*
	 * not to a depth the curve says loses the rate now (the window's:
	 * the hold windows' average lags a drop): a sorting LUN
	 */
	t = lunq_auto_curve_floor(&a->curve, now, a->cfg.rate_ns, t, a->depth,
				  a->rate, true);
	if (t >= a->depth)
		return 0;
	lunq_auto_ext_reset(&a->rate_max, now, a->cfg.rate_ns, a->rate, true);
	/* the curve was of the LUN before: it goes with the old peak */
	memset(&a->curve, 0, sizeof(a->curve));
	a->cut_rate = a->rate;
	a->cut_svc = a->svc;
	a->cut_depth = a->depth;
	lunq_auto_to_hold(a);
	return t;
}

/*
 * Phase hold (@bind: binding): the estimate's depth, cut on queueing,
 * and a probe every probe_every windows.
 */
static u32 knee_hold_window(struct lunq_auto *a, bool bind, u64 now)
{
	u32 d = a->depth, t;
	u64 svc_min;

	/* the rate to beat is the average of the hold windows' */
	if (bind) {
		a->hold_rate = a->hold_rate ?
			(LUNQ_AUTO_AVG_OLD * a->hold_rate + a->rate) /
			LUNQ_AUTO_AVG_DEN : a->rate;
		a->hold_svc = a->hold_svc ?
			(LUNQ_AUTO_AVG_OLD * a->hold_svc + a->svc) /
			LUNQ_AUTO_AVG_DEN : a->svc;
		a->hold_n++;
	}
	svc_min = lunq_auto_ext_get(&a->svc_min, now, a->cfg.svc_ns, false);
	if (a->cut_rate && bind && a->hold_n >= LUNQ_AUTO_HOLD_N &&
	    a->cut_depth > d) {
		t = knee_judge_cut(a, now, svc_min);
		if (t)
			return t;
	}
	if (bind && a->hold_n >= LUNQ_AUTO_HOLD_N &&
	    lunq_auto_queues(a->hold_svc, svc_min)) {
		t = knee_queueing_cut(a, now, svc_min);
		if (t)
			return t;
	}
	d = lunq_auto_knee_depth(a, now, d, false);
	if (++a->hold_windows >= a->cfg.probe_every && bind && a->hold_rate &&
	    d < a->cfg.max &&
	    (!a->ceiling || now >= a->ceiling_until)) {
		a->phase = LUNQ_AP_PROBE;
		a->hold_windows = 0;
		a->base = d;
		a->base_rate = a->hold_rate;
		a->base_svc = a->hold_svc;
		a->base_resp = a->resp;
		/* half the last step after a probe that grew */
		a->step = max3(d / LUNQ_AUTO_STEP_DIV, 1U, a->soon_step);
		a->soon_step = 0;
		a->grew = false;
		return d + a->step;
	}
	return d;
}

/*
 * The depth was the limit: IOs waited at the throttle (binding), or the
 * LUN had the depth in flight (a load that fills it exactly, or a queue
 * inside the LUN): the window's rate says what the LUN does at it.
 */
static bool full(const struct lunq_auto_sample *s, u32 depth)
{
	return lunq_auto_binding(s) || !lunq_auto_roomy(s, depth);
}

/* auto:knee's window: the rule of its phase (kmod/dm-lunq.rst, "auto"). */
static u32 knee_window(struct lunq_auto *a, const struct lunq_auto_sample *s,
		       u64 now)
{
	/* the depth was the limit: the window's rate is the LUN's at it */
	if (full(s, a->depth) && !s->qfull)
		lunq_auto_curve_put(&a->curve, now, a->cfg.rate_ns, a->depth,
				    a->rate);
	switch (a->phase) {
	case LUNQ_AP_DOWN:
		return knee_down_window(a, now);
	case LUNQ_AP_UP:
		return knee_up_window(a, s, full(s, a->depth), now);
	case LUNQ_AP_PROBE:
		return lunq_auto_probe_window(a, now);
	default:
		/*
		 * A window with QUEUE FULLs says nothing of a queue inside
		 * the LUN: its service times hold the refusals' retries
		 */
		return knee_hold_window(a, full(s, a->depth) && !s->qfull,
					now);
	}
}

/*
 * auto:knee's window (lunq_auto_window()), @last_rate the rate of the one
 * before: a floor for what the user feels, the way down's check of the
 * load, the probe above a ceiling whose hold-off ended, or the rule of
 * its phase.  Returns the depth, before the bounds.
 */
u32 lunq_auto_knee_window(struct lunq_auto *a, const struct lunq_auto_sample *s,
			  u64 now, u64 last_rate)
{
	u32 next;

	if (lunq_auto_starving(s)) {
		next = lunq_auto_floor(a, s, now);
	} else if (lunq_auto_light_waits(s, a->depth) && a->phase != LUNQ_AP_PROBE &&
		   a->rate * LUNQ_AUTO_LIGHT_RATE_DIV >= last_rate &&
		   (++a->light >= LUNQ_AUTO_LIGHT_N ||
		    (a->loaded >= LUNQ_AUTO_LIGHT_N &&
		     s->inflight_x1000 * LUNQ_AUTO_LIGHT_FILL <=
		     a->depth * LUNQ_AUTO_X1000))) {
		/*
		 * The second such window since the depth was last full (a
		 * load that starts or ends leaves room for one; one that
		 * ends also loses half its rate), or the first after a
		 * load's first window when the load is light (half the depth
		 * in flight at most): up, and hold there -- the rate cannot
		 * tell a lower depth
		 */
		a->light = 0;
		lunq_auto_to_hold(a);
		next = min_t(u64, LUNQ_AUTO_LIGHT_X * a->depth, a->cfg.max);
	} else if (a->phase == LUNQ_AP_DOWN &&
		   s->inflight_x1000 * LUNQ_AUTO_FILL_DEN <
		   (u64)a->depth * LUNQ_AUTO_X1000 * LUNQ_AUTO_FILL_NUM) {
		/*
		 * The load does not fill the depth (under 15/16 of it in
		 * flight; above the knee a closed loop keeps it full): it
		 * is not what limits the rate, and a lower one would only
		 * make commands wait.  Twice in a row: a load starting
		 * fills no depth in its first window
		 */
		if (++a->roomy_n >= LUNQ_AUTO_ROOMY_N)
			lunq_auto_to_hold(a);
		next = a->depth;
	} else if (a->ceiling && now >= a->ceiling_until &&
		   a->depth == a->ceiling && a->phase == LUNQ_AP_HOLD &&
		   lunq_auto_binding(s) && a->depth < a->cfg.max) {
		/*
		 * The hold-off ended at the ceiling: the other initiators
		 * may have left.  Probe above it from one command (a refusal
		 * costs one QUEUE FULL, and the ceiling comes back,
		 * lunq_auto_qfull()); every step that passes doubles the
		 * next, so the slots freed are taken back within a second.
		 */
		a->phase = LUNQ_AP_PROBE;
		a->base = a->depth;
		a->base_rate = a->rate;
		a->base_svc = a->svc;
		a->base_resp = a->resp;
		a->step = 1;
		a->grew = false;
		next = a->depth + 1;
	} else {
		/*
		 * The load grew past the depth (a window binds after one
		 * that did not): whether the LUN has room, a probe soon says
		 */
		if (lunq_auto_binding(s) && !a->bound && a->phase == LUNQ_AP_HOLD)
			a->hold_windows = max(a->hold_windows,
					      a->cfg.probe_every -
					      min(a->cfg.probe_every, LUNQ_AUTO_PROBE_SOON));
		next = knee_window(a, s, now);
	}
	return next;
}
