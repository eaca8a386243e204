/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqctl sweep: the sweep written out (the table, CSV, JSON, the SVG
 * plot through svg.c).  Pure code (libc only); unit-tested against the
 * golden files of tests/unit/ctl_sweep_test.c and ctl_svg_test.c.
 */
#ifndef LUNQCTL_SWEEP_WRITE_H
#define LUNQCTL_SWEEP_WRITE_H

#include <stdio.h>
#include "sweep.h"

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
 * knee}], curves [{label, loop, sched, qdepth, points [indices], knee (index into
 * points or null), knee_at_end, knee_power}].
 */
void lq_sweep_json(FILE *f, const struct lq_sweep *s);

/* The SVG plot (svg.c) of the curves. */
void lq_sweep_svg(FILE *f, const struct lq_sweep *s);

#endif /* LUNQCTL_SWEEP_WRITE_H */
