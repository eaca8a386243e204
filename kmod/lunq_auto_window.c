// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq "auto": a complete window (kmod/dm-lunq.rst, "auto") -- the
 * estimates it feeds, then the rule that decides: auto:target's, a floor
 * of what the user feels, or auto:knee's phase; then the bounds and the
 * settling.
 */
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/math64.h>

#include "lunq_auto.h"

/* a window's IOs capped against overflow of its rate */
#define LUNQ_AUTO_IOS_CAP	(1ULL << 32)
/* auto:target waits half a p99 after a move: the old depth's slowest */
#define LUNQ_AUTO_TARGET_SETTLE_DIV	2

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
	a->rate = div64_u64(min_t(u64, s->ios, LUNQ_AUTO_IOS_CAP) *
			    LUNQ_AUTO_X16 * NSEC_PER_SEC, s->ns);
	a->svc = div64_u64(s->svc_sum_ns, s->ios);
	a->resp = a->svc + s->lwait_mean_ns;
	a->p99 = s->p99_ns;
	lunq_auto_ext_put(&a->svc_min, now, a->cfg.svc_ns, a->svc, false);
	if (lunq_auto_binding(s) ||
	    a->rate > lunq_auto_ext_get(&a->rate_max, now, a->cfg.rate_ns, true))
		lunq_auto_ext_put(&a->rate_max, now, a->cfg.rate_ns, a->rate, true);

	/* above the ceiling a whole window without QUEUE FULL: it rose */
	if (a->ceiling && now >= a->ceiling_until && a->depth > a->ceiling &&
	    !s->qfull) {
		a->ceiling = 0;
		lunq_holdoff_reset(&a->qhold);
	}
	if (!lunq_auto_roomy(s, a->depth))
		a->light = 0;
	if (a->cfg.mode == LUNQ_AUTO_TARGET)
		next = lunq_auto_target_window(a, s, now);
	else
		next = lunq_auto_knee_window(a, s, now, last_rate);
	a->bound = lunq_auto_binding(s);
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
			a->settle_until = now + max(LUNQ_AUTO_SETTLE_SVCS * a->svc,
						    a->cfg.mode == LUNQ_AUTO_TARGET ?
						    a->p99_est / LUNQ_AUTO_TARGET_SETTLE_DIV : 0);
		a->depth = next;
		a->moves++;
		a->within = 0;
	}
	return a->depth;
}
