/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqctl: an SVG plot of throughput against tail latency, one curve per
 * policy (lunqctl sweep -o).  Pure code (libc only, no libm); unit-tested
 * in tests/unit/ctl_svg_test.c.
 *
 * x: IOPS, linear from 0, ticks at 1, 2 or 5 times a power of ten.
 * y: p99 response time, log10 scale over whole decades, ticks at 1, 2, 5
 *    times each power of ten (labelled "100 us", "2 ms", "1 s").
 * Each curve is a polyline with a dot per point (and the point's mark,
 * e.g. its qdepth, beside it), in a colour of a fixed ten-colour palette
 * (from the 11th curve on, dashed); its knee is a black ring around the
 * dot; the legend, right of the plot, lists the curves and the ring; the
 * note (the knee's definition) runs under the x axis.
 *
 * The output is a standalone SVG 1.1 document: well-formed XML, every
 * text escaped, numbers printed with one decimal in the C locale, nothing
 * that depends on time or environment -- the same input gives the same
 * bytes (tests/unit/golden/sweep.svg).
 */
#ifndef LUNQCTL_SVG_H
#define LUNQCTL_SVG_H

#include <stdio.h>

struct lq_svg_curve {
	const char *label;	/* legend text */
	int n;
	const double *x;	/* IOPS */
	const double *y;	/* p99, ns; points with x < 0 or y <= 0 are skipped */
	int knee;		/* index of the knee, -1: none */
	const char *const *mark;	/* NULL, or a short text per point ("4") */
	const char *const *tip;		/* NULL, or a tooltip per point */
};

/*
 * Write the plot of @nc curves to @f.  @title (escaped) heads it;
 * @note (may be NULL) is a line under the legend, e.g. LQ_KNEE_DEF.
 * With no drawable point, the axes and "no data".
 */
void lq_svg_plot(FILE *f, const char *title, const struct lq_svg_curve *c,
		 int nc, const char *note);

/* @s with & < > " ' as XML entities. */
void lq_svg_escape(FILE *f, const char *s);

/*
 * Axis helpers (exposed for the tests).  lq_svg_nice_step(): a step of
 * 1, 2 or 5 times a power of ten such that [0, max] holds at most
 * @ticks steps; lq_svg_log10(): log10 of @v > 0 (no libm).
 */
double lq_svg_nice_step(double max, int ticks);
double lq_svg_log10(double v);

#endif /* LUNQCTL_SVG_H */
