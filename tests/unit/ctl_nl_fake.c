// SPDX-License-Identifier: GPL-2.0
/*
 * A netlink connection to nothing, for unit tests that run lunqctl's
 * commands with the device's answers faked in the test itself
 * (lq_find_dev, lq_nl_get_dev, lq_nl_set, ...): lq_connect hands out one
 * connection, lq_nl_close does nothing, lq_nl_err says "fake netlink
 * error"; and lq_prog; fake_auto fills a device's adaptive statistics,
 * fake_run runs a command with its output into files.  Linked by tests/unit/ctl_stat_auto_test.c and
 * ctl_tune_online_test.c in place of ctl/nl.c.
 */
#include <unistd.h>
#include "cmd.h"
#include "nl.h"
#include "ctl_nl_fake.h"

struct lq_nl {
	int unused;
};

static struct lq_nl the_nl;

const char *lq_prog = "lunqctl";

int lq_connect(struct lq_nl **nl)
{
	*nl = &the_nl;
	return LQ_OK;
}

void lq_nl_close(struct lq_nl *nl)
{
	(void)nl;
}

const char *lq_nl_err(const struct lq_nl *nl)
{
	(void)nl;
	return "fake netlink error";
}

void fake_auto(struct lq_dev *d, u64 thr, u64 phase, bool measured)
{
	d->st[LUNQ_ST_THROTTLE] = thr;
	d->st[LUNQ_ST_AUTO_PHASE] = phase;
	d->st[LUNQ_ST_AUTO_PEAK_IOPS] = measured ? 2000 : 0;
	d->st[LUNQ_ST_AUTO_SVC_MIN_NS] = measured ? 8200000 : 0;
	d->st[LUNQ_ST_AUTO_KNEE] = measured ? 16 : 0;
	d->st[LUNQ_ST_AUTO_P99_NS] = measured ? 8400000 : 0;
}

int fake_run(int (*cmd)(int argc, char **argv), int argc, char **argv,
	     FILE *out, FILE *err)
{
	int so, se, rc;

	fflush(stdout);
	fflush(stderr);
	so = dup(1);
	se = dup(2);
	dup2(fileno(out), 1);
	dup2(fileno(err), 2);
	rc = cmd(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	return rc;
}
