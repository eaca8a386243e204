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

#include "lunq_compat.h"
#include "lunq_core.h"
#include "lunq_trace.h"

const char *const lunq_tcause_names[] = {
	"set", "qfull", "ramp-up", "restore", "auto"
};

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

/* auto's window cutter runs this often (lunq_autorun.c) */
#define LUNQ_AUTO_TICK_MS	50

/* Read when the policy changes or the host side goes idle. */
static bool fast_path = true;
module_param(fast_path, bool, 0644);
MODULE_PARM_DESC(fast_path,
		 "pass-through IO without the device lock when nothing is throttled or emulated (default 1; 0: every IO takes the lock, for comparison)");

/* The device timer only wakes the dispatcher, which does the work. */
static enum hrtimer_restart lunq_timer_fn(struct hrtimer *t)
{
	struct lunq_c *lc = container_of(t, struct lunq_c, timer);

	queue_work(lunq_wq, &lc->dispatch);
	return HRTIMER_NORESTART;
}

struct lunq_c *lunq_core_alloc(struct dm_target *ti, work_func_t dispatch,
			       work_func_t auto_work)
{
	/* the models' state (write cache, channels) makes it ~50 KiB */
	struct lunq_c *lc = kvzalloc(sizeof(*lc), GFP_KERNEL);

	if (!lc)
		return NULL;
	lc->ti = ti;
	spin_lock_init(&lc->lock);
	INIT_LIST_HEAD(&lc->qf_transit);
	mutex_init(&lc->msg_lock);
	INIT_WORK(&lc->dispatch, dispatch);
	INIT_DELAYED_WORK(&lc->auto_work, auto_work);
	hrtimer_setup(&lc->timer, lunq_timer_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_ABS_SOFT);
	lunq_evq_init(&lc->evq);
	lunq_host_init(&lc->host);
	lunq_policy_init(&lc->policy);
	lc->t0 = ktime_get_ns();
	lc->crtime = lc->t0;
	lc->lun.t0 = lc->t0;
	lunq_integ_init(&lc->integ, lc->t0);
	return lc;
}

void lunq_core_free(struct lunq_c *lc)
{
	/*
	 * The work re-arms the timer and the timer queues the work: stop the
	 * re-arming first (lc->dying, set by the caller), then the timer,
	 * then the work.
	 */
	lunq_auto_stop(lc);
	hrtimer_cancel(&lc->timer);
	cancel_work_sync(&lc->dispatch);
	lunq_evq_stop(&lc->evq);
	/* dm destroys a table only once no IO is in flight or waiting */
	WARN_ON_ONCE(lc->host.q.nr || lc->host.nr_retry || lc->host.inflight);
	if (lc->lun.pool)
		lunq_pool_put(lc->lun.pool);
	if (lc->dev)
		dm_put_device(lc->ti, lc->dev);
	lunq_stats_free(&lc->st);
	lunq_auto_free(lc);
	mutex_destroy(&lc->msg_lock);
	kvfree(lc);
}

/*
 * Parse into a copy of *@p and check the result as a whole; on success
 * replace *@p.
 */
const char *lunq_parse_words(struct lunq_c *lc, struct lunq_policy *p,
			     unsigned int argc, char **argv, bool live,
			     const char **word)
{
	struct lunq_policy np = *p;
	const char *err;
	u64 seen = 0;
	unsigned int i;

	*word = NULL;
	for (i = 0; i < argc; i++) {
		enum lunq_arg_err aerr;
		enum lunq_key key;

		aerr = lunq_parse_word(&np, argv[i], &seen, &key);
		if (!aerr && live && lunq_key_table_only(key)) {
			*word = argv[i];
			return lunq_table_only_error(key);
		}
		if (aerr) {
			*word = argv[i];
			return lunq_arg_error(aerr, key);
		}
	}
	err = lunq_policy_check(&np);
	if (err)
		return err;
	/* rules that depend on the lower device or an existing pool */
	if (np.val[LUNQ_RESET_AFTER] && lc->zoned)
		return "reset_after: not on a zoned device (retrying an aborted zone write would break the zone's write order)";
	if (lc->lun.pool && np.val[LUNQ_FOREIGN] &&
	    !np.val[LUNQ_FOREIGN_PERIOD_MS] &&
	    np.val[LUNQ_FOREIGN] >= lc->lun.pool->depth)
		return "foreign: must be below the pool's depth unless foreign_period_ms is set";
	*p = np;
	return NULL;
}

/* Record a move of the live throttle in the log. */
static void lunq_tlog_add(struct lunq_c *lc, u64 now, u32 from, u32 to,
			  enum lunq_tcause cause)
{
	struct lunq_tlog *e = &lc->tlog[lc->tlog_n++ % LUNQ_TLOG_SIZE];

	e->t = now - lc->t0;
	e->from = min_t(u32, from, U16_MAX);
	e->to = min_t(u32, to, U16_MAX);
	e->cause = cause;
}

/* The reaction's or the configured value.  Under @lc->lock. */
bool lunq_set_throttle(struct lunq_c *lc, u32 to, enum lunq_tcause cause,
		       u64 now)
{
	struct lunq_host *h = &lc->host;

	if (to == h->qdepth)
		return false;
	/* with auto the reaction is none: its ticks must not undo auto */
	if (lunq_auto_on(lc) &&
	    (cause == LUNQ_TC_RAMP_UP || cause == LUNQ_TC_RESTORE))
		return false;
	lunq_tlog_add(lc, now, h->qdepth, to, cause);
	trace_lunq_throttle(&lc->evq, h->qdepth, to, cause);
	lunq_note(lc, "throttle %u -> %u %s", h->qdepth, to,
		  lunq_tcause_names[cause]);
	if (cause != LUNQ_TC_SET)
		lc->throttle_changes++;
	if (lc->sysdev) {
		struct lunq_ev ev = { .kind = LUNQ_EV_THROTTLE, .t = now,
				      .from = h->qdepth, .to = to,
				      .cause = cause };

		lunq_ev_post(&lc->evq, &ev);
	}
	h->qdepth = to;
	return lunq_host_needs_kick(h);
}

bool lunq_apply_policy(struct lunq_c *lc, u64 now)
{
	const u32 *v = lc->policy.val;
	struct lunq_react_cfg rc = {
		.mode = v[LUNQ_REACTION],
		.max = v[LUNQ_QDEPTH],
		.min = v[LUNQ_MIN_THROTTLE],
		/* scsi_track_queue_full() counts once per 16 jiffies */
		.bucket_ns = 16ULL * TICK_NSEC,
		.ramp_up_ns = (u64)v[LUNQ_RAMP_UP_MS] * NSEC_PER_MSEC,
		.restore_ns = (u64)v[LUNQ_RESTORE_MS] * NSEC_PER_MSEC,
		.step_ns = (u64)v[LUNQ_STEP_MS] * NSEC_PER_MSEC,
	};
	struct lunq_model_cfg mc = {
		.kind = v[LUNQ_MODEL],
		.svc_us = v[LUNQ_SVC_US],
		.channels = v[LUNQ_CHANNELS],
		.mbps = v[LUNQ_MBPS],
		.seek_ms = v[LUNQ_SEEK_MS],
		.rpm = v[LUNQ_RPM],
		.pblk = v[LUNQ_PBLK],
		.rmw_x = v[LUNQ_RMW_X],
		.wce = v[LUNQ_WCE],
		.cache_mb = v[LUNQ_CACHE_MB],
		.bus_mbps = v[LUNQ_BUS_MBPS],
		.order = v[LUNQ_LUN_ORDER],
		.spindles = v[LUNQ_SPINDLES],
		.stripe_kb = v[LUNQ_STRIPE_KB],
		.capacity = lc->ti->len,
	};
	bool kick;

	lunq_react_config(&lc->react, &rc);
	lunq_auto_config(lc, now);
	kick = lunq_host_set(&lc->host, lc->host.qdepth, v[LUNQ_SCHED],
			     (u64)v[LUNQ_MAX_WAIT_MS] * NSEC_PER_MSEC);
	kick |= lunq_set_throttle(lc, lunq_auto_on(lc) ? lc->autoc.depth :
				  lc->react.cur, LUNQ_TC_SET, now);

	lc->lun.depth = v[LUNQ_LUN_DEPTH];
	lc->lun.foreign = v[LUNQ_FOREIGN];
	lc->lun.foreign_period_ns = (u64)v[LUNQ_FOREIGN_PERIOD_MS] *
				    NSEC_PER_MSEC;
	lc->lun.reset_after = v[LUNQ_RESET_AFTER];
	lc->qfull_delay_ns = (u64)v[LUNQ_QFULL_DELAY_US] * NSEC_PER_USEC;
	lc->qfull_lat_ns = (u64)v[LUNQ_QFULL_LAT_US] * NSEC_PER_USEC;
	lc->reset_ns = (u64)v[LUNQ_RESET_MS] * NSEC_PER_MSEC;
	WRITE_ONCE(lc->bubble_ns, (u64)v[LUNQ_BUBBLE_MS] * NSEC_PER_MSEC);
	lunq_model_config(&lc->model, &mc);
	lunq_update_fast(lc);
	return kick;
}

/*
 * After every change of the number of IOs waiting (queue and retry list)
 * or active (sent to the LUN): fold the time since the last change into
 * the iostat integrals and take the counts now in force.
 */
void lunq_account(struct lunq_c *lc, u64 now)
{
	struct lunq_host *h = &lc->host;

	lunq_integ_update(&lc->integ, now, h->q.nr + h->nr_retry, h->inflight);
	lunq_update_fast(lc);
}

void lunq_update_fast(struct lunq_c *lc)
{
	struct lunq_host *h = &lc->host;
	struct lunq_react *r = &lc->react;
	bool f = READ_ONCE(fast_path) && !lc->lun.depth && !lc->lun.foreign &&
		 !lc->lun.pool && !lc->model.cfg.kind &&
		 !lunq_react_deadline(r) &&
		 !(r->cfg.mode == LUNQ_REACT_LINUX && r->cur < r->cfg.max) &&
		 !h->q.nr && !h->nr_retry && !h->blocked && !h->dispatching &&
		 !h->held && !h->inflight && !lc->lun.inflight;
	u32 lim = !f ? 0 : h->qdepth ?: LUNQ_FAST_NOLIMIT;

	if (lim == lc->fast_lim)
		return;
	if (lc->fast_lim)
		lunq_fast_close(lc);
	/* a new throttle: open again only when nothing was in flight */
	if (lim && !h->held) {
		lc->fast_lba = LUNQ_NO_LBA;
		WRITE_ONCE(lc->fast_lim, lim);
	}
}

void lunq_fast_close(struct lunq_c *lc)
{
	struct lunq_host *h = &lc->host;
	u64 lba;

	WRITE_ONCE(lc->fast_lim, 0);
	/*
	 * Pairs with the fully ordered cmpxchg in lunq_fast_take(): an IO
	 * that still saw the path open is counted in @nfast here, and holds
	 * the slots until the last such IO completes (lunq_fast_edge()).
	 */
	smp_mb();
	if (atomic_read(&lc->nfast))
		h->held = true;
	lba = READ_ONCE(lc->fast_lba);
	if (lba != LUNQ_NO_LBA)
		h->q.cursor = lba;	/* disksort goes on from there */
}

int lunq_fast_edge(struct lunq_c *lc, bool up, u64 now)
{
	unsigned long flags;
	bool kick = false;
	int n = 0;

	spin_lock_irqsave(&lc->lock, flags);
	if (up) {
		/* 0 -> 1 only here, and only while the path is open */
		if (lc->fast_lim)
			n = max(lunq_fast_take(&lc->nfast, lc->fast_lim, true), 0);
		if (n == 1)
			lunq_integ_busy(&lc->integ, now, true);
	} else if (atomic_dec_return(&lc->nfast) == 0) {
		lunq_integ_busy(&lc->integ, now, false);
		if (lc->host.held) {
			lc->host.held = false;
			kick = lunq_host_needs_kick(&lc->host);
			lunq_account(lc, now);
			lunq_arm_timer(lc);
		}
	}
	spin_unlock_irqrestore(&lc->lock, flags);
	if (kick)
		lunq_kick(lc);
	return n;
}

/* The deadlines: the end of a retry delay or LUN reset, an sd restore. */
void lunq_arm_timer(struct lunq_c *lc)
{
	u64 at = lc->host.blocked ? lc->host.unblock_at : 0;
	u64 r = lunq_react_deadline(&lc->react);

	if (r && (!at || r < at))
		at = r;
	if (lc->qf_next && (!at || lc->qf_next < at))
		at = lc->qf_next;
	r = lunq_model_next(&lc->model);	/* the drive's head frees */
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

void lunq_get_policy(struct lunq_c *lc, struct lunq_policy *p)
{
	spin_lock_irq(&lc->lock);
	*p = lc->policy;
	spin_unlock_irq(&lc->lock);
}

int lunq_set_words(struct lunq_c *lc, unsigned int argc, char **argv,
		   const char **err, const char **word)
{
	struct lunq_policy np;
	bool kick;

	mutex_lock(&lc->msg_lock);
	lunq_get_policy(lc, &np);
	*err = lunq_parse_words(lc, &np, argc, argv, true, word);
	if (!*err && lunq_auto_alloc(lc, &np))
		*err = "auto: cannot allocate its window's histogram";
	if (*err) {
		mutex_unlock(&lc->msg_lock);
		return -EINVAL;
	}
	spin_lock_irq(&lc->lock);
	lc->policy = np;
	kick = lunq_apply_policy(lc, ktime_get_ns());
	lunq_arm_timer(lc);
	lunq_auto_kick(lc);
	spin_unlock_irq(&lc->lock);
	mutex_unlock(&lc->msg_lock);
	if (kick)
		lunq_kick(lc);
	return 0;
}

unsigned int lunq_tlog_copy(struct lunq_c *lc, struct lunq_tlog *log)
{
	unsigned int k = 0;
	u64 n, i;

	spin_lock_irq(&lc->lock);
	n = lc->tlog_n;
	for (i = n > LUNQ_TLOG_SIZE ? n - LUNQ_TLOG_SIZE : 0; i < n; i++)
		log[k++] = lc->tlog[i % LUNQ_TLOG_SIZE];
	spin_unlock_irq(&lc->lock);
	return k;
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
	lc->throttle_changes = 0;
	lc->crtime = ktime_get_ns();
	lunq_integ_reset(&lc->integ, lc->crtime);
	lc->auto_rebase = true;		/* its window's counts are gone */
	WRITE_ONCE(lc->fast_max, atomic_read(&lc->nfast));
	lc->fast_rlen0 = lunq_stats_fast_rlen(&lc->st, lc->crtime);
	spin_unlock_irq(&lc->lock);
}

void lunq_take_over(struct lunq_c *lc, struct lunq_c *old)
{
	struct lunq_integ g;
	u64 c[5], crtime;
	u32 maxi, maxw;

	lunq_stats_merge(&lc->st, &old->st);
	lunq_evq_add_dropped(&lc->evq, lunq_evq_dropped(&old->evq));
	spin_lock_irq(&old->lock);
	c[0] = old->qfull;
	c[1] = old->resets;
	c[2] = old->aborted;
	c[3] = old->retried;
	c[4] = old->throttle_changes;
	maxi = max(old->host.max_inflight, READ_ONCE(old->fast_max));
	maxw = old->host.max_waiting;
	g = old->integ;
	/* idle: the sum does not depend on the time */
	g.rlentime += lunq_stats_fast_rlen(&old->st, 0) - old->fast_rlen0;
	crtime = old->crtime;
	spin_unlock_irq(&old->lock);

	spin_lock_irq(&lc->lock);
	lc->qfull += c[0];
	lc->resets += c[1];
	lc->aborted += c[2];
	lc->retried += c[3];
	lc->throttle_changes += c[4];
	lc->host.max_inflight = max(lc->host.max_inflight, maxi);
	lc->host.max_waiting = max(lc->host.max_waiting, maxw);
	lc->integ.wlentime += g.wlentime;
	lc->integ.rlentime += g.rlentime;
	lc->integ.wtime += g.wtime;
	lc->integ.rtime += g.rtime;
	lc->crtime = min(lc->crtime, crtime);	/* the counters it carries */
	spin_unlock_irq(&lc->lock);
}

void lunq_fill_stats(struct lunq_c *lc, u64 *v)
{
	struct lunq_host *h = &lc->host;
	u64 now;

	memset(v, 0, __LUNQ_ST_MAX * sizeof(*v));
	lunq_stats_sum(&lc->st, v);
	v[LUNQ_ST_EVENTS_DROPPED] = lunq_evq_dropped(&lc->evq);
	v[LUNQ_ST_POOL_INFLIGHT] = lc->lun.pool ?
		atomic_read(&lc->lun.pool->inflight) : 0;

	spin_lock_irq(&lc->lock);
	now = ktime_get_ns();
	v[LUNQ_ST_THROTTLE] = h->qdepth;
	v[LUNQ_ST_INFLIGHT] = h->inflight + atomic_read(&lc->nfast);
	v[LUNQ_ST_WAITING] = h->q.nr;
	v[LUNQ_ST_RETRYING] = h->nr_retry;
	v[LUNQ_ST_MAX_INFLIGHT] = max(h->max_inflight, READ_ONCE(lc->fast_max));
	v[LUNQ_ST_MAX_WAITING] = h->max_waiting;
	v[LUNQ_ST_OLDEST_WAIT_NS] = h->q.nr ?
		now - lunq_queue_oldest(&h->q) : 0;
	v[LUNQ_ST_LUN_INFLIGHT] = lc->lun.inflight + atomic_read(&lc->nfast);
	v[LUNQ_ST_QFULL] = lc->qfull;
	v[LUNQ_ST_RESETS] = lc->resets;
	v[LUNQ_ST_ABORTED] = lc->aborted;
	v[LUNQ_ST_RETRIED] = lc->retried;
	v[LUNQ_ST_THROTTLE_CHANGES] = lc->throttle_changes;
	lunq_integ_update(&lc->integ, now, lc->integ.nwait, lc->integ.nact);
	v[LUNQ_ST_SNAPTIME_NS] = now;
	v[LUNQ_ST_WLENTIME_NS] = lc->integ.wlentime;
	v[LUNQ_ST_RLENTIME_NS] = lc->integ.rlentime - lc->fast_rlen0 +
				 lunq_stats_fast_rlen(&lc->st, now);
	v[LUNQ_ST_WTIME_NS] = lc->integ.wtime;
	v[LUNQ_ST_RTIME_NS] = lc->integ.rtime;
	v[LUNQ_ST_CRTIME_NS] = lc->crtime;
	lunq_auto_fill(lc, v, now);
	spin_unlock_irq(&lc->lock);
}

/* The controller's constants (kmod/dm-lunq.rst, "auto"). */
#define LUNQ_AUTO_WIN_NS	(100 * NSEC_PER_MSEC)
#define LUNQ_AUTO_WIN_IOS	16
#define LUNQ_AUTO_PROBE_EVERY	30
#define LUNQ_AUTO_RATE_NS	(10 * NSEC_PER_SEC)
#define LUNQ_AUTO_SVC_NS	(10 * NSEC_PER_SEC)
#define LUNQ_AUTO_HOLD_NS	(1 * NSEC_PER_SEC)
#define LUNQ_AUTO_HOLD_MAX_NS	(32 * NSEC_PER_SEC)

int lunq_auto_alloc(struct lunq_c *lc, const struct lunq_policy *p)
{
	u64 *b;

	if (!p->val[LUNQ_AUTO] || lc->autow.prev)
		return 0;
	b = kvcalloc(2 * LUNQ_HIST_BUCKETS, sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	lc->autow.win = b + LUNQ_HIST_BUCKETS;
	lc->autow.prev = b;
	return 0;
}

void lunq_auto_free(struct lunq_c *lc)
{
	kvfree(lc->autow.prev);
	lc->autow.prev = NULL;
	lc->autow.win = NULL;
}

void lunq_auto_config(struct lunq_c *lc, u64 now)
{
	const u32 *v = lc->policy.val;
	const struct lunq_auto_cfg *o = &lc->autoc.cfg;
	struct lunq_auto_cfg c = {
		.mode = v[LUNQ_AUTO],
		.min = v[LUNQ_AUTO_MIN],
		.max = v[LUNQ_AUTO_MAX],
		/* qdepth 0 (unlimited) starts at the top */
		.start = v[LUNQ_QDEPTH] ?: v[LUNQ_AUTO_MAX],
		.target_ns = (u64)v[LUNQ_TARGET_US] * NSEC_PER_USEC,
		.win_ns = LUNQ_AUTO_WIN_NS,
		.win_ios = LUNQ_AUTO_WIN_IOS,
		.probe_every = LUNQ_AUTO_PROBE_EVERY,
		.rate_ns = LUNQ_AUTO_RATE_NS,
		.svc_ns = LUNQ_AUTO_SVC_NS,
		.hold_ns = LUNQ_AUTO_HOLD_NS,
		.hold_max_ns = LUNQ_AUTO_HOLD_MAX_NS,
	};

	if (c.mode == o->mode && c.min == o->min && c.max == o->max &&
	    c.start == o->start && c.target_ns == o->target_ns)
		return;		/* other keys: auto follows what they do */
	lunq_auto_init(&lc->autoc, &c, now);
	lc->auto_rebase = true;
}

void lunq_auto_fill(struct lunq_c *lc, u64 *v, u64 now)
{
	const struct lunq_auto *a = &lc->autoc;

	v[LUNQ_ST_AUTO_PHASE] = a->phase;
	v[LUNQ_ST_AUTO_PEAK_IOPS] = lunq_auto_peak_iops(a, now);
	v[LUNQ_ST_AUTO_SVC_MIN_NS] = lunq_auto_svc_min(a, now);
	v[LUNQ_ST_AUTO_KNEE] = lunq_auto_knee(a, now);
	v[LUNQ_ST_AUTO_P99_NS] = a->p99;
	v[LUNQ_ST_AUTO_WINDOWS] = a->windows;
	v[LUNQ_ST_AUTO_MOVES] = a->moves;
	v[LUNQ_ST_AUTO_SVC_NS] = a->svc;
}

void lunq_auto_kick(struct lunq_c *lc)
{
	if (lc->auto_live && lunq_auto_on(lc))
		queue_delayed_work(system_wq, &lc->auto_work,
				   msecs_to_jiffies(LUNQ_AUTO_TICK_MS));
}

void lunq_auto_start(struct lunq_c *lc)
{
	spin_lock_irq(&lc->lock);
	lc->auto_live = true;
	lc->auto_rebase = true;
	lunq_auto_kick(lc);
	spin_unlock_irq(&lc->lock);
}

void lunq_auto_stop(struct lunq_c *lc)
{
	spin_lock_irq(&lc->lock);
	lc->auto_live = false;	/* the work does not queue itself again */
	spin_unlock_irq(&lc->lock);
	cancel_delayed_work_sync(&lc->auto_work);
}

int lunq_core_init(void)
{
	lunq_wq = alloc_workqueue("kdmlunq", WQ_MEM_RECLAIM | WQ_HIGHPRI, 0);
	return lunq_wq ? 0 : -ENOMEM;
}

void lunq_core_exit(void)
{
	destroy_workqueue(lunq_wq);
}
