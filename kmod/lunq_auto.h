/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq "auto": a per-LUN throttle that finds its depth by itself.
 * Pure logic on ns times, no bio and no lock: the target samples its
 * statistics once per window (lunq_core.c, lunq_auto_work) and applies
 * the depth returned.  KUnit: lunq_auto_test.c, against a simulated LUN.
 *
 * A window is at least win_ns long, holds at least win_ios reads and
 * writes completed and lasts at least four mean service times; a window
 * that reaches 10 x win_ns without win_ios completions carries no
 * information (idle or nearly: the depth stays).  After every change of
 * depth the next window starts only settle_ns (2 mean service times at
 * least) later, so the IOs sent under the old depth do not count -- but
 * for a step of the way down (below), whose window starts at the step:
 * the old depth's commands only drain there, and each tick below the
 * knee costs the load its queue in lunq.
 *
 * A window is "binding" when IOs waited at the throttle for at least half
 * of it: only then does its rate say what the LUN can do at that depth
 * (BBR's "application limited" otherwise).
 *
 * auto:knee -- the depth of greatest power (IOPS per unit of service
 * time), found as the BBR estimate: peak rate x minimum service time,
 * the in-flight that fills the LUN without queueing inside it.  Where
 * the rules below take 95% of an estimate, a depth the search saw grow
 * the rate (up) or hold it (down) is taken instead when the estimate
 * reaches 95% of it (proven_depth()): a knee seen is not held one under.
 *   down   from the start depth, halve while the rate holds (>= 85% of
 *          the best seen): the start was above the knee;
 *   up     double while the rate grows by >= 25% (a full pipe when not);
 *   hold   depth = 95% of rate_max x svc_min, rounded down (rate_max:
 *          the most IOPS of the binding windows of the last rate_ns,
 *          svc_min: the lowest mean service time of the last svc_ns; one
 *          command over the knee doubles a service time, one under costs
 *          a share of the rate).  It only moves up by the estimate; down
 *          when a window shows queueing inside the LUN (mean service a
 *          quarter above svc_min): then to 95% of that window's rate x
 *          svc_min, and rate_max forgets the older peak.  The rule looks
 *          at the average of two hold windows at least (the last one
 *          weighs a quarter): one slow window is noise.  Below the knee
 *          the estimate equals the depth (Little), so noise alone would
 *          ratchet it down; this rule does not.  Two windows after a
 *          cut it is judged: still queueing with a service time not an
 *          eighth shorter, every IO got slower (a slower device, a busy
 *          host): undone, and that service time becomes svc_min; no
 *          longer queueing but the rate fell by half the depth's share
 *          or more (above the knee a cut keeps the rate): it was noise,
 *          undone.  No spiral down to 1.
 *   probe  every probe_every windows in hold (2 after down or up), one window (four times the IOs)
 *          at depth + step (step max(1, depth/16)): when the rate grows
 *          by at least half of the step's share and, for a step under an
 *          eighth of the depth, the mean service time by at most a
 *          quarter of it (5% at most), the capacity grew --
 *          probe again at once with twice the step; otherwise back to
 *          hold at the last depth that passed (or the estimate, if
 *          higher).  A step that gained under three quarters of its
 *          share ends the probe at half the step at least.  After a
 *          probe with a step that passed the next one comes after
 *          probe_every / 8 windows, with half the last step: capacity
 *          that comes back is found within seconds even when a noisy
 *          window ends a probe.
 * A drop in capacity shows as queueing at the depth held: the depth
 * follows in the next window.
 *
 * auto:target -- the largest depth whose service p99 stays within
 * target_ns, judged on the run of windows at the depth (its p99 from up
 * to 512 commands, struct lunq_pol_window): a window over the target sets
 * the depth to depth x target / p99 (at least 1 less, at most a quarter
 * less) and marks that depth as failed for a hold-off (1 s, doubling to
 * 32 s while it keeps failing); within an eighth over from fewer than
 * LUNQ_AUTO_RUN_IOS commands, it waits for the next window.  A binding
 * window within the target adds a quarter (when p99 is below three
 * quarters of the target) or 1, never up to a failed depth during its
 * hold-off; a failed depth is forgotten when a run of LUNQ_AUTO_RUN_IOS
 * commands at it or above meets the target.
 *
 * A sorting queue's bubble, between windows (both modes): a waiter goes
 * next once it has waited lunq_auto_age() (5/4 of the mean response);
 * a read so sent past the sort's pick sets, in auto:knee, a floor that
 * lets every waiting read go, held while the load lasts
 * (lunq_auto_starved()).
 *
 * What the user feels (auto:knee): a starving waiter -- the oldest waiting
 * in lunq for 50 ms and 4 x what the window's commands waited (p99) and
 * were served (mean), a sorting queue's bubble -- sets a floor of depth +
 * waiting (2 x depth at least) held 2 s (doubling while it recurs at
 * once); a window that does not bind but whose commands waited (p99 >= 50
 * us and an eighth of the service time: an open loop's writes behind
 * reads) doubles the depth -- the second such window, or for a light load
 * (half the depth in flight at most) the first after the load's first,
 * and such a window ends after 50 ms when a command waited
 * (lunq_auto_window_ready()).  auto:target starts at 4 at most, judges a
 * short window by Little's mean x its p99/mean ratio, cuts in proportion
 * (7/8 x target / p99) and moves up only after windows within.
 *
 * QUEUE FULL (both modes; reaction must be none): the throttle is cut at
 * once to the commands in transport (lunq_auto_qfull(), Solaris sd's
 * rule), which becomes a ceiling for a hold-off of qhold_ns (0.5 s);
 * refusals while that cut settles change nothing (the old depth's
 * commands, or a pool's siblings', are still out), and a window with
 * QUEUE FULLs does not feed hold's queueing rule (retries in its service
 * times).
 * When it ends with the depth at the ceiling (the ceiling, not the knee,
 * bound it), auto:knee probes one command above it (the other initiators
 * may have left), the step doubling while the rate grows with it.
 * Refused again, the ceiling comes back; from the eighth refusal in a row
 * its hold-off doubles, up to qhold_max_ns (1 s): auto finds the slots of
 * those that come and go within a second, every time, at about one QUEUE
 * FULL a second while they stay.  A window above the ceiling without
 * QUEUE FULL ends it.
 */
#ifndef LUNQ_AUTO_H
#define LUNQ_AUTO_H

#include <linux/time64.h>
#include <linux/types.h>

#include "lunq_auto_est.h"

/* Values of the "auto" key (index into its names in lunq_args.c). */
enum lunq_auto_mode {
	LUNQ_AUTO_OFF = 0,
	LUNQ_AUTO_KNEE = 1,
	LUNQ_AUTO_TARGET = 2,
};

/* What the controller is doing (statistic auto_phase). */
enum lunq_auto_phase {
	LUNQ_AP_OFF = 0,
	LUNQ_AP_DOWN = 1,
	LUNQ_AP_UP = 2,
	LUNQ_AP_HOLD = 3,
	LUNQ_AP_PROBE = 4,
	LUNQ_AP_TRACK = 5,	/* auto:target */
};

/*
 * The hold-offs' numbers (struct lunq_holdoff), each in one place; a
 * pool's capacity for its auto devices (lunq_pool.c) takes QUEUE FULL's.
 */
/* a QUEUE FULL's ceiling: slots others free are tried again in 0.5 s */
#define LUNQ_AUTO_QHOLD_NS	(500 * NSEC_PER_MSEC)
/* ... at most 1 s: a ceiling must not outlive the initiators that set it */
#define LUNQ_AUTO_QHOLD_MAX_NS	(1 * NSEC_PER_SEC)
/* ... doubling from the 8th refusal in a row: those that stay, asked rarely */
#define LUNQ_AUTO_REFUSED	8
/* a starving waiter's floor: 2 s, past a probe cycle (12 windows) */
#define LUNQ_AUTO_FHOLD_NS	(2 * NSEC_PER_SEC)
/* ... doubling from the first starving again at once after it */
#define LUNQ_AUTO_STARVED	1
/* auto:target's failed depth: 1 s, ten windows at most, then tried again */
#define LUNQ_AUTO_HOLD_NS	(1 * NSEC_PER_SEC)
/* ... doubling from the first miss again after it: that depth is over */
#define LUNQ_AUTO_MISSED	1
/* the longest hold-off: a depth that kept failing is retried twice a minute */
#define LUNQ_AUTO_HOLD_MAX_NS	(32 * NSEC_PER_SEC)
/* auto:target: a run of 128 tells its p99 (its 2nd slowest) */
#define LUNQ_AUTO_RUN_IOS	128
/* lunq_auto_age() before the first window: the starving waiter's 50 ms */
#define LUNQ_AUTO_AGE_FIRST_NS	(50 * NSEC_PER_MSEC)
/* ... and the least: under it every waiter would go by age, the sort undone */
#define LUNQ_AUTO_AGE_MIN_NS	(10 * NSEC_PER_MSEC)

/*
 * Fixed-point scales and the numbers all of auto's files share (the
 * rules: kmod/dm-lunq.rst, "auto").
 */
/* the sample's mean in flight is x 1000 (struct lunq_auto_sample) */
#define LUNQ_AUTO_X1000		1000ULL
/* after a move, two mean service times: the old depth's IOs are done */
#define LUNQ_AUTO_SETTLE_SVCS	2
/* a window lasts 4 mean service times: most of its IOs completed in it */
#define LUNQ_AUTO_WIN_SVCS	4
/* a mean service time a quarter above the least (5/4): queueing in the LUN */
#define LUNQ_AUTO_QUEUE_NUM	5
#define LUNQ_AUTO_QUEUE_DEN	4
/* under 7/8 of the depth in flight: room in the LUN (a closed loop fills it) */
#define LUNQ_AUTO_ROOMY_NUM	7
#define LUNQ_AUTO_ROOMY_DEN	8
/* binding: IOs waited at the throttle half the window (BBR's app-limited) */
#define LUNQ_AUTO_BIND_DEN	2
/* averages of windows: the newest weighs a quarter (one slow one is noise) */
#define LUNQ_AUTO_AVG_OLD	3
#define LUNQ_AUTO_AVG_DEN	4
/* light: half the depth in flight at most */
#define LUNQ_AUTO_LIGHT_FILL	2

struct lunq_auto_cfg {
	enum lunq_auto_mode mode;
	u32 min, max;		/* bounds of the depth, 1 <= min <= max */
	u32 start;		/* the first depth (qdepth, clamped) */
	u64 target_ns;		/* auto:target: service p99 goal */
	u64 win_ns;		/* shortest window */
	u32 win_ios;		/* fewest completions in a window */
	u32 probe_every;	/* windows in hold between probes */
	u64 rate_ns;		/* rate_max's memory */
	u64 svc_ns;		/* svc_min's memory */
	u64 hold_ns;		/* auto:target: first hold-off after a miss */
	u64 qhold_ns;		/* first hold-off after a QUEUE FULL */
	u64 qhold_max_ns;	/* ... and its longest */
	u64 hold_max_ns;	/* longest hold-off */
};

/* One window, from the statistics (differences over the window). */
struct lunq_auto_sample {
	u64 ns;			/* length */
	u64 ios;		/* reads and writes completed */
	u64 svc_sum_ns;		/* their service times */
	u64 p99_ns;		/* their service p99 */
	u64 wait_ns;		/* time with at least one IO waiting */
	u64 qfull;		/* QUEUE FULL answers */
	u64 inflight_x1000;	/* mean commands in flight below, x 1000 */
	u64 lwait_mean_ns;	/* the wait in lunq: mean (0 for no wait) */
	u64 lwait_p99_ns;	/* ... and p99 */
	u32 waiting;		/* commands waiting in lunq at its end */
	u64 oldest_ns;		/* the oldest of them has waited so long */
	u64 run_ios;		/* the run of windows at this depth: IOs */
	u64 run_p99_ns;		/* ... and their service p99 */
};

struct lunq_auto {
	struct lunq_auto_cfg cfg;
	enum lunq_auto_phase phase;
	u32 depth;		/* the throttle it asks for */
	u64 settle_until;	/* the next window starts then */
	/* estimates */
	struct lunq_auto_ext rate_max;	/* IOPS x 16 */
	struct lunq_auto_ext svc_min;	/* ns */
	u64 rate;		/* last window's IOPS x 16 */
	u64 svc;		/* last window's mean service time, ns */
	u64 p99;		/* last window's service p99, ns */
	u32 knee256;		/* rate_max x svc_min, x 256 */
	/* down / up */
	u64 ref_rate;		/* the rate to beat (x 16) */
	u32 ref_depth;
	u32 proven;		/* the last depth up saw grow the rate */
	/* hold / probe */
	u32 hold_windows;	/* windows since the last probe */
	bool bound;		/* the last window was binding */
	u32 roomy_n;		/* down: windows in a row the load left room */
	u32 light;		/* light load's waits since the depth was full */
	u32 loaded;		/* windows with IOs since the last idle one */
	u64 resp;		/* last window's mean wait in lunq + service, ns */
	u64 base_resp;		/* ... before the probe */
	u32 step;		/* the probe's step */
	u32 base;		/* depth before the probe */
	bool grew;		/* a step of this probe passed */
	u32 soon_step;		/* the next probe's step after one that grew */
	u64 base_rate;		/* the rate the probe must beat */
	u64 hold_rate;		/* average rate of the hold windows (x 16) */
	u64 base_svc, hold_svc;	/* the same for the mean service time */
	u32 hold_n;		/* binding windows in those averages */
	u64 cut_rate;		/* the queueing rule's last cut, until judged: */
	u64 cut_svc;		/* the window's rate (x 16) and mean service */
	u32 cut_depth;		/* time, the depth before it */
	/* QUEUE FULL ceiling, target misses */
	u32 ceiling;		/* 0: none */
	u64 ceiling_until;
	struct lunq_holdoff qhold;	/* the ceiling's, repeats: refusals */
	u32 floor;		/* a starving waiter's floor; 0: none */
	u64 floor_until;
	u64 floor_quiet;	/* a held floor grows again from then on */
	struct lunq_holdoff fhold;	/* the floor's, repeats: starving */
	u32 ratio16;		/* auto:target: service p99 / mean, x 16 */
	u64 p99_est;		/* auto:target: last window's p99 as judged */
	u32 within;		/* auto:target: binding windows within, in a row */
	u32 good;		/* auto:target: the last depth that met it */
	u32 failed;		/* auto:target: depth that missed; 0 none */
	u64 failed_until;
	struct lunq_holdoff miss;	/* the failed depth's, repeats: misses */
	u64 windows, moves;	/* counters */
};

/* Start (or restart) with @cfg at @now: the depth is cfg->start. */
void lunq_auto_init(struct lunq_auto *a, const struct lunq_auto_cfg *cfg,
		    u64 now);

/*
 * Whether a window of @ns with @ios completions is complete (true), or
 * carries no information and must start again (*@idle, also true).
 * @wait_ns: the time in it with commands waiting in lunq, @act_ns: the
 * integral of the commands in flight (ns x commands).  A light load that
 * waits (the LUN had room) completes it at once: the next wait is the
 * user's.
 */
bool lunq_auto_window_ready(const struct lunq_auto *a, u64 ns, u64 ios,
			    u64 wait_ns, u64 act_ns, bool *idle);

/* A complete window at @now.  Returns the depth to apply. */
u32 lunq_auto_window(struct lunq_auto *a, const struct lunq_auto_sample *s,
		     u64 now);

/* A window that carried no information (idle).  Returns the depth. */
u32 lunq_auto_idle(struct lunq_auto *a, u64 now);

/*
 * The LUN answered QUEUE FULL at @now with @in_transport commands of this
 * host outstanding.  Returns the depth to apply.
 */
u32 lunq_auto_qfull(struct lunq_auto *a, u64 now, u32 in_transport);

/*
 * In a pool: @fair is this device's fair share of the pool until @until
 * (lunq_pool_fair()); @busy: IOs wait at its throttle.  The share becomes
 * the ceiling until then, in place of one set by its own QUEUE FULLs,
 * and the depth goes to it -- down, or, when busy and not queueing inside
 * the LUN (mean service within a quarter of the least), up: the others
 * come down to theirs at the same time.  Returns the depth to apply.
 */
u32 lunq_auto_limit(struct lunq_auto *a, u64 now, u32 fair, u64 until,
		    bool busy);

/*
 * The longest a waiter may wait in a sorting queue (sched:disksort) before
 * it goes next (ns; lunq_sched.h's aging): 5/4 of the last window's mean
 * response (the wait in lunq and the service), 10 ms at least, 50 ms
 * before the first window; 0 when off.  In arrival order the oldest
 * waits about what the others wait; a waiter a quarter past that is
 * being passed by (the latency bubble), and no depth the search tries
 * may leave it there.
 */
u64 lunq_auto_age(const struct lunq_auto *a);

/*
 * The aging bound (lunq_auto_age()) sent reads that the sort had passed
 * by, and @reads reads still wait at @now: auto:knee sets a floor that
 * lets every waiting read go (depth + reads, twice the depth at least;
 * once held, it grows by the reads waiting, but not for twice the aging
 * bound after it rose: a read passed by then may have waited since before
 * the rise, counted already), held while the load lasts
 * (until an idle window): the search found a depth that leaves reads
 * passed by, and a read is what someone waits for (the bubble).  Writes
 * passed by only go by the bound, as mq-deadline's do: room for them too
 * would send every write's seek among a stream's reads at once.  Returns
 * the depth.
 */
u32 lunq_auto_starved(struct lunq_auto *a, u64 now, u32 reads);

/* Estimates for the views: peak IOPS, minimum mean service time (ns). */
u64 lunq_auto_peak_iops(const struct lunq_auto *a, u64 now);
u64 lunq_auto_svc_min(const struct lunq_auto *a, u64 now);
/* Their product: the knee's depth as estimated now (0: not known yet). */
u32 lunq_auto_knee(const struct lunq_auto *a, u64 now);

/*
 * Between the files of auto (lunq_auto*.c), not for its callers: what a
 * window says (lunq_auto.c), the estimate's depth x 256, entering hold,
 * and each mode's rules.
 */
bool lunq_auto_binding(const struct lunq_auto_sample *s);
bool lunq_auto_roomy(const struct lunq_auto_sample *s, u32 depth);
bool lunq_auto_queues(u64 svc, u64 svc_min);
u32 lunq_auto_knee256(const struct lunq_auto *a, u64 now);
void lunq_auto_to_hold(struct lunq_auto *a);
u32 lunq_auto_knee_window(struct lunq_auto *a, const struct lunq_auto_sample *s,
			  u64 now, u64 last_rate);
u32 lunq_auto_target_window(struct lunq_auto *a,
			    const struct lunq_auto_sample *s, u64 now);
bool lunq_auto_starving(const struct lunq_auto_sample *s);
bool lunq_auto_light_waits(const struct lunq_auto_sample *s, u32 depth);
u32 lunq_auto_floor(struct lunq_auto *a, const struct lunq_auto_sample *s,
		    u64 now);

#endif /* LUNQ_AUTO_H */
