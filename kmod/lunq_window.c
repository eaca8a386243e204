// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq's window work, see lunq_window.h.
 *
 * A delayed work runs every LUNQ_WIN_TICK_MS while the device is resumed
 * and its policy has a window callback.  A tick reads the per-CPU
 * completion counters; when the window is complete (the policy's own rule,
 * else LUNQ_WIN_NS) it reads the reads' and writes' service histograms
 * once (the window's p99 from their difference), the service-time sums,
 * the time with IOs waiting (the iostat integral wtime) and the QUEUE
 * FULL count, and gives the policy the window, with the p99 of the run of
 * windows at the same depth (their histograms added; the first window past
 * LUNQ_WIN_RUN_IOS commands starts a new run, so that the p99 follows a
 * LUN that changes).  Nothing is added to the IO path but for auto in a
 * pool, which cuts to its fair share before it sends when a refusal moved
 * the pool's figure (lunq_win_pool_news()).  After every change
 * of depth, and after a reset of the statistics, the next window starts
 * afresh on a later tick -- but for a move after which the policy does
 * not settle (auto's way down, lunq_pol_goes_on()): that window starts at
 * the move.
 *
 * Suspend stops the work; resume starts a new window with the state
 * carried (the depth stays where the policy left it).  A table reload
 * starts the policy anew at the new table's qdepth.
 */
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sched/mm.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "lunq_auto_cfg.h"
#include "lunq_core.h"
#include "lunq_throttle_dev.h"
#include "lunq_window.h"
#include "lunq_trace.h"

/* The window's own counts (struct lunq_win), in one block */
#define LUNQ_WIN_BYTES	((2 * LUNQ_WIN_START + LUNQ_LAT_BUCKETS) * sizeof(u32))

#define LUNQ_WIN_NS		(100 * NSEC_PER_MSEC)	/* default window */

/*
 * One window's counts in the layout's buckets, what the percentiles walk:
 * computed at a cut (live counts less the window's start) and done with
 * by its end, so a few buffers serve every device, in the window work
 * (process context) alone: one per possible CPU, each under its mutex,
 * taken by the CPU the work runs on (system_wq is per-CPU, so two ticks
 * meet on one only when a worker moved or slept): 4.6 KiB a CPU for the
 * module instead of a copy per device, and no lock all CPUs share.
 */
struct lunq_win_scratch {
	struct mutex lock;
	u32 win[LUNQ_HIST_BUCKETS];
};
static struct lunq_win_scratch *lunq_win_scratch;

static struct lunq_win_scratch *lunq_win_scratch_get(void)
{
	struct lunq_win_scratch *x;

	x = &lunq_win_scratch[raw_smp_processor_id() % nr_cpu_ids];
	mutex_lock(&x->lock);
	return x;
}

static void lunq_win_scratch_put(struct lunq_win_scratch *x)
{
	mutex_unlock(&x->lock);
}

int lunq_win_init(void)
{
	unsigned int i;

	lunq_win_scratch = kvcalloc(nr_cpu_ids, sizeof(*lunq_win_scratch),
				    GFP_KERNEL);
	if (!lunq_win_scratch)
		return -ENOMEM;
	for (i = 0; i < nr_cpu_ids; i++)
		mutex_init(&lunq_win_scratch[i].lock);
	return 0;
}

void lunq_win_exit(void)
{
	unsigned int i;

	for (i = 0; i < nr_cpu_ids; i++)
		mutex_destroy(&lunq_win_scratch[i].lock);
	kvfree(lunq_win_scratch);
}

static bool lunq_win_on(const struct lunq_c *lc)
{
	return lunq_pol_windows(&lc->pol);
}

/* The run of windows at the depth starts over (empty). */
static void lunq_win_run_reset(struct lunq_win *w)
{
	memset(w->run, 0, LUNQ_LAT_BUCKETS * sizeof(*w->run));
	w->run_ios = 0;
}

/* The window starts now: the counts it will be the difference from. */
static void lunq_win_base(struct lunq_c *lc, u64 now, u64 ios, u64 wtime,
			  u64 qfull, u64 rlen)
{
	struct lunq_win *w = &lc->win;

	struct lunq_win_scratch *x = lunq_win_scratch_get();

	w->svc_sum = lunq_stats_svc_window(&lc->st, w->prev, x->win);
	w->wait_sum = lunq_stats_wait_window(&lc->st, w->wprev, x->win);
	lunq_win_scratch_put(x);
	lunq_win_run_reset(w);
	w->t = now;
	w->ios = ios;
	w->wtime = wtime;
	w->qfull = qfull;
	w->rlen = rlen;
}

/*
 * The run of windows at the depth takes the service window @win (the
 * layout's buckets, latencies only in the live ones): returns its
 * commands; @win becomes the run's counts in the layout's buckets.
 */
static u64 lunq_win_run_add(struct lunq_win *w, u32 *win)
{
	u32 *lat = win + LUNQ_LAT_FIRST;
	u64 n = 0;
	u32 i;

	/* a service window has nothing in bucket 0 (lunq_stats.h) */
	for (i = 0; i < LUNQ_LAT_BUCKETS; i++) {
		w->run[i] += lat[i];
		lat[i] = w->run[i];
		n += w->run[i];
	}
	return n;
}

/*
 * The window's figures, from the counts now and at its start (struct
 * lunq_pol_window, lunq_pol_ops.h); the next window starts from here.
 * @win: a scratch buffer of LUNQ_HIST_BUCKETS, held (lunq_win_scratch_get()).
 */
static void lunq_win_cut_locked(struct lunq_c *lc, struct lunq_pol_window *s,
				u64 now, u64 ios, u64 wtime, u64 qfull,
				u64 rlen, u32 *win)
{
	struct lunq_win *w = &lc->win;
	u64 sum = lunq_stats_svc_window(&lc->st, w->prev, win);
	u64 wsum, waited;

	s->ns = now - w->t;
	s->ios = lunq_hist32_total(win);
	s->iops = s->ns ? div64_u64(s->ios * NSEC_PER_SEC, s->ns) : 0;
	s->svc_sum_ns = sum - w->svc_sum;
	s->svc_mean_ns = s->ios ? div64_u64(s->svc_sum_ns, s->ios) : 0;
	s->svc_p99_ns = lunq_hist32_percentile_upper(win, U64_MAX, 990000);
	s->svc_p50_ns = lunq_hist32_percentile_upper(win, U64_MAX, 500000);
	s->svc_min_ns = lunq_hist32_min(win);
	if (w->run_ios >= LUNQ_WIN_RUN_IOS)
		lunq_win_run_reset(w);
	/* the service window is done with: @win takes the run's */
	w->run_ios = lunq_win_run_add(w, win);
	s->run_ios = w->run_ios;
	s->run_svc_p99_ns = lunq_hist32_percentile_upper(win, U64_MAX, 990000);
	s->wait_ns = wtime - w->wtime;
	s->qfull = qfull - w->qfull;
	s->inflight_x1000 = s->ns ? div64_u64((rlen - w->rlen) * 1000, s->ns)
				  : 0;
	/* and then the wait's */
	wsum = lunq_stats_wait_window(&lc->st, w->wprev, win);
	waited = lunq_hist32_total(win);
	s->lunq_wait_mean_ns = waited ? div64_u64(wsum - w->wait_sum, waited)
				      : 0;
	s->lunq_wait_p99_ns = lunq_hist32_percentile_upper(win, U64_MAX, 990000);
	w->svc_sum = sum;
	w->wait_sum = wsum;
	w->t = now;
	w->ios = ios;
	w->wtime = wtime;
	w->qfull = qfull;
	w->rlen = rlen;
}

static void lunq_win_cut(struct lunq_c *lc, struct lunq_pol_window *s, u64 now,
			 u64 ios, u64 wtime, u64 qfull, u64 rlen)
{
	struct lunq_win_scratch *x = lunq_win_scratch_get();

	lunq_win_cut_locked(lc, s, now, ios, wtime, qfull, rlen, x->win);
	lunq_win_scratch_put(x);
}

/* What the window sees of the pool: its busy devices, this one's part. */
static void lunq_win_pool_view(struct lunq_c *lc, bool busy)
{
	struct lunq_win *w = &lc->win;
	u32 share = busy ? lc->keys.val[LUNQ_SHARE] : 0;

	if (!lc->lun.pool)
		return;
	lunq_pool_view(lc->lun.pool, &w->view_share, share, &w->view_busy,
		       &w->view_part);
}

static void lunq_win_pool_view_leave(struct lunq_c *lc)
{
	lunq_win_pool_view(lc, false);
}

/* Not (or no longer) auto in its pool: its commands and share leave it. */
static void lunq_win_pool_leave(struct lunq_c *lc)
{
	lunq_pool_leave(lc->lun.pool, &lc->lun.seat);
}

/* The pool's fair share @fair (0: none) as auto's ceiling; whether to kick. */
static bool lunq_win_pool_set(struct lunq_c *lc, u64 now, u32 fair, u64 until,
			      bool still)
{
	u32 was = lc->host.thr.depth, d;

	if (!fair)
		return false;
	d = lunq_pol_share(&lc->pol, now, fair, until, still, was);
	if (d == was)
		return false;
	lc->win_rebase = true;
	return lunq_throttle_set(lc, d, LUNQ_TC_AUTO, now);
}

/*
 * Auto in a pool (lunq_pool.h, "Fair shares"), every tick: its share
 * counts while IOs waited at its throttle since the last tick, and then
 * the pool's fair share is its ceiling.  Returns whether to kick.
 */
static bool lunq_win_pool(struct lunq_c *lc, u64 now)
{
	bool still = false;
	u64 until = 0;
	u32 fair;

	if (!lunq_pol_shares(&lc->pol)) {
		lunq_win_pool_leave(lc);
		return false;
	}
	fair = lunq_pool_tick(lc->lun.pool, &lc->lun.seat, lc->lun.inflight,
			      now, lc->pol.val[LUNQ_SHARE], lc->integ.wtime,
			      lc->integ.nwait, &until, &still);
	return lunq_win_pool_set(lc, now, fair, until, still);
}

void lunq_win_pool_news(struct lunq_c *lc, u64 now)
{
	struct lunq_pool_seat *s = &lc->lun.seat;
	bool still;
	u64 until = 0;
	u32 fair;

	/* busy at its last tick (else no share), auto still */
	if (!s->share || !lunq_pol_shares(&lc->pol))
		return;
	fair = lunq_pool_fair(lc->lun.pool, now, s->share, &until, &still);
	/* acap has just moved: not still, so the share can only cut */
	lunq_win_pool_set(lc, now, fair, until, false);
}

static lunq_win_ext_fn lunq_win_ext;

void lunq_win_set_ext(lunq_win_ext_fn fn)
{
	lunq_win_ext = fn;
}

void lunq_win_work(struct work_struct *work)
{
	struct lunq_c *lc = container_of(to_delayed_work(work), struct lunq_c,
					 win_work);
	struct lunq_win *w = &lc->win;
	struct lunq_pol_window s = { 0 };
	u64 v[__LUNQ_ST_MAX] = { 0 };
	u64 now, ios, wtime, qfull, rlen, busy, rule_ns = 0;
	bool rebase = false, ready = false, idle = false, kick = false;
	bool fresh = false, ext_ready = false;
	const struct lunq_policy_ops *ext;
	enum lunq_wd_rule rule = LUNQ_WD_NONE;
	u32 d, was, ext_qf = 0;

	if (!w->prev)
		return;
	lunq_stats_sum(&lc->st, v);
	ios = v[LUNQ_ST_READS] + v[LUNQ_ST_WRITES];

	spin_lock_irq(&lc->lock);
	now = ktime_get_ns();
	if (!lc->win_live || !lunq_win_on(lc)) {
		lc->host.q.age_ns = 0;
		lunq_win_pool_leave(lc);
		lunq_win_pool_view_leave(lc);
		spin_unlock_irq(&lc->lock);
		return;
	}
	lunq_integ_update(&lc->integ, now, lc->integ.nwait, lc->integ.nact);
	wtime = lc->integ.wtime;
	lunq_fast_integrals(lc, &rlen, &busy);
	rlen += lc->integ.rlentime;
	if (lc->lun.pool) {
		lunq_win_pool_view(lc, wtime != w->view_wtime ||
				   lc->integ.nwait);
		w->view_wtime = wtime;
		kick |= lunq_win_pool(lc, now);
	}
	qfull = lc->qfull;
	ext = lc->pol.ext;
	if (ext) {
		/* from outside: QUEUE FULL is heard here, not in the IO path */
		ext_qf = lc->pol.qfull_pending;
		lc->pol.qfull_pending = 0;
		/* a floor only where the policy could have chosen more */
		rule = lunq_wd_tick(&lc->pol.wd, now, v[LUNQ_ST_DISPATCHED],
				    lc->host.q.nr,
				    lc->host.q.nr ? now - min(now,
					lunq_queue_oldest(&lc->host.q)) : 0,
				    lc->host.thr.depth,
				    lc->pol.min < lc->pol.max ? lc->pol.min : 0,
				    &rule_ns);
	}
	if (lc->host.q.aged_reads != w->aged_reads) {
		/* the aging bound sent reads the sort passed by */
		w->aged_reads = lc->host.q.aged_reads;
		was = lc->host.thr.depth;
		d = lunq_pol_starved(&lc->pol, now, lc->host.q.reads, was);
		if (d != was)
			kick |= lunq_throttle_set(lc, d, LUNQ_TC_AUTO, now);
	}
	if (lc->pol.rebase) {
		lc->pol.rebase = false;
		lc->win_rebase = true;
	}
	if (lunq_pol_settling(&lc->pol, now)) {
		lc->win_rebase = true;	/* IOs of the old depth still out */
	} else if (lc->win_rebase || ios < w->ios) {
		lc->win_rebase = false;
		rebase = true;
	} else {
		ready = lunq_pol_win_ready(&lc->pol, now - w->t,
					   ios - w->ios, wtime - w->wtime,
					   rlen - w->rlen, LUNQ_WIN_NS, &idle);
		if (idle) {
			was = lc->host.thr.depth;
			d = lunq_pol_idle(&lc->pol, now, was);
			if (d != was)
				kick |= lunq_throttle_set(lc, d, LUNQ_TC_AUTO,
							  now);
		}
	}
	spin_unlock_irq(&lc->lock);

	if (rebase || idle)
		lunq_win_base(lc, now, ios, wtime, qfull, rlen);
	else if (ready)
		lunq_win_cut(lc, &s, now, ios, wtime, qfull, rlen);

	spin_lock_irq(&lc->lock);
	if (ready && !idle && !lc->win_rebase && !lc->pol.rebase &&
	    lunq_win_on(lc)) {
		was = lc->host.thr.depth;
		lunq_throttle_view(lc, &s.v, now);
		s.lunq_waiting = lc->host.q.nr;
		if (s.lunq_waiting)
			s.lunq_wait_oldest_ns =
				now - min(now, lunq_queue_oldest(&lc->host.q));
		if (lc->lun.pool) {
			s.pool_depth = lc->lun.pool->depth;
			s.pool_busy = w->view_busy;
			s.pool_share = w->view_part;
		}
		if (lc->pol.ext) {
			ext_ready = lc->pol.ext == ext;	/* called below */
		} else {
			d = lunq_pol_window(&lc->pol, &s);
			trace_lunq_auto_window(&lc->evq, &s, was, d);
			if (d != was) {
				kick |= lunq_throttle_set(lc, d, LUNQ_TC_AUTO,
							  now);
				/*
				 * The next window on a later tick, or from
				 * this cut when the old depth's commands only
				 * drain (auto's way down); a new run at the
				 * new depth either way
				 */
				if (lunq_pol_goes_on(&lc->pol, now))
					fresh = true;
				else
					lc->win_rebase = true;
			}
		}
	}
	/* a sorting queue's aging bound follows the last window */
	lc->host.q.age_ns = lunq_pol_age(&lc->pol);
	lunq_win_kick(lc);
	spin_unlock_irq(&lc->lock);
	if (fresh)
		lunq_win_run_reset(w);
	if (ext && (rule || ext_qf || ext_ready) && lunq_win_ext)
		kick |= lunq_win_ext(lc, ext, rule, rule_ns, ext_qf, &s,
				     ext_ready);
	if (kick)
		lunq_kick(lc);
}

bool lunq_win_needed(const struct lunq_keys *p)
{
	return lunq_pol_select(p->val)->window;
}

int lunq_win_alloc(struct lunq_c *lc, bool need)
{
	unsigned int noio;
	u32 *b;

	if (!need || lc->win.prev)
		return 0;
	if (lc->win_room) {
		/* allocated with the context (zeroed), freed with it */
		b = lc->win_room;
		goto set;
	}
	/*
	 * Callers may hold lunq_devs_lock (sysfs, netlink SET, a BPF
	 * registration), which a resume takes with its device suspended:
	 * reclaim must not wait on IO here (as lunq_dev_attach()).
	 */
	noio = memalloc_noio_save();
	/*
	 * the service's and the wait's start and the run, 10,400 B: pages,
	 * not kmalloc's next power of two (16 KiB)
	 */
	b = vzalloc(LUNQ_WIN_BYTES);
	memalloc_noio_restore(noio);
	if (!b)
		return -ENOMEM;
set:
	lc->win.wprev = b + LUNQ_WIN_START;
	lc->win.run = b + 2 * LUNQ_WIN_START;
	lc->win.prev = b;
	return 0;
}

size_t lunq_win_bytes(void)
{
	return LUNQ_WIN_BYTES;
}

void lunq_win_free(struct lunq_c *lc)
{
	if (lc->win.prev != lc->win_room)
		kvfree(lc->win.prev);
	lc->win.prev = NULL;
	lc->win.wprev = NULL;
	lc->win.run = NULL;
}

void lunq_win_kick(struct lunq_c *lc)
{
	if (lc->win_live && lunq_win_on(lc))
		queue_delayed_work(system_wq, &lc->win_work,
				   msecs_to_jiffies(LUNQ_WIN_TICK_MS));
}

void lunq_win_start(struct lunq_c *lc)
{
	u64 sent = lunq_stats_read(&lc->st, LUNQ_ST_DISPATCHED);

	spin_lock_irq(&lc->lock);
	/* the watchdog does not count the time suspended as a stall */
	lunq_wd_resume(&lc->pol.wd, ktime_get_ns(), sent);
	lc->win_live = true;
	lc->win_rebase = true;
	lunq_win_kick(lc);
	spin_unlock_irq(&lc->lock);
}

void lunq_win_stop(struct lunq_c *lc)
{
	spin_lock_irq(&lc->lock);
	lc->win_live = false;	/* the work does not queue itself again */
	spin_unlock_irq(&lc->lock);
	cancel_delayed_work_sync(&lc->win_work);
	spin_lock_irq(&lc->lock);
	lunq_win_pool_leave(lc);
	lunq_win_pool_view_leave(lc);
	spin_unlock_irq(&lc->lock);
}
