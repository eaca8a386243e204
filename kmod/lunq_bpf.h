/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq throttle policies in BPF: struct lunq_policy_ops registered as a
 * BPF struct_ops type (kernels whose modules can: 6.9 and later, with
 * CONFIG_BPF_SYSCALL and CONFIG_BPF_JIT; lunq_bpf.c).  A device told to
 * expect a policy by name (lunq_bpf_expect(), the "policy expect NAME"
 * message) takes the struct_ops map of that name when it is attached (a
 * link, or a map update): it becomes that device's policy
 * (lunq_policy_attach()), and detaching it makes the table's the policy
 * again.  Elsewhere these do nothing and
 * /sys/module/dm_lunq/parameters/bpf_policies reads N.
 */
#ifndef LUNQ_BPF_H
#define LUNQ_BPF_H

struct lunq_c;

/* Module init and exit: register the struct_ops type (not fatal). */
void lunq_bpf_init(void);
void lunq_bpf_exit(void);
/*
 * The device @lc goes away (dtr) or is told to ("policy detach"): a BPF
 * policy attached to it is detached (its link stays, attached to
 * nothing).  True when there was one.
 */
bool lunq_bpf_detach(struct lunq_c *lc);
/*
 * The device @lc expects the BPF policy named @name (the next one of that
 * name registered within 10 s attaches to it).  -EINVAL for an empty or too long
 * name, -EBUSY when another device expects that name, -EOPNOTSUPP
 * without BPF policies.  May sleep.
 */
int lunq_bpf_expect(struct lunq_c *lc, const char *name);

/*
 * The "policy ..." messages, @argv after "policy": "expect NAME",
 * "detach" (its link stays), "eject" (as the watchdog does: the reason
 * kept, the link detached).  A dm message's return (1: @result filled).
 */
int lunq_bpf_message(struct lunq_c *lc, unsigned int argc, char **argv,
		     char *result, unsigned int maxlen);

#endif /* LUNQ_BPF_H */
