/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq "auto": a per-LUN throttle that finds its depth by itself.
 * Pure logic on ns times, no bio and no lock: the window work
 * (lunq_window.c, through lunq_pol_auto.c) hands it each window's figures
 * and applies the depth it returns.  The algorithm -- windows, auto:knee's
 * phases (down, up, hold, probe), what the user feels (a starving waiter,
 * a light load that waits, a sorting queue's bubble), auto:target,
 * QUEUE FULL's ceiling, a pool's share -- is described once, in
 * kmod/dm-lunq.rst, "auto"; each number is a named constant with its
 * reason next to the rule that reads it.
 *
 * Files: lunq_auto.c (what both modes share: the start, a window's
 * readiness, QUEUE FULL, a pool's share, an idle window), lunq_auto_window.c
 * (a complete window's order), lunq_auto_knee.c (auto:knee's search),
 * lunq_auto_probe.c (its probe), lunq_auto_wait.c (what the user feels),
 * lunq_auto_target.c, lunq_auto_est.c (the estimators' memories),
 * lunq_auto_cfg.h (the configuration lunqsim shares).  KUnit:
 * lunq_auto_test.c, against a simulated LUN.
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
/* 3/4 of the depth's (or the step's) share: the rate grows with it */
#define LUNQ_AUTO_WITH_NUM	3
#define LUNQ_AUTO_WITH_DEN	4

/**
 * struct lunq_auto_cfg - the controller's configuration (lunq_pol_auto.c)
 * @mode: knee or target (off: the depth stays @start)
 * @min: the least depth, 1 at least
 * @max: the greatest depth, @min at least
 * @start: the first depth (auto_start, clamped)
 * @target_ns: auto:target's goal for the service p99
 * @win_ns: the shortest window (LUNQ_AUTO_WIN_NS)
 * @win_ios: the fewest completions in a window (LUNQ_AUTO_WIN_IOS)
 * @probe_every: hold windows between probes (LUNQ_AUTO_PROBE_EVERY)
 * @rate_ns: the memory of the peak rate (LUNQ_AUTO_RATE_NS)
 * @svc_ns: the memory of the least service time (LUNQ_AUTO_SVC_NS)
 * @hold_ns: auto:target's first hold-off after a miss
 * @qhold_ns: the first hold-off after a QUEUE FULL
 * @qhold_max_ns: ... and its longest (0: @hold_max_ns)
 * @hold_max_ns: the longest hold-off
 */
struct lunq_auto_cfg {
	enum lunq_auto_mode mode;
	u32 min, max;
	u32 start;
	u64 target_ns;
	u64 win_ns;
	u32 win_ios;
	u32 probe_every;
	u64 rate_ns;
	u64 svc_ns;
	u64 hold_ns;
	u64 qhold_ns;
	u64 qhold_max_ns;
	u64 hold_max_ns;
};

/**
 * struct lunq_auto_sample - one window, from the statistics (differences
 * over the window; struct lunq_pol_window)
 * @ns: its length
 * @ios: reads and writes completed
 * @svc_sum_ns: the sum of their service times
 * @p99_ns: their service p99
 * @wait_ns: the time with at least one IO waiting in lunq
 * @qfull: QUEUE FULL answers
 * @inflight_x1000: the mean of the commands in flight below, x 1000
 * @lwait_mean_ns: the wait in lunq: mean (0 for no wait)
 * @lwait_p99_ns: ... and p99
 * @waiting: commands waiting in lunq at its end
 * @oldest_ns: the oldest of them has waited so long
 * @run_ios: IOs of the run of windows at this depth
 * @run_p99_ns: ... and their service p99
 */
struct lunq_auto_sample {
	u64 ns;
	u64 ios;
	u64 svc_sum_ns;
	u64 p99_ns;
	u64 wait_ns;
	u64 qfull;
	u64 inflight_x1000;
	u64 lwait_mean_ns;
	u64 lwait_p99_ns;
	u32 waiting;
	u64 oldest_ns;
	u64 run_ios;
	u64 run_p99_ns;
};

/**
 * struct lunq_auto - the controller of one device (or LUN)
 * @cfg: its configuration
 * @phase: what it is doing (statistic auto_phase)
 * @depth: the throttle it asks for
 * @settle_until: the next window starts then
 * @rate_max: the peak rate, IOPS x 16 (lunq_auto_peak_iops())
 * @svc_min: the least mean service time, ns (lunq_auto_svc_min())
 * @rate: the last window's IOPS x 16
 * @svc: the last window's mean service time, ns
 * @p99: the last window's service p99, ns
 * @knee256: rate_max x svc_min, x 256 (lunq_auto_knee())
 * @curve: the rate of the binding windows at each depth lately
 * @ref_rate: down and up: the rate to beat (x 16) ...
 * @ref_depth: ... and the depth it was seen at
 * @proven: the last depth up saw grow the rate (or down saw hold it)
 * @hold_windows: windows since the last probe
 * @bound: the last window was binding
 * @roomy_n: down: windows in a row the load left room
 * @light: a light load's waits since the depth was full
 * @loaded: windows with IOs since the last idle one
 * @resp: the last window's mean wait in lunq + service, ns
 * @base_resp: ... before the probe
 * @step: the probe's step
 * @base: the depth before the probe
 * @grew: a step of this probe passed
 * @soon_step: the next probe's step after one that grew
 * @base_rate: the rate the probe must beat (x 16)
 * @hold_rate: the average rate of the hold windows (x 16)
 * @base_svc: the mean service time before the probe
 * @hold_svc: the average mean service time of the hold windows
 * @hold_n: binding windows in those averages
 * @cut_rate: the queueing rule's last cut, until judged: the window's
 *	rate (x 16) ...
 * @cut_svc: ... its mean service time ...
 * @cut_depth: ... and the depth before the cut
 * @ceiling: QUEUE FULL's (or a pool's) ceiling; 0: none
 * @ceiling_until: ... until then
 * @qhold: the ceiling's hold-off; repeats: refusals
 * @floor: a starving waiter's floor; 0: none
 * @floor_until: ... until then (U64_MAX: while the load lasts)
 * @floor_quiet: a held floor grows again from then on
 * @fhold: the floor's hold-off; repeats: starving
 * @ratio16: auto:target: service p99 / mean, x 16
 * @p99_est: auto:target: the last window's p99 as judged
 * @within: auto:target: binding windows within, in a row
 * @good: auto:target: the last depth that met it
 * @failed: auto:target: the depth that missed; 0: none
 * @failed_until: ... its hold-off's end
 * @miss: the failed depth's hold-off; repeats: misses
 * @windows: windows seen (statistic auto_windows)
 * @moves: moves of the depth (statistic auto_moves)
 */
struct lunq_auto {
	struct lunq_auto_cfg cfg;
	enum lunq_auto_phase phase;
	u32 depth;
	u64 settle_until;
	struct lunq_auto_ext rate_max;
	struct lunq_auto_ext svc_min;
	u64 rate;
	u64 svc;
	u64 p99;
	u32 knee256;
	struct lunq_auto_curve curve;
	u64 ref_rate;
	u32 ref_depth;
	u32 proven;
	u32 hold_windows;
	bool bound;
	u32 roomy_n;
	u32 light;
	u32 loaded;
	u64 resp;
	u64 base_resp;
	u32 step;
	u32 base;
	bool grew;
	u32 soon_step;
	u64 base_rate;
	u64 hold_rate;
	u64 base_svc, hold_svc;
	u32 hold_n;
	u64 cut_rate;
	u64 cut_svc;
	u32 cut_depth;
	u32 ceiling;
	u64 ceiling_until;
	struct lunq_holdoff qhold;
	u32 floor;
	u64 floor_until;
	u64 floor_quiet;
	struct lunq_holdoff fhold;
	u32 ratio16;
	u64 p99_est;
	u32 within;
	u32 good;
	u32 failed;
	u64 failed_until;
	struct lunq_holdoff miss;
	u64 windows, moves;
};

/**
 * lunq_auto_init() - start (or restart) the controller
 * @a: the controller
 * @cfg: its configuration
 * @now: the time, ns
 *
 * The depth is @cfg->start (auto:target: 4 at most), clamped.
 */
void lunq_auto_init(struct lunq_auto *a, const struct lunq_auto_cfg *cfg,
		    u64 now);

/**
 * lunq_auto_window_ready() - whether a window is complete
 * @a: the controller
 * @ns: the window's length so far
 * @ios: its completions
 * @wait_ns: the time in it with commands waiting in lunq
 * @act_ns: the integral of the commands in flight (ns x commands)
 * @idle: set when the window carries no information and starts again
 *
 * A light load that waits (the LUN had room) completes it at once: the
 * next wait is the user's.
 *
 * Return: true when complete, or idle (*@idle).
 */
bool lunq_auto_window_ready(const struct lunq_auto *a, u64 ns, u64 ios,
			    u64 wait_ns, u64 act_ns, bool *idle);

/**
 * lunq_auto_window() - a complete window
 * @a: the controller
 * @s: the window's figures
 * @now: the time, ns
 *
 * Return: the depth to apply.
 */
u32 lunq_auto_window(struct lunq_auto *a, const struct lunq_auto_sample *s,
		     u64 now);

/**
 * lunq_auto_idle() - a window that carried no information (idle)
 * @a: the controller
 * @now: the time, ns
 *
 * A probe in progress ends; a floor held for the load ends with it.
 *
 * Return: the depth to apply.
 */
u32 lunq_auto_idle(struct lunq_auto *a, u64 now);

/**
 * lunq_auto_qfull() - the LUN answered QUEUE FULL
 * @a: the controller
 * @now: the time, ns
 * @in_transport: commands of this host outstanding
 *
 * The depth is cut to @in_transport, a ceiling for a hold-off.
 *
 * Return: the depth to apply.
 */
u32 lunq_auto_qfull(struct lunq_auto *a, u64 now, u32 in_transport);

/**
 * lunq_auto_limit() - a pool's fair share
 * @a: the controller
 * @now: the time, ns
 * @fair: this device's fair share of the pool (lunq_pool_fair())
 * @until: ... until then
 * @busy: IOs wait at its throttle
 *
 * The share becomes the ceiling until @until, in place of one set by its
 * own QUEUE FULLs, and the depth goes to it -- down, or, when busy and
 * not queueing inside the LUN, up: the others come down to theirs at the
 * same time.
 *
 * Return: the depth to apply.
 */
u32 lunq_auto_limit(struct lunq_auto *a, u64 now, u32 fair, u64 until,
		    bool busy);

/**
 * lunq_auto_age() - the aging bound of a sorting queue (sched:disksort)
 * @a: the controller
 *
 * The longest a waiter may wait before it goes next (lunq_sched.h's
 * aging): 5/4 of the last window's mean response (the wait in lunq and
 * the service), LUNQ_AUTO_AGE_MIN_NS at least, LUNQ_AUTO_AGE_FIRST_NS
 * before the first window.
 *
 * Return: the bound, ns; 0 when off.
 */
u64 lunq_auto_age(const struct lunq_auto *a);

/**
 * lunq_auto_starved() - the aging bound sent reads the sort had passed by
 * @a: the controller
 * @now: the time, ns
 * @reads: reads still waiting
 *
 * auto:knee sets a floor that lets every waiting read go, held while the
 * load lasts (kmod/dm-lunq.rst, "auto": the bubble, between windows).
 *
 * Return: the depth to apply.
 */
u32 lunq_auto_starved(struct lunq_auto *a, u64 now, u32 reads);

/**
 * lunq_auto_peak_iops() - the peak rate, for the views
 * @a: the controller
 * @now: the time, ns
 *
 * Return: IOPS.
 */
u64 lunq_auto_peak_iops(const struct lunq_auto *a, u64 now);

/**
 * lunq_auto_svc_min() - the least mean service time, for the views
 * @a: the controller
 * @now: the time, ns
 *
 * Return: ns.
 */
u64 lunq_auto_svc_min(const struct lunq_auto *a, u64 now);

/**
 * lunq_auto_knee() - the knee's depth as estimated now
 * @a: the controller
 * @now: the time, ns
 *
 * Return: 95% of peak rate x least service time; 0 while not known.
 */
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
u32 lunq_auto_knee_depth(struct lunq_auto *a, u64 now, u32 d, bool fresh);
u32 lunq_auto_probe_window(struct lunq_auto *a, u64 now);
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
