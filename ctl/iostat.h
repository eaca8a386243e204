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
 *
 * Linux iostat -x view (lunqctl stat -L), same d() and dt:
 *
 *   rkB/s, wkB/s   as kr/s, kw/s
 *   r_lunq, w_lunq ms a read/write waited in lunq (arrival -> accepted by
 *                  the LUN): d(read_wait_ns) / d(reads), the same for writes
 *   r_dev, w_dev   ms at the device (accepted -> completed):
 *                  d(read_svc_ns) / d(reads), ...
 *   r_await        r_lunq + r_dev (iostat's r_await: what the reads took in
 *                  all); w_await the same for writes
 *   aqu-sz         wait + actv: d(wlentime_ns + rlentime_ns) / dt
 *   rareq-sz       KiB per read: d(read_sectors) / 2 / d(reads); wareq-sz
 *   %util          %b: 100 * d(rtime_ns) / dt (the device busy)
 *   misal, non4k   reads and writes in the interval not starting on 4 KiB,
 *                  not a multiple of 4 KiB (align.d's per-interval counts)
 *
 * Device r/s w/s rkB/s wkB/s r_await r_lunq r_dev w_await w_lunq w_dev
 *   aqu-sz rareq-sz wareq-sz %util misal non4k   (device first, as Linux)
 *
 * Total rows (stat -C: one per pool and one for all devices): rates and
 * queue lengths (r/s ... kw/s, qfull/s, wait, actv, aqu-sz) are the sums
 * of the devices' (each over its own dt); per-IO times and sizes the
 * ratios of the summed d() (weighted by IOs); %w, %b, %util the mean over
 * the devices; thr the sum ("-" when one of them is unlimited); dt the
 * mean of the devices'.
 */
#ifndef LUNQCTL_IOSTAT_H
#define LUNQCTL_IOSTAT_H

#include "dev.h"

struct lq_iostat {
	double dt;			/* seconds between the snapshots (snaptime_ns) */
	double rps, wps, krps, kwps;	/* reads/s, writes/s, KiB/s read and written */
	double wait, actv;		/* mean IOs waiting / active */
	double wsvc_t, asvc_t;		/* ms; 0 when no completions */
	double pct_w, pct_b;		/* 100*d(wtime)/dt, 100*d(rtime)/dt */
	double qfullps;			/* QUEUE FULL answers per second */
	u64 throttle, inflight, waiting;	/* gauges from the newer snapshot */
	/* Linux iostat -x (ms, KiB) */
	double r_await, r_lunq, r_dev, w_await, w_lunq, w_dev;
	double aqu_sz, rareq_sz, wareq_sz, util;
	u64 ios, misaligned, non_4k;	/* reads + writes in the interval */
};

/* The devices' d() summed, for a total row. */
struct lq_iostat_total {
	u64 d[__LUNQ_ST_MAX];
	unsigned int ndev;
	bool unlimited;		/* one of them has no throttle */
	struct lq_iostat rate;	/* rates, queue lengths, %: summed */
};

/*
 * @a: the older snapshot, or NULL ("since the counters started": dt from
 * b's crtime_ns), @b: the newer one; both indexed by enum lunq_stat.
 * Returns 0, or -1 (and @r zeroed) when snaptime_ns did not advance.
 */
int lq_iostat_compute(const u64 *a, const u64 *b, struct lq_iostat *r);

/*
 * d() of every statistic between @a (or NULL) and @b into @d
 * (__LUNQ_ST_MAX), d[LUNQ_ST_SNAPTIME_NS] = dt in ns, gauges @b's.
 * -1 (and @d zeroed) when snaptime_ns did not advance.
 */
int lq_iostat_delta(const u64 *a, const u64 *b, u64 *d);

/* The columns of @d (from lq_iostat_delta or a total of @ndev devices). */
void lq_iostat_from_delta(const u64 *d, unsigned int ndev, struct lq_iostat *r);

/* Add one device's d() to @t (zeroed first). */
void lq_iostat_add(struct lq_iostat_total *t, const u64 *d);

/* The columns of total @t. */
void lq_iostat_total(const struct lq_iostat_total *t, struct lq_iostat *r);

/* The Linux view's header and rows (with newlines), device first. */
void lq_iostat_linux_header(FILE *f);
void lq_iostat_linux_row(FILE *f, const char *name, const struct lq_iostat *r);

/* The header line (with its newline) of the extended or short table. */
void lq_iostat_header(FILE *f, bool extended);

/* One row (with its newline), @name last. */
void lq_iostat_row(FILE *f, const char *name, const struct lq_iostat *r,
		   bool extended);

/*
 * A device's JSON object without its closing brace (stat adds "auto" and
 * closes it), no newline: "device", "interval_s", "r_s", "w_s", "kr_s",
 * "kw_s", "wait", "actv", "wsvc_t_ms", "asvc_t_ms", "pct_w", "pct_b",
 * "qfull_s", "r_await_ms", "r_lunq_ms", "r_dev_ms", "w_await_ms",
 * "w_lunq_ms", "w_dev_ms", "aqu_sz", "rareq_sz_kib", "wareq_sz_kib",
 * "pct_util" (numbers, at most 3 decimals), "throttle", "inflight",
 * "waiting", "ios", "misaligned", "non_4k" (integers; throttle 0 =
 * unlimited; the last three: reads and writes in the interval).  @name
 * NULL: neither the opening brace nor "device", the members each after a
 * comma (for a total row's object).
 */
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
