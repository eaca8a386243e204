// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq model "array": "spindles" hdd spindles striped by "stripe_kb"
 * (RAID 0 over the LUN's capacity).  Stripe unit s of the LUN lives on
 * spindle s % spindles at (s / spindles) x stripe; an IO is cut at the
 * stripe units it crosses, each part served by its spindle as the hdd
 * model serves an IO (seek over the spindle's share of the capacity +
 * rotation + svc + xfer, in the order the array received them), the parts
 * on different spindles at the same time; the IO completes with its last
 * part.  With lun_order:sptf the member drives order their own queues,
 * as NCQ drives do: a command within one stripe unit that comes with a
 * cookie queues on its spindle; the drive holds spindle_depth of them
 * (the rest wait in the controller in arrival order and reach the drive
 * as it frees a slot), and when the head frees, the one of shortest
 * positioning time among those the drive held by then starts (the hdd's
 * pick, per spindle).  The queue is the hdd's (m->hdd.q, LUNQ_DRIVE_Q
 * commands for the whole array), kept in arrival order.  With the write
 * cache (wce) in front, what seed 004 calls "most disk arrays": many
 * drives and a cache.  State: each spindle's head, when it is free, and
 * how many commands its drive holds.  KUnit: lunq_model_array_test.c.
 */
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "lunq_model_base.h"

static u32 lunq_array_n(const struct lunq_model *m)
{
	return clamp_t(u32, m->cfg.spindles, 1, LUNQ_MAX_SPINDLES);
}

/* A spindle's share of the capacity: its full stroke. */
static u64 lunq_array_cap(const struct lunq_model *m)
{
	return max_t(u64, div_u64(m->cfg.capacity, lunq_array_n(m)), 1);
}

/*
 * Where @sector lives: its spindle (*@sp) and the spindle's sector
 * (returned); *@len of @sectors lie in its stripe unit.
 */
static u64 lunq_array_map(const struct lunq_model *m, u64 sector,
			  u32 sectors, u32 *sp, u32 *len)
{
	u64 unit = max_t(u64, (u64)m->cfg.stripe_kb * 2, 1);
	u64 off, stripe = div64_u64_rem(sector, unit, &off);

	*len = min_t(u64, sectors, unit - off);
	*sp = do_div(stripe, lunq_array_n(m));	/* stripe becomes stripe / n */
	return stripe * unit + off;
}

/* Seek + rotation of spindle @sp from its head to @local. */
static u64 lunq_array_pos(const struct lunq_model *m, u32 sp, u64 local)
{
	return lunq_hdd_position(&m->cfg, lunq_array_cap(m),
				 m->array.head[sp], local);
}

/* Spindle @sp serves @len at @local from max(@now, its head frees). */
static u64 lunq_array_part(struct lunq_model *m, u64 now, u32 sp,
			   u64 local, u32 len)
{
	struct lunq_model_array_state *a = &m->array;
	u64 start = max(now, a->head_free[sp]);
	u64 pos = lunq_array_pos(m, sp, local);

	a->head[sp] = local + len;
	a->head_free[sp] = start + lunq_model_busy(&m->cfg, local, len, pos);
	return a->head_free[sp];
}

static u64 lunq_array_start(struct lunq_model *m, u64 now, u64 sector,
			    u32 sectors)
{
	u64 end = now;

	while (sectors) {
		u32 sp, len;
		u64 local = lunq_array_map(m, sector, sectors, &sp, &len);

		end = max(end, lunq_array_part(m, now, sp, local, len));
		sector += len;
		sectors -= len;
	}
	return end;
}

/* The commands a spindle's drive holds: spindle_depth, 1..32. */
static u32 lunq_array_depth(const struct lunq_model *m)
{
	return clamp_t(u32, m->cfg.spindle_depth, 1, LUNQ_SPINDLE_Q_MAX);
}

/*
 * The spindle that serves queue entry @d: its own, or (after spindles
 * went down live) the one its number wraps to.
 */
static u32 lunq_array_dq_sp(const struct lunq_model *m,
			    const struct lunq_model_dq *d)
{
	return d->spindle % lunq_array_n(m);
}

bool lunq_array_enqueue(struct lunq_model *m, u64 now, u64 sector,
			u32 sectors, void *cookie)
{
	struct lunq_model_hdd_state *h = &m->hdd;
	u32 sp, len;
	u64 local = lunq_array_map(m, sector, sectors, &sp, &len);
	bool in = m->array.in_drive[sp] < lunq_array_depth(m);

	if (len < sectors || h->nq >= LUNQ_DRIVE_Q)
		return false;
	h->q[h->nq++] = (struct lunq_model_dq) {
		.cookie = cookie, .t = now, .sector = local,
		.sectors = sectors, .spindle = sp, .in_drive = in,
	};
	m->array.in_drive[sp] += in;
	return true;
}

/* Spindle @sp's drive has room: the controller sends it its oldest. */
static void lunq_array_refill(struct lunq_model *m, u32 sp)
{
	struct lunq_model_hdd_state *h = &m->hdd;
	u32 *in = &m->array.in_drive[sp];

	while (*in < lunq_array_depth(m)) {
		u32 j, next = LUNQ_DRIVE_Q;

		for (j = 0; j < h->nq; j++)
			if (h->q[j].spindle == sp && !h->q[j].in_drive &&
			    (next == LUNQ_DRIVE_Q || h->q[j].t < h->q[next].t))
				next = j;
		if (next == LUNQ_DRIVE_Q)
			return;
		/* it reaches the drive now, or when the head frees */
		h->q[next].in_drive = 1;
		h->q[next].t = max(h->q[next].t,
				   m->array.head_free[lunq_array_dq_sp(m, &h->q[next])]);
		(*in)++;
	}
}

void lunq_array_refill_all(struct lunq_model *m)
{
	u32 sp;

	for (sp = 0; sp < LUNQ_MAX_SPINDLES; sp++)
		lunq_array_refill(m, sp);
}

void lunq_array_unqueue_at(struct lunq_model *m, u32 i)
{
	struct lunq_model_hdd_state *h = &m->hdd;
	struct lunq_model_dq gone = h->q[i];
	u32 sp = gone.spindle;

	/* the rest keep their arrival order: the oldest of equals first */
	memmove(&h->q[i], &h->q[i + 1], (h->nq - i - 1) * sizeof(h->q[0]));
	h->nq--;
	if (!gone.in_drive || sp >= LUNQ_MAX_SPINDLES)
		return;
	if (m->array.in_drive[sp])
		m->array.in_drive[sp]--;
	lunq_array_refill(m, sp);
}

void *lunq_array_pick(struct lunq_model *m, u64 now, u64 *finish,
		      u32 *sectors)
{
	struct lunq_model_hdd_state *h = &m->hdd;
	u32 i, sp, best, first = LUNQ_DRIVE_Q;
	u64 at, best_pos = U64_MAX;
	void *cookie;

	/* the oldest command a drive holds whose head is free by @now */
	for (i = 0; i < h->nq; i++) {
		if (!h->q[i].in_drive ||
		    m->array.head_free[lunq_array_dq_sp(m, &h->q[i])] > now)
			continue;
		if (first == LUNQ_DRIVE_Q || h->q[i].t < h->q[first].t)
			first = i;
	}
	if (first == LUNQ_DRIVE_Q)
		return NULL;
	sp = lunq_array_dq_sp(m, &h->q[first]);
	/* the drive's commands there when its head frees compete (as hdd's) */
	at = max(m->array.head_free[sp], h->q[first].t);
	best = first;
	for (i = 0; i < h->nq; i++) {
		u64 pos;

		if (!h->q[i].in_drive || lunq_array_dq_sp(m, &h->q[i]) != sp ||
		    h->q[i].t > at)
			continue;
		pos = lunq_array_pos(m, sp, h->q[i].sector);
		if (pos < best_pos ||
		    (pos == best_pos && h->q[i].t < h->q[best].t)) {
			best_pos = pos;
			best = i;
		}
	}
	cookie = h->q[best].cookie;
	*sectors = h->q[best].sectors;
	*finish = lunq_array_part(m, at, sp, h->q[best].sector, *sectors);
	lunq_array_unqueue_at(m, best);
	return cookie;
}

u64 lunq_array_next(const struct lunq_model *m)
{
	const struct lunq_model_hdd_state *h = &m->hdd;
	u64 t = 0;
	u32 i;

	for (i = 0; i < h->nq; i++) {
		u64 f;

		if (!h->q[i].in_drive)
			continue;
		f = max_t(u64,
			  m->array.head_free[lunq_array_dq_sp(m, &h->q[i])], 1);
		if (!t || f < t)
			t = f;
	}
	return t;
}

static u64 lunq_array_free_at(const struct lunq_model *m)
{
	u32 i, n = lunq_array_n(m);
	u64 t = m->array.head_free[0];

	for (i = 1; i < n; i++)
		t = min(t, m->array.head_free[i]);
	return t;
}

const struct lunq_model_ops lunq_model_array = {
	.name = "array",
	.start = lunq_array_start,
	.free_at = lunq_array_free_at,
};
