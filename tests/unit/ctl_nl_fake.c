// SPDX-License-Identifier: GPL-2.0
/*
 * A netlink connection to nothing, for unit tests that run lunqctl's
 * commands with the device's answers faked in the test itself
 * (lq_find_dev, lq_nl_get_dev, lq_nl_set, ...): lq_connect hands out one
 * connection, lq_nl_close does nothing, lq_nl_err says "fake netlink
 * error"; and lq_prog.  Linked by tests/unit/ctl_stat_auto_test.c and
 * ctl_tune_online_test.c in place of ctl/nl.c.
 */
#include "cmd.h"
#include "nl.h"

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
