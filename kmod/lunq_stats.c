// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq statistics, see lunq_stats.h.
 */
#include <linux/blk_types.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>
#include "lunq_stats.h"

static bool lunq_hist_is_align(int k)
{
	return k == LUNQ_HIST_ALIGN || k == LUNQ_HIST_ALIGN_WRITE;
}

/* The counts histogram @k keeps (lunq_stats.h). */
static u32 lunq_hist_n(int k)
{
	return lunq_hist_is_align(k) ? LUNQ_ALIGN_ROWS : LUNQ_HIST_BUCKETS;
}

static size_t lunq_hist_size(int k)
{
	return struct_size((struct lunq_hist_live *)NULL, count, lunq_hist_n(k));
}

int lunq_stats_alloc(struct lunq_stats *st)
{
	size_t sz = 0;
	char *p;
	int k;

	for (k = 0; k < LUNQ_NR_LIVE_HISTS; k++)
		sz += lunq_hist_size(k);
	st->pc = alloc_percpu(struct lunq_pcpu);
	/* pages, not kmalloc's next power of two (93 KiB would take 128) */
	p = vzalloc(sz);
	if (!st->pc || !p) {
		free_percpu(st->pc);
		kvfree(p);
		st->pc = NULL;
		return -ENOMEM;
	}
	for (k = 0; k < LUNQ_NR_LIVE_HISTS; k++) {
		st->hist[k] = (struct lunq_hist_live *)p;
		p += lunq_hist_size(k);
	}
	return 0;
}

void lunq_stats_free(struct lunq_stats *st)
{
	free_percpu(st->pc);
	kvfree(st->hist[0]);
	st->pc = NULL;
	memset(st->hist, 0, sizeof(st->hist));
}

/* Histogram @k's counts into @counts (LUNQ_HIST_BUCKETS, overwritten). */
static void lunq_hist_read(struct lunq_stats *st, int k, u64 *counts)
{
	struct lunq_hist_live *h = st->hist[k];
	u32 i;

	if (!lunq_hist_is_align(k)) {
		for (i = 0; i < LUNQ_HIST_BUCKETS; i++)
			counts[i] = atomic64_read(&h->count[i]);
		return;
	}
	memset(counts, 0, LUNQ_HIST_BUCKETS * sizeof(*counts));
	for (i = 0; i < LUNQ_ALIGN_ROWS; i++)
		counts[lunq_hist_idx_pow2(i)] = atomic64_read(&h->count[i]);
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
static __always_inline void lunq_hist_rec(struct lunq_hist_live *h, u32 idx,
					  u64 v, bool sum)
{
	atomic64_inc(&h->count[idx]);
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
	si = lunq_hist_idx(bytes);
	if (wait_ns) {
		u64 t = wait_ns + svc_ns;

		lunq_hist_rec(h[LUNQ_HIST_WAIT_READ + w],
			      lunq_hist_idx(wait_ns), wait_ns, true);
		lunq_hist_rec(h[LUNQ_HIST_SVC_READ + w],
			      lunq_hist_idx(svc_ns), svc_ns, true);
		lunq_hist_rec(h[LUNQ_HIST_TOTAL_READ + w], lunq_hist_idx(t),
			      t, true);
	} else {
		/* wait 0, total = service: once (lunq_stats.h) */
		lunq_hist_rec(h[LUNQ_HIST_NOWAIT_READ + w],
			      lunq_hist_idx(svc_ns), svc_ns, true);
	}
	lunq_hist_rec(h[LUNQ_HIST_SIZE], si, bytes, false);
	lunq_hist_rec(h[LUNQ_HIST_ALIGN], ai, al, true);
	if (w) {
		lunq_hist_rec(h[LUNQ_HIST_SIZE_WRITE], si, bytes, false);
		lunq_hist_rec(h[LUNQ_HIST_ALIGN_WRITE], ai, al, true);
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

/* The no-wait histogram that @kind includes, or NULL (lunq_stats.h). */
static struct lunq_hist_live *lunq_hist_nowait(struct lunq_stats *st,
					       enum lunq_hist_kind kind)
{
	switch (kind) {
	case LUNQ_HIST_WAIT_READ:
	case LUNQ_HIST_SVC_READ:
	case LUNQ_HIST_TOTAL_READ:
		return st->hist[LUNQ_HIST_NOWAIT_READ];
	case LUNQ_HIST_WAIT_WRITE:
	case LUNQ_HIST_SVC_WRITE:
	case LUNQ_HIST_TOTAL_WRITE:
		return st->hist[LUNQ_HIST_NOWAIT_WRITE];
	default:
		return NULL;
	}
}

void lunq_stats_hist(struct lunq_stats *st, enum lunq_hist_kind kind,
		     u64 *counts, u64 *sum, u64 *max)
{
	struct lunq_hist_live *h = st->hist[kind];
	struct lunq_hist_live *z = lunq_hist_nowait(st, kind);
	bool wait = kind == LUNQ_HIST_WAIT_READ || kind == LUNQ_HIST_WAIT_WRITE;
	u64 n = 0, m;
	u32 i;

	lunq_hist_read(st, kind, counts);
	*sum = atomic64_read(&h->sum);
	*max = atomic64_read(&h->max);
	if (kind == LUNQ_HIST_SIZE || kind == LUNQ_HIST_SIZE_WRITE) {
		/* the bytes of the reads and writes it counts */
		u64 v[__LUNQ_ST_MAX] = { 0 };

		lunq_stats_sum(st, v);
		*sum += (v[LUNQ_ST_WRITE_SECTORS] +
			 (kind == LUNQ_HIST_SIZE ? v[LUNQ_ST_READ_SECTORS] : 0)) << 9;
	}
	if (!z)
		return;
	if (wait) {
		/* each no-wait IO waited 0 ns */
		for (i = 0; i < LUNQ_HIST_BUCKETS; i++)
			n += atomic64_read(&z->count[i]);
		counts[0] += n;
		return;
	}
	for (i = 0; i < LUNQ_HIST_BUCKETS; i++)
		counts[i] += atomic64_read(&z->count[i]);
	*sum += atomic64_read(&z->sum);
	m = atomic64_read(&z->max);
	if (m > *max)
		*max = m;
}

u64 lunq_stats_svc_window(struct lunq_stats *st, u32 *prev, u32 *win)
{
	struct lunq_hist_live *r = st->hist[LUNQ_HIST_SVC_READ];
	struct lunq_hist_live *w = st->hist[LUNQ_HIST_SVC_WRITE];
	struct lunq_hist_live *zr = st->hist[LUNQ_HIST_NOWAIT_READ];
	struct lunq_hist_live *zw = st->hist[LUNQ_HIST_NOWAIT_WRITE];
	u32 i;

	/* modulo 2^32: the difference of two is a window's count */
	for (i = 0; i < LUNQ_HIST_BUCKETS; i++) {
		u32 c = atomic64_read(&r->count[i]) +
			atomic64_read(&w->count[i]) +
			atomic64_read(&zr->count[i]) +
			atomic64_read(&zw->count[i]);

		win[i] = c - prev[i];
		prev[i] = c;
	}
	return atomic64_read(&r->sum) + atomic64_read(&w->sum) +
	       atomic64_read(&zr->sum) + atomic64_read(&zw->sum);
}

u64 lunq_stats_wait_window(struct lunq_stats *st, u32 *prev, u32 *win)
{
	struct lunq_hist_live *r = st->hist[LUNQ_HIST_WAIT_READ];
	struct lunq_hist_live *w = st->hist[LUNQ_HIST_WAIT_WRITE];
	struct lunq_hist_live *zr = st->hist[LUNQ_HIST_NOWAIT_READ];
	struct lunq_hist_live *zw = st->hist[LUNQ_HIST_NOWAIT_WRITE];
	u32 nowait = 0, prev0 = prev[0];
	u32 i;

	for (i = 0; i < LUNQ_HIST_BUCKETS; i++) {
		u32 c = atomic64_read(&r->count[i]) +
			atomic64_read(&w->count[i]);

		nowait += atomic64_read(&zr->count[i]) +
			  atomic64_read(&zw->count[i]);
		win[i] = c - prev[i];
		prev[i] = c;
	}
	/* those that did not wait, in one pass: a wait of 0 */
	prev[0] += nowait;
	win[0] = prev[0] - prev0;
	return atomic64_read(&r->sum) + atomic64_read(&w->sum);
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
	for (k = 0; k < LUNQ_NR_LIVE_HISTS; k++) {
		struct lunq_hist_live *h = st->hist[k];

		for (i = 0; i < lunq_hist_n(k); i++)
			atomic64_set(&h->count[i], 0);
		atomic64_set(&h->sum, 0);
		atomic64_set(&h->max, 0);
	}
}

void lunq_stats_merge(struct lunq_stats *dst, struct lunq_stats *src)
{
	u64 v[__LUNQ_ST_MAX] = { 0 };
	struct lunq_pcpu *p;
	int k, i;

	lunq_stats_sum(src, v);
	p = get_cpu_ptr(dst->pc);
	for (i = 0; i < __LUNQ_ST_MAX; i++)
		p->v[i] += v[i];
	put_cpu_ptr(dst->pc);
	for (k = 0; k < LUNQ_NR_LIVE_HISTS; k++) {
		struct lunq_hist_live *d = dst->hist[k], *s = src->hist[k];
		u64 m = atomic64_read(&s->max);

		for (i = 0; i < lunq_hist_n(k); i++)
			atomic64_add(atomic64_read(&s->count[i]), &d->count[i]);
		atomic64_add(atomic64_read(&s->sum), &d->sum);
		if (m > (u64)atomic64_read(&d->max))
			atomic64_set(&d->max, m);
	}
}
