/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq statistics: per-CPU counters and the per-device latency, size
 * and alignment histograms (layout: lunq_hist.h).  Recording takes no
 * lock: counters are per-CPU, histogram buckets are 32-bit atomics in one
 * shared copy per device, each kind only as many buckets of the layout as
 * its values reach (kmod/dm-lunq.rst, "Memory per device"), read back as
 * 64-bit counts in the whole layout.
 *
 * A bucket's count is its 32-bit live count plus its carry: the live
 * count reaching 2^31 (its sign bit, one branch on the IO path) queues
 * the fold, a work item that moves 2^31 of each such bucket into the
 * histogram's 64-bit carry (allocated then, in process context; a
 * histogram no bucket of which ever reached 2^31 has none).  A live
 * count so has 2^31 IOs of headroom between reaching 2^31 and wrapping,
 * 214 s at 10 million IOPS into one bucket, while the fold runs within
 * milliseconds (and every second again while its allocation fails).  The
 * fold, a reset and a reload's merge change carries and live counts
 * together under @fold_seq; readers retry across them, so a reader never
 * sees 2^31 counted twice or not at all.
 */
#ifndef LUNQ_STATS_H
#define LUNQ_STATS_H

#include <linux/percpu.h>
#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/seqlock.h>
#include <linux/workqueue.h>
#include <linux/blk_types.h>
#include "lunq_hist.h"
#include "lunq_busy.h"
#include "uapi/lunq.h"

/* Per-CPU counters, indexed by enum lunq_stat (only the hot ones used). */
struct lunq_pcpu {
	u64 v[__LUNQ_ST_MAX];
	/*
	 * The lock-free path's integrals (lunq_busy.h): @io its IOs from send
	 * to completion (rlentime; its opens count the IOs it sent), @busy
	 * its busy periods (rtime).  Never zeroed: a reset keeps baselines.
	 */
	struct lunq_span io, busy;
};

/*
 * An alignment is a power of two, 2^9 (one sector) .. 2^41 (offset 0 is
 * recorded as 2^41, the overflow bucket): the align histograms keep one
 * count per power, expanded into the log-linear layout when read.
 */
#define LUNQ_ALIGN_ROWS		(LUNQ_HIST_MAX_BITS + 1)

/*
 * Latencies (ns) are kept from 2^9 ns to 2^36 ns, the layout's buckets
 * 159 .. 1024 (866 of its 1185, 3.4 KiB a histogram):
 *  - below 2^9 ns (512 ns) is no IO's latency: a device answers in
 *    microseconds, and a wait that short is no wait (an IO that did not
 *    wait is counted at 0 apart, LUNQ_HIST_NOWAIT_*); such values share
 *    the bucket of 504 .. 511 ns, read as there (so an upper bound of
 *    one, what auto judges, is never below it);
 *  - 2^36 ns (68.7 s) and more is an IO that outlived the kernel's own
 *    timeout (SCSI's default is 30 s): such IOs share the bucket of 2^36,
 *    read as there (the maximum kept beside stays exact).
 * Live bucket i is the layout's bucket LUNQ_LAT_FIRST + i.
 */
#define LUNQ_LAT_MIN_BITS	9
#define LUNQ_LAT_MAX_BITS	36
#define LUNQ_LAT_FIRST		(LUNQ_HIST_IDX_POW2(LUNQ_LAT_MIN_BITS) - 1)
#define LUNQ_LAT_BUCKETS	(LUNQ_HIST_IDX_POW2(LUNQ_LAT_MAX_BITS) + 1 - \
				 LUNQ_LAT_FIRST)
/*
 * Sizes are a bio's bytes, a u32 and a multiple of 512: kept in 512-byte
 * sectors, below 2^23, the layout's first 608 buckets (896 in bytes).
 * The layout is the same at every power of two (lunq_hist.h), so sector
 * bucket j holds the sizes of exactly one byte bucket,
 * lunq_size_bucket(j), the one read back (KUnit lunq_stats_size_sectors
 * checks every sector count below 2^23).
 */
#define LUNQ_SIZE_SHIFT		9
#define LUNQ_SIZE_BUCKETS	LUNQ_HIST_IDX_POW2(32 - LUNQ_SIZE_SHIFT)

/* The layout's (byte) bucket of sector bucket @j. */
static inline u32 lunq_size_bucket(u32 j)
{
	return lunq_hist_idx(lunq_hist_lower(j) << LUNQ_SIZE_SHIFT);
}

/* A live count at 2^31 or more is folded into the carry (above). */
#define LUNQ_HIST_FOLD		(1U << 31)

/* The live bucket of latency @ns: one fls64(), as lunq_hist_idx(). */
static inline u32 lunq_lat_idx(u64 ns)
{
	unsigned int k;

	if (ns < (1ULL << LUNQ_LAT_MIN_BITS))
		return 0;
	k = lunq_msb(ns);
	if (k >= LUNQ_LAT_MAX_BITS)
		return LUNQ_LAT_BUCKETS - 1;
	return LUNQ_HIST_IDX_POW2(k) - LUNQ_LAT_FIRST +
	       (u32)((ns >> (k - LUNQ_HIST_SUB_BITS)) & (LUNQ_HIST_SUB - 1));
}

struct lunq_hist_live {
	atomic64_t sum, max;
	/*
	 * LUNQ_LAT_BUCKETS (latencies), LUNQ_SIZE_BUCKETS (sizes) or
	 * LUNQ_ALIGN_ROWS (the align kinds, by log2); live counts, the
	 * histogram's carry added (lunq_stats.h, above)
	 */
	atomic_t count[];
};

/*
 * Live histograms: the LUNQ_NR_HISTS of the UAPI and, for reads and
 * writes that did not wait (every IO of the lock-free path), their
 * service time alone: such an IO's wait is 0 and its total is its
 * service time, so it is recorded once instead of three times, and the
 * readers (lunq_stats_hist(), lunq_stats_svc_window()) add it back into
 * wait (bucket 0), service and total.
 */
enum {
	LUNQ_HIST_NOWAIT_READ = LUNQ_NR_HISTS,
	LUNQ_HIST_NOWAIT_WRITE,
	LUNQ_NR_LIVE_HISTS
};

struct lunq_stats {
	struct lunq_pcpu __percpu *pc;
	/* LUNQ_NR_LIVE_HISTS, in one allocation (hist[0]) */
	struct lunq_hist_live *hist[LUNQ_NR_LIVE_HISTS];
	/* each histogram's 64-bit carries, NULL until its first fold */
	u64 *carry[LUNQ_NR_LIVE_HISTS];
	struct mutex fold_lock;		/* carries' writers */
	seqcount_mutex_t fold_seq;
	struct delayed_work fold;
	bool own;			/* hist[0] is ours to free */
};

int lunq_stats_alloc(struct lunq_stats *st);
/*
 * The same with the histograms in @buf, lunq_stats_hist_bytes() of zeroes
 * 8-byte aligned, which the caller frees after lunq_stats_free(): a
 * device's histograms in its context's pages (lunq_core_alloc()).
 */
int lunq_stats_alloc_in(struct lunq_stats *st, void *buf);
size_t lunq_stats_hist_bytes(void);
void lunq_stats_free(struct lunq_stats *st);

/*
 * The fold (above), now: what the work item runs; 0, or -ENOMEM when a
 * carry could not be allocated (the live counts then stay, to be folded
 * at the next try).
 */
int lunq_stats_fold(struct lunq_stats *st);

static inline void lunq_stats_inc(struct lunq_stats *st, enum lunq_stat s)
{
	this_cpu_inc(st->pc->v[s]);
}

/*
 * What one completed IO contributes, its error apart (the caller counts
 * LUNQ_ST_ERRORS) and an empty flush apart (lunq_stats_flushed()): @op,
 * @sector its start (512-byte sectors of the dm device), @bytes; @wait_ns
 * and @svc_ns count for reads and writes only.  Scalars in registers, not
 * a structure on the stack: this runs once per IO (doc/benchmarks.md).
 */
void lunq_stats_done(struct lunq_stats *st, enum req_op op, u64 sector,
		     u32 bytes, u64 wait_ns, u64 svc_ns);

/* An empty flush (a read or write without data, as mapped) completed. */
static inline void lunq_stats_flushed(struct lunq_stats *st)
{
	this_cpu_inc(st->pc->v[LUNQ_ST_COMPLETED]);
	this_cpu_inc(st->pc->v[LUNQ_ST_FLUSHES]);
}

/* The lock-free path's integrals, summed over the CPUs (lunq_busy.h). */
void lunq_stats_fast_sum(struct lunq_stats *st, struct lunq_span *io,
			 struct lunq_span *busy);

/* Sum the per-CPU counters into @v (__LUNQ_ST_MAX entries, added to). */
void lunq_stats_sum(struct lunq_stats *st, u64 *v);

/* One per-CPU counter @s, summed over the CPUs. */
u64 lunq_stats_read(struct lunq_stats *st, enum lunq_stat s);

/* Copy histogram @kind: @counts has LUNQ_HIST_BUCKETS entries. */
void lunq_stats_hist(struct lunq_stats *st, enum lunq_hist_kind kind,
		     u64 *counts, u64 *sum, u64 *max);

/*
 * A window's start (lunq_window.c): the 32-bit truncations of the counts
 * of the live latency buckets (index i: live bucket i, the layout's
 * LUNQ_LAT_FIRST + i) and of the layout's bucket 0 (index LUNQ_WIN_ZERO:
 * the waits of 0), LUNQ_WIN_START of them; no other bucket of the layout
 * ever counts a latency.
 */
#define LUNQ_WIN_ZERO		LUNQ_LAT_BUCKETS
#define LUNQ_WIN_START		(LUNQ_LAT_BUCKETS + 1)

/*
 * The reads' and writes' service histograms together, as counts since
 * @prev (a window's start, LUNQ_WIN_START; it becomes the counts now) into
 * @win (LUNQ_HIST_BUCKETS, the layout's, overwritten), 32 bits: counts
 * modulo 2^32 (lunq_hist32_*()).  Returns the sum of all their service
 * times so far (ns).
 */
u64 lunq_stats_svc_window(struct lunq_stats *st, u32 *prev, u32 *win);

/*
 * The same for the reads' and writes' wait in lunq (those that did not
 * wait in bucket 0).  Returns the sum of all their waits so far (ns).
 */
u64 lunq_stats_wait_window(struct lunq_stats *st, u32 *prev, u32 *win);

void lunq_stats_zero(struct lunq_stats *st);

/* Add everything of @src (idle, about to go) to @dst: a table reload. */
void lunq_stats_merge(struct lunq_stats *dst, struct lunq_stats *src);

#endif /* LUNQ_STATS_H */
