// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl: the helpers its subcommands share (cmd.h): a command's --help,
 * the connection to the module, finding a device, the small parsers and
 * the facts of a device (its lower device, state, pool).  Below the
 * subcommands and above options.c, nl.c and bench.c; lunqctl.c (main)
 * only calls in.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd.h"
#include "bench.h"
#include "kv.h"

int lq_cmd_help(const char *cmd)
{
	const struct lq_cmd_doc *c = lq_cmd_doc(cmd);

	if (!c)
		return LQ_EUSAGE;
	printf("usage: %s %s %s\n\n%s.\n", lq_prog, c->name, c->args,
	       c->summary);
	if (!strcmp(c->name, "sweep")) {	/* it names lunqbench's options */
		const struct lq_bench *b = lq_bench();

		lq_opts_help(stdout, c->name, b->opt, b->rc ? -1 : b->n);
	} else {
		lq_opts_help(stdout, c->name, NULL, 0);
	}
	return LQ_OK;
}

int lq_connect(struct lq_nl **nl)
{
	char err[512];
	int rc = lq_nl_open(nl, err, sizeof(err));

	if (rc)
		lq_error(rc, "%s", err);
	return rc;
}

void lq_lower_name(const char *majmin, char *buf, size_t len)
{
	char path[64], target[PATH_MAX];
	ssize_t n;
	const char *base;

	snprintf(path, sizeof(path), "/sys/dev/block/%s", majmin);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0) {
		snprintf(buf, len, "%s", majmin);
		return;
	}
	target[n] = '\0';
	base = strrchr(target, '/');
	snprintf(buf, len, "%s", base ? base + 1 : target);
}

const char *lq_dev_state(const struct lq_dev *d)
{
	char path[96];
	FILE *f;
	int c;

	/* DISK is "dm-3", or "dm-3@2048" for a target not at sector 0 */
	snprintf(path, sizeof(path), "/sys/block/%.*s/dm/suspended",
		 (int)strcspn(d->disk, "@"), d->disk);
	f = fopen(path, "r");
	if (!f)
		return "?";
	c = fgetc(f);
	fclose(f);
	return c == '1' ? "suspended" : "active";
}

int lq_parse_uint(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	if (!s[0] || s[0] < '0' || s[0] > '9')
		return -1;
	errno = 0;
	*v = strtoul(s, &end, 10);
	if (errno || *end || *v > max)
		return -1;
	return 0;
}

int lq_find_dev(struct lq_nl *nl, const char *name, struct lq_dev *d)
{
	struct lq_dev *all;
	int rc, n, i;

	rc = lq_nl_get_dev(nl, name, d);
	if (rc != LQ_ENOTFOUND)
		return rc ? lq_error(rc, "%s", lq_nl_err(nl)) : LQ_OK;
	/* a device-mapper name that differs from the directory name */
	rc = lq_nl_dump(nl, &all, &n);
	if (rc)
		return lq_error(rc, "%s", lq_nl_err(nl));
	for (i = 0; i < n; i++)
		if (!strcmp(all[i].dm_name, name)) {
			*d = all[i];
			free(all);
			return LQ_OK;
		}
	free(all);
	{
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "/dev/mapper/%s", name);
		if (access(path, F_OK) == 0)
			return lq_error(LQ_ENOTFOUND,
					"%s is a device-mapper device, but not a lunq one", name);
	}
	return lq_error(LQ_ENOTFOUND,
			"no lunq device '%s' ('%s list' shows them)", name, lq_prog);
}

void lq_pool_of(const char *policy, char *buf, size_t len)
{
	struct lunq_keys p;

	buf[0] = '\0';
	if (!lq_policy_parse(policy, &p) && (p.given & (1ULL << LUNQ_POOL)))
		snprintf(buf, len, "%s", p.pool);
}
