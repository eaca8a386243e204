// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl: a run on one device, as sweep, tune and tune --online drive it
 * (devrun.h).
 */
#include <stdio.h>
#include <string.h>
#include "devrun.h"
#include "options.h"
#include "units.h"	/* liblunq: lq_parse_duration_ns() */
#include "util.h"

volatile sig_atomic_t lq_stop;

static void on_signal(int sig)
{
	lq_stop = sig;
}

void lq_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	/* no SA_RESTART: poll(), waitpid() and a sleep return EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int lq_policy_send(struct lq_nl *nl, const char *dev, const char *words)
{
	int rc = lq_nl_set(nl, dev, words);

	if (rc)
		return lq_error(rc, "%s (%s)", lq_nl_err(nl), words);
	return LQ_OK;
}

void lq_policy_restore(struct lq_nl *nl, const char *dev, const char *words,
		       const char *said, bool quiet)
{
	int rc = lq_nl_set(nl, dev, words);

	if (rc)
		lq_error(rc, "%s: could not restore %s: %s", dev, words,
			 lq_nl_err(nl));
	else if (!quiet)
		fprintf(stderr, "%s: policy restored: %s\n", dev, said);
}

void lq_dev_ident(const struct lq_dev *d, struct lq_ident *id)
{
	memset(id, 0, sizeof(*id));
	snprintf(id->name, sizeof(id->name), "%s", d->name);
	snprintf(id->dm, sizeof(id->dm), "%s", d->dm_name);
	lq_ident_read("", d->lower, id);
}

int lq_opt_p99(const char *cmd, const char *arg, u64 *ns)
{
	if (lq_parse_duration_ns(arg, ns))
		return lq_usage(cmd, "--p99 '%s': a time with a unit (ns, us, ms, s), e.g. 10ms",
				arg);
	return LQ_OK;
}
