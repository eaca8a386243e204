/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqctl: iostat -x arithmetic from two statistics snapshots, and its
 * text, JSON and Prometheus renderings.  Pure: libc only (no libm).
 *
 * Columns (kmod/dm-lunq.rst, "iostat -x columns"), between an older
 * snapshot A and a newer one B, d() = B - A, dt = d(snaptime_ns):
 *
 *   r/s, w/s     d(reads) / dt, d(writes) / dt
 *   kr/s, kw/s   KiB read / written per second: d(*_sectors) * 512 / 1024 / dt
 *   wait, actv   mean IOs waiting / active: d(wlentime_ns) / d(snaptime_ns),
 *                d(rlentime_ns) / d(snaptime_ns)
 *   wsvc_t       ms: d(wlentime_ns) / d(completed)   (0 with no completion)
 *   asvc_t       ms: d(rlentime_ns) / d(completed)   (0 with no completion)
 *   %w, %b       100 * d(wtime_ns) / dt, 100 * d(rtime_ns) / dt
 *   qfull/s      d(qfull) / dt
 *   thr          the live throttle of B ("-" when 0: unlimited)
 *
 * Without A, or when crtime_ns differs between A and B (the counters were
 * reset in between), the report covers the time since crtime_ns: every
 * column is B's counters over dt = snaptime_ns(B) - crtime_ns(B) (Solaris
 * kstat's crtime).  A counter still smaller in B than in A counts from
 * zero: d() = B.
 *
 * Text output, like Solaris iostat -xn (right-aligned, device last; a
 * value too wide for its column widens it, columns stay space-separated):
 *
 * extended:
 *     r/s    w/s   kr/s   kw/s wait actv wsvc_t asvc_t  %w  %b qfull/s  thr device
 *    12.0    3.5   48.0  112.0  0.3  1.8    0.2    5.4   4  61     0.0   32 data0
 * not extended:
 *     r/s    w/s   kr/s   kw/s asvc_t  %b  thr device
 *    12.0    3.5   48.0  112.0    5.4  61   32 data0
 */
#ifndef LUNQCTL_IOSTAT_H
#define LUNQCTL_IOSTAT_H

#include "lunqctl.h"

struct lq_iostat {
	double dt;			/* seconds between the snapshots (snaptime_ns) */
	double rps, wps, krps, kwps;	/* reads/s, writes/s, KiB/s read and written */
	double wait, actv;		/* mean IOs waiting / active */
	double wsvc_t, asvc_t;		/* ms; 0 when no completions */
	double pct_w, pct_b;		/* 100*d(wtime)/dt, 100*d(rtime)/dt */
	double qfullps;			/* QUEUE FULL answers per second */
	u64 throttle, inflight, waiting;	/* gauges from the newer snapshot */
};

/*
 * @a: the older snapshot, or NULL ("since the counters started": dt from
 * b's crtime_ns), @b: the newer one; both indexed by enum lunq_stat.
 * Returns 0, or -1 (and @r zeroed) when snaptime_ns did not advance.
 */
int lq_iostat_compute(const u64 *a, const u64 *b, struct lq_iostat *r);

/* The header line (with its newline) of the extended or short table. */
void lq_iostat_header(FILE *f, bool extended);

/* One row (with its newline), @name last. */
void lq_iostat_row(FILE *f, const char *name, const struct lq_iostat *r,
		   bool extended);

/*
 * One JSON object, no newline: "device", "interval_s", "r_s", "w_s",
 * "kr_s", "kw_s", "wait", "actv", "wsvc_t_ms", "asvc_t_ms", "pct_w",
 * "pct_b", "qfull_s" (numbers, at most 3 decimals), "throttle",
 * "inflight", "waiting" (integers; throttle 0 = unlimited).
 */
void lq_iostat_json(FILE *f, const char *name, const struct lq_iostat *r);

/* The same without the closing brace, for more members after it. */
void lq_iostat_json_begin(FILE *f, const char *name, const struct lq_iostat *r);

/*
 * Every statistic of @devs in the Prometheus text exposition format
 * (node_exporter textfile collector): per statistic one "# HELP" and one
 * "# TYPE" line, then one sample per device that has it:
 *   counters     lunq_<stat>_total{device="NAME"} N         (counter)
 *   *_ns sums    lunq_<stat without _ns>_seconds_total ...  (counter, s)
 *   gauges       lunq_<stat>{device="NAME"} N               (gauge;
 *                oldest_wait_ns: lunq_oldest_wait_seconds)
 * A statistic no device has is left out entirely.
 */
void lq_prom_print(FILE *f, const struct lq_dev *devs, int n);

#endif /* LUNQCTL_IOSTAT_H */
