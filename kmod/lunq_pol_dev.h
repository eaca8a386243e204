/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq, the policy family's device half (lunq_pol.c the pure one): the
 * policy in force on a device -- the table's keys (struct
 * lunq_policy, what TABLE status echoes), their changes, and the throttle
 * policy they select (lunq_pol.h) with its hooks: QUEUE FULL, a good
 * completion, a deadline.  Everything that moves the depth comes through
 * here or the window work (lunq_window.c) to the throttle
 * (lunq_throttle_dev.h).
 */
#ifndef LUNQ_POL_DEV_H
#define LUNQ_POL_DEV_H

#include "lunq_core.h"

/*
 * Parse @argc "key:value" words into *@p, all or nothing (@live: a "set"
 * message, table-only keys refused).  NULL or the error text; *@word is
 * the bad word or NULL.
 */
const char *lunq_parse_words(struct lunq_c *lc, struct lunq_keys *p,
			     unsigned int argc, char **argv, bool live,
			     const char **word);
/* Push @lc->keys into the IO path; true when waiters can go.  Locked. */
bool lunq_apply_policy(struct lunq_c *lc, u64 now);
/*
 * The model's state (struct lunq_model, ~50 KiB) when @p names a model
 * and the device has none yet, and the read cache's table
 * (LUNQ_RC_ENTRIES entries, 32 KiB) when @p asks for one (rcache_mb > 0)
 * and the model has none yet: before @p takes effect, in process context,
 * without the device's lock, never in the IO path.  Both are kept until
 * the table goes (lunq_core_free()).  NULL, or what could not be
 * allocated.
 */
const char *lunq_model_alloc(struct lunq_c *lc, const struct lunq_keys *p);
/*
 * The table's policy into @p and, when @name is not NULL, the name of the
 * throttle policy in force (LUNQ_POL_NAME bytes) into @name, under one
 * lock; true when that one is from outside (BPF).
 */
bool lunq_get_policy(struct lunq_c *lc, struct lunq_keys *p, char *name);
/* The last ejection (struct lunq_eject) into @e; false when none. */
bool lunq_get_eject(struct lunq_c *lc, struct lunq_eject *e);
/*
 * Apply @argc "key:value" words, all or nothing (the "set" message).  On
 * error returns -EINVAL, *@err is a constant message and *@word the bad
 * word or NULL.
 */
int lunq_set_words(struct lunq_c *lc, unsigned int argc, char **argv,
		   const char **err, const char **word);

/*
 * The throttle policy's hooks, locked.  QUEUE FULL with @in_transport
 * commands of this host still out; a command completed with good status;
 * the device timer (a restore due).  True when waiters can go.
 */
bool lunq_policy_qfull(struct lunq_c *lc, u64 now, u32 in_transport);
bool lunq_policy_good(struct lunq_c *lc, u64 now);
bool lunq_policy_tick(struct lunq_c *lc, u64 now);

/*
 * A policy from outside (BPF, lunq_bpf.c) takes over from the table's
 * keys until detached: started at once, its limits auto_min..auto_max,
 * its QUEUE FULL heard by the window work; its callbacks name the device
 * @name.  -EBUSY when one is attached already, -ENOMEM.  May sleep.
 */
int lunq_policy_attach(struct lunq_c *lc, const struct lunq_policy_ops *ops,
		       const char *name);
/*
 * Back to the policy of the table's keys, started afresh, when @ops (NULL:
 * any from outside) is attached; its stop callback is called.  True when
 * it was.  May sleep (waits for a callback in progress).
 */
bool lunq_policy_detach(struct lunq_c *lc, const struct lunq_policy_ops *ops);

/*
 * The watchdog's verdict carried out (lunq_wd.h): @ops, when it is still
 * the policy in force, is ejected for @rule (@hook: the callback that ran
 * too long, @ns: what broke the rule); the table's policy takes over, the
 * ejection is kept (struct lunq_eject), traced, posted and logged, and
 * @ops's stop callback is called.  @lc->pol_mutex held, not @lc->lock.
 * True when it was ejected: then call lunq_policy_ejected() once
 * @lc->pol_mutex is released.
 */
bool lunq_policy_eject_held(struct lunq_c *lc,
			    const struct lunq_policy_ops *ops,
			    enum lunq_wd_rule rule, u8 hook, u64 ns);
/* Tells the BPF side (its sink) that @ops was ejected from @lc.  No lock. */
void lunq_policy_ejected(struct lunq_c *lc, const struct lunq_policy_ops *ops);
/* "policy eject": eject the policy from outside by hand; -ENOENT: none. */
int lunq_policy_eject(struct lunq_c *lc);
/* Module init: the window work calls policies from outside through here. */
void lunq_policy_init(void);
/*
 * Where ejections go (lunq_bpf.c registers itself, so this layer calls
 * nothing above it): the sink lets the policy's link go (EPOLLHUP).
 */
void lunq_policy_set_eject_sink(void (*sink)(struct lunq_c *lc,
					     const struct lunq_policy_ops *ops));

#endif /* LUNQ_POL_DEV_H */
