// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq "auto": the adaptive throttle's controller, see lunq_auto.h.
 */
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/math64.h>
#include <linux/string.h>

#include "lunq_auto.h"

#define NS_PER_S	1000000000ULL

/* ---- hold-offs ---- */

void lunq_holdoff_init(struct lunq_holdoff *h, u64 base, u32 from, u64 max)
{
	h->base = base;
	h->from = from;
	h->max = max;
	lunq_holdoff_reset(h);
}

void lunq_holdoff_reset(struct lunq_holdoff *h)
{
	h->ns = h->base;
	h->n = 0;
}

u64 lunq_holdoff_again(struct lunq_holdoff *h)
{
	if (h->n < h->from)
		h->n++;
	if (h->n >= h->from)
		h->ns = min(2 * h->ns, h->max);
	return h->ns;
}

/* ---- windowed extremes: LUNQ_AUTO_SLOTS sub-windows of horizon/SLOTS ---- */

static u64 ext_epoch(u64 now, u64 horizon)
{
	return div64_u64(now, max_t(u64, horizon / LUNQ_AUTO_SLOTS, 1)) + 1;
}

static void ext_put(struct lunq_auto_ext *e, u64 now, u64 horizon, u64 v,
		    bool want_max)
{
	u64 ep = ext_epoch(now, horizon);
	unsigned int i = ep % LUNQ_AUTO_SLOTS;

	if (e->epoch[i] != ep) {
		e->epoch[i] = ep;
		e->v[i] = v;
	} else {
		e->v[i] = want_max ? max(e->v[i], v) : min(e->v[i], v);
	}
}

/* The extreme of the last LUNQ_AUTO_SLOTS sub-windows; 0 when none. */
static u64 ext_get(const struct lunq_auto_ext *e, u64 now, u64 horizon,
		   bool want_max)
{
	u64 ep = ext_epoch(now, horizon), best = 0;
	bool any = false;
	unsigned int i;

	for (i = 0; i < LUNQ_AUTO_SLOTS; i++) {
		if (!e->epoch[i] || e->epoch[i] + LUNQ_AUTO_SLOTS <= ep ||
		    e->epoch[i] > ep)
			continue;
		if (!any || (want_max ? e->v[i] > best : e->v[i] < best))
			best = e->v[i];
		any = true;
	}
	return best;
}

/* Forget every value: @v alone from @now on. */
static void ext_reset(struct lunq_auto_ext *e, u64 now, u64 horizon, u64 v,
		      bool want_max)
{
	memset(e, 0, sizeof(*e));
	ext_put(e, now, horizon, v, want_max);
}

u64 lunq_auto_peak_iops(const struct lunq_auto *a, u64 now)
{
	return ext_get(&a->rate_max, now, a->cfg.rate_ns, true) / 16;
}

u64 lunq_auto_svc_min(const struct lunq_auto *a, u64 now)
{
	return ext_get(&a->svc_min, now, a->cfg.svc_ns, false);
}

/* @rate (IOPS x 16) x @svc (ns): commands in flight, x 256. */
static u64 inflight256(u64 rate, u64 svc)
{
	/* IOPS x 16 x ns x 256 / (16 x 10^9); rate < 2^28, svc < 2^36 */
	return div64_u64(min_t(u64, rate, 1ULL << 28) *
			 min_t(u64, svc, 1ULL << 36) * 16, NS_PER_S);
}

/* rate_max x svc_min in 1/256 of a command; 0 when either is unknown. */
static u32 knee256(const struct lunq_auto *a, u64 now)
{
	return min_t(u64, inflight256(ext_get(&a->rate_max, now,
					      a->cfg.rate_ns, true),
				      ext_get(&a->svc_min, now,
					      a->cfg.svc_ns, false)),
		     U32_MAX);
}

/* A depth from an estimate x 256: 95% of it + 0.3, rounded down. */
static u32 depth_of(u64 k256)
{
	return max_t(u32, div64_u64(k256 * 95 / 100 + 77, 256), 1);
}

u32 lunq_auto_knee(const struct lunq_auto *a, u64 now)
{
	u32 k = knee256(a, now);

	return k ? depth_of(k) : 0;
}

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
	u32 k = knee256(a, now), t;

	a->knee256 = k;
	if (!k)
		return d;
	t = depth_of(k);
	return fresh || t > d ? t : d;
}

/*
 * @d, the estimate's depth, or @proven if higher -- a depth the search
 * saw grow the rate (up) or hold it (down) -- when the estimate @k256
 * reaches 95% of it: the LUN showed it takes that many, and Little's
 * in-flight agrees within noise.  The estimate's 95% margin (depth_of())
 * is for a knee the search did not confirm; at a confirmed one it would
 * hold one command under it.
 */
static u32 proven_depth(u32 d, u32 k256, u32 proven)
{
	if ((u64)proven * 256 * 95 <= (u64)k256 * 100)
		return max(d, proven);
	return d;
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
	return proven_depth(d, a->knee256, proven);
}

void lunq_auto_init(struct lunq_auto *a, const struct lunq_auto_cfg *cfg,
		    u64 now)
{
	*a = (struct lunq_auto) { .cfg = *cfg };
	if (cfg->mode == LUNQ_AUTO_OFF) {
		a->phase = LUNQ_AP_OFF;
		a->depth = cfg->start;
		return;
	}
	a->depth = clamp(cfg->start, cfg->min, cfg->max);
	if (cfg->mode == LUNQ_AUTO_TARGET) {
		/*
		 * From 4 at most, up while within: the commands a deep first
		 * depth sends at once to a sorting LUN cannot be called back,
		 * and its slowest cost the p99 for seconds
		 */
		a->depth = clamp(cfg->start, cfg->min, max(cfg->min, 4U));
		a->phase = LUNQ_AP_TRACK;
	} else {
		a->phase = a->depth > cfg->min ? LUNQ_AP_DOWN : LUNQ_AP_UP;
	}
	lunq_holdoff_init(&a->qhold, cfg->qhold_ns, LUNQ_AUTO_REFUSED,
			  cfg->qhold_max_ns ?: cfg->hold_max_ns);
	lunq_holdoff_init(&a->fhold, LUNQ_AUTO_FHOLD_NS, 1, cfg->hold_max_ns);
	a->ratio16 = 3 * 16;	/* a sorting LUN's; learnt from the windows */
	lunq_holdoff_init(&a->miss, cfg->hold_ns, LUNQ_AUTO_MISSED,
			  cfg->hold_max_ns);
	a->settle_until = now;
}

bool lunq_auto_window_ready(const struct lunq_auto *a, u64 ns, u64 ios,
			    u64 wait_ns, u64 act_ns, bool *idle)
{
	u64 least = max(a->cfg.win_ns, 4 * a->svc);
	u64 fewest = a->cfg.win_ios;

	*idle = false;
	if (a->phase == LUNQ_AP_PROBE) {
		/*
		 * One window decides: four times the IOs.  No longer: at the
		 * knee a probe queues its step in the LUN, and its service
		 * time doubles
		 */
		fewest *= 4;
	} else if (a->phase == LUNQ_AP_TRACK) {
		/* a p99 to judge: Little's mean covers a short window */
		least = max(a->cfg.win_ns, 2 * a->svc);
	} else if (a->phase == LUNQ_AP_UP ||
		   (a->phase == LUNQ_AP_DOWN && a->ref_depth)) {
		/*
		 * Below the knee every window costs the load its queue in
		 * lunq, and the way down ends with one there: half the
		 * time, and the IOs of two rounds at least (the first window
		 * down is whole: an open loop's first burst fills any depth)
		 */
		least = max(a->cfg.win_ns / 2, 4 * a->svc);
		fewest = clamp_t(u64, 2 * a->depth, 4, fewest);
	}
	if (ns >= least && ios >= fewest)
		return true;
	/*
	 * A light load waits (on average half the depth in flight at
	 * most): judge it after half a window, whatever its IOs -- an open
	 * loop's next wait behind a read is its user's
	 */
	if (a->cfg.mode == LUNQ_AUTO_KNEE && a->phase != LUNQ_AP_PROBE &&
	    wait_ns && ios >= 2 && ns >= a->cfg.win_ns / 2 &&
	    act_ns * 2 <= (u64)a->depth * ns)
		return true;
	if (ns >= 10 * least) {
		*idle = true;
		return true;
	}
	return false;
}

static bool binding(const struct lunq_auto_sample *s)
{
	return s->wait_ns * 2 >= s->ns;
}

static void to_hold(struct lunq_auto *a)
{
	a->phase = LUNQ_AP_HOLD;
	a->hold_windows = 0;
	a->ref_depth = 0;
	a->soon_step = 0;
	a->hold_rate = 0;
	a->hold_svc = 0;
	a->hold_n = 0;
}

/*
 * Hold, but probe again after an eighth of probe_every windows: the last
 * probe found more capacity.
 */
static void probe_soon(struct lunq_auto *a)
{
	u32 step = max(a->step / 2, 1U);

	to_hold(a);
	a->hold_windows = a->cfg.probe_every - a->cfg.probe_every / 8;
	a->soon_step = step;
}

/* A mean service time a quarter above the least: queueing in the LUN. */
static bool queues(u64 svc, u64 svc_min)
{
	return svc_min && svc * 4 > svc_min * 5;
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
	to_hold(a);
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
	to_hold(a);
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
		to_hold(a);
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
	bool q = queues(a->hold_svc, svc_min);
	u64 r0 = a->cut_rate;
	u32 d0 = a->cut_depth;

	a->cut_rate = 0;
	if (q && a->hold_svc * 8 >= a->cut_svc * 7) {
		ext_reset(&a->svc_min, now, a->cfg.svc_ns, a->hold_svc, false);
		/* their product is d (Little): no estimate above d0 */
		ext_reset(&a->rate_max, now, a->cfg.rate_ns, a->hold_rate,
			  true);
		to_hold(a);
		return d0;
	}
	if (!q && a->hold_rate * 2 * d0 < r0 * (d0 + a->depth)) {
		ext_put(&a->rate_max, now, a->cfg.rate_ns, r0, true);
		to_hold(a);
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
	u64 k = min_t(u64, inflight256(a->rate, svc_min), U32_MAX);
	u32 t = proven_depth(depth_of(k), k, a->proven);

	if (t >= a->depth)
		return 0;
	ext_reset(&a->rate_max, now, a->cfg.rate_ns, a->rate, true);
	a->cut_rate = a->rate;
	a->cut_svc = a->svc;
	a->cut_depth = a->depth;
	to_hold(a);
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
	svc_min = ext_get(&a->svc_min, now, a->cfg.svc_ns, false);
	if (a->cut_rate && bind && a->hold_n >= 2 && a->cut_depth > d) {
		t = knee_judge_cut(a, now, svc_min);
		if (t)
			return t;
	}
	if (bind && a->hold_n >= 2 && queues(a->hold_svc, svc_min)) {
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

/* The LUN had room: on average under 7/8 of @depth in flight. */
static bool roomy(const struct lunq_auto_sample *s, u32 depth)
{
	return s->inflight_x1000 * 8 < (u64)depth * 1000 * 7;
}

/*
 * The depth was the limit: IOs waited at the throttle (binding), or the
 * LUN had the depth in flight (a load that fills it exactly, or a queue
 * inside the LUN): the window's rate says what the LUN does at it.
 */
static bool full(const struct lunq_auto_sample *s, u32 depth)
{
	return binding(s) || !roomy(s, depth);
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
 * auto:target's p99 of a window: the one measured over the run of windows
 * at this depth (a window of 60 commands has its slowest for p99), or
 * where the window is too short to have seen it (its commands still out
 * are the slow ones), the mean service time Little's law gives (in flight
 * / rate) times the ratio of p99 to mean of the last windows long enough
 * to tell.
 */
static u64 target_p99(struct lunq_auto *a, const struct lunq_auto_sample *s)
{
	u64 mean = div64_u64(min_t(u64, s->inflight_x1000, 1ULL << 32) * s->ns,
			     s->ios * 1000);
	u64 p99 = s->run_ios > s->ios ? s->run_p99_ns : s->p99_ns;

	if (s->ns >= 2 * s->p99_ns) {
		if (a->svc) {
			u64 r = div64_u64(s->p99_ns * 16, a->svc);

			r = clamp_t(u64, r, 16, 16 * 16);
			a->ratio16 = (3 * a->ratio16 + r) / 4;
		}
		return p99;
	}
	return max(p99, mean * a->ratio16 / 16);
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

	if (p99 * 2 < t)
		return 0;
	if (p99 * 4 < t * 3)
		return LUNQ_AUTO_RUN_IOS / 2;
	if (p99 * 8 < t * 7)
		return LUNQ_AUTO_RUN_IOS;
	return 2 * LUNQ_AUTO_RUN_IOS;
}

static u32 target_window(struct lunq_auto *a,
			 const struct lunq_auto_sample *s, u64 now)
{
	u32 d = a->depth, limit = a->cfg.max;
	u64 prev = a->p99_est, p99 = target_p99(a, s);

	a->p99_est = p99;

	if (a->failed && d >= a->failed && p99 * 8 <= a->cfg.target_ns * 7 &&
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
		t = div64_u64((u64)d * a->cfg.target_ns * 7, p99 * 8);
		t = max_t(u64, t, d / 4);
		/* a step up missed: back to the depth that met it */
		if (a->good && a->good < d)
			t = max_t(u64, t, a->good);
		else
			a->good = 0;	/* it no longer meets it */
		return max_t(u32, min_t(u64, t, d - 1), a->cfg.min);
	}
	if (!binding(s))
		return d;
	a->good = d;
	/*
	 * Up only after windows within (two, four in the last eighth) and
	 * a run that tells (target_told())
	 */
	if (++a->within < 2 || s->run_ios < target_told(a, p99) ||
	    (p99 * 8 >= a->cfg.target_ns * 7 && a->within < 4))
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
	if (p99 * 4 < a->cfg.target_ns * 3)
		d += max(d / 4, 1U);
	else if (p99 * 8 < a->cfg.target_ns * 7 || !prev ||
		 p99 * 16 <= prev * 17)
		d++;
	return max(min(d, limit), a->depth > limit ? limit : a->depth);
}

/*
 * A waiter starves: the oldest has waited 4 times what the window's
 * commands waited (p99) and are served (mean), and 50 ms at least -- a
 * sorting wait queue passes it by (the latency bubble).  In arrival order
 * the oldest waits what the others wait.  No depth that leaves it there
 * is the knee.
 */
static bool starving(const struct lunq_auto_sample *s)
{
	return s->waiting && s->oldest_ns >= 50 * NSEC_PER_MSEC &&
	       s->oldest_ns >= 4 * (s->lwait_p99_ns +
				    div64_u64(s->svc_sum_ns, s->ios));
}

/*
 * A light load waits: commands waited in lunq, a p99 of an eighth of a
 * service time and 50 us at least, while the LUN had room (on average
 * under 7/8 of the depth in flight) -- an open loop's bursts, writes
 * behind reads.  The rate says nothing there (it is the load's); the
 * wait is what the user feels.  A closed loop at its knee keeps the
 * depth in flight.
 */
static bool light_waits(const struct lunq_auto_sample *s, u32 depth)
{
	return roomy(s, depth) && s->lwait_p99_ns >= 50 * NSEC_PER_USEC &&
	       s->lwait_p99_ns * 8 >= div64_u64(s->svc_sum_ns, s->ios);
}

/*
 * Starving: the depth that lets every waiter go now becomes a floor, held
 * for a hold-off (2 s, doubling while it starves again at once after).
 */
static u32 knee_starving(struct lunq_auto *a, const struct lunq_auto_sample *s,
			 u64 now)
{
	u32 f = min_t(u64, (u64)a->depth + max(s->waiting, a->depth),
		      a->cfg.max);

	if (a->floor_until == U64_MAX) {
		/* held for the load already (lunq_auto_starved()) */
		a->floor = max(a->floor, f);
		to_hold(a);
		return a->floor;
	}
	if (a->floor && now < a->floor_until + a->fhold.ns)
		lunq_holdoff_again(&a->fhold);
	else
		lunq_holdoff_reset(&a->fhold);
	a->floor = max(f, a->floor && now < a->floor_until ? a->floor : 0);
	a->floor_until = now + a->fhold.ns;
	to_hold(a);
	return a->floor;
}

u32 lunq_auto_window(struct lunq_auto *a, const struct lunq_auto_sample *s,
		     u64 now)
{
	u64 last_rate;
	u32 next;

	if (a->cfg.mode == LUNQ_AUTO_OFF)
		return a->depth;
	a->windows++;
	if (!s->ios || !s->ns)
		return a->depth;
	a->loaded++;
	last_rate = a->rate;
	a->rate = div64_u64(min_t(u64, s->ios, 1ULL << 32) * 16 * NS_PER_S,
			    s->ns);
	a->svc = div64_u64(s->svc_sum_ns, s->ios);
	a->resp = a->svc + s->lwait_mean_ns;
	a->p99 = s->p99_ns;
	ext_put(&a->svc_min, now, a->cfg.svc_ns, a->svc, false);
	if (binding(s) ||
	    a->rate > ext_get(&a->rate_max, now, a->cfg.rate_ns, true))
		ext_put(&a->rate_max, now, a->cfg.rate_ns, a->rate, true);

	/* above the ceiling a whole window without QUEUE FULL: it rose */
	if (a->ceiling && now >= a->ceiling_until && a->depth > a->ceiling &&
	    !s->qfull) {
		a->ceiling = 0;
		lunq_holdoff_reset(&a->qhold);
	}
	if (!roomy(s, a->depth))
		a->light = 0;
	if (a->cfg.mode == LUNQ_AUTO_TARGET) {
		next = target_window(a, s, now);
	} else if (starving(s)) {
		next = knee_starving(a, s, now);
	} else if (light_waits(s, a->depth) && a->phase != LUNQ_AP_PROBE &&
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
		to_hold(a);
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
			to_hold(a);
		next = a->depth;
	} else if (a->ceiling && now >= a->ceiling_until &&
		   a->depth == a->ceiling && a->phase == LUNQ_AP_HOLD &&
		   binding(s) && a->depth < a->cfg.max) {
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
		if (binding(s) && !a->bound && a->phase == LUNQ_AP_HOLD)
			a->hold_windows = max(a->hold_windows,
					      a->cfg.probe_every -
					      min(a->cfg.probe_every, 2U));
		next = knee_window(a, s, now);
	}
	a->bound = binding(s);
	if (a->floor && now < a->floor_until)
		next = max(next, a->floor);
	next = clamp(next, a->cfg.min, a->cfg.max);
	if (a->ceiling && now < a->ceiling_until)
		next = min(next, a->ceiling);
	if (next != a->depth) {
		/*
		 * The commands sent before the move are out for up to a p99
		 * of theirs: auto:target, which judges p99s, waits half that.
		 * A step of the way down does not wait: the old depth's
		 * commands only drain (half the depth at most), the rate's
		 * 85% rule absorbs them, and below the knee every tick
		 * costs the load its queue in lunq
		 */
		if (a->phase == LUNQ_AP_DOWN && next < a->depth)
			a->settle_until = now;
		else
			a->settle_until = now + max(2 * a->svc,
						    a->cfg.mode == LUNQ_AUTO_TARGET ?
						    a->p99_est / 2 : 0);
		a->depth = next;
		a->moves++;
		a->within = 0;
	}
	return a->depth;
}

u64 lunq_auto_age(const struct lunq_auto *a)
{
	if (a->cfg.mode == LUNQ_AUTO_OFF)
		return 0;
	if (!a->resp)
		return LUNQ_AUTO_AGE_FIRST_NS;
	return max_t(u64, a->resp + a->resp / 4, LUNQ_AUTO_AGE_MIN_NS);
}

u32 lunq_auto_starved(struct lunq_auto *a, u64 now, u32 reads)
{
	bool held = a->floor && a->floor_until == U64_MAX;
	u32 f;

	if (a->cfg.mode != LUNQ_AUTO_KNEE)
		return a->depth;
	/* the reads counted when it rose may still be passing */
	if (held && now < a->floor_quiet)
		return a->depth;
	f = min_t(u64, (u64)a->depth + (held ? reads : max(reads, a->depth)),
		  a->cfg.max);
	if (f > a->floor || !held)
		a->floor_quiet = now + 2 * lunq_auto_age(a);
	a->floor = max(a->floor && now < a->floor_until ? a->floor : 0, f);
	a->floor_until = U64_MAX;	/* until the load stops */
	to_hold(a);
	f = clamp(a->floor, a->cfg.min, a->cfg.max);
	if (a->ceiling && now < a->ceiling_until)
		f = min(f, a->ceiling);
	if (f > a->depth) {
		a->depth = f;
		a->moves++;
		a->settle_until = now + 2 * a->svc;
	}
	return a->depth;
}

u32 lunq_auto_idle(struct lunq_auto *a, u64 now)
{
	a->windows++;
	if (a->floor_until == U64_MAX)
		a->floor = 0;	/* a starved load's floor ends with it */
	a->bound = false;
	a->light = 0;
	a->loaded = 0;
	if (a->phase == LUNQ_AP_PROBE) {
		/* the load stopped during a probe: back to the depth held */
		to_hold(a);
		if (a->depth != a->base) {
			a->depth = a->base;
			a->moves++;
		}
	}
	return a->depth;
}

u32 lunq_auto_limit(struct lunq_auto *a, u64 now, u32 fair, u64 until,
		    bool busy)
{
	u64 svc_min = ext_get(&a->svc_min, now, a->cfg.svc_ns, false);
	u32 d = a->depth;
	bool up;

	if (a->cfg.mode == LUNQ_AUTO_OFF)
		return d;
	fair = clamp(fair, a->cfg.min, a->cfg.max);
	a->ceiling = fair;
	a->ceiling_until = until;
	/* up only when busy and the LUN does not queue at the depth held */
	up = busy && !queues(a->svc, svc_min);
	if (d > fair || (up && d < fair)) {
		if (a->phase != LUNQ_AP_TRACK && a->phase != LUNQ_AP_HOLD)
			to_hold(a);
		a->depth = fair;
		a->moves++;
		a->settle_until = now + 2 * a->svc;
	}
	return a->depth;
}

u32 lunq_auto_qfull(struct lunq_auto *a, u64 now, u32 in_transport)
{
	u32 cut;

	if (a->cfg.mode == LUNQ_AUTO_OFF)
		return a->depth;
	/*
	 * Refused again while the cut settles: the commands sent under the
	 * old depth, ours or (in a pool) the siblings', are still out, and
	 * what is in transport now says nothing new -- cutting again would
	 * halve the share of whoever drained first, down to 1
	 */
	if (a->ceiling && now < a->ceiling_until && now < a->settle_until)
		return a->depth;
	cut = clamp(in_transport, a->cfg.min, a->cfg.max);
	/*
	 * A probe's step refused, first of an episode: the depth before
	 * the step was not (in a shared pool the commands in transport are
	 * halved, every sibling meeting the same full pool -- not so for
	 * one step over a fair share)
	 */
	if (a->phase == LUNQ_AP_PROBE &&
	    !(a->ceiling && now < a->ceiling_until))
		cut = max(cut, clamp(a->base, a->cfg.min, a->cfg.max));
	if (a->ceiling && now < a->ceiling_until) {
		/* the same episode: only ever lower */
		a->ceiling = min(a->ceiling, cut);
	} else {
		/*
		 * The known ceiling refused again: from the eighth time in a
		 * row, hold twice as long (others that come and go for
		 * seconds are found again within a hold-off; those that stay
		 * are asked ever more rarely).
		 */
		if (a->ceiling && cut <= a->ceiling)
			lunq_holdoff_again(&a->qhold);
		else
			lunq_holdoff_reset(&a->qhold);
		a->ceiling = cut;
		a->ceiling_until = now + a->qhold.ns;
	}
	if (a->phase != LUNQ_AP_TRACK && a->phase != LUNQ_AP_HOLD)
		to_hold(a);
	if (a->ceiling < a->depth) {
		a->depth = a->ceiling;
		a->moves++;
		a->settle_until = now + 2 * a->svc;
	}
	return a->depth;
}
