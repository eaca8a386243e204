/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqctl and the module's adaptive throttle ("auto"): the pure parts.
 * What stat shows of the controller, when tune --online calls it settled,
 * and tune --online's report (text and JSON) with the lunq.conf(5)
 * section tune prints (lq_tune_section(), tune.c).  Pure code (libc
 * only); unit-tested in tests/unit/ctl_autotune_test.c.  The plumbing
 * (netlink, polling, signals) is cmd_tune_online.c.
 *
 * The statistics (kmod/uapi/lunq.h, appended: a module without them does
 * not report them, @have is false): auto_phase (0 off, 1 down, 2 up,
 * 3 hold, 4 probe, 5 track), auto_peak_iops, auto_svc_min_ns, auto_knee
 * (peak IOPS x minimum mean service time, a depth), auto_p99_ns (service
 * p99 of the last window), auto_windows, auto_moves; the live depth is
 * the statistic throttle.
 */
#ifndef LUNQCTL_AUTOTUNE_H
#define LUNQCTL_AUTOTUNE_H

#include <stdio.h>
#include "dev.h"
#include "ident.h"
#include "kv.h"		/* lq_policy_parse() */
#include "lunq_args.h"

/* Values of the key auto: the index into its names in kmod/lunq_args.c. */
enum lq_auto_mode { LQ_AUTO_OFF, LQ_AUTO_KNEE, LQ_AUTO_TARGET };

/* Values of the statistic auto_phase. */
enum lq_auto_phase {
	LQ_AP_OFF, LQ_AP_DOWN, LQ_AP_UP, LQ_AP_HOLD, LQ_AP_PROBE, LQ_AP_TRACK,
};

/* "knee", "target", "off" (the module's key table's); "?" past them */
const char *lq_auto_mode_name(u32 mode);
/* "hold", ...; "?" for a phase this build does not know */
const char *lq_auto_phase_name(u64 phase);

/* The controller as one snapshot of a device shows it. */
struct lq_auto_view {
	u32 mode;		/* enum lq_auto_mode, from the policy */
	u64 target_ns;		/* target_us of the policy, in ns */
	u64 throttle;		/* the live depth */
	u64 phase, peak_iops, svc_min_ns, knee, p99_ns, windows, moves;
};

/*
 * Fill @v from @d (its policy and statistics).  false when the module
 * does not report the auto statistics or the policy does not parse:
 * nothing to show.
 */
bool lq_auto_view_get(const struct lq_dev *d, struct lq_auto_view *v);

/*
 * stat's line for a device with auto on, no newline; "" when auto is off:
 *   throttle 16 (auto knee: hold, knee 16, peak 2000 IOPS,
 *     min service 8.20 ms, window p99 8.40 ms)
 *   throttle 12 (auto target 5.00 ms: track, window p99 4.10 ms,
 *     peak 1500 IOPS, min service 8.20 ms)
 * (one line each).  Estimates not known yet (0) read "-".
 */
void lq_auto_state(char *buf, size_t len, const struct lq_auto_view *v);

/*
 * One JSON object: {"mode", "phase" (names), "target_ns" (null unless
 * target), "throttle", "peak_iops", "svc_min_ns", "knee", "p99_ns",
 * "windows", "moves"}.
 */
void lq_auto_json(FILE *f, const struct lq_auto_view *v);

/* ---- tune --online: when auto has settled ------------------------------ */

/*
 * Fed every snapshot (time in seconds, phase, live depth), it says when
 * the depth has stayed the same in hold or track for @need_s seconds.
 * A probe (phase probe) is an excursion: it neither confirms nor breaks
 * the held depth.  Down, up (and off) mean auto is still searching.
 */
struct lq_settle {
	double need_s;		/* --settle */
	bool held;		/* @depth has been held since @since */
	u32 depth;
	double since;
};

enum lq_settle_state {
	LQ_SETTLE_SEARCHING,	/* down, up: no depth held */
	LQ_SETTLE_HOLDING,	/* hold/track at one depth, not long enough */
	LQ_SETTLE_DONE,		/* held for need_s */
};

void lq_settle_init(struct lq_settle *s, double need_s);
enum lq_settle_state lq_settle_feed(struct lq_settle *s, double t, u64 phase,
				    u32 depth);

/* ---- tune --online: the report ----------------------------------------- */

struct lq_online_res {
	const char *device;		/* lunq name */
	const struct lq_ident *id;	/* for the section header */
	struct lq_auto_view v;		/* the last snapshot */
	bool settled;			/* else: gave up at --elapsed */
	u32 depth;			/* settled: the held depth */
	double iops;			/* reads + writes per second while held */
	double settled_s;		/* from the start until settled (or gave up) */
	double held_s;			/* how long @depth was held */
	double limit_s;			/* --elapsed */
	bool kept;			/* --keep: auto stays on */
};

/*
 * Text (only when settled; see lq_online_unsettled()):
 *   NAME: auto knee held qdepth Q for H s (settled after S s): X IOPS,
 *     service p99 P
 *   # lunq.conf(5) lines for NAME (auto knee on the live workload):
 *   [vendor=V model=M]            (or [name=NAME])
 *   qdepth = Q
 *   # auto: peak X IOPS x min service T = knee K
 *   # or for NAME alone: [name=NAME]
 * (auto target: "(auto target, service p99 <= T on the live workload)"
 * and "# auto: window p99 P at qdepth Q, target T").  JSON, settled or
 * not: one object {device, mode, target_ns, settled, depth,
 * phase, iops, peak_iops, svc_min_ns, knee, p99_ns, windows, moves,
 * settled_s, held_s, kept, section, policy} (depth: the held depth, or
 * the last one when not settled; section, policy: null then).
 */
void lq_online_report(FILE *f, const struct lq_online_res *r, bool json);

/*
 * Why it gave up, no newline: "auto did not settle within 60 s: last
 * depth 12, phase probe".
 */
void lq_online_unsettled(char *buf, size_t len, const struct lq_online_res *r);

#endif /* LUNQCTL_AUTOTUNE_H */
