/* SPDX-License-Identifier: GPL-2.0 */
/*
 * liblunq: views of a dm-lunq log-linear histogram (kmod/lunq_hist.h):
 * DTrace-style quantize and lquantize tables, percentiles, JSON.  Pure:
 * libc only (no libm).
 *
 * The quantize and lquantize tables are DTrace's (dt_print_quantize,
 * dt_print_lquantize in libdtrace's dt_consume.c) byte for byte, trailing
 * padding of the count column included, except that the blank line DTrace
 * prints before the header is left to the caller:
 *
 *            value  ------------- Distribution ------------- count
 *             4096 |                                         0
 *             8192 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@           300
 *            16384 |@@@@@@@@@@                               100
 *            32768 |                                         0
 *
 * A bar is round(40 * count / total) '@'s (DTrace: (uint)(f + 0.5)).
 * Rows run from one zero row before the first non-empty row to one zero
 * row after the last one; when the value-0 row is the first non-empty
 * one, the zero row before it is DTrace's "-1" row.  An empty histogram
 * prints nothing at all, as DTrace prints nothing for an aggregation that
 * never saw a value.
 */
#ifndef LIBLUNQ_HISTVIEW_H
#define LIBLUNQ_HISTVIEW_H

#include "lq.h"

/* Largest number of linear rows (HI - LO) / STEP of an lquantize view. */
#define LQ_LQUANT_MAX_ROWS	1000

/* quantize(): power-of-two rows, labelled with their lower bound. */
void lq_hist_print_quantize(FILE *f, const struct lq_hist *h);

/*
 * Parse an lquantize spec "LO,HI,STEP".  Each number is decimal, with an
 * optional fraction ("1.5ms") and suffix: for a time histogram (@time)
 * ns, us, ms, s (none: ns); for a byte histogram k/K, m/M, g/G (powers of
 * 1024; none: bytes).  The result must be a whole number of ns or bytes.
 * @unit and @unit_name are those of STEP's suffix ("ns", "us", "ms", "s";
 * "bytes", "KiB", "MiB", "GiB"): the rows are labelled in that unit.
 * Rows: (HI - LO) / STEP, rounded down like DTrace's levels, at least 1
 * and at most LQ_LQUANT_MAX_ROWS.  Returns 0, or -1 with a message
 * naming the bad part in @err.
 */
int lq_parse_lquantize(const char *arg, bool time, u64 *lo, u64 *hi,
		       u64 *step, u64 *unit, const char **unit_name,
		       char *err, size_t errlen);

/*
 * lquantize(): rows "< LO", LO, LO+STEP, ..., ">= LO+levels*STEP" with
 * levels = (HI - LO) / STEP, labels divided by @unit (up to 3 decimals
 * when not whole).  Each log-linear bucket counts in the row holding its
 * lower bound, so a row edge is accurate to one bucket width (exact below
 * 64, else at most 1/32 = 3.1% of the value).  Zero rows trimmed as
 * in quantize; an empty histogram prints nothing, and so does a spec
 * lq_parse_lquantize() would refuse (hi <= lo, step 0, no row) or one of
 * more than 2^20 rows.
 */
void lq_hist_print_lquantize(FILE *f, const struct lq_hist *h, u64 lo,
			     u64 hi, u64 step, u64 unit);

/*
 * One "label value" line each: count, mean, p50, p90, p95, p99, p99.9,
 * p99.99, max (values by lq_fmt_ns for @time, else lq_fmt_bytes):
 *   count   1000
 *   mean    4.28 ms
 *   p50     3.01 ms
 *   ...
 * A percentile is the upper bound of its bucket clamped to max
 * (lunq_hist_percentile).  An empty histogram: the count line only.
 */
void lq_hist_print_percentiles(FILE *f, const struct lq_hist *h, bool time);

/*
 * One JSON object, no newline: "device", "hist", "unit" ("ns" or
 * "bytes"), "count", "sum", "max", "mean" (3 decimals at most),
 * "percentiles" {"p50", "p90", "p95", "p99", "p99.9", "p99.99"} (base
 * units, integers), "quantize" [[value, count], ...] (non-empty
 * power-of-two rows, value = lower bound), "buckets" [[lo, hi, count],
 * ...] (non-empty log-linear buckets, inclusive bounds).
 */
void lq_hist_json(FILE *f, const char *device, const char *hist_name,
		  const struct lq_hist *h, bool time);

#endif /* LIBLUNQ_HISTVIEW_H */
