/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqctl: what sweep and tune (cmd_sweep.c) and tune --online
 * (cmd_tune_online.c) share while they drive one device: stopping on a
 * signal, setting its policy and putting the old one back, its identity
 * for the report, the --p99 option.
 */
#ifndef LUNQCTL_DEVRUN_H
#define LUNQCTL_DEVRUN_H

#include <signal.h>
#include "dev.h"
#include "nl.h"
#include "ident.h"

/* The signal that asks the run to stop (SIGINT, SIGTERM, SIGHUP), 0: none. */
extern volatile sig_atomic_t lq_stop;
/*
 * Catch SIGINT, SIGTERM and SIGHUP into lq_stop, without SA_RESTART (a
 * poll(), waitpid() or sleep returns EINTR at once); ignore SIGPIPE.
 */
void lq_catch_signals(void);

/* Send the policy @words to device @dev; the error printed as "MSG (WORDS)". */
int lq_policy_send(struct lq_nl *nl, const char *dev, const char *words);
/*
 * Put the policy @words (the one before) back on @dev: an error is
 * printed; done, "DEV: policy restored: SAID" on stderr unless @quiet.
 */
void lq_policy_restore(struct lq_nl *nl, const char *dev, const char *words,
		       const char *said, bool quiet);

/* @id of device @d: its lunq and device-mapper names, its lower device's identity. */
void lq_dev_ident(const struct lq_dev *d, struct lq_ident *id);

/* --p99 TIME of @cmd into @ns; the usage error printed. */
int lq_opt_p99(const char *cmd, const char *arg, u64 *ns);

#endif /* LUNQCTL_DEVRUN_H */
