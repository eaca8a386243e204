/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqctl sweep and tune: the measured points, their curves and each
 * curve's knee.  Pure code (libc only, no libm); unit-tested in
 * tests/unit/ctl_sweep_test.c.  Written out by sweep_write.c (table, CSV,
 * JSON, the plot through svg.c); tune's rule is tune.c's; the plumbing
 * (netlink, running lunqbench) is cmd_sweep.c.
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

#include "lq.h"		/* liblunq: types */
#include "result.h"	/* liblunq: lunqbench's result record */

/* The definition printed with every knee (table, JSON, SVG, man page). */
#define LQ_KNEE_DEF "knee = the point of greatest power IOPS / p99 (Kleinrock)"

#define LQ_SWEEP_LIST_MAX	64	/* points of --qdepth, --curve */

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

/* Measured, with IOPS and a p99 above 0: a point that can be on a curve. */
bool lq_point_drawable(const struct lq_point *p);

/* qdepth in increasing order of depth: 0 (unlimited) after every other. */
u64 lq_qdepth_key(u32 q);

#endif /* LUNQCTL_SWEEP_H */
