/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One lunq device as the module's GET_DEV reports it (nl.c fills it):
 * its names, table, policy in force, last BPF ejection and statistics.
 */
#ifndef LUNQCTL_DEV_H
#define LUNQCTL_DEV_H

#include "lq.h"		/* liblunq: types, the netlink protocol's sizes */

struct lq_dev {
	char name[LUNQ_NAME_MAX];	/* /sys/kernel/lunq/<name> */
	char dm_name[LUNQ_NAME_MAX];
	char disk[32];			/* "dm-3" */
	char lower[32];			/* "MAJ:MIN" */
	u64 begin, len;			/* sectors */
	char policy[LUNQ_POLICY_MAX];	/* "key:value ..." (TABLE status) */
	char tpolicy[LUNQ_POL_NAME];	/* the throttle policy in force */
	char tpolicy_from[8];		/* "table" or "bpf" ("" if not told) */
	/* the last BPF policy ejected since one was attached ("": none) */
	char ej_policy[LUNQ_POL_NAME], ej_rule[16], ej_hook[16];
	unsigned long long ej_t, ej_ns, ej_bound_ns;	/* ns, monotonic */
	u64 st[__LUNQ_ST_MAX];		/* indexed by enum lunq_stat */
	bool have[__LUNQ_ST_MAX];	/* the module reported it */
};

#endif /* LUNQCTL_DEV_H */
