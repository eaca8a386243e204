// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq "auto" plumbing: the controller (lunq_auto.c) fed from the
 * statistics the target keeps anyway, see lunq_core.h.
 *
 * A delayed work runs every LUNQ_AUTO_TICK_MS while the device is resumed
 * and auto is on.  A tick reads the per-CPU completion counters; when the
 * window is complete (lunq_auto_window_ready()) it reads the reads' and
 * writes' service histograms once (the window's p99 from their
 * difference), the service-time sums, the time with IOs waiting (the
 * iostat integral wtime) and the QUEUE FULL count, and gives the
 * controller the window.  Nothing is added to the IO path.  After every
 * change of depth, and after a reset of the statistics, the next window
 * starts afresh on a later tick.
 *
 * Suspend stops the work; resume starts a new window with the state
 * carried (the throttle stays where auto left it).  A table reload starts
 * a new controller at the new table's qdepth.
 */
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "lunq_core.h"
#include "lunq_autorun.h"
#include "lunq_trace.h"

/* The window starts now: the counts it will be the difference from. */
static void lunq_auto_base(struct lunq_c *lc, u64 now, u64 ios, u64 wtime,
			   u64 qfull)
{
	struct lunq_autow *w = &lc->autow;

	w->svc_sum = lunq_stats_svc_window(&lc->st, w->prev, w->win);
	w->t = now;
	w->ios = ios;
	w->wtime = wtime;
	w->qfull = qfull;
}

void lunq_auto_work(struct work_struct *work)
{
	struct lunq_c *lc = container_of(to_delayed_work(work), struct lunq_c,
					 auto_work);
	struct lunq_autow *w = &lc->autow;
	struct lunq_auto_sample s = { 0 };
	u64 v[__LUNQ_ST_MAX] = { 0 };
	u64 now, ios, wtime, qfull;
	bool rebase = false, ready = false, idle = false, kick = false;
	u32 d;

	if (!w->prev)
		return;
	lunq_stats_sum(&lc->st, v);
	ios = v[LUNQ_ST_READS] + v[LUNQ_ST_WRITES];

	spin_lock_irq(&lc->lock);
	now = ktime_get_ns();
	if (!lc->auto_live || !lunq_auto_on(lc)) {
		spin_unlock_irq(&lc->lock);
		return;
	}
	lunq_integ_update(&lc->integ, now, lc->integ.nwait, lc->integ.nact);
	wtime = lc->integ.wtime;
	qfull = lc->qfull;
	if (now < lc->autoc.settle_until) {
		lc->auto_rebase = true;	/* IOs of the old depth still out */
	} else if (lc->auto_rebase || ios < w->ios) {
		lc->auto_rebase = false;
		rebase = true;
	} else {
		ready = lunq_auto_window_ready(&lc->autoc, now - w->t,
					       ios - w->ios, &idle);
		if (idle) {
			u32 was = lc->autoc.depth;

			d = lunq_auto_idle(&lc->autoc, now);
			if (d != was) {
				kick = lunq_set_throttle(lc, d, LUNQ_TC_AUTO,
							 now);
				lunq_update_fast(lc);
			}
		}
	}
	spin_unlock_irq(&lc->lock);

	if (rebase || idle) {
		lunq_auto_base(lc, now, ios, wtime, qfull);
	} else if (ready) {
		u64 sum = lunq_stats_svc_window(&lc->st, w->prev, w->win);

		s.ns = now - w->t;
		s.ios = lunq_hist_total(w->win);
		s.svc_sum_ns = sum - w->svc_sum;
		s.p99_ns = lunq_hist_percentile(w->win, U64_MAX, 990000);
		s.wait_ns = wtime - w->wtime;
		s.qfull = qfull - w->qfull;
		w->svc_sum = sum;
		w->t = now;
		w->ios = ios;
		w->wtime = wtime;
		w->qfull = qfull;
	}

	spin_lock_irq(&lc->lock);
	if (ready && !idle && !lc->auto_rebase && lunq_auto_on(lc)) {
		u32 was = lc->autoc.depth;

		d = lunq_auto_window(&lc->autoc, &s, now);
		trace_lunq_auto_window(&lc->evq, &s, was, d);
		if (d != was) {
			kick = lunq_set_throttle(lc, d, LUNQ_TC_AUTO, now);
			lunq_update_fast(lc);
			lc->auto_rebase = true;
		}
	}
	lunq_auto_kick(lc);
	spin_unlock_irq(&lc->lock);
	if (kick)
		lunq_kick(lc);
}
