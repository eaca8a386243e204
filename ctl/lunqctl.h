/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqctl: types and exit codes shared by its parts.
 *
 * Pure parts (no libnl, no libdevmapper; unit-tested in tests/unit):
 *   kv.c         key=value / key:value arguments -> policy words; the
 *                kernel's policy string -> a policy (lq_policy_read)
 *   iostat.c     iostat -x arithmetic from two snapshots, text/JSON/Prometheus
 *   policyfile.c policy files: parser and matching
 *   ident.c      a block device's identity (vendor, model, serial, WWN) from sysfs
 *   sweep.c      sweep/tune: lunqbench's --kv line, curves, knee, tune rule, outputs
 *   svg.c        the throughput vs p99 plot of a sweep
 *   autotune.c   the adaptive throttle: stat's view, tune --online's settling
 *                and report
 *   options.c    every subcommand's synopsis and options: the tables, the
 *                parser, lq_usage, --help, --list-options
 * From liblunq (lib/): messages (lq_error), JSON, units, histogram views,
 * kmod's pure files.
 * Plumbing:
 *   bench.c      lunqbench: found, run, the options of its table sweep takes
 *   nl.c         the "lunq" generic netlink family (libnl-genl-3)
 *   dmops.c      create/remove through libdevmapper
 *   common.c     the helpers the subcommands share (cmd.h)
 *   devrun.c     sweep's, tune's and tune --online's run on a device
 *   cmd_*.c      the subcommands
 *   lunqctl.c    main and the table that runs them
 */
#ifndef LUNQCTL_H
#define LUNQCTL_H

#include "lq.h"		/* liblunq: types, struct lq_hist */

/* Exit codes (lunqctl(8), EXIT STATUS). */
enum lq_exit {
	LQ_OK = 0,
	LQ_EUSAGE = 1,		/* bad arguments, bad value, policy file syntax */
	LQ_ENOTFOUND = 2,	/* no such device, not lunq, module not loaded */
	LQ_EPERM = 3,		/* needs root / CAP_NET_ADMIN / CAP_SYS_ADMIN */
	LQ_EBUSY = 4,		/* device in use or name taken */
	LQ_EVERSION = 5,	/* kernel module speaks another netlink version */
	LQ_EFAIL = 6,		/* any other failure (kernel refused, IO error) */
};

/* One lunq device as GET_DEV reports it. */
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

#endif /* LUNQCTL_H */
