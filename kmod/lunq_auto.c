// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq "auto": the adaptive throttle's controller (its rules: kmod/dm-
 * lunq.rst, "auto"), what both modes share: the start, when a window is
 * complete, what a window says, QUEUE FULL's ceiling, a pool's share, an
 * idle window.  A window's order is in lunq_auto_window.c.
 */
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/math64.h>

#include "lunq_auto.h"

/* auto:target starts at 4 at most: a deep first depth's slowest cost its p99 */
#define LUNQ_AUTO_TARGET_START	4U
/* p99 / mean before a window tells: a sorting LUN's (x LUNQ_AUTO_X16) */
#define LUNQ_AUTO_RATIO_FIRST	3
/* a probe's window needs 4 x the IOs: one window decides */
#define LUNQ_AUTO_PROBE_IOS	4
/* auto:target's window, 2 mean service times: Little's mean covers it */
#define LUNQ_AUTO_TARGET_SVCS	2
/* up, and down past its first: half a window, 2 rounds of the depth, >= 4 */
#define LUNQ_AUTO_BELOW_DIV	2
#define LUNQ_AUTO_BELOW_ROUNDS	2
#define LUNQ_AUTO_BELOW_IOS	4
/* a light load's wait is judged after half a window, with 2 IOs at least */
#define LUNQ_AUTO_LIGHT_DIV	2
#define LUNQ_AUTO_LIGHT_IOS	2
/* a window 10 x its least without its IOs is idle */
#define LUNQ_AUTO_IDLE_X	10
/* lunq_auto_age(): a quarter past the mean response, the sort passes it by */
#define LUNQ_AUTO_AGE_DIV	4

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
		a->depth = clamp(cfg->start, cfg->min, max(cfg->min, LUNQ_AUTO_TARGET_START));
		a->phase = LUNQ_AP_TRACK;
	} else {
		a->phase = a->depth > cfg->min ? LUNQ_AP_DOWN : LUNQ_AP_UP;
	}
	lunq_holdoff_init(&a->qhold, cfg->qhold_ns, LUNQ_AUTO_REFUSED,
			  cfg->qhold_max_ns ?: cfg->hold_max_ns);
	lunq_holdoff_init(&a->fhold, LUNQ_AUTO_FHOLD_NS, LUNQ_AUTO_STARVED,
			  cfg->hold_max_ns);
	a->ratio16 = LUNQ_AUTO_RATIO_FIRST * LUNQ_AUTO_X16;	/* then learnt */
	lunq_holdoff_init(&a->miss, cfg->hold_ns, LUNQ_AUTO_MISSED,
			  cfg->hold_max_ns);
	a->settle_until = now;
}

bool lunq_auto_window_ready(const struct lunq_auto *a, u64 ns, u64 ios,
			    u64 wait_ns, u64 act_ns, bool *idle)
{
	u64 least = max(a->cfg.win_ns, LUNQ_AUTO_WIN_SVCS * a->svc);
	u64 fewest = a->cfg.win_ios;

	*idle = false;
	if (a->phase == LUNQ_AP_PROBE) {
		/*
		 * One window decides: four times the IOs.  No longer: at the
		 * knee a probe queues its step in the LUN, and its service
		 * time doubles
		 */
		fewest *= LUNQ_AUTO_PROBE_IOS;
	} else if (a->phase == LUNQ_AP_TRACK) {
		/* a p99 to judge: Little's mean covers a short window */
		least = max(a->cfg.win_ns, LUNQ_AUTO_TARGET_SVCS * a->svc);
	} else if (a->phase == LUNQ_AP_UP ||
		   (a->phase == LUNQ_AP_DOWN && a->ref_depth)) {
		/*
		 * Below the knee every window costs the load its queue in
		 * lunq, and the way down ends with one there: half the
		 * time, and the IOs of two rounds at least (the first window
		 * down is whole: an open loop's first burst fills any depth)
		 */
		least = max(a->cfg.win_ns / LUNQ_AUTO_BELOW_DIV,
			    LUNQ_AUTO_WIN_SVCS * a->svc);
		fewest = clamp_t(u64, LUNQ_AUTO_BELOW_ROUNDS * a->depth,
				 LUNQ_AUTO_BELOW_IOS, fewest);
	}
	if (ns >= least && ios >= fewest)
		return true;
	/*
	 * A light load waits (on average half the depth in flight at
	 * most): judge it after half a window, whatever its IOs -- an open
	 * loop's next wait behind a read is its user's
	 */
	if (a->cfg.mode == LUNQ_AUTO_KNEE && a->phase != LUNQ_AP_PROBE &&
	    wait_ns && ios >= LUNQ_AUTO_LIGHT_IOS &&
	    ns >= a->cfg.win_ns / LUNQ_AUTO_LIGHT_DIV &&
	    act_ns * LUNQ_AUTO_LIGHT_FILL <= (u64)a->depth * ns)
		return true;
	if (ns >= LUNQ_AUTO_IDLE_X * least) {
		*idle = true;
		return true;
	}
	return false;
}

bool lunq_auto_binding(const struct lunq_auto_sample *s)
{
	return s->wait_ns * LUNQ_AUTO_BIND_DEN >= s->ns;
}

void lunq_auto_to_hold(struct lunq_auto *a)
{
	a->phase = LUNQ_AP_HOLD;
	a->hold_windows = 0;
	a->ref_depth = 0;
	a->soon_step = 0;
	a->hold_rate = 0;
	a->hold_svc = 0;
	a->hold_n = 0;
}

/* A mean service time a quarter above the least: queueing in the LUN. */
bool lunq_auto_queues(u64 svc, u64 svc_min)
{
	return svc_min &&
	       svc * LUNQ_AUTO_QUEUE_DEN > svc_min * LUNQ_AUTO_QUEUE_NUM;
}

/* The LUN had room: on average under 7/8 of @depth in flight. */
bool lunq_auto_roomy(const struct lunq_auto_sample *s, u32 depth)
{
	return s->inflight_x1000 * LUNQ_AUTO_ROOMY_DEN <
	       (u64)depth * LUNQ_AUTO_X1000 * LUNQ_AUTO_ROOMY_NUM;
}

u64 lunq_auto_peak_iops(const struct lunq_auto *a, u64 now)
{
	return lunq_auto_ext_get(&a->rate_max, now, a->cfg.rate_ns, true) /
	       LUNQ_AUTO_X16;
}

u64 lunq_auto_svc_min(const struct lunq_auto *a, u64 now)
{
	return lunq_auto_ext_get(&a->svc_min, now, a->cfg.svc_ns, false);
}

/* rate_max x svc_min in 1/256 of a command; 0 when either is unknown. */
u32 lunq_auto_knee256(const struct lunq_auto *a, u64 now)
{
	return min_t(u64, lunq_auto_inflight256(lunq_auto_ext_get(&a->rate_max, now,
					      a->cfg.rate_ns, true),
				      lunq_auto_ext_get(&a->svc_min, now,
					      a->cfg.svc_ns, false)),
		     U32_MAX);
}

/*
 * The depth the estimate says: 95% of it rounded down (one command over
 * the knee queues inside the LUN and doubles someone's service time; one
 * under costs a share of the rate, and the host's own completion time
 * inflates the estimate by a few percent).  From @d it only moves up
 * (the estimate grew: a probe found more); @fresh (entering hold): at
 * once.  Down moves are the queueing rule's (lunq_auto_knee.c).
 */
u32 lunq_auto_knee_depth(struct lunq_auto *a, u64 now, u32 d, bool fresh)
{
	u32 k = lunq_auto_knee256(a, now), t;

	a->knee256 = k;
	if (!k)
		return d;
	t = lunq_auto_depth_of(k);
	return fresh || t > d ? t : d;
}

u32 lunq_auto_knee(const struct lunq_auto *a, u64 now)
{
	u32 k = lunq_auto_knee256(a, now);

	return k ? lunq_auto_depth_of(k) : 0;
}

u64 lunq_auto_age(const struct lunq_auto *a)
{
	if (a->cfg.mode == LUNQ_AUTO_OFF)
		return 0;
	if (!a->resp)
		return LUNQ_AUTO_AGE_FIRST_NS;
	return max_t(u64, a->resp + a->resp / LUNQ_AUTO_AGE_DIV,
		     LUNQ_AUTO_AGE_MIN_NS);
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
		lunq_auto_to_hold(a);
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
	u64 svc_min = lunq_auto_ext_get(&a->svc_min, now, a->cfg.svc_ns, false);
	u32 d = a->depth;
	bool up;

	if (a->cfg.mode == LUNQ_AUTO_OFF)
		return d;
	fair = clamp(fair, a->cfg.min, a->cfg.max);
	a->ceiling = fair;
	a->ceiling_until = until;
	/* up only when busy and the LUN does not queue at the depth held */
	up = busy && !lunq_auto_queues(a->svc, svc_min);
	if (d > fair || (up && d < fair)) {
		if (a->phase != LUNQ_AP_TRACK && a->phase != LUNQ_AP_HOLD)
			lunq_auto_to_hold(a);
		a->depth = fair;
		a->moves++;
		a->settle_until = now + LUNQ_AUTO_SETTLE_SVCS * a->svc;
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
		lunq_auto_to_hold(a);
	if (a->ceiling < a->depth) {
		a->depth = a->ceiling;
		a->moves++;
		a->settle_until = now + LUNQ_AUTO_SETTLE_SVCS * a->svc;
	}
	return a->depth;
}
