// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq statistics, see lunq_stats.h.
 */
#include <linux/blk_types.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>
#include <linux/sched/mm.h>
#include "lunq_stats.h"

/*
 * A fold whose carry could not be allocated tries again after 1 s: a live
 * count at 2^31 has 2^31 more IOs before it wraps (lunq_stats.h).
 */
#define LUNQ_FOLD_RETRY		HZ

static bool lunq_hist_is_align(int k)
{
	return k == LUNQ_HIST_ALIGN || k == LUNQ_HIST_ALIGN_WRITE;
}

static bool lunq_hist_is_size(int k)
{
	return k == LUNQ_HIST_SIZE || k == LUNQ_HIST_SIZE_WRITE;
}

/* The counts histogram @k keeps (lunq_stats.h). */
static u32 lunq_hist_n(int k)
{
	if (lunq_hist_is_align(k))
		return LUNQ_ALIGN_ROWS;
	return lunq_hist_is_size(k) ? LUNQ_SIZE_BUCKETS : LUNQ_LAT_BUCKETS;
}

static size_t lunq_hist_size(int k)
{
	return struct_size((struct lunq_hist_live *)NULL, count, lunq_hist_n(k));
}

static void lunq_stats_fold_work(struct work_struct *work)
{
	struct lunq_stats *st = container_of(to_delayed_work(work),
					     struct lunq_stats, fold);

	if (lunq_stats_fold(st))
		schedule_delayed_work(&st->fold, LUNQ_FOLD_RETRY);
}

/*
 * A live count reached 2^31 (lunq_stats.h): fold soon.  Out of line, on
 * the IO path at most once per 2^31 IOs of a bucket (and on the few IOs
 * that reach it before the fold has run).
 */
static noinline void lunq_stats_fold_soon(struct lunq_stats *st)
{
	schedule_delayed_work(&st->fold, 0);
}

size_t lunq_stats_hist_bytes(void)
{
	size_t sz = 0;
	int k;

	/*
	 * the pieces follow each other: 4-byte counts in even numbers keep
	 * each one's atomic64_t sum and max 8-byte aligned
	 */
	BUILD_BUG_ON(LUNQ_LAT_BUCKETS % 2 || LUNQ_SIZE_BUCKETS % 2 ||
		     LUNQ_ALIGN_ROWS % 2);
	for (k = 0; k < LUNQ_NR_LIVE_HISTS; k++)
		sz += lunq_hist_size(k);
	return sz;
}

int lunq_stats_alloc_in(struct lunq_stats *st, void *buf)
{
	char *p = buf;
	int k;

	memset(st->carry, 0, sizeof(st->carry));
	memset(st->hist, 0, sizeof(st->hist));
	st->own = false;
	mutex_init(&st->fold_lock);
	seqcount_mutex_init(&st->fold_seq, &st->fold_lock);
	INIT_DELAYED_WORK(&st->fold, lunq_stats_fold_work);
	st->pc = p ? alloc_percpu(struct lunq_pcpu) : NULL;
	if (!st->pc)
		return -ENOMEM;
	for (k = 0; k < LUNQ_NR_LIVE_HISTS; k++) {
		st->hist[k] = (struct lunq_hist_live *)p;
		p += lunq_hist_size(k);
	}
	return 0;
}

int lunq_stats_alloc(struct lunq_stats *st)
{
	/* pages, not kmalloc's next power of two (33 KiB would take 64) */
	void *p = vzalloc(lunq_stats_hist_bytes());

	if (lunq_stats_alloc_in(st, p)) {
		kvfree(p);
		memset(st->hist, 0, sizeof(st->hist));
		return -ENOMEM;
	}
	st->own = true;
	return 0;
}

void lunq_stats_free(struct lunq_stats *st)
{
	int k;

	if (st->pc)
		cancel_delayed_work_sync(&st->fold);
	for (k = 0; k < LUNQ_NR_LIVE_HISTS; k++)
		kvfree(st->carry[k]);
	memset(st->carry, 0, sizeof(st->carry));
	free_percpu(st->pc);
	if (st->own)
		kvfree(st->hist[0]);
	st->own = false;
	if (st->pc)
		mutex_destroy(&st->fold_lock);
	st->pc = NULL;
	memset(st->hist, 0, sizeof(st->hist));
}

/*
 * A carry array for histogram @k (process context, may sleep): reclaim
 * must not wait on IO here, the device may be suspended (a resume's
 * merge, a fold while a table is swapped).
 */
static u64 *lunq_carry_alloc(int k)
{
	unsigned int noio = memalloc_noio_save();
	u64 *c = kvcalloc(lunq_hist_n(k), sizeof(u64), GFP_KERNEL);

	memalloc_noio_restore(noio);
	return c;
}

/*
 * Under @fold_lock: move 2^31 of each live count at 2^31 or more of
 * histogram @k into its carry (which exists).
 */
static void lunq_hist_fold_locked(struct lunq_stats *st, int k)
{
	struct lunq_hist_live *h = st->hist[k];
	u64 *c = st->carry[k];
	u32 i;

	for (i = 0; i < lunq_hist_n(k); i++) {
		if ((u32)atomic_read(&h->count[i]) < LUNQ_HIST_FOLD)
			continue;
		WRITE_ONCE(c[i], c[i] + LUNQ_HIST_FOLD);
		atomic_sub(LUNQ_HIST_FOLD, &h->count[i]);
	}
}

/* Whether a live count of histogram @k is at 2^31 or more. */
static bool lunq_hist_needs_fold(struct lunq_stats *st, int k)
{
	struct lunq_hist_live *h = st->hist[k];
	u32 i;

	for (i = 0; i < lunq_hist_n(k); i++)
		if ((u32)atomic_read(&h->count[i]) >= LUNQ_HIST_FOLD)
			return true;
	return false;
}

int lunq_stats_fold(struct lunq_stats *st)
{
	int k, err = 0;

	for (k = 0; k < LUNQ_NR_LIVE_HISTS; k++) {
		u64 *c = NULL;

		if (!lunq_hist_needs_fold(st, k))
			continue;
		if (!READ_ONCE(st->carry[k])) {
			c = lunq_carry_alloc(k);
			if (!c) {
				err = -ENOMEM;
				continue;
			}
		}
		mutex_lock(&st->fold_lock);
		write_seqcount_begin(&st->fold_seq);
		if (!st->carry[k]) {
			WRITE_ONCE(st->carry[k], c);
			c = NULL;
		}
		lunq_hist_fold_locked(st, k);
		write_seqcount_end(&st->fold_seq);
		mutex_unlock(&st->fold_lock);
		kvfree(c);
	}
	return err;
}

/* Bucket @i of histogram @k, carry and live count (under fold_seq). */
static u64 lunq_hist_count(struct lunq_stats *st, int k, u32 i)
{
	const u64 *c = READ_ONCE(st->carry[k]);

	return (c ? READ_ONCE(c[i]) : 0) +
	       (u32)atomic_read(&st->hist[k]->count[i]);
}

/* Histogram @k's counts into @counts (LUNQ_HIST_BUCKETS, overwritten). */
static void lunq_hist_read(struct lunq_stats *st, int k, u64 *counts)
{
	u32 i, n = lunq_hist_n(k);

	memset(counts, 0, LUNQ_HIST_BUCKETS * sizeof(*counts));
	if (lunq_hist_is_size(k)) {
		for (i = 0; i < n; i++)
			counts[lunq_size_bucket(i)] = lunq_hist_count(st, k, i);
		return;
	}
	if (!lunq_hist_is_align(k)) {
		for (i = 0; i < n; i++)
			counts[LUNQ_LAT_FIRST + i] = lunq_hist_count(st, k, i);
		return;
	}
	for (i = 0; i < n; i++)
		counts[lunq_hist_idx_pow2(i)] = lunq_hist_count(st, k, i);
}

/* The sum of histogram @k's counts (under fold_seq). */
static u64 lunq_hist_count_all(struct lunq_stats *st, int k)
{
	u64 n = 0;
	u32 i;

	for (i = 0; i < lunq_hist_n(k); i++)
		n += lunq_hist_count(st, k, i);
	return n;
}

static noinline void lunq_hist_max(struct lunq_hist_live *h, u64 v)
{
	s64 old = atomic64_read(&h->max);

	while ((u64)old < v) {
		s64 seen = atomic64_cmpxchg(&h->max, old, v);

		if (seen == old)
			break;
		old = seen;
	}
}

/*
 * Count @v in @h, in bucket @idx (lunq_hist_idx(v)); @sum: add it to the
 * histogram's sum too (the size histograms' sums are the sector counters'
 * instead, lunq_stats_hist()).
 */
static __always_inline void lunq_hist_rec(struct lunq_stats *st,
					  struct lunq_hist_live *h, u32 idx,
					  u64 v, bool sum)
{
	/* a live count at 2^31: its sign bit (lunq_stats.h) */
	if (unlikely(atomic_add_negative(1, &h->count[idx])))
		lunq_stats_fold_soon(st);
	if (sum)
		atomic64_add(v, &h->sum);
	if (unlikely(v > (u64)atomic64_read(&h->max)))
		lunq_hist_max(h, v);
}

void lunq_stats_done(struct lunq_stats *st, enum req_op op, u64 sector,
		     u32 bytes, u64 wait_ns, u64 svc_ns)
{
	/* once: the per-CPU adds below would make the compiler reload it */
	struct lunq_pcpu __percpu *pc = st->pc;
	struct lunq_hist_live *const *h = st->hist;
	u32 ai, si;
	u64 al;
	bool w;

	this_cpu_inc(pc->v[LUNQ_ST_COMPLETED]);
	switch (op) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		break;
	case REQ_OP_DISCARD:
	case REQ_OP_SECURE_ERASE:
		this_cpu_inc(pc->v[LUNQ_ST_DISCARDS]);
		this_cpu_add(pc->v[LUNQ_ST_DISCARD_SECTORS], bytes >> 9);
		return;
	default:
		this_cpu_inc(pc->v[LUNQ_ST_OTHER]);
		return;
	}
	w = op == REQ_OP_WRITE;
	this_cpu_inc(pc->v[w ? LUNQ_ST_WRITES : LUNQ_ST_READS]);
	this_cpu_add(pc->v[w ? LUNQ_ST_WRITE_SECTORS : LUNQ_ST_READ_SECTORS],
		     bytes >> 9);
	if (wait_ns)
		this_cpu_add(pc->v[w ? LUNQ_ST_WRITE_WAIT_NS :
				      LUNQ_ST_READ_WAIT_NS], wait_ns);
	this_cpu_add(pc->v[w ? LUNQ_ST_WRITE_SVC_NS : LUNQ_ST_READ_SVC_NS],
		     svc_ns);
	if (sector & 7) {
		this_cpu_inc(pc->v[LUNQ_ST_MISALIGNED_4K]);
		if (w)
			this_cpu_inc(pc->v[LUNQ_ST_WRITE_MISALIGNED_4K]);
	}
	if (bytes & 4095) {
		this_cpu_inc(pc->v[LUNQ_ST_SIZE_NOT_4K]);
		if (w)
			this_cpu_inc(pc->v[LUNQ_ST_WRITE_SIZE_NOT_4K]);
	}
	/*
	 * The largest power of two dividing the byte offset, 2^(ffs + 9),
	 * counted by its log2 (lunq_stats.h); offset 0: 2^41, the overflow.
	 */
	ai = sector ? min_t(u32, __ffs64(sector) + 9, LUNQ_HIST_MAX_BITS) :
		      LUNQ_HIST_MAX_BITS;
	al = 1ULL << ai;
	si = lunq_hist_idx(bytes >> LUNQ_SIZE_SHIFT);	/* sectors */
	if (wait_ns) {
		u64 t = wait_ns + svc_ns;

		lunq_hist_rec(st, h[LUNQ_HIST_WAIT_READ + w],
			      lunq_lat_idx(wait_ns), wait_ns, true);
		lunq_hist_rec(st, h[LUNQ_HIST_SVC_READ + w],
			      lunq_lat_idx(svc_ns), svc_ns, true);
		lunq_hist_rec(st, h[LUNQ_HIST_TOTAL_READ + w], lunq_lat_idx(t),
			      t, true);
	} else {
		/* wait 0, total = service: once (lunq_stats.h) */
		lunq_hist_rec(st, h[LUNQ_HIST_NOWAIT_READ + w],
			      lunq_lat_idx(svc_ns), svc_ns, true);
	}
	lunq_hist_rec(st, h[LUNQ_HIST_SIZE], si, bytes, false);
	lunq_hist_rec(st, h[LUNQ_HIST_ALIGN], ai, al, true);
	if (w) {
		lunq_hist_rec(st, h[LUNQ_HIST_SIZE_WRITE], si, bytes, false);
		lunq_hist_rec(st, h[LUNQ_HIST_ALIGN_WRITE], ai, al, true);
	}
}

void lunq_stats_sum(struct lunq_stats *st, u64 *v)
{
	int cpu, i;

	for_each_possible_cpu(cpu) {
		struct lunq_pcpu *p = per_cpu_ptr(st->pc, cpu);

		for (i = 0; i < __LUNQ_ST_MAX; i++)
			v[i] += READ_ONCE(p->v[i]);
	}
}

u64 lunq_stats_read(struct lunq_stats *st, enum lunq_stat s)
{
	u64 v = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		v += READ_ONCE(per_cpu_ptr(st->pc, cpu)->v[s]);
	return v;
}

void lunq_stats_fast_sum(struct lunq_stats *st, struct lunq_span *io,
			 struct lunq_span *busy)
{
	int cpu;

	memset(io, 0, sizeof(*io));
	memset(busy, 0, sizeof(*busy));
	for_each_possible_cpu(cpu) {
		struct lunq_pcpu *p = per_cpu_ptr(st->pc, cpu);

		lunq_span_add_opens(io, &p->io);
		lunq_span_add_opens(busy, &p->busy);
	}
	smp_rmb();	/* opens before closes (lunq_busy.h) */
	for_each_possible_cpu(cpu) {
		struct lunq_pcpu *p = per_cpu_ptr(st->pc, cpu);

		lunq_span_add_closes(io, &p->io);
		lunq_span_add_closes(busy, &p->busy);
	}
}

/* The no-wait histogram that @kind includes, or -1 (lunq_stats.h). */
static int lunq_hist_nowait(enum lunq_hist_kind kind)
{
	switch (kind) {
	case LUNQ_HIST_WAIT_READ:
	case LUNQ_HIST_SVC_READ:
	case LUNQ_HIST_TOTAL_READ:
		return LUNQ_HIST_NOWAIT_READ;
	case LUNQ_HIST_WAIT_WRITE:
	case LUNQ_HIST_SVC_WRITE:
	case LUNQ_HIST_TOTAL_WRITE:
		return LUNQ_HIST_NOWAIT_WRITE;
	default:
		return -1;
	}
}

void lunq_stats_hist(struct lunq_stats *st, enum lunq_hist_kind kind,
		     u64 *counts, u64 *sum, u64 *max)
{
	struct lunq_hist_live *h = st->hist[kind];
	int z = lunq_hist_nowait(kind);
	bool wait = kind == LUNQ_HIST_WAIT_READ || kind == LUNQ_HIST_WAIT_WRITE;
	unsigned int seq;
	u64 m;
	u32 i;

	do {
		seq = read_seqcount_begin(&st->fold_seq);
		lunq_hist_read(st, kind, counts);
		if (z >= 0 && wait) {
			/* each no-wait IO waited 0 ns */
			counts[0] += lunq_hist_count_all(st, z);
		} else if (z >= 0) {
			for (i = 0; i < LUNQ_LAT_BUCKETS; i++)
				counts[LUNQ_LAT_FIRST + i] +=
					lunq_hist_count(st, z, i);
		}
	} while (read_seqcount_retry(&st->fold_seq, seq));
	*sum = atomic64_read(&h->sum);
	*max = atomic64_read(&h->max);
	if (lunq_hist_is_size(kind)) {
		/* the bytes of the reads and writes it counts */
		u64 v[__LUNQ_ST_MAX] = { 0 };

		lunq_stats_sum(st, v);
		*sum += (v[LUNQ_ST_WRITE_SECTORS] +
			 (kind == LUNQ_HIST_SIZE ? v[LUNQ_ST_READ_SECTORS] : 0)) << 9;
	}
	if (z < 0 || wait)
		return;
	*sum += atomic64_read(&st->hist[z]->sum);
	m = atomic64_read(&st->hist[z]->max);
	if (m > *max)
		*max = m;
}

/*
 * Counts since @prev of the latency histograms @a and @b and of the
 * no-wait ones @za and @zb (in their buckets if @zin, else all in bucket
 * 0: a wait of 0), into @win (LUNQ_HIST_BUCKETS, the layout's), 32 bits:
 * modulo 2^32, the difference of two is a window's count; @prev
 * (LUNQ_WIN_START, lunq_stats.h) becomes the counts now.
 */
static void lunq_stats_window(struct lunq_stats *st, int a, int b, int za,
			      int zb, bool zin, u32 *prev, u32 *win)
{
	u32 *lat = win + LUNQ_LAT_FIRST;
	unsigned int seq;
	u32 i, z0;

	/* the counts now into @win first, then less @prev */
	do {
		seq = read_seqcount_begin(&st->fold_seq);
		z0 = 0;
		for (i = 0; i < LUNQ_LAT_BUCKETS; i++) {
			u32 c = lunq_hist_count(st, a, i) +
				lunq_hist_count(st, b, i);
			u32 z = lunq_hist_count(st, za, i) +
				lunq_hist_count(st, zb, i);

			if (zin)
				c += z;
			else
				z0 += z;
			lat[i] = c;
		}
	} while (read_seqcount_retry(&st->fold_seq, seq));
	/* no latency is kept outside the live buckets but bucket 0's */
	memset(win, 0, LUNQ_LAT_FIRST * sizeof(*win));
	memset(lat + LUNQ_LAT_BUCKETS, 0,
	       (LUNQ_HIST_BUCKETS - LUNQ_LAT_FIRST - LUNQ_LAT_BUCKETS) *
	       sizeof(*win));
	/* those that did not wait, in one pass: a wait of 0 */
	win[0] = z0 - prev[LUNQ_WIN_ZERO];
	prev[LUNQ_WIN_ZERO] = z0;
	for (i = 0; i < LUNQ_LAT_BUCKETS; i++) {
		u32 now = lat[i];

		lat[i] = now - prev[i];
		prev[i] = now;
	}
}

u64 lunq_stats_svc_window(struct lunq_stats *st, u32 *prev, u32 *win)
{
	struct lunq_hist_live *const *h = st->hist;

	lunq_stats_window(st, LUNQ_HIST_SVC_READ, LUNQ_HIST_SVC_WRITE,
			  LUNQ_HIST_NOWAIT_READ, LUNQ_HIST_NOWAIT_WRITE, true,
			  prev, win);
	return atomic64_read(&h[LUNQ_HIST_SVC_READ]->sum) +
	       atomic64_read(&h[LUNQ_HIST_SVC_WRITE]->sum) +
	       atomic64_read(&h[LUNQ_HIST_NOWAIT_READ]->sum) +
	       atomic64_read(&h[LUNQ_HIST_NOWAIT_WRITE]->sum);
}

u64 lunq_stats_wait_window(struct lunq_stats *st, u32 *prev, u32 *win)
{
	struct lunq_hist_live *const *h = st->hist;

	lunq_stats_window(st, LUNQ_HIST_WAIT_READ, LUNQ_HIST_WAIT_WRITE,
			  LUNQ_HIST_NOWAIT_READ, LUNQ_HIST_NOWAIT_WRITE, false,
			  prev, win);
	return atomic64_read(&h[LUNQ_HIST_WAIT_READ]->sum) +
	       atomic64_read(&h[LUNQ_HIST_WAIT_WRITE]->sum);
}

void lunq_stats_zero(struct lunq_stats *st)
{
	int cpu, k;
	u32 i;

	for_each_possible_cpu(cpu) {
		struct lunq_pcpu *p = per_cpu_ptr(st->pc, cpu);

		for (i = 0; i < __LUNQ_ST_MAX; i++)
			WRITE_ONCE(p->v[i], 0);
	}
	mutex_lock(&st->fold_lock);
	write_seqcount_begin(&st->fold_seq);
	for (k = 0; k < LUNQ_NR_LIVE_HISTS; k++) {
		struct lunq_hist_live *h = st->hist[k];

		for (i = 0; i < lunq_hist_n(k); i++) {
			atomic_set(&h->count[i], 0);
			if (st->carry[k])
				WRITE_ONCE(st->carry[k][i], 0);
		}
		atomic64_set(&h->sum, 0);
		atomic64_set(&h->max, 0);
	}
	write_seqcount_end(&st->fold_seq);
	mutex_unlock(&st->fold_lock);
}

void lunq_stats_merge(struct lunq_stats *dst, struct lunq_stats *src)
{
	u64 *fresh[LUNQ_NR_LIVE_HISTS] = { NULL };
	u64 v[__LUNQ_ST_MAX] = { 0 };
	struct lunq_pcpu *p;
	int k, i;

	lunq_stats_sum(src, v);
	p = get_cpu_ptr(dst->pc);
	for (i = 0; i < __LUNQ_ST_MAX; i++)
		p->v[i] += v[i];
	put_cpu_ptr(dst->pc);
	/* @src is idle, its fold not running once cancelled */
	cancel_delayed_work_sync(&src->fold);
	for (k = 0; k < LUNQ_NR_LIVE_HISTS; k++)
		if (!dst->carry[k] && !src->carry[k] &&
		    lunq_hist_needs_fold(src, k))
			fresh[k] = lunq_carry_alloc(k);
	mutex_lock(&dst->fold_lock);
	write_seqcount_begin(&dst->fold_seq);
	for (k = 0; k < LUNQ_NR_LIVE_HISTS; k++) {
		struct lunq_hist_live *d = dst->hist[k], *s = src->hist[k];
		u64 m = atomic64_read(&s->max);
		bool steal = false;
		u64 *c;

		/* unless @dst's own fold installed one meanwhile */
		if (fresh[k] && !dst->carry[k]) {
			WRITE_ONCE(dst->carry[k], fresh[k]);
			fresh[k] = NULL;
		}
		/*
		 * @dst's carry; none: @src's, taken over, each bucket's
		 * read before it is rewritten; neither (a fresh one's
		 * allocation failed): every count below 2^32, added live
		 * (the fold follows)
		 */
		c = dst->carry[k];
		if (!c && src->carry[k]) {
			c = src->carry[k];
			steal = true;
		}
		for (i = 0; i < lunq_hist_n(k); i++) {
			u64 t = lunq_hist_count(src, k, i);
			u64 hi = c ? t & ~(u64)(LUNQ_HIST_FOLD - 1) : 0;

			/* @dst's live counts are below 2^31 + 2^31 after */
			if (steal)
				c[i] = hi;
			else if (hi)
				c[i] += hi;
			atomic_add((u32)(t - hi), &d->count[i]);
		}
		if (steal) {
			WRITE_ONCE(dst->carry[k], c);
			WRITE_ONCE(src->carry[k], NULL);
		}
		atomic64_add(atomic64_read(&s->sum), &d->sum);
		if (m > (u64)atomic64_read(&d->max))
			atomic64_set(&d->max, m);
	}
	write_seqcount_end(&dst->fold_seq);
	mutex_unlock(&dst->fold_lock);
	for (k = 0; k < LUNQ_NR_LIVE_HISTS; k++) {
		kvfree(fresh[k]);
		if (lunq_hist_needs_fold(dst, k))
			lunq_stats_fold_soon(dst);
	}
}
