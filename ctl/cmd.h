/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqctl: the subcommands (cmd_*.c) and the helpers they share
 * (common.c).  Each subcommand gets argv[0] = its name and returns an
 * exit code (enum lq_exit).
 */
#ifndef LUNQCTL_CMD_H
#define LUNQCTL_CMD_H

#include "dev.h"
#include "exit.h"
#include "util.h"	/* liblunq: lq_prog, lq_error ("lunqctl: message") */
#include "nl.h"
#include "options.h"	/* the options of every command, their --help */
#include "lunq_args.h"

/* lunqctl.c's table; the synopsis and summary are options.c's lq_cmd_docs[] */
struct lq_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
};

int cmd_create(int argc, char **argv);
int cmd_remove(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_set(int argc, char **argv);
int cmd_reset(int argc, char **argv);
int cmd_policy(int argc, char **argv);
/*
 * The device-mapper device @dm_name is gone: unpin the links of the BPF
 * policies lunqctl policy attach left for it (cmd_policy.c), so the module
 * is no longer held.  How many were removed.
 */
int lq_policy_forget(const char *dm_name);
int cmd_stat(int argc, char **argv);
int cmd_hist(int argc, char **argv);
int cmd_align(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_apply(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_tune(int argc, char **argv);
/* tune --online (cmd_tune_online.c): cmd_tune hands over when wanted */
bool lq_tune_online_wanted(int argc, char **argv);
int cmd_tune_online(int argc, char **argv);

/* common.c.  Print the --help of @cmd on stdout; returns LQ_OK. */
int lq_cmd_help(const char *cmd);

/* Connect to the family; prints the error.  LQ_OK or an exit code. */
int lq_connect(struct lq_nl **nl);
/* Kernel name of block device "MAJ:MIN" ("sdb"), or @majmin itself. */
void lq_lower_name(const char *majmin, char *buf, size_t len);
/* "active" or "suspended" (from /sys/block/DISK/dm/suspended), "?" */
const char *lq_dev_state(const struct lq_dev *d);
/* Strict unsigned decimal; -1 when not a number in 0..max. */
int lq_parse_uint(const char *s, unsigned long max, unsigned long *v);
/* Find the device called @name (lunq name or device-mapper name). */
int lq_find_dev(struct lq_nl *nl, const char *name, struct lq_dev *d);

/* Value of the pool key in the policy string, "" when none. */
void lq_pool_of(const char *policy, char *buf, size_t len);

#endif /* LUNQCTL_CMD_H */
