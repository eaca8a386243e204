// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq device core, see lunq_core.h.
 */
#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "lunq_compat.h"
#include "lunq_core.h"
#include "lunq_trace.h"

/*
 * Waiters are sent by a work item, never from .end_io: end_io runs in
 * the lower driver's completion context (often hard or soft irq), and
 * submitting there is not allowed to block, while submit_bio() may sleep
 * for a request tag.  A bounded in-context path would still need this work
 * item as a fallback, so lunq keeps one path.  The queue is WQ_MEM_RECLAIM
 * because IO that frees memory may wait in it; WQ_HIGHPRI because the
 * dispatch delay adds to every waiter's latency.
 */
static struct workqueue_struct *lunq_wq;

/* The device timer only wakes the dispatcher, which does the work. */
static enum hrtimer_restart lunq_timer_fn(struct hrtimer *t)
{
	struct lunq_c *lc = container_of(t, struct lunq_c, timer);

	queue_work(lunq_wq, &lc->dispatch);
	return HRTIMER_NORESTART;
}

struct lunq_c *lunq_core_alloc(struct dm_target *ti, work_func_t dispatch,
			       work_func_t win_work, size_t room)
{
	size_t hist = lunq_stats_hist_bytes();
	/* ~42 KiB, ~52 with a window: pages, not kmalloc's power of two */
	struct lunq_c *lc = vzalloc(sizeof(*lc) + hist + room);

	BUILD_BUG_ON(sizeof(*lc) % 8);	/* the histograms' 8-byte pieces */
	if (!lc)
		return NULL;
	if (lunq_stats_alloc_in(&lc->st, lc + 1)) {
		vfree(lc);
		return NULL;
	}
	if (room)
		lc->win_room = (char *)(lc + 1) + hist;
	lc->ti = ti;
	spin_lock_init(&lc->lock);
	INIT_LIST_HEAD(&lc->qf_transit);
	lunq_zplug_init(&lc->zplug, NULL, 0, 0, 0);
	INIT_LIST_HEAD(&lc->zfail);
	mutex_init(&lc->msg_lock);
	mutex_init(&lc->pol_mutex);
	INIT_WORK(&lc->dispatch, dispatch);
	INIT_DELAYED_WORK(&lc->win_work, win_work);
	hrtimer_setup(&lc->timer, lunq_timer_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_ABS_SOFT);
	lunq_evq_init(&lc->evq);
	lc->pol.evq = &lc->evq;
	lunq_host_init(&lc->host);
	lunq_keys_init(&lc->keys);
	lc->t0 = ktime_get_ns();
	lc->crtime = lc->t0;
	lc->lun.t0 = lc->t0;
	lunq_integ_init(&lc->integ, lc->t0);
	lunq_span_rd_init(&lc->fast_rlen, 0);
	lunq_span_rd_init(&lc->fast_busy, 0);
	return lc;
}

void lunq_core_free(struct lunq_c *lc)
{
	/*
	 * The work re-arms the timer and the timer queues the work: stop the
	 * re-arming first (lc->dying, set by the caller), then the timer,
	 * then the work.  The window work is stopped and freed by the
	 * caller (lunq_win_stop(), lunq_win_free()).
	 */
	hrtimer_cancel(&lc->timer);
	cancel_work_sync(&lc->dispatch);
	lunq_evq_stop(&lc->evq);
	/* dm destroys a table only once no IO is in flight or waiting */
	WARN_ON_ONCE(lc->host.q.nr || lc->host.nr_retry || lc->host.inflight ||
		     lc->zplug.nr_plugged || !list_empty(&lc->zfail));
	kvfree(lc->zplug.zones);
	if (lc->model)
		vfree(lc->model->rc.e);
	vfree(lc->model);
	if (lc->lun.pool)
		lunq_pool_put(lc->lun.pool);
	if (lc->dev)
		dm_put_device(lc->ti, lc->dev);
	lunq_stats_free(&lc->st);
	lunq_pol_stop(&lc->pol);
	mutex_destroy(&lc->msg_lock);
	mutex_destroy(&lc->pol_mutex);
	kvfree(lc);
}









/*
 * The deadlines: the end of a retry delay or LUN reset, an sd restore, the
 * end of a plugged zoned write's wait.
 */
void lunq_arm_timer(struct lunq_c *lc)
{
	u64 at = lc->host.blocked ? lc->host.unblock_at : 0;
	u64 r = lunq_pol_deadline(&lc->pol);

	if (r && (!at || r < at))
		at = r;
	if (lc->qf_next && (!at || lc->qf_next < at))
		at = lc->qf_next;
	r = lc->model ? lunq_model_next(lc->model) : 0; /* the head frees */
	if (r && (!at || r < at))
		at = r;
	r = lunq_zplug_deadline(&lc->zplug);	/* a plugged write's bound */
	if (r && (!at || r < at))
		at = r;
	if (!at || lc->dying || (lc->timer_at && lc->timer_at <= at))
		return;
	lc->timer_at = at;
	hrtimer_start(&lc->timer, ns_to_ktime(at), HRTIMER_MODE_ABS_SOFT);
}

void lunq_kick(struct lunq_c *lc)
{
	queue_work(lunq_wq, &lc->dispatch);
}




void lunq_stats_reset(struct lunq_c *lc)
{
	lunq_stats_zero(&lc->st);
	lunq_evq_reset(&lc->evq);
	spin_lock_irq(&lc->lock);
	lunq_host_reset_max(&lc->host);
	lc->qfull = 0;
	lc->resets = 0;
	lc->aborted = 0;
	lc->retried = 0;
	lc->host.thr.changes = 0;
	lc->crtime = ktime_get_ns();
	lunq_integ_reset(&lc->integ, lc->crtime);
	lc->win_rebase = true;		/* its window's counts are gone */
	WRITE_ONCE(lc->host.thr.fast_max, atomic_read(&lc->host.thr.nfast));
	lunq_fast_integrals_reset(lc);
	spin_unlock_irq(&lc->lock);
}

void lunq_take_over(struct lunq_c *lc, struct lunq_c *old)
{
	struct lunq_integ g;
	u64 c[5], crtime, rlen, busy;
	u32 maxi, maxw;

	lunq_stats_merge(&lc->st, &old->st);
	lunq_evq_add_dropped(&lc->evq, lunq_evq_dropped(&old->evq));
	spin_lock_irq(&old->lock);
	c[0] = old->qfull;
	c[1] = old->resets;
	c[2] = old->aborted;
	c[3] = old->retried;
	c[4] = old->host.thr.changes;
	maxi = max(old->host.max_inflight, READ_ONCE(old->host.thr.fast_max));
	maxw = old->host.max_waiting;
	g = old->integ;
	/* idle: nothing lock-free is in flight */
	lunq_fast_integrals(old, &rlen, &busy);
	g.rlentime += rlen;
	g.rtime += busy;
	crtime = old->crtime;
	spin_unlock_irq(&old->lock);

	spin_lock_irq(&lc->lock);
	lc->qfull += c[0];
	lc->resets += c[1];
	lc->aborted += c[2];
	lc->retried += c[3];
	lc->host.thr.changes += c[4];
	lc->host.max_inflight = max(lc->host.max_inflight, maxi);
	lc->host.max_waiting = max(lc->host.max_waiting, maxw);
	lc->integ.wlentime += g.wlentime;
	lc->integ.rlentime += g.rlentime;
	lc->integ.wtime += g.wtime;
	lc->integ.rtime += g.rtime;
	lc->crtime = min(lc->crtime, crtime);	/* the counters it carries */
	spin_unlock_irq(&lc->lock);
}

void lunq_fast_integrals(struct lunq_c *lc, u64 *rlen, u64 *busy)
{
	struct lunq_span io, b;
	u64 now;

	lunq_stats_fast_sum(&lc->st, &io, &b);
	now = lunq_fast_clock();	/* after every edge the sums saw */
	*rlen = lunq_span_rd(&lc->fast_rlen, lunq_span_value(&io, now));
	*busy = lunq_span_rd(&lc->fast_busy, lunq_span_value(&b, now));
}

void lunq_fast_integrals_reset(struct lunq_c *lc)
{
	struct lunq_span io, b;
	u64 now, r, x;
	int k;

	/*
	 * The baselines: a half-written edge reads short (lunq_busy.h), so
	 * of two reads the larger (modulo 2^64) is whole.
	 */
	for (k = 0; k < 2; k++) {
		lunq_stats_fast_sum(&lc->st, &io, &b);
		now = lunq_fast_clock();
		r = lunq_span_value(&io, now);
		x = lunq_span_value(&b, now);
		if (!k || (s64)(r - lc->fast_rlen.base) > 0)
			lunq_span_rd_init(&lc->fast_rlen, r);
		if (!k || (s64)(x - lc->fast_busy.base) > 0)
			lunq_span_rd_init(&lc->fast_busy, x);
	}
}

void lunq_fill_stats(struct lunq_c *lc, u64 *v)
{
	struct lunq_host *h = &lc->host;
	u64 now, rlen, busy;

	memset(v, 0, __LUNQ_ST_MAX * sizeof(*v));
	lunq_stats_sum(&lc->st, v);
	v[LUNQ_ST_EVENTS_DROPPED] = lunq_evq_dropped(&lc->evq);
	v[LUNQ_ST_POOL_INFLIGHT] = lc->lun.pool ?
		atomic_read(&lc->lun.pool->inflight) : 0;

	spin_lock_irq(&lc->lock);
	now = ktime_get_ns();
	v[LUNQ_ST_THROTTLE] = h->thr.depth;
	v[LUNQ_ST_INFLIGHT] = h->inflight + atomic_read(&h->thr.nfast);
	v[LUNQ_ST_WAITING] = h->q.nr;
	v[LUNQ_ST_RETRYING] = h->nr_retry;
	v[LUNQ_ST_MAX_INFLIGHT] = max(h->max_inflight, READ_ONCE(h->thr.fast_max));
	v[LUNQ_ST_MAX_WAITING] = h->max_waiting;
	v[LUNQ_ST_OLDEST_WAIT_NS] = h->q.nr ?
		now - lunq_queue_oldest(&h->q) : 0;
	v[LUNQ_ST_LUN_INFLIGHT] = lc->lun.inflight + atomic_read(&h->thr.nfast);
	v[LUNQ_ST_QFULL] = lc->qfull;
	v[LUNQ_ST_RESETS] = lc->resets;
	v[LUNQ_ST_ABORTED] = lc->aborted;
	v[LUNQ_ST_RETRIED] = lc->retried;
	v[LUNQ_ST_THROTTLE_CHANGES] = h->thr.changes;
	lunq_integ_update(&lc->integ, now, lc->integ.nwait, lc->integ.nact);
	v[LUNQ_ST_SNAPTIME_NS] = now;
	v[LUNQ_ST_WLENTIME_NS] = lc->integ.wlentime;
	lunq_fast_integrals(lc, &rlen, &busy);
	v[LUNQ_ST_RLENTIME_NS] = lc->integ.rlentime + rlen;
	v[LUNQ_ST_WTIME_NS] = lc->integ.wtime;
	v[LUNQ_ST_RTIME_NS] = lc->integ.rtime + busy;
	v[LUNQ_ST_CRTIME_NS] = lc->crtime;
	lunq_pol_fill(&lc->pol, v, now);
	spin_unlock_irq(&lc->lock);
}


int lunq_core_init(void)
{
	lunq_wq = alloc_workqueue("kdmlunq", WQ_MEM_RECLAIM | WQ_HIGHPRI | WQ_PERCPU, 0);
	return lunq_wq ? 0 : -ENOMEM;
}

void lunq_core_exit(void)
{
	destroy_workqueue(lunq_wq);
}
