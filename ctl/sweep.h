/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqctl sweep and tune: the pure parts.  The table of measured points, their curves, the knee, the text
 * table, CSV and JSON writers, the tune rule and the policy-file lines it
 * recommends.  Pure code (libc only, no libm); unit-tested in
 * tests/unit/ctl_sweep_test.c.  The plot is svg.c; the plumbing (netlink,
 * running lunqbench) is cmd_sweep.c.
 *
 * A point is one lunqbench run under one policy of the lunq device:
 * qdepth Q and sched S, closed loop (--iorate max) or open loop at a rate.
 *
 * Curves (what the plot draws and the knee is looked for on):
 *   closed   one curve per sched: its closed-loop points by qdepth
 *            (qdepth 0, unlimited, last)
 *   open     one curve per (sched, qdepth): its open-loop points by rate;
 *            the closed-loop run that measured the maximum (the "probe",
 *            vdbench's iorate=max run before iorate=curve) is listed in
 *            the table but not drawn
 *
 * Knee: the point of a curve with the greatest Kleinrock power,
 * IOPS / p99 response time (Kleinrock 1979: the operating point that gets
 * the most throughput per unit of delay; here of tail delay).  Equal
 * power: the earlier point (lower qdepth or rate).  It is the bend of a
 * throughput-latency curve: before it throughput grows faster than p99,
 * after it p99 grows faster than throughput.  When it is the curve's last
 * point the curve never bent in the measured range.
 */
#ifndef LUNQCTL_SWEEP_H
#define LUNQCTL_SWEEP_H

#include <stdio.h>
#include "lq.h"		/* liblunq: types */
#include "ident.h"
#include "result.h"	/* liblunq: lunqbench's result record */

/* The definition printed with every knee (table, JSON, SVG, man page). */
#define LQ_KNEE_DEF "knee = the point of greatest power IOPS / p99 (Kleinrock)"

/* ---- arguments ---------------------------------------------------------- */

#define LQ_SWEEP_LIST_MAX	64

/*
 * "1,2,4,8": at most @max distinct integers in [@lo, @hi] into @v; their
 * number, or -1 with a message in @err (empty item, not a number, out of
 * range, repeated, too many).
 */
int lq_parse_uint_list(const char *s, u32 lo, u32 hi, u32 *v, int max,
		       char *err, size_t errlen);

/*
 * A duration with a unit: "10ms", "2.5ms", "500us", "1s", "800ns"
 * (decimal, optional fraction, unit ns|us|ms|s required) into ns, > 0.
 * Returns 0, or -1.
 */
int lq_parse_duration_ns(const char *s, u64 *ns);

/* ---- the sweep ---------------------------------------------------------- */

struct lq_point {
	char sched[16];		/* "fifo", "disksort" */
	u32 qdepth;		/* 0: unlimited */
	bool open;		/* open loop at target_iops */
	u32 rate_pct;		/* open: percent of the probe's IOPS */
	double target_iops;	/* open: the --iorate asked for */
	bool probe;		/* closed-loop run measuring an open curve's max */
	bool ran;		/* measured: @r, @qfull, @qfull_s are valid */
	struct lq_result r;	/* lunqbench's summary line */
	u64 qfull;		/* QUEUE FULL answers during the run */
	double qfull_s;		/* per second of the device's clock; -1: both
				 * unknown (CSV empty, JSON null, table "-") */
	int curve;		/* index in lq_sweep.curves, -1: not drawn */
	bool knee;
};

struct lq_curve {
	char label[64];		/* "fifo", "fifo qdepth=8" */
	bool open;
	char sched[16];
	u32 qdepth;		/* open curves */
	int *idx;		/* its points (indices into lq_sweep.pts), in order */
	int n;
	int knee;		/* index into @idx, -1: no measured point */
	double knee_power;	/* IOPS per second of p99 */
};

struct lq_sweep {
	char device[LUNQ_NAME_MAX];	/* lunq name */
	char path[LUNQ_NAME_MAX + 16];	/* "/dev/mapper/<dm name>" */
	char bench[1024];		/* lunqbench options common to all points */
	struct lq_point *pts;
	int n, cap;
	struct lq_curve *curves;
	int ncurves;
};

void lq_sweep_init(struct lq_sweep *s, const char *device, const char *path,
		   const char *bench);
void lq_sweep_free(struct lq_sweep *s);
/* Append a copy of @p (curve -1, knee false); NULL when out of memory. */
struct lq_point *lq_sweep_add(struct lq_sweep *s, const struct lq_point *p);

/*
 * Group the measured points into curves (see the top of this file) and
 * find each curve's knee; sets every point's @curve and @knee.  Closed
 * curves come first (by sched, in order of first appearance), then open
 * ones (likewise, then by qdepth).  A point that was not measured, or
 * has no IOPS or a p99 of 0, is on no curve.  Returns 0 or -1 (memory).
 */
int lq_sweep_curves(struct lq_sweep *s);

/*
 * The knee of a curve of @n points (x: IOPS, y: p99 ns): the index with
 * the greatest x / y among points with x > 0 and y > 0, the earliest on
 * equal power; -1 when there is none.  *@power (may be NULL) gets
 * x / (y in seconds).
 */
int lq_knee(const double *x, const double *y, int n, double *power);

/* Kleinrock power of a measured point: IOPS / p99 in seconds (0 if none). */
double lq_point_power(const struct lq_point *p);

/*
 * Text table (one row per point, in run order) and one "knee" line per
 * curve with LQ_KNEE_DEF:
 *   QDEPTH SCHED    LOOP    RATE     IOPS    MB/s   P50_MS   P99_MS P99.9_MS   MAX_MS QFULL/S NOTE
 *        4 fifo     closed     -   1998.4     7.8    62.91    64.20    65.01    66.31     0.0 knee
 * Latencies are ms with three significant digits; RATE is "-" for closed
 * loop, "70%" for open; NOTE: knee, probe, saturated, errors=N.
 */
void lq_sweep_print(FILE *f, const struct lq_sweep *s);

/*
 * CSV with a header line; one row per point in run order:
 * device,sched,qdepth,loop,rate_pct,target_iops,probe, then lunqbench's
 * record (lq_result_csv_head: ios,...,qd), then qfull,qfull_s,power,curve,knee
 * (qdepth 0 = unlimited; curve: the curve's label, empty when none;
 * knee 0|1; a point not measured has empty measurement fields).
 */
void lq_sweep_csv(FILE *f, const struct lq_sweep *s);

/*
 * One JSON object (with a newline): device, path, bench, knee_definition,
 * points [{sched, qdepth, loop, rate_pct, target_iops, probe, measured,
 * then lunqbench's record (lq_result_json), qfull, qfull_s, power, curve,
 * knee}],
 * curves [{label, loop, sched, qdepth, points [indices], knee (index into
 * points or null), knee_at_end, knee_power}].
 */
void lq_sweep_json(FILE *f, const struct lq_sweep *s);

/* The SVG plot (svg.c) of the curves. */
void lq_sweep_svg(FILE *f, const struct lq_sweep *s);

/* ---- tune --------------------------------------------------------------- */

struct lq_tune {
	int pick;		/* the recommended point, -1: none meets the rule */
	int best;		/* pick < 0: within @within of max, lowest p99 */
	int fastest_ok;		/* pick < 0: most IOPS with p99 <= target, or -1 */
	int max;		/* the point of the most IOPS, -1: none measured */
	double max_iops;
};

/*
 * The tune rule over the measured closed-loop points of @pts: among the
 * points within @within_pct percent of the most IOPS (iops >= max *
 * within_pct / 100), those whose p99 is at most @p99_ns; of them the
 * smallest qdepth (0, unlimited, counts as the largest); on equal qdepth
 * the most IOPS, then the earliest.  When none: @best is the point within
 * @within_pct of the max with the lowest p99 (on equal p99 the smaller
 * qdepth), @fastest_ok the point with the most IOPS whose p99 meets the
 * target (-1 when no point does).  Returns @t->pick.
 */
int lq_tune_pick(const struct lq_point *pts, int n, u64 p99_ns,
		 double within_pct, struct lq_tune *t);

/*
 * A lunq.conf(5) section header naming the device: "[vendor=V model=M]"
 * (vendor left out when empty) when @id has a model, else "[name=NAME]"
 * with @id->name.  Values are quoted when they hold blanks or characters
 * a bare pattern cannot; wildcard characters (* ? [ ]), double quotes and
 * backslashes in vendor and model become "?", which matches them.
 */
void lq_tune_section(char *buf, size_t len, const struct lq_ident *id,
		     bool by_model);

/* What tune was asked, for its report. */
struct lq_tune_req {
	u64 p99_ns;		/* the target */
	double within_pct;	/* 95 */
	const char *sched;	/* the sched of the sweep */
	bool sched_given;	/* --sched: the recommendation sets it too */
	const struct lq_ident *id;	/* the device (name) and its lower device */
};

/*
 * tune's verdict after the table.  Text, when a point meets the rule:
 *   NAME: qdepth Q is the smallest within P% of the most IOPS (X at
 *     qdepth M) whose p99 meets T: X IOPS, p99 Y
 *   # lunq.conf(5) lines for NAME (p99 <= T, sched S):
 *   [vendor=V model=M]      (or [name=NAME])
 *   qdepth = Q
 *   sched = S               (only with sched_given)
 *   # or for NAME alone: [name=NAME]   (with a vendor/model section)
 * When none does:
 *   NAME: no qdepth within P% of the most IOPS (...) meets p99 T; the
 *     best was qdepth Q: X IOPS, p99 Y[; qdepth R meets it at X IOPS
 *     (N% of the most)]
 * JSON: one object {device, p99_target_ns, within_pct, sched, max_iops,
 * max_qdepth, met, qdepth, iops, resp_p99_ns, section, policy, best,
 * fastest_ok} (null where it does not apply).
 */
void lq_tune_report(FILE *f, const struct lq_sweep *s, const struct lq_tune *t,
		    const struct lq_tune_req *q, bool json);

#endif /* LUNQCTL_SWEEP_H */
