// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq's throttle, the device's side, see lunq_throttle_dev.h.
 */
#include <linux/ktime.h>
#include <linux/moduleparam.h>

#include "lunq_throttle_dev.h"
#include "lunq_trace.h"

const char *const lunq_tcause_names[] = {
	"set", "qfull", "ramp-up", "restore", "auto", "bpf"
};

/* Read when the policy changes or the host side goes idle. */
static bool fast_path = true;
module_param(fast_path, bool, 0644);
MODULE_PARM_DESC(fast_path,
		 "pass-through IO without the device lock when nothing is throttled or emulated (default 1; 0: every IO takes the lock, for comparison)");

bool lunq_throttle_set(struct lunq_c *lc, u32 to, enum lunq_tcause cause,
		       u64 now)
{
	struct lunq_throttle *t = &lc->host.thr;
	u32 from = t->depth;

	if (!lunq_throttle_store(t, to, cause, now - lc->t0,
				 cause != LUNQ_TC_SET))
		return false;
	trace_lunq_throttle(&lc->evq, from, to, cause);
	lunq_note(lc, "throttle %u -> %u %s", from, to,
		  lunq_tcause_names[cause]);
	if (lc->sysdev) {
		struct lunq_ev ev = { .kind = LUNQ_EV_THROTTLE, .t = now,
				      .from = from, .to = to,
				      .cause = cause };

		lunq_ev_post(&lc->evq, &ev);
	}
	lunq_update_fast(lc);
	return lunq_host_needs_kick(&lc->host);
}

void lunq_account(struct lunq_c *lc, u64 now)
{
	struct lunq_host *h = &lc->host;

	lunq_integ_update(&lc->integ, now, h->q.nr + h->nr_retry, h->inflight);
	lunq_update_fast(lc);
}

/*
 * Open while nothing waits or is emulated -- no LUN slots, other
 * initiators, pool, service-time model or zone write plug (a zoned lower
 * device: its writes go through the plug), a policy that leaves the depth
 * alone between windows (lunq_pol_steady()) -- and the host side is idle
 * (no waiter, retry or locked IO in flight).
 */
void lunq_update_fast(struct lunq_c *lc)
{
	struct lunq_host *h = &lc->host;
	struct lunq_throttle *t = &h->thr;
	bool f = READ_ONCE(fast_path) && !lc->lun.depth && !lc->lun.foreign &&
		 !lc->lun.pool && !lc->zplug.zones &&
		 !(lc->model && lc->model->cfg.kind) &&
		 lunq_pol_steady(&lc->pol) &&
		 !h->q.nr && !h->nr_retry && !h->blocked && !h->dispatching &&
		 !t->held && !h->inflight && !lc->lun.inflight;
	u32 lim = lunq_throttle_gate(t, f);

	if (lim == t->fast_lim)
		return;
	if (t->fast_lim)
		lunq_fast_close(lc);
	/* a new depth: open again only when nothing was in flight */
	if (lim && !t->held) {
		t->fast_lba = LUNQ_NO_LBA;
		WRITE_ONCE(t->fast_lim, lim);
	}
}

void lunq_fast_close(struct lunq_c *lc)
{
	struct lunq_throttle *t = &lc->host.thr;
	u64 lba;

	WRITE_ONCE(t->fast_lim, 0);
	/*
	 * Pairs with the fully ordered cmpxchg in lunq_fast_take(): an IO
	 * that still saw the path open is counted in @nfast here, and holds
	 * the slots until the last such IO completes (lunq_fast_drained()).
	 */
	smp_mb();
	if (atomic_read(&t->nfast))
		t->held = true;
	lba = READ_ONCE(t->fast_lba);
	if (lba != LUNQ_NO_LBA)
		lc->host.q.cursor = lba;	/* disksort goes on from there */
}

/*
 * The last lock-free IO gave its slot back after the path closed: free the
 * slots it held for the locked path (lunq_fast_close()).
 */
void lunq_fast_drained(struct lunq_c *lc)
{
	struct lunq_throttle *t = &lc->host.thr;
	unsigned long flags;
	bool kick = false;

	spin_lock_irqsave(&lc->lock, flags);
	if (t->held && !atomic_read(&t->nfast)) {
		u64 now = ktime_get_ns();

		t->held = false;
		kick = lunq_host_needs_kick(&lc->host);
		lunq_account(lc, now);
		lunq_arm_timer(lc);
	}
	spin_unlock_irqrestore(&lc->lock, flags);
	if (kick)
		lunq_kick(lc);
}

/* An IO took a slot of a path that closed meanwhile: it gives it back. */
void lunq_fast_bail(struct lunq_c *lc)
{
	u64 now = lunq_fast_clock();
	bool drained = lunq_fast_put_slot(lc, get_cpu_ptr(lc->st.pc), now);

	put_cpu_ptr(lc->st.pc);
	if (drained)
		lunq_fast_drained(lc);
}

/* lunq_fast_put_pure()'s last slot (the clock read only for a summed period) */
bool lunq_fast_put_last(struct lunq_c *lc)
{
	bool drained = lunq_fast_put_slot(lc, get_cpu_ptr(lc->st.pc), 0);

	put_cpu_ptr(lc->st.pc);
	return drained;
}

void lunq_fast_max(struct lunq_throttle *t, u32 n)
{
	u32 m = READ_ONCE(t->fast_max);

	while (n > m) {
		u32 seen = cmpxchg(&t->fast_max, m, n);

		if (seen == m)
			break;
		m = seen;
	}
}

void lunq_throttle_view(struct lunq_c *lc, struct lunq_pol_view *v, u64 now)
{
	v->now = now;
	v->depth = lc->host.thr.depth;
	v->min = lc->pol.min;
	v->max = lc->pol.max;
	v->in_transport = lc->host.inflight;
	v->qfull = 0;
}

unsigned int lunq_tlog_copy(struct lunq_c *lc, struct lunq_tlog *log)
{
	unsigned int k;

	spin_lock_irq(&lc->lock);
	k = lunq_throttle_log(&lc->host.thr, log);
	spin_unlock_irq(&lc->lock);
	return k;
}
