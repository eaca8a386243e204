/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq: the policy in force on a device -- the table's keys (struct
 * lunq_policy, what TABLE status echoes), their changes, and the throttle
 * policy they select (lunq_pol.h) with its hooks: QUEUE FULL, a good
 * completion, a deadline.  Everything that moves the depth comes through
 * here or the window work (lunq_window.c) to the throttle
 * (lunq_throttle_dev.h).
 */
#ifndef LUNQ_POLICY_H
#define LUNQ_POLICY_H

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
 * The table's policy into @p and, when @name is not NULL, the name of the
 * throttle policy in force (LUNQ_POL_NAME bytes) into @name, under one
 * lock; true when that one is from outside (BPF).
 */
bool lunq_get_policy(struct lunq_c *lc, struct lunq_keys *p, char *name);
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
 * any from outside) is attached.  True when it was.  May sleep.
 */
bool lunq_policy_detach(struct lunq_c *lc, const struct lunq_policy_ops *ops);

#endif /* LUNQ_POLICY_H */
