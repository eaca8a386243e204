// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq auto:knee's search (lunq_auto.h): down, up, hold, probe, and
 * the queueing rule's cut, judged.
 */
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/math64.h>

#include "lunq_auto.h"

/*
 * The depth the estimate says: 95% of it rounded down (one command over
 * the knee queues inside the LUN and doubles someone's service time; one
 * under costs a share of the rate, and the host's own completion time
 * inflates the estimate by a few percent).  From @d it only moves up
 * (the estimate grew: a probe found more); @fresh (entering hold): at
 * once.  Down moves are the queueing rule's (knee_window()).
 */
static u32 knee_depth(struct lunq_auto *a, u64 now, u32 d, bool fresh)
{
	u32 k = lunq_auto_knee256(a, now), t;

	a->knee256 = k;
	if (!k)
		return d;
	t = lunq_auto_depth_of(k);
	return fresh || t > d ? t : d;
}

/* Entering hold at the end of down or up (@proven: see above). */
static u32 knee_enter_hold(struct lunq_auto *a, u64 now, u32 proven)
{
	u32 d = knee_depth(a, now, a->depth, true);

	/*
	 * The estimate keeps a margin under the knee: a probe soon says
	 * whether the knee is there (one step at a time, from 1)
	 */
	a->hold_windows = a->cfg.probe_every - min(a->cfg.probe_every, 2U);
	return lunq_auto_proven_depth(d, a->knee256, proven);
}

/*
 * Hold, but probe again after an eighth of probe_every windows: the last
 * probe found more capacity.
 */
static void probe_soon(struct lunq_auto *a)
{
	u32 step = max(a->step / 2, 1U);

	lunq_auto_to_hold(a);
	a->hold_windows = a->cfg.probe_every - a->cfg.probe_every / 8;
	a->soon_step = step;
}

/* Phase down: halve while the rate holds. */
static u32 knee_down_window(struct lunq_auto *a, u64 now)
{
	u32 d = a->depth;

	a->roomy_n = 0;

	if (!a->ref_depth || a->rate * 100 >= a->ref_rate * 85) {
		/* the rate held: the knee is lower still */
		a->ref_rate = max(a->ref_rate, a->rate);
		a->ref_depth = d;
		if (d > a->cfg.min)
			return max(d / 2, a->cfg.min);
	} else if (a->ref_depth == a->cfg.start) {
		/* fell at once: the start was at or below the knee */
		a->phase = LUNQ_AP_UP;
		a->ref_depth = a->cfg.start;
		return min_t(u32, a->cfg.start * 2, a->cfg.max);
	}
	/* fell after holding, or held down to min: hold between */
	d = a->ref_depth;
	lunq_auto_to_hold(a);
	return knee_enter_hold(a, now, d);
}

/* Phase up: double while the rate grows by a quarter (@bind: binding). */
static u32 knee_up_window(struct lunq_auto *a, bool bind, u64 now)
{
	u32 d = a->depth;

	if (!a->ref_depth || (bind && a->rate * 4 >= a->ref_rate * 5)) {
		/*
		 * Four times the depth while the rate grows with it (three
		 * quarters of the depth's growth at least, or the first
		 * step): far below the knee every window costs the load
		 */
		u32 f = !a->ref_depth ||
			(u64)a->rate * a->ref_depth * 4 >=
			(u64)a->ref_rate * (a->ref_depth + 3 * d) ? 4 : 2;

		if (a->ref_depth)
			a->proven = d;
		a->ref_rate = a->rate;
		a->ref_depth = d;
		if (d < a->cfg.max)
			return min_t(u64, (u64)d * f, a->cfg.max);
	}
	/* no more growth, or the throttle does not limit the load */
	d = a->ref_depth;
	lunq_auto_to_hold(a);
	return knee_enter_hold(a, now, d);
}

/*
 * A probe's step where the rate stopped growing with it: the LUN is full
 * there, and the knee is the base's depth times the rate gained (Little,
 * the service time unchanged below the knee), within the step.
 */
static u32 knee_within(const struct lunq_auto *a)
{
	u64 t;

	if (!a->base_rate || a->rate <= a->base_rate)
		return a->base;
	t = div64_u64((u64)a->base * a->rate + a->base_rate / 2, a->base_rate);
	return clamp_t(u64, t, a->base, a->base + a->step - 1);
}

/* Phase probe: one window at base + step decides. */
static u32 knee_probe_window(struct lunq_auto *a, u64 now)
{
	u32 d = a->depth;

	/*
	 * The step cut the response (the wait in lunq and the service) by
	 * an eighth at the same rate: an open loop's commands waited in
	 * lunq where the LUN had room -- what the user feels is better
	 * there, and the rate cannot say so.  Probe on from it.
	 */
	if (a->base_resp && a->resp * 8 <= a->base_resp * 7 &&
	    a->rate * 16 >= a->base_rate * 15) {
		a->grew = true;
		a->base = d;
		a->base_rate = a->rate;
		a->base_svc = a->svc;
		a->base_resp = a->resp;
		a->step = min_t(u32, a->step * 2, 1U << 15);
		return d + a->step;
	}

	/*
	 * More capacity: at least half of the step's share came back as
	 * rate, and for a step under an eighth of the depth (where noise
	 * could fake that much rate) the service time did not grow by more
	 * than a quarter of it (5% at most) -- else the step queued inside
	 * the LUN.  A larger step is judged by the rate alone: a host's
	 * service-time noise (10% under TCG) would fail it, and a false
	 * pass queues in the LUN, which the queueing rule undoes.  With
	 * three quarters of the share or more, probe again with twice the
	 * step.
	 */
	if (a->rate * 2 * a->base >=
	    a->base_rate * (2 * a->base + a->step) &&
	    (a->step * 8 >= a->base ||
	     (a->svc * 4 * a->base <=
	      a->base_svc * (4 * a->base + a->step) &&
	      a->svc * 100 <= a->base_svc * 105))) {
		/*
		 * Less than three quarters of the share: the step reached
		 * the knee -- hold at the estimate, which now has this
		 * window's rate.
		 */
		if (a->rate * 4 * a->base <
		    a->base_rate * (4 * a->base + 3 * a->step)) {
			/*
			 * The knee is past half the step: hold there at
			 * least (the estimate's minimum service time is
			 * biased low by noise), and probe again soon -- it
			 * grew.
			 */
			probe_soon(a);
			return knee_depth(a, now, max(a->base + a->step / 2,
						      knee_within(a)), false);
		}
		/*
		 * The rate grew with the step: four times the step next,
		 * twice where a ceiling was (slots shared: each step over
		 * them is refused)
		 */
		a->grew = true;
		a->base = d;
		a->base_rate = a->rate;
		a->base_svc = a->svc;
		a->base_resp = a->resp;
		a->step = min_t(u32, a->step * (a->ceiling ? 2 : 4), 1U << 15);
		return d + a->step;
	}
	/*
	 * The last depth that passed, or the estimate if higher; after
	 * steps that passed the capacity may still be growing (a noisy
	 * window ended the probe): probe again soon.
	 */
	if (a->grew)
		probe_soon(a);
	else
		lunq_auto_to_hold(a);
	return knee_depth(a, now, knee_within(a), false);
}

/*
 * In hold, two windows after a queueing cut: judge it.  Still queueing
 * and the service time did not fall by an eighth: every IO got slower (a
 * slower device, a busy host), the service time now is the new floor.
 * No longer queueing but the rate fell by half the depth's share or more
 * (above the knee a cut keeps the rate): the windows that triggered it
 * were noise.  Either way the cut is undone: returns the depth before
 * it.  Otherwise it stands (still queueing with a shorter service time:
 * the capacity fell, the queueing rule goes on): returns 0.
 */
static u32 knee_judge_cut(struct lunq_auto *a, u64 now, u64 svc_min)
{
	bool q = lunq_auto_queues(a->hold_svc, svc_min);
	u64 r0 = a->cut_rate;
	u32 d0 = a->cut_depth;

	a->cut_rate = 0;
	if (q && a->hold_svc * 8 >= a->cut_svc * 7) {
		lunq_auto_ext_reset(&a->svc_min, now, a->cfg.svc_ns, a->hold_svc, false);
		/* their product is d (Little): no estimate above d0 */
		lunq_auto_ext_reset(&a->rate_max, now, a->cfg.rate_ns, a->hold_rate,
			  true);
		lunq_auto_to_hold(a);
		return d0;
	}
	if (!q && a->hold_rate * 2 * d0 < r0 * (d0 + a->depth)) {
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

	if (t >= a->depth)
		return 0;
	lunq_auto_ext_reset(&a->rate_max, now, a->cfg.rate_ns, a->rate, true);
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
			(3 * a->hold_rate + a->rate) / 4 : a->rate;
		a->hold_svc = a->hold_svc ?
			(3 * a->hold_svc + a->svc) / 4 : a->svc;
		a->hold_n++;
	}
	svc_min = lunq_auto_ext_get(&a->svc_min, now, a->cfg.svc_ns, false);
	if (a->cut_rate && bind && a->hold_n >= 2 && a->cut_depth > d) {
		t = knee_judge_cut(a, now, svc_min);
		if (t)
			return t;
	}
	if (bind && a->hold_n >= 2 && lunq_auto_queues(a->hold_svc, svc_min)) {
		t = knee_queueing_cut(a, now, svc_min);
		if (t)
			return t;
	}
	d = knee_depth(a, now, d, false);
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
		a->step = max3(d / 16, 1U, a->soon_step);
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

/* auto:knee's window: the rule of its phase (lunq_auto.h). */
static u32 knee_window(struct lunq_auto *a, const struct lunq_auto_sample *s,
		       u64 now)
{
	switch (a->phase) {
	case LUNQ_AP_DOWN:
		return knee_down_window(a, now);
	case LUNQ_AP_UP:
		return knee_up_window(a, full(s, a->depth), now);
	case LUNQ_AP_PROBE:
		return knee_probe_window(a, now);
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
		   a->rate * 2 >= last_rate &&
		   (++a->light >= 2 || (a->loaded >= 2 &&
					s->inflight_x1000 * 2 <= a->depth * 1000ULL))) {
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
		next = min_t(u64, 2ULL * a->depth, a->cfg.max);
	} else if (a->phase == LUNQ_AP_DOWN &&
		   s->inflight_x1000 * 16 < (u64)a->depth * 1000 * 15) {
		/*
		 * The load does not fill the depth (under 15/16 of it in
		 * flight; above the knee a closed loop keeps it full): it
		 * is not what limits the rate, and a lower one would only
		 * make commands wait.  Twice in a row: a load starting
		 * fills no depth in its first window
		 */
		if (++a->roomy_n >= 2)
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
					      min(a->cfg.probe_every, 2U));
		next = knee_window(a, s, now);
	}
	return next;
}
