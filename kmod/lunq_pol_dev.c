// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq, the policy family's device half: the policy in force on a
 * device, see lunq_pol_dev.h.
 */
#include <linux/ktime.h>
#include <linux/string.h>
#include <linux/math64.h>
#include <linux/ratelimit.h>
#include <linux/sched/mm.h>
#include <linux/vmalloc.h>
#include <linux/overflow.h>

#include "lunq_pol_dev.h"
#include "lunq_throttle_dev.h"
#include "lunq_window.h"
#include "lunq_trace.h"

/*
 * Parse into a copy of *@p and check the result as a whole; on success
 * replace *@p.
 */
const char *lunq_parse_words(struct lunq_c *lc, struct lunq_keys *p,
			     unsigned int argc, char **argv, bool live,
			     const char **word)
{
	struct lunq_keys np = *p;
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
	err = lunq_policy_resolve(&np, seen);
	if (!err)
		err = lunq_policy_check(&np);
	if (err)
		return err;
	/* rules that depend on the lower device or an existing pool */
	if (np.val[LUNQ_RESET_AFTER] && lc->zoned)
		return "reset_after: not on a zoned device (retrying an aborted zone write would break the zone's write order)";
	/* an attached BPF policy's windows read the statistics */
	if (np.val[LUNQ_STATS] && READ_ONCE(lc->pol.ext))
		return "stats: off leaves the attached BPF policy nothing to measure: detach it first (lunqctl policy detach), or keep stats:on";
	if (lc->lun.pool && np.val[LUNQ_FOREIGN] &&
	    !np.val[LUNQ_FOREIGN_PERIOD_MS] &&
	    np.val[LUNQ_FOREIGN] >= lc->lun.pool->depth)
		return "foreign: must be below the pool's depth unless foreign_period_ms is set";
	*p = np;
	return NULL;
}

bool lunq_apply_policy(struct lunq_c *lc, u64 now)
{
	const u32 *v = lc->keys.val;
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
		.spindle_depth = v[LUNQ_SPINDLE_DEPTH],
		.destage = v[LUNQ_DESTAGE],
		.wc_high = v[LUNQ_WC_HIGH],
		.wc_low = v[LUNQ_WC_LOW],
		.rcache_mb = v[LUNQ_RCACHE_MB],
		.seek_curve = v[LUNQ_SEEK_CURVE],
		.capacity = lc->ti->len,
	};
	u32 d = lunq_pol_restart(&lc->pol, v, lc->host.thr.depth,
				 lc->host.inflight, now);
	bool kick;

	kick = lunq_host_set(&lc->host, v[LUNQ_SCHED],
			     (u64)v[LUNQ_MAX_WAIT_MS] * NSEC_PER_MSEC);
	kick |= lunq_throttle_set(lc, d, LUNQ_TC_SET, now);

	lc->lun.depth = v[LUNQ_LUN_DEPTH];
	lc->lun.foreign = v[LUNQ_FOREIGN];
	lc->lun.foreign_period_ns = (u64)v[LUNQ_FOREIGN_PERIOD_MS] *
				    NSEC_PER_MSEC;
	lc->lun.reset_after = v[LUNQ_RESET_AFTER];
	lc->qfull_delay_ns = (u64)v[LUNQ_QFULL_DELAY_US] * NSEC_PER_USEC;
	lc->qfull_lat_ns = (u64)v[LUNQ_QFULL_LAT_US] * NSEC_PER_USEC;
	lc->reset_ns = (u64)v[LUNQ_RESET_MS] * NSEC_PER_MSEC;
	WRITE_ONCE(lc->bubble_ns, (u64)v[LUNQ_BUBBLE_MS] * NSEC_PER_MSEC);
	WRITE_ONCE(lc->stats_off, v[LUNQ_STATS] != 0);
	/* lunq_model_alloc() gave the state of any model the keys name */
	if (lc->model)
		lunq_model_config(lc->model, &mc);
	lunq_update_fast(lc);
	return kick;
}

bool lunq_get_policy(struct lunq_c *lc, struct lunq_keys *p, char *name)
{
	bool ext;

	spin_lock_irq(&lc->lock);
	*p = lc->keys;
	ext = lc->pol.ext;
	if (name)
		strscpy(name, lunq_pol_name(&lc->pol), LUNQ_POL_NAME);
	spin_unlock_irq(&lc->lock);
	return ext;
}

bool lunq_get_eject(struct lunq_c *lc, struct lunq_eject *e)
{
	spin_lock_irq(&lc->lock);
	*e = lc->eject;
	spin_unlock_irq(&lc->lock);
	return e->policy[0];
}

const char *lunq_model_alloc(struct lunq_c *lc, const struct lunq_keys *p)
{
	struct lunq_model_rc_entry *e;
	struct lunq_model *m;
	unsigned int noio;

	if (!p->val[LUNQ_MODEL])
		return NULL;
	if (!lc->model) {
		/* callers may hold lunq_devs_lock, as lunq_win_alloc()'s do */
		noio = memalloc_noio_save();
		m = vzalloc(sizeof(*m));	/* an idle LUN */
		memalloc_noio_restore(noio);
		if (!m)
			return "model: cannot allocate the model's state";
		spin_lock_irq(&lc->lock);
		lc->model = m;
		spin_unlock_irq(&lc->lock);
	}
	if (!p->val[LUNQ_RCACHE_MB] || lc->model->rc.e)
		return NULL;
	noio = memalloc_noio_save();
	e = vzalloc(array_size(LUNQ_RC_ENTRIES, sizeof(*e)));
	memalloc_noio_restore(noio);
	if (!e)
		return "rcache_mb: cannot allocate the read cache's table";
	spin_lock_irq(&lc->lock);
	lc->model->rc.e = e;
	spin_unlock_irq(&lc->lock);
	return NULL;
}

int lunq_set_words(struct lunq_c *lc, unsigned int argc, char **argv,
		   const char **err, const char **word)
{
	struct lunq_keys np;
	bool kick;
	int ret = -EINVAL;

	mutex_lock(&lc->msg_lock);
	lunq_get_policy(lc, &np, NULL);
	*err = lunq_parse_words(lc, &np, argc, argv, true, word);
	if (!*err) {
		ret = -ENOMEM;
		if (lunq_win_alloc(lc, lunq_win_needed(&np)))
			*err = "auto: cannot allocate its window's histogram";
		else
			*err = lunq_model_alloc(lc, &np);
	}
	if (*err) {
		mutex_unlock(&lc->msg_lock);
		return ret;
	}
	mutex_lock(&lc->pol_mutex);	/* a policy from outside's limits */
	spin_lock_irq(&lc->lock);
	lc->keys = np;
	kick = lunq_apply_policy(lc, ktime_get_ns());
	lunq_arm_timer(lc);
	lunq_win_kick(lc);
	spin_unlock_irq(&lc->lock);
	mutex_unlock(&lc->pol_mutex);
	mutex_unlock(&lc->msg_lock);
	if (kick)
		lunq_kick(lc);
	return 0;
}

bool lunq_policy_qfull(struct lunq_c *lc, u64 now, u32 in_transport)
{
	struct lunq_pol_view v;

	if (lc->pol.ext) {
		/* never in the IO path: the window work's next tick */
		lc->pol.qfull_pending++;
		return false;
	}
	lunq_throttle_view(lc, &v, now);
	/* auto sharing a pool with other busy auto devices: half of them */
	v.in_transport = lunq_pool_transport(lc->lun.pool, &lc->lun.seat,
					     in_transport);
	v.qfull = 1;
	return lunq_throttle_set(lc, lunq_pol_qfull(&lc->pol, &v),
				 LUNQ_TC_QFULL, now);
}

bool lunq_policy_good(struct lunq_c *lc, u64 now)
{
	u32 d = lc->host.thr.depth;

	return lunq_throttle_set(lc, lunq_pol_good(&lc->pol, now, d),
				 LUNQ_TC_RAMP_UP, now);
}

bool lunq_policy_tick(struct lunq_c *lc, u64 now)
{
	u32 d = lc->host.thr.depth;

	return lunq_throttle_set(lc, lunq_pol_tick(&lc->pol, now, d),
				 LUNQ_TC_RESTORE, now);
}

static void (*lunq_policy_eject_sink)(struct lunq_c *lc,
				     const struct lunq_policy_ops *ops);

void lunq_policy_set_eject_sink(void (*sink)(struct lunq_c *lc,
					     const struct lunq_policy_ops *ops))
{
	lunq_policy_eject_sink = sink;
}

/* The sentence lunq logs for an ejection (policy show composes its own). */
static void lunq_policy_eject_log(struct lunq_c *lc,
				  const struct lunq_eject *e)
{
	static const char * const hooks[] = {
		[LUNQ_PH_START] = "start", [LUNQ_PH_WINDOW] = "window",
		[LUNQ_PH_QFULL] = "qfull",
	};
	const char *hook = e->hook < ARRAY_SIZE(hooks) && hooks[e->hook] ?
			   hooks[e->hook] : "?";
	u64 ms = div_u64(e->ns, NSEC_PER_MSEC);
	u64 bound = div_u64(e->bound_ns, NSEC_PER_MSEC);

	switch (e->rule) {
	case LUNQ_WD_CALL:
		pr_warn_ratelimited("dm-lunq: %s: BPF policy %s ejected: its %s callback ran %llu ms (the bound is %llu ms); the table's policy is back\n",
				    lc->evq.name, e->policy, hook, ms, bound);
		break;
	case LUNQ_WD_STALL:
		pr_warn_ratelimited("dm-lunq: %s: BPF policy %s ejected: commands waited and none was sent for %llu ms (its timeout is %llu ms); the table's policy is back\n",
				    lc->evq.name, e->policy, ms, bound);
		break;
	case LUNQ_WD_FLOOR:
		pr_warn_ratelimited("dm-lunq: %s: BPF policy %s ejected: it held the depth at its floor while a command waited %llu ms (its timeout is %llu ms); the table's policy is back\n",
				    lc->evq.name, e->policy, ms, bound);
		break;
	default:
		pr_warn_ratelimited("dm-lunq: %s: BPF policy %s ejected by hand; the table's policy is back\n",
				    lc->evq.name, e->policy);
	}
}

bool lunq_policy_eject_held(struct lunq_c *lc,
			    const struct lunq_policy_ops *ops,
			    enum lunq_wd_rule rule, u8 hook, u64 ns)
{
	struct lunq_ev ev = { .kind = LUNQ_EV_EJECT, .cause = rule };
	struct lunq_eject *e = &lc->eject;
	bool kick;
	u64 now;

	lockdep_assert_held(&lc->pol_mutex);
	spin_lock_irq(&lc->lock);
	if (!ops || lc->pol.ext != ops) {
		spin_unlock_irq(&lc->lock);
		return false;
	}
	now = ktime_get_ns();
	strscpy(e->policy, ops->name, sizeof(e->policy));
	e->rule = rule;
	e->hook = hook;
	e->t = now;
	e->ns = ns;
	e->bound_ns = rule == LUNQ_WD_CALL ? LUNQ_WD_CALL_NS :
		      rule == LUNQ_WD_MANUAL ? 0 : lc->pol.wd.timeout_ns;
	lc->pol.ext = NULL;	/* stopped below, outside the lock */
	lc->pol.bi = NULL;	/* the table's, started afresh */
	kick = lunq_apply_policy(lc, now);
	lc->win_rebase = true;
	lunq_arm_timer(lc);
	lunq_win_kick(lc);
	trace_lunq_pol_eject(&lc->evq, e->policy, lunq_wd_rule_name(rule),
			     hook, ns, e->bound_ns);
	ev.t = now;
	ev.count = ns;
	ev.wait_ns = e->bound_ns;
	lunq_ev_post(&lc->evq, &ev);
	spin_unlock_irq(&lc->lock);
	lunq_policy_eject_log(lc, e);
	if (ops->stop)
		ops->stop(&lc->pol.dev);
	if (kick)
		lunq_kick(lc);
	return true;
}

void lunq_policy_ejected(struct lunq_c *lc, const struct lunq_policy_ops *ops)
{
	if (lunq_policy_eject_sink)
		lunq_policy_eject_sink(lc, ops);
}

/*
 * The window work's tick for a policy from outside (@ops, in force at the
 * tick), after the tick's locked part (lunq_window.c): the watchdog's verdict @rule (@rule_ns), its QUEUE FULLs
 * (@qf), its window @s when @ready.  Each callback runs here, under
 * pol_mutex and outside the device's lock, timed; its answer goes to the
 * throttle under the lock.  Returns whether to kick.
 */
static bool lunq_policy_ext_tick(struct lunq_c *lc,
				 const struct lunq_policy_ops *ops,
				 enum lunq_wd_rule rule, u64 rule_ns, u32 qf,
				 struct lunq_pol_window *s, bool ready)
{
	u8 hook = LUNQ_PH_WINDOW;
	bool kick = false, ejected;
	u64 t = 0;
	u32 d, was;

	mutex_lock(&lc->pol_mutex);
	if (READ_ONCE(lc->pol.ext) != ops)	/* changes under pol_mutex */
		goto out;
	if (!rule && qf) {
		struct lunq_pol_view pv;

		spin_lock_irq(&lc->lock);
		lunq_throttle_view(lc, &pv, ktime_get_ns());
		spin_unlock_irq(&lc->lock);
		pv.qfull = qf;
		t = ktime_get_ns();
		d = lunq_pol_qfull(&lc->pol, &pv);
		t = ktime_get_ns() - t;
		rule = lunq_wd_call(t);
		hook = LUNQ_PH_QFULL;
		spin_lock_irq(&lc->lock);
		if (!rule && d != lc->host.thr.depth) {
			kick |= lunq_throttle_set(lc, d, LUNQ_TC_QFULL,
						  ktime_get_ns());
			lc->win_rebase = true;
		}
		spin_unlock_irq(&lc->lock);
	}
	if (!rule && ready) {
		t = ktime_get_ns();
		d = lunq_pol_window(&lc->pol, s);
		t = ktime_get_ns() - t;
		rule = lunq_wd_call(t);
		hook = LUNQ_PH_WINDOW;
		spin_lock_irq(&lc->lock);
		was = lc->host.thr.depth;
		if (!rule && !lc->win_rebase && was == s->v.depth) {
			trace_lunq_auto_window(&lc->evq, s, was, d);
			if (d != was) {
				kick |= lunq_throttle_set(lc, d, LUNQ_TC_BPF,
							  ktime_get_ns());
				lc->win_rebase = true;	/* a later tick */
			}
		}
		spin_unlock_irq(&lc->lock);
	}
	if (rule == LUNQ_WD_CALL)
		rule_ns = t;
	ejected = rule && lunq_policy_eject_held(lc, ops, rule, hook, rule_ns);
	mutex_unlock(&lc->pol_mutex);
	if (ejected)
		lunq_policy_ejected(lc, ops);
	return kick;
out:
	mutex_unlock(&lc->pol_mutex);
	return false;
}

void lunq_policy_init(void)
{
	lunq_win_set_ext(lunq_policy_ext_tick);
}

int lunq_policy_eject(struct lunq_c *lc)
{
	const struct lunq_policy_ops *ops;
	bool done;

	mutex_lock(&lc->pol_mutex);	/* after a callback in progress */
	ops = lc->pol.ext;
	done = lunq_policy_eject_held(lc, ops, LUNQ_WD_MANUAL, 0, 0);
	mutex_unlock(&lc->pol_mutex);
	if (!done)
		return -ENOENT;
	lunq_policy_ejected(lc, ops);
	return 0;
}

int lunq_policy_attach(struct lunq_c *lc, const struct lunq_policy_ops *ops,
		       const char *name)
{
	enum lunq_wd_rule rule;
	struct lunq_pol_view pv;
	bool kick = false;
	u64 now, t;
	u32 d;
	int err;

	mutex_lock(&lc->msg_lock);
	/* its windows read the statistics (stats:off is refused with it) */
	if (lc->keys.val[LUNQ_STATS]) {
		err = -EOPNOTSUPP;
		goto out;
	}
	err = lunq_win_alloc(lc, true);
	if (err)
		goto out;
	mutex_lock(&lc->pol_mutex);
	spin_lock_irq(&lc->lock);
	if (lc->pol.ext) {
		spin_unlock_irq(&lc->lock);
		err = -EBUSY;
		goto unlock;
	}
	now = ktime_get_ns();
	lc->pol.dev.id = lc->evq.devt;
	strscpy(lc->pol.dev.name, name, sizeof(lc->pol.dev.name));
	lunq_pol_use_ext(&lc->pol, ops, lc->keys.val);
	lunq_wd_start(&lc->pol.wd, ops->timeout_ms, now,
		      lunq_stats_read(&lc->st, LUNQ_ST_DISPATCHED));
	memset(&lc->eject, 0, sizeof(lc->eject));
	lunq_throttle_view(lc, &pv, now);
	spin_unlock_irq(&lc->lock);

	t = ktime_get_ns();
	d = lunq_pol_start(&lc->pol, &pv);	/* outside the lock */
	t = ktime_get_ns() - t;

	spin_lock_irq(&lc->lock);
	kick = lunq_throttle_set(lc, d, LUNQ_TC_SET, ktime_get_ns());
	lc->win_rebase = true;
	lunq_update_fast(lc);
	lunq_win_kick(lc);
	spin_unlock_irq(&lc->lock);
	rule = lunq_wd_call(t);
	if (rule)
		lunq_policy_eject_held(lc, ops, rule, LUNQ_PH_START, t);
unlock:
	mutex_unlock(&lc->pol_mutex);
out:
	mutex_unlock(&lc->msg_lock);
	if (kick)
		lunq_kick(lc);
	return err;
}

bool lunq_policy_detach(struct lunq_c *lc, const struct lunq_policy_ops *ops)
{
	const struct lunq_policy_ops *was;
	bool kick = false;

	mutex_lock(&lc->msg_lock);
	mutex_lock(&lc->pol_mutex);	/* after a callback in progress */
	spin_lock_irq(&lc->lock);
	was = lc->pol.ext;
	if (was && (!ops || was == ops)) {
		lc->pol.ext = NULL;	/* stopped below, outside the lock */
		lc->pol.bi = NULL;	/* the table's, started afresh */
		kick = lunq_apply_policy(lc, ktime_get_ns());
		lc->win_rebase = true;
		lunq_arm_timer(lc);
		lunq_win_kick(lc);
	} else {
		was = NULL;
	}
	spin_unlock_irq(&lc->lock);
	if (was && was->stop)
		was->stop(&lc->pol.dev);
	mutex_unlock(&lc->pol_mutex);
	mutex_unlock(&lc->msg_lock);
	if (kick)
		lunq_kick(lc);
	return was;
}
