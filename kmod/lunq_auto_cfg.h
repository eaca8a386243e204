/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq: the window work's and auto's configuration, one copy for the
 * module (lunq_window.c, lunq_pol_auto.c, lunq_args.c) and for lunqsim
 * (sim/lunqsim.c, doc/lunqsim.md), which runs auto on the host.  The
 * algorithm they configure: kmod/dm-lunq.rst, "auto".  Only macros, no
 * include: lunq_args.c builds in userspace too; the times need
 * NSEC_PER_MSEC and NSEC_PER_SEC (<linux/time64.h>) where they are used.
 */
#ifndef LUNQ_AUTO_CFG_H
#define LUNQ_AUTO_CFG_H

/* the window work's tick: half auto's shortest window, cut <= 50 ms late */
#define LUNQ_WIN_TICK_MS	50
/* a run's commands, then a new run: its p99 (~5th slowest) follows the LUN */
#define LUNQ_WIN_RUN_IOS	512

/* auto's shortest window: two of the work's ticks, which cut it */
#define LUNQ_AUTO_WIN_NS	(100 * NSEC_PER_MSEC)
/* auto's fewest completions: their mean within a quarter (one sd, exp.) */
#define LUNQ_AUTO_WIN_IOS	16
/* hold windows between probes: at the knee a probe's step queues in the LUN */
#define LUNQ_AUTO_PROBE_EVERY	12
/* rate_max's memory: ~8 probe cycles of 12 windows, each refreshing it */
#define LUNQ_AUTO_RATE_NS	(10 * NSEC_PER_SEC)
/* svc_min's memory: rate_max's, so that their product is one period's */
#define LUNQ_AUTO_SVC_NS	(10 * NSEC_PER_SEC)
/* auto_max's default: auto_start 0 starts here, 8 halvings down to 1 */
#define LUNQ_AUTO_MAX_DEFAULT	256

#endif /* LUNQ_AUTO_CFG_H */
