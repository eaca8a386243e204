// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq auto:knee, what the user feels (kmod/dm-lunq.rst, "auto"): a
 * waiter that starves, a light load that waits, a sorting queue's bubble
 * -- floors under the depth the search finds.
 */
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/math64.h>
#include <linux/time64.h>

#include "lunq_auto.h"

/* a waiter starves after 50 ms at least (lunq_auto_age()'s first bound) */
#define LUNQ_AUTO_STARVE_NS	(50 * NSEC_PER_MSEC)
/* ... and 4 x what the window's waited and were served (FIFO's oldest: 1 x) */
#define LUNQ_AUTO_STARVE_X	4
/* a light load waits: a p99 of 50 us at least, above the host's own noise */
#define LUNQ_AUTO_LIGHT_WAIT_NS	(50 * NSEC_PER_USEC)
/* ... and an eighth of the service time */
#define LUNQ_AUTO_LIGHT_WAIT_DIV	8
/* a held floor grows again after twice the aging bound */
#define LUNQ_AUTO_QUIET_AGES	2

/*
 * A waiter starves: the oldest has waited 4 times what the window's
 * commands waited (p99) and are served (mean), and 50 ms at least -- a
 * sorting wait queue passes it by (the latency bubble).  In arrival order
 * the oldest waits what the others wait.  No depth that leaves it there
 * is the knee.
 */
bool lunq_auto_starving(const struct lunq_auto_sample *s)
{
	return s->waiting && s->oldest_ns >= LUNQ_AUTO_STARVE_NS &&
	       s->oldest_ns >= LUNQ_AUTO_STARVE_X * (s->lwait_p99_ns +
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
bool lunq_auto_light_waits(const struct lunq_auto_sample *s, u32 depth)
{
	return lunq_auto_roomy(s, depth) &&
	       s->lwait_p99_ns >= LUNQ_AUTO_LIGHT_WAIT_NS &&
	       s->lwait_p99_ns * LUNQ_AUTO_LIGHT_WAIT_DIV >=
	       div64_u64(s->svc_sum_ns, s->ios);
}

/*
 * Starving: the depth that lets every waiter go now becomes a floor, held
 * for a hold-off (2 s, doubling while it starves again at once after).
 */
u32 lunq_auto_floor(struct lunq_auto *a, const struct lunq_auto_sample *s,
			 u64 now)
{
	u32 f = min_t(u64, (u64)a->depth + max(s->waiting, a->depth),
		      a->cfg.max);

	if (a->floor_until == U64_MAX) {
		/* held for the load already (lunq_auto_starved()) */
		a->floor = max(a->floor, f);
		lunq_auto_to_hold(a);
		return a->floor;
	}
	if (a->floor && now < a->floor_until + a->fhold.ns)
		lunq_holdoff_again(&a->fhold);
	else
		lunq_holdoff_reset(&a->fhold);
	a->floor = max(f, a->floor && now < a->floor_until ? a->floor : 0);
	a->floor_until = now + a->fhold.ns;
	lunq_auto_to_hold(a);
	return a->floor;
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
		a->floor_quiet = now + LUNQ_AUTO_QUIET_AGES * lunq_auto_age(a);
	a->floor = max(a->floor && now < a->floor_until ? a->floor : 0, f);
	a->floor_until = U64_MAX;	/* until the load stops */
	lunq_auto_to_hold(a);
	f = clamp(a->floor, a->cfg.min, a->cfg.max);
	if (a->ceiling && now < a->ceiling_until)
		f = min(f, a->ceiling);
	if (f > a->depth) {
		a->depth = f;
		a->moves++;
		a->settle_until = now + LUNQ_AUTO_SETTLE_SVCS * a->svc;
	}
	return a->depth;
}
