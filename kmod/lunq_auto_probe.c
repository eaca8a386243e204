// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq auto:knee's probe (kmod/dm-lunq.rst, "auto"): one window at the
 * depth held + a step decides whether the LUN takes more.
 */
#include <linux/minmax.h>
#include <linux/math64.h>

#include "lunq_auto.h"

/* after a probe that grew: the next after an eighth of probe_every ... */
#define LUNQ_AUTO_SOON_DIV	8
/* ... with half its last step */
#define LUNQ_AUTO_SOON_STEP_DIV	2
/* ... up to 2^15 commands: auto_max is 65535 at most */
#define LUNQ_AUTO_STEP_MAX	(1U << 15)
/* the step doubles on a better response, x 4 on a rate that grew with it */
#define LUNQ_AUTO_STEP_X	2
#define LUNQ_AUTO_STEP_FAST	4
/* the response an eighth shorter (7/8): what the user feels is better */
#define LUNQ_AUTO_RESP_NUM	7
#define LUNQ_AUTO_RESP_DEN	8
/* ... at the same rate, within a sixteenth (15/16) */
#define LUNQ_AUTO_SAME_NUM	15
#define LUNQ_AUTO_SAME_DEN	16
/* a probe passes with half of the step's share as rate */
#define LUNQ_AUTO_SHARE_DEN	2
/* a step under an eighth of the depth: noise could fake that much rate */
#define LUNQ_AUTO_SMALL_DIV	8
/* ... so its service time grows by a quarter of its share at most */
#define LUNQ_AUTO_SVC_SHARE_DEN	4
/* ... and by 5% at most (105%) */
#define LUNQ_AUTO_SVC_GROW_PCT	105
/* a step that reached the knee: it is past half the step */
#define LUNQ_AUTO_PAST_DIV	2

/*
 * Hold, but probe again after an eighth of probe_every windows: the last
 * probe found more capacity.
 */
static void probe_soon(struct lunq_auto *a)
{
	u32 step = max(a->step / LUNQ_AUTO_SOON_STEP_DIV, 1U);

	lunq_auto_to_hold(a);
	a->hold_windows = a->cfg.probe_every -
			  a->cfg.probe_every / LUNQ_AUTO_SOON_DIV;
	a->soon_step = step;
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
u32 lunq_auto_probe_window(struct lunq_auto *a, u64 now)
{
	u32 d = a->depth;

	/*
	 * The step cut the response (the wait in lunq and the service) by
	 * an eighth at the same rate: an open loop's commands waited in
	 * lunq where the LUN had room -- what the user feels is better
	 * there, and the rate cannot say so.  Probe on from it.
	 */
	if (a->base_resp &&
	    a->resp * LUNQ_AUTO_RESP_DEN <= a->base_resp * LUNQ_AUTO_RESP_NUM &&
	    a->rate * LUNQ_AUTO_SAME_DEN >= a->base_rate * LUNQ_AUTO_SAME_NUM) {
		a->grew = true;
		a->base = d;
		a->base_rate = a->rate;
		a->base_svc = a->svc;
		a->base_resp = a->resp;
		a->step = min_t(u32, a->step * LUNQ_AUTO_STEP_X,
				LUNQ_AUTO_STEP_MAX);
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
	if (a->rate * LUNQ_AUTO_SHARE_DEN * a->base >=
	    a->base_rate * (LUNQ_AUTO_SHARE_DEN * a->base + a->step) &&
	    (a->step * LUNQ_AUTO_SMALL_DIV >= a->base ||
	     (a->svc * LUNQ_AUTO_SVC_SHARE_DEN * a->base <=
	      a->base_svc * (LUNQ_AUTO_SVC_SHARE_DEN * a->base + a->step) &&
	      a->svc * 100 <= a->base_svc * LUNQ_AUTO_SVC_GROW_PCT))) {
		/*
		 * Less than three quarters of the share: the step reached
		 * the knee -- hold at the estimate, which now has this
		 * window's rate.
		 */
		if (a->rate * LUNQ_AUTO_WITH_DEN * a->base <
		    a->base_rate * (LUNQ_AUTO_WITH_DEN * a->base +
				    LUNQ_AUTO_WITH_NUM * a->step)) {
			/*
			 * The knee is past half the step: hold there at
			 * least (the estimate's minimum service time is
			 * biased low by noise), and probe again soon -- it
			 * grew.
			 */
			probe_soon(a);
			return lunq_auto_knee_depth(a, now,
						    max(a->base + a->step /
							LUNQ_AUTO_PAST_DIV,
							knee_within(a)),
						    false);
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
		a->step = min_t(u32, a->step * (a->ceiling ? LUNQ_AUTO_STEP_X :
						  LUNQ_AUTO_STEP_FAST),
				LUNQ_AUTO_STEP_MAX);
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
	return lunq_auto_knee_depth(a, now, knee_within(a), false);
}
