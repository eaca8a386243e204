// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq, the host's wait queue and slots (see lunq_sched.h).
 * Pure logic: callers hold the lock that protects the structures.
 */
#include <linux/bug.h>
#include "lunq_sched.h"

static inline struct lunq_waiter *lunq_node(struct rb_node *n)
{
	return rb_entry(n, struct lunq_waiter, node);
}

static bool lunq_before(const struct lunq_waiter *a,
			const struct lunq_waiter *b)
{
	return a->lba < b->lba || (a->lba == b->lba && a->seq < b->seq);
}

static void lunq_tree_insert(struct lunq_queue *q, struct lunq_waiter *w)
{
	struct rb_node **link = &q->tree.rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		if (lunq_before(w, lunq_node(parent)))
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&w->node, parent, link);
	rb_insert_color(&w->node, &q->tree);
	w->in_tree = true;
}

void lunq_queue_init(struct lunq_queue *q)
{
	INIT_LIST_HEAD(&q->arrival);
	q->tree = RB_ROOT;
	q->barrier = NULL;
	q->cursor = 0;
	q->seq = 0;
	q->nr = 0;
	q->reads = 0;
	q->mode = LUNQ_SCHED_FIFO;
	q->max_wait_ns = 0;
	q->age_ns = 0;
	q->aged_reads = 0;
}

void lunq_queue_add(struct lunq_queue *q, struct lunq_waiter *w, u64 lba,
		    bool barrier, u64 now)
{
	w->lba = lba;
	w->seq = q->seq++;
	w->t_queued = now;
	w->barrier = barrier;
	w->in_tree = false;
	list_add_tail(&w->arrival, &q->arrival);
	q->nr++;
	q->reads += w->read;
	if (barrier) {
		if (!q->barrier)
			q->barrier = w;
	} else if (!q->barrier) {
		lunq_tree_insert(q, w);
	}
}

/*
 * The first barrier left: the waiters behind it, up to the next barrier,
 * become sortable.
 */
static void lunq_queue_open(struct lunq_queue *q)
{
	struct lunq_waiter *w;

	q->barrier = NULL;
	list_for_each_entry(w, &q->arrival, arrival) {
		if (w->barrier) {
			q->barrier = w;
			return;
		}
		if (!w->in_tree)
			lunq_tree_insert(q, w);
	}
}

static void lunq_queue_remove(struct lunq_queue *q, struct lunq_waiter *w)
{
	list_del_init(&w->arrival);
	if (w->in_tree) {
		rb_erase(&w->node, &q->tree);
		w->in_tree = false;
	}
	q->nr--;
	q->reads -= w->read;
	if (w == q->barrier)
		lunq_queue_open(q);
}

/* Lowest (lba, seq) with lba >= cursor, else the lowest: the two runs. */
static struct lunq_waiter *lunq_disksort_pick(struct lunq_queue *q)
{
	struct rb_node *n = q->tree.rb_node;
	struct lunq_waiter *best = NULL;

	while (n) {
		struct lunq_waiter *w = lunq_node(n);

		if (w->lba >= q->cursor) {
			best = w;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	if (!best && q->tree.rb_node)
		best = lunq_node(rb_first(&q->tree));
	return best;
}

struct lunq_waiter *lunq_queue_next(struct lunq_queue *q, u64 now)
{
	struct lunq_waiter *w, *oldest;
	u64 bound = q->max_wait_ns ?: q->age_ns;

	if (!q->nr)
		return NULL;
	oldest = list_first_entry(&q->arrival, struct lunq_waiter, arrival);
	/*
	 * The oldest waiter is either sortable or the first barrier, so
	 * taking it never breaks the barrier rule.
	 */
	if (bound && now >= oldest->t_queued &&
	    now - oldest->t_queued >= bound) {
		w = oldest;
		/* a read that the sort would have passed by once more */
		if (q->mode == LUNQ_SCHED_DISKSORT && w->read &&
		    q->tree.rb_node && lunq_disksort_pick(q) != w)
			q->aged_reads++;
	} else if (q->mode == LUNQ_SCHED_DISKSORT && q->tree.rb_node) {
		w = lunq_disksort_pick(q);
	} else {
		w = oldest;	/* fifo, or only a barrier is eligible */
	}

	lunq_queue_remove(q, w);
	if (w->lba != LUNQ_NO_LBA)
		q->cursor = w->lba;
	return w;
}

struct lunq_waiter *lunq_queue_pop_oldest(struct lunq_queue *q)
{
	struct lunq_waiter *w;

	if (!q->nr)
		return NULL;
	w = list_first_entry(&q->arrival, struct lunq_waiter, arrival);
	lunq_queue_remove(q, w);
	return w;
}

u64 lunq_queue_oldest(const struct lunq_queue *q)
{
	return list_first_entry(&q->arrival, struct lunq_waiter,
				arrival)->t_queued;
}

void lunq_host_init(struct lunq_host *h)
{
	lunq_queue_init(&h->q);
	lunq_throttle_init(&h->thr);
	h->inflight = 0;
	h->max_inflight = 0;
	h->max_waiting = 0;
	h->dispatching = false;
	INIT_LIST_HEAD(&h->retry);
	h->nr_retry = 0;
	h->blocked = false;
	h->unblock_at = 0;
	h->fenced = 0;
}

static void lunq_host_take(struct lunq_host *h)
{
	h->inflight++;
	if (h->inflight > h->max_inflight)
		h->max_inflight = h->inflight;
}

bool lunq_host_try_send(struct lunq_host *h, u64 lba)
{
	if (h->q.nr || h->nr_retry || h->blocked || h->fenced ||
	    h->dispatching || !lunq_host_slot_free(h))
		return false;
	lunq_host_take(h);
	if (lba != LUNQ_NO_LBA)
		h->q.cursor = lba;
	return true;
}

void lunq_host_wait(struct lunq_host *h, struct lunq_waiter *w, u64 lba,
		    bool barrier, u64 now)
{
	lunq_queue_add(&h->q, w, lba, barrier, now);
	if (h->q.nr > h->max_waiting)
		h->max_waiting = h->q.nr;
}

struct lunq_waiter *lunq_host_next(struct lunq_host *h, u64 now)
{
	struct lunq_waiter *w;

	if (h->blocked || h->fenced || !lunq_host_slot_free(h))
		return NULL;
	if (h->nr_retry) {
		w = list_first_entry(&h->retry, struct lunq_waiter, arrival);
		list_del_init(&w->arrival);
		h->nr_retry--;
		if (w->lba != LUNQ_NO_LBA)
			h->q.cursor = w->lba;
	} else if (h->q.nr) {
		w = lunq_queue_next(&h->q, now);
	} else {
		return NULL;
	}
	lunq_host_take(h);
	return w;
}

bool lunq_host_needs_kick(const struct lunq_host *h)
{
	return (h->q.nr || h->nr_retry) && !h->blocked && !h->fenced &&
	       !h->dispatching && lunq_host_slot_free(h);
}

void lunq_host_requeue(struct lunq_host *h, struct lunq_waiter *w, u64 lba,
		       u64 now, u64 delay_ns)
{
	if (!WARN_ON_ONCE(!h->inflight))
		h->inflight--;
	w->lba = lba;
	w->barrier = false;
	w->in_tree = false;
	list_add_tail(&w->arrival, &h->retry);
	h->nr_retry++;
	lunq_host_block(h, now + delay_ns);
}

void lunq_host_retry_again(struct lunq_host *h, struct lunq_waiter *w,
			   u64 now, u64 delay_ns)
{
	if (!WARN_ON_ONCE(!h->inflight))
		h->inflight--;
	list_add(&w->arrival, &h->retry);
	h->nr_retry++;
	lunq_host_block(h, now + delay_ns);
}

void lunq_host_fence(struct lunq_host *h)
{
	h->fenced++;
}

void lunq_host_unfence(struct lunq_host *h)
{
	if (!WARN_ON_ONCE(!h->fenced))
		h->fenced--;
}

void lunq_host_block(struct lunq_host *h, u64 until)
{
	if (!h->blocked || until > h->unblock_at)
		h->unblock_at = until;
	h->blocked = true;
}

bool lunq_host_unblock(struct lunq_host *h, u64 now)
{
	if (!h->blocked || now < h->unblock_at)
		return false;
	h->blocked = false;
	return true;
}

struct lunq_waiter *lunq_host_pop_any(struct lunq_host *h)
{
	struct lunq_waiter *w;

	if (!h->nr_retry)
		return lunq_queue_pop_oldest(&h->q);
	w = list_first_entry(&h->retry, struct lunq_waiter, arrival);
	list_del_init(&w->arrival);
	h->nr_retry--;
	return w;
}

bool lunq_host_done(struct lunq_host *h)
{
	if (!WARN_ON_ONCE(!h->inflight))
		h->inflight--;
	return lunq_host_needs_kick(h);
}

bool lunq_host_set(struct lunq_host *h, enum lunq_sched_mode mode,
		   u64 max_wait_ns)
{
	h->q.mode = mode;
	h->q.max_wait_ns = max_wait_ns;
	return lunq_host_needs_kick(h);
}

void lunq_host_reset_max(struct lunq_host *h)
{
	h->max_inflight = h->inflight;
	h->max_waiting = h->q.nr;
}
