// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq events, see lunq_events.h.
 */
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/string.h>
#include "lunq_events.h"

static const struct lunq_ev_sink *lunq_ev_sink;

void lunq_ev_set_sink(const struct lunq_ev_sink *sink)
{
	WRITE_ONCE(lunq_ev_sink, sink);
}

static bool lunq_ev_listening(void)
{
	const struct lunq_ev_sink *sink = READ_ONCE(lunq_ev_sink);

	return sink && sink->listening();
}

static void lunq_evq_work(struct work_struct *work)
{
	struct lunq_evq *q = container_of(work, struct lunq_evq, work);
	const struct lunq_ev_sink *sink;
	char name[LUNQ_NAME_MAX];
	struct lunq_ev ev;

	for (;;) {
		spin_lock_irq(&q->lock);
		if (!q->n) {
			spin_unlock_irq(&q->lock);
			return;
		}
		ev = q->ring[q->head];
		q->head = (q->head + 1) % LUNQ_EVQ_SIZE;
		q->n--;
		memcpy(name, q->name, sizeof(name));
		spin_unlock_irq(&q->lock);
		sink = READ_ONCE(lunq_ev_sink);
		if (sink)
			sink->send(name, &ev);
	}
}

void lunq_evq_init(struct lunq_evq *q)
{
	spin_lock_init(&q->lock);
	INIT_WORK(&q->work, lunq_evq_work);
}

void lunq_evq_stop(struct lunq_evq *q)
{
	cancel_work_sync(&q->work);
}

void lunq_evq_set_name(struct lunq_evq *q, const char *name)
{
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	strscpy(q->name, name, sizeof(q->name));
	spin_unlock_irqrestore(&q->lock, flags);
}

/*
 * Under @q->lock: may one more event of @kind go at @now?  @now is the
 * poster's clock read, taken before the lock: a poster on another CPU may
 * have moved the window past it, hence the signed differences here and in
 * lunq_ev_qfull() (unsigned, an older @now would wrap and restart the
 * window, letting another LUNQ_EV_PER_SEC events through).
 */
static bool lunq_ev_allowed(struct lunq_evq *q, unsigned int kind, u64 now)
{
	if ((s64)(now - q->win_start[kind]) >= (s64)NSEC_PER_SEC) {
		q->win_start[kind] = now;
		q->win_n[kind] = 0;
	}
	if (q->win_n[kind] >= LUNQ_EV_PER_SEC || q->n == LUNQ_EVQ_SIZE) {
		q->suppressed[kind]++;
		q->dropped++;
		return false;
	}
	q->win_n[kind]++;
	return true;
}

static void lunq_ev_queue(struct lunq_evq *q, struct lunq_ev *ev)
{
	ev->suppressed = q->suppressed[ev->kind];
	q->suppressed[ev->kind] = 0;
	q->ring[(q->head + q->n) % LUNQ_EVQ_SIZE] = *ev;
	q->n++;
}

void lunq_ev_post(struct lunq_evq *q, struct lunq_ev *ev)
{
	unsigned long flags;
	bool queued = false;

	if (!lunq_ev_listening())
		return;
	spin_lock_irqsave(&q->lock, flags);
	if (lunq_ev_allowed(q, ev->kind, ev->t)) {
		lunq_ev_queue(q, ev);
		queued = true;
	}
	spin_unlock_irqrestore(&q->lock, flags);
	if (queued)
		schedule_work(&q->work);
}

void lunq_ev_qfull(struct lunq_evq *q, u64 now)
{
	struct lunq_ev ev = { .kind = LUNQ_EV_QFULL, .t = now };
	unsigned long flags;
	bool queued = false;

	if (!lunq_ev_listening())
		return;
	spin_lock_irqsave(&q->lock, flags);
	q->qfull_count++;
	/* a storm: the first answer, then one event per gap with the count */
	if ((s64)(now - q->win_start[LUNQ_EV_QFULL]) >=
	    (s64)LUNQ_EV_QFULL_GAP_NS &&
	    q->n < LUNQ_EVQ_SIZE) {
		q->win_start[LUNQ_EV_QFULL] = now;
		ev.count = q->qfull_count;
		q->qfull_count = 0;
		lunq_ev_queue(q, &ev);
		queued = true;
	}
	spin_unlock_irqrestore(&q->lock, flags);
	if (queued)
		schedule_work(&q->work);
}

u64 lunq_evq_dropped(struct lunq_evq *q)
{
	unsigned long flags;
	u64 n;

	spin_lock_irqsave(&q->lock, flags);
	n = q->dropped;
	spin_unlock_irqrestore(&q->lock, flags);
	return n;
}

void lunq_evq_reset(struct lunq_evq *q)
{
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	q->dropped = 0;
	spin_unlock_irqrestore(&q->lock, flags);
}

void lunq_evq_add_dropped(struct lunq_evq *q, u64 n)
{
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	q->dropped += n;
	spin_unlock_irqrestore(&q->lock, flags);
}
