/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq throttle policies: the interface a policy from outside (BPF,
 * lunq_bpf.c) implements, shaped like sched_ext's struct sched_ext_ops:
 * every member of struct lunq_policy_ops may be written in BPF, and every
 * argument is a read-only view.  policies/lunq_policy.bpf.h is its BPF
 * side; the built-ins' interface, a superset kept inside the module, is
 * struct lunq_builtin (lunq_pol.h).
 *
 * The views only grow: a field is appended, never moved or removed, and a
 * BPF policy reads them through CO-RE (by name), so a policy built
 * against an older header keeps loading.
 */
#ifndef LUNQ_POL_OPS_H
#define LUNQ_POL_OPS_H

#include <linux/types.h>
#include "uapi/lunq.h"

/**
 * struct lunq_pol_dev - the device a callback is about, read-only
 * @id: a number no other lunq device has while this one exists
 * @name: its name (the dm device's)
 */
struct lunq_pol_dev {
	u32 id;
	char name[LUNQ_NAME_MAX];
};

/**
 * struct lunq_pol_view - what every callback may read; times in ns
 * @now: the kernel's monotonic clock
 * @depth: the depth in force (0: no limit)
 * @min: every answer is clamped to @min..@max
 * @max: see @min
 * @in_transport: this host's commands outstanding below, now
 * @qfull: in qfull, the QUEUE FULLs this call reports (a BPF policy hears
 *	those of a window tick, 50 ms, at once); 0 elsewhere
 */
struct lunq_pol_view {
	u64 now;
	u32 depth;
	u32 min, max;
	u32 in_transport;
	u32 qfull;
};

/**
 * struct lunq_pol_window - one window's figures (differences over it)
 * @v: the view at the window's end
 * @ns: its length
 * @ios: reads and writes completed in it
 * @iops: @ios per second
 * @svc_mean_ns: their mean service time (sent below to done)
 * @svc_p99_ns: their service p99
 * @svc_sum_ns: their service times summed
 * @wait_ns: the time with at least one command waiting in lunq
 * @qfull: QUEUE FULL answers
 * @svc_min_ns: the least service time (its histogram bucket's lower bound)
 * @svc_p50_ns: the median service time
 * @inflight_x1000: the mean number of commands in flight below over the
 *	window, times 1000 (@in_transport is only the instant's)
 * @lunq_wait_mean_ns: the mean time the window's commands waited in lunq
 *	before they were sent below (0 for those that did not wait)
 * @lunq_wait_p99_ns: the p99 of that wait
 * @pool_depth: the slots of the pool the LUN shares (0: not in a pool)
 * @pool_busy: the busy devices of the pool: those whose policy has windows
 *	(auto, BPF) and whose commands waited at their throttle since the
 *	last tick (50 ms), this one included when it is
 * @pool_share: this device's part of @pool_depth when the busy devices
 *	split it by their share: keys (as if it were busy when it is not);
 *	0 when not in a pool
 * @lunq_waiting: the commands waiting in lunq at the window's end
 * @lunq_wait_oldest_ns: how long the oldest of them has waited (0: none);
 *	a sorting wait queue (sched:disksort) can leave one behind for
 *	seconds where the others wait milliseconds (the latency bubble)
 * @run_ios: the commands completed in the run of windows at this depth:
 *	this window and those before it since the depth was last set (or
 *	the statistics reset); the first window past 512 commands starts a
 *	new run, so that the p99 follows a LUN that changes
 * @run_svc_p99_ns: their service p99 -- a window of 60 commands has for
 *	p99 its slowest; a depth's p99 needs the run's
 */
struct lunq_pol_window {
	struct lunq_pol_view v;
	u64 ns;
	u64 ios;
	u64 iops;
	u64 svc_mean_ns;
	u64 svc_p99_ns;
	u64 svc_sum_ns;
	u64 wait_ns;
	u64 qfull;
	/* the view only grows at its end: older programs keep their offsets */
	u64 svc_min_ns;
	u64 svc_p50_ns;
	u64 inflight_x1000;
	u64 lunq_wait_mean_ns;
	u64 lunq_wait_p99_ns;
	u32 pool_depth;
	u32 pool_busy;
	u32 pool_share;
	u32 lunq_waiting;
	u64 lunq_wait_oldest_ns;
	u64 run_ios;
	u64 run_svc_p99_ns;
};

/**
 * struct lunq_policy_ops - a throttle policy from outside (BPF struct_ops)
 *
 * A policy decides the depth lunq's throttle holds for one device.  Every
 * callback runs in process context, one at a time per device, outside the
 * device's lock: @start from the attach, @window and @qfull from the
 * device's window work (every 50 ms at most), @stop from the detach; IO
 * goes on while one runs.  Each returns the depth it wants; the device
 * clamps it to @v->min..@v->max (auto_min..auto_max) before the throttle
 * takes it.  A callback left out keeps the depth in force.
 *
 * The watchdog (lunq_wd.h) ejects a policy whose callback runs longer
 * than 50 ms, under which the device stalls (commands waiting in lunq,
 * none sent for @timeout_ms), or which holds the depth at its floor while
 * a command waits longer than @timeout_ms; the table's policy takes over.
 *
 * The device a policy serves is not named here: lunqctl policy attach
 * tells the device which policy to expect by its @name ("policy expect"
 * message), then attaches the struct_ops link.
 */
struct lunq_policy_ops {
	/**
	 * @start: the policy was attached: (re)start from @v and return the
	 * depth to begin with.
	 */
	u32 (*start)(const struct lunq_pol_dev *d,
		     const struct lunq_pol_view *v);
	/**
	 * @window: a window of time ended (about 100 ms, and at least one
	 * completion); return the depth for the next one.  No window begins
	 * while the answer of the last is settling in.
	 */
	u32 (*window)(const struct lunq_pol_dev *d,
		      const struct lunq_pol_window *w);
	/**
	 * @qfull: the LUN answered QUEUE FULL @v->qfull times since the last
	 * window tick; return the depth to hold.
	 */
	u32 (*qfull)(const struct lunq_pol_dev *d,
		     const struct lunq_pol_view *v);
	/**
	 * @stop: the policy is detached (or the device goes away); the
	 * table's keys take over.
	 */
	void (*stop)(const struct lunq_pol_dev *d);
	/**
	 * @name: the policy's name, shown by lunqctl policy show; what a
	 * device expects ("policy expect NAME") before it is attached.
	 */
	char name[LUNQ_POL_NAME];
	/**
	 * @timeout_ms: the watchdog's timeout for this policy, like
	 * sched_ext's ops.timeout_ms: 0 is 10000 (10 s), more than 30000 is
	 * refused at registration.
	 */
	u32 timeout_ms;
};

#endif /* LUNQ_POL_OPS_H */
