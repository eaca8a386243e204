// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq: the policy in force on a device, see lunq_policy.h.
 */
#include <linux/ktime.h>
#include <linux/string.h>

#include "lunq_policy.h"
#include "lunq_throttle_dev.h"
#include "lunq_window.h"

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
		.capacity = lc->ti->len,
	};
	bool kick;

	struct lunq_pol_view pv;
	u32 d;

	if (lc->pol.ext) {
		/* attached from outside: it stays, within the new limits */
		lunq_pol_use_ext(&lc->pol, lc->pol.ext, v);
		d = lunq_pol_clamp(lc->host.thr.depth, lc->pol.min,
				   lc->pol.max);
	} else {
		lunq_pol_use(&lc->pol, lunq_pol_select(v), v);
		lunq_throttle_view(lc, &pv, now);
		d = lunq_pol_start(&lc->pol, &pv);
	}
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
	lunq_model_config(&lc->model, &mc);
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

int lunq_set_words(struct lunq_c *lc, unsigned int argc, char **argv,
		   const char **err, const char **word)
{
	struct lunq_keys np;
	bool kick;

	mutex_lock(&lc->msg_lock);
	lunq_get_policy(lc, &np, NULL);
	*err = lunq_parse_words(lc, &np, argc, argv, true, word);
	if (!*err && lunq_win_alloc(lc, lunq_win_needed(&np)))
		*err = "auto: cannot allocate its window's histogram";
	if (*err) {
		mutex_unlock(&lc->msg_lock);
		return -EINVAL;
	}
	spin_lock_irq(&lc->lock);
	lc->keys = np;
	kick = lunq_apply_policy(lc, ktime_get_ns());
	lunq_arm_timer(lc);
	lunq_win_kick(lc);
	spin_unlock_irq(&lc->lock);
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

int lunq_policy_attach(struct lunq_c *lc, const struct lunq_policy_ops *ops,
		       const char *name)
{
	struct lunq_pol_view pv;
	bool kick = false;
	u64 now;
	int err;

	mutex_lock(&lc->msg_lock);
	err = lunq_win_alloc(lc, true);
	if (err)
		goto out;
	spin_lock_irq(&lc->lock);
	if (lc->pol.ext) {
		err = -EBUSY;
	} else {
		now = ktime_get_ns();
		lc->pol.dev.id = lc->evq.devt;
		strscpy(lc->pol.dev.name, name, sizeof(lc->pol.dev.name));
		lunq_pol_use_ext(&lc->pol, ops, lc->keys.val);
		lunq_throttle_view(lc, &pv, now);
		kick = lunq_throttle_set(lc, lunq_pol_start(&lc->pol, &pv),
					 LUNQ_TC_SET, now);
		lc->win_rebase = true;
		lunq_update_fast(lc);
		lunq_win_kick(lc);
	}
	spin_unlock_irq(&lc->lock);
out:
	mutex_unlock(&lc->msg_lock);
	if (kick)
		lunq_kick(lc);
	return err;
}

bool lunq_policy_detach(struct lunq_c *lc, const struct lunq_policy_ops *ops)
{
	bool kick = false, was;

	mutex_lock(&lc->msg_lock);
	spin_lock_irq(&lc->lock);
	was = lc->pol.ext && (!ops || lc->pol.ext == ops);
	if (was) {
		lunq_pol_stop(&lc->pol);
		lc->pol.ext = NULL;	/* the table's, started afresh */
		lc->pol.bi = NULL;
		kick = lunq_apply_policy(lc, ktime_get_ns());
		lc->win_rebase = true;
		lunq_arm_timer(lc);
		lunq_win_kick(lc);
	}
	spin_unlock_irq(&lc->lock);
	mutex_unlock(&lc->msg_lock);
	if (kick)
		lunq_kick(lc);
	return was;
}
