/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq's lock-free time integrals: the lock-free path's active time
 * (iostat's rlentime) and its busy time (%b, rtime), without the device
 * lock.  Pure logic apart from the per-CPU plumbing, which is the
 * caller's: KUnit (lunq_busy_test.c) drives it with an array of CPUs.
 *
 * Both are integrals of a count of open intervals: an IO from its send to
 * its completion, a busy period from the IO that takes the lock-free
 * path's slot count from 0 to 1 to the one that takes it from 1 to 0.  An
 * interval opened at t0 adds n += 1, t -= t0 to the opening CPU's sums, its
 * close at t1 adds n += 1, t += t1 to the closing CPU's (another CPU, often).
 * Summed over the CPUs (modulo 2^64),
 *   open.t + close.t + (open.n - close.n) * now
 * is the integral up to @now: a closed interval adds t1 - t0, an open one
 * now - t0.  open.n counts the intervals ever opened (lunq_span_opened()).
 *
 * A reader on another CPU may see an edge half written.  Each edge writes
 * its two words in the order that makes a half-seen edge read as less,
 * never more: an open writes t before n, a close n before t, and the
 * reader reads the open's n before its t and the close's t before its n.
 * It reads every CPU's opens first, then every CPU's closes
 * (lunq_span_add_opens(), lunq_span_add_closes()), and the last slot of
 * a busy period closes it before the count shows 0 (lunq_busy_put_if()), so
 * a reader that sees a period's open sees the close of the one before.
 * An unfinished view is short of the truth, by up to the clock itself (a
 * wrap below 0); lunq_span_rd() holds the last value then.  A view can be
 * ahead only by what passes between an edge's clock read and its writes
 * (preemption is off there: nanoseconds, an interrupt's microseconds);
 * the view holds until the truth passes it.  Readers see a monotone value
 * that is the exact sum as soon as the edges are written.  The caller
 * keeps an edge on one CPU (preemption off between the two writes).
 */
#ifndef LUNQ_BUSY_H
#define LUNQ_BUSY_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/atomic.h>
#include <asm/barrier.h>

/* One CPU's edges of one integral. */
struct lunq_span {
	u64 on, ot;		/* opens: count, - sum of their times */
	u64 cn, ct;		/* closes: count, sum of their times */
};

/* Opens an interval at @t0 (this CPU's @s, preemption off). */
static inline void lunq_span_open(struct lunq_span *s, u64 t0)
{
	WRITE_ONCE(s->ot, s->ot - t0);
	smp_wmb();		/* t before n: see above */
	WRITE_ONCE(s->on, s->on + 1);
}

/* Closes an interval at @t1 (this CPU's @s, preemption off). */
static inline void lunq_span_close(struct lunq_span *s, u64 t1)
{
	WRITE_ONCE(s->cn, s->cn + 1);
	smp_wmb();		/* n before t: see above */
	WRITE_ONCE(s->ct, s->ct + t1);
}

/*
 * Gives back a slot of the busy count @n (this CPU's @s, preemption off).
 * The slot that was the last closes the busy period first, when the
 * period is summed, then lets the count show 0: a later period's open
 * comes after this close for every reader.  Whether a period is summed
 * (*@summed) is written by the slot that opened it, after taking the
 * count from 0 to 1 and before giving its slot back (fully ordered): read
 * here only by the last slot, it is that period's.  The close is at @t1,
 * or, with @t1 0, at @clock() read then (a giver that keeps no times
 * reads the clock only to close a summed period).  When a slot was taken
 * meanwhile, the period goes on: it opens again at the same time (exact).
 * True when the count reached 0.
 */
static __always_inline bool lunq_busy_put_if(atomic_t *n, const bool *summed,
					     struct lunq_span *s, u64 t1,
					     u64 (*clock)(void))
{
	int v = atomic_read(n);
	bool sum;

	for (;;) {
		if (v != 1) {
			if (atomic_try_cmpxchg(n, &v, v - 1))
				return false;
			continue;
		}
		/* the count before the flag: the opener's put is ordered */
		smp_rmb();
		sum = READ_ONCE(*summed);
		if (sum) {
			if (!t1)
				t1 = clock();
			lunq_span_close(s, t1);
		}
		if (atomic_try_cmpxchg(n, &v, 0))
			return true;
		if (sum)
			lunq_span_open(s, t1);
	}
}

/*
 * A reader (any CPU) adds every CPU's opens into @sum, then every CPU's
 * closes, with smp_rmb() between the two passes (lunq_busy_put_if()).
 */
static inline void lunq_span_add_opens(struct lunq_span *sum,
				       const struct lunq_span *s)
{
	sum->on += READ_ONCE(s->on);
	smp_rmb();	/* n before t: pairs with lunq_span_open()'s smp_wmb() */
	sum->ot += READ_ONCE(s->ot);
}

static inline void lunq_span_add_closes(struct lunq_span *sum,
					const struct lunq_span *s)
{
	sum->ct += READ_ONCE(s->ct);
	smp_rmb();	/* t before n: pairs with lunq_span_close()'s smp_wmb() */
	sum->cn += READ_ONCE(s->cn);
}

/* The integral of the sum @sum up to @now (ns; modulo 2^64). */
static inline u64 lunq_span_value(const struct lunq_span *sum, u64 now)
{
	return sum->ot + sum->ct + (sum->on - sum->cn) * now;
}

/* Intervals ever opened (the sum's). */
static inline u64 lunq_span_opened(const struct lunq_span *sum)
{
	return sum->on;
}

/*
 * A reader's view of an integral (under the reader's own lock): what it
 * last returned, since the baseline @base.
 */
struct lunq_span_rd {
	u64 base, val;
};

/* Start counting from the raw integral @raw (a reset). */
static inline void lunq_span_rd_init(struct lunq_span_rd *r, u64 raw)
{
	r->base = raw;
	r->val = 0;
}

/*
 * The integral since the baseline, from the raw integral @raw
 * (lunq_span_value()): never less than the last answer (see above).
 */
static inline u64 lunq_span_rd(struct lunq_span_rd *r, u64 raw)
{
	s64 d = (s64)(raw - r->base - r->val);

	if (d > 0)
		r->val += d;
	return r->val;
}

#endif /* LUNQ_BUSY_H */
