// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl: the userspace controller of dm-lunq.  Entry point, the table
 * of subcommands (their options and --help text are options.c's), and
 * helpers shared by cmd_*.c.
 * Reference: ctl/lunqctl.8.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <limits.h>
#include "cmd.h"
#include "bench.h"
#include "kv.h"

#ifndef LUNQ_VERSION
#define LUNQ_VERSION "0.5.0"
#endif

const char *lq_prog = "lunqctl";

const struct lq_cmd lq_cmds[] = {
	{ "create", cmd_create, "NAME DEV [KEY=VALUE...]",
	  "make lunq device NAME over block device DEV" },
	{ "remove", cmd_remove, "NAME...",
	  "remove lunq devices" },
	{ "list", cmd_list, "[-j]",
	  "one line per lunq device: name, lower device, size, state, policy" },
	{ "show", cmd_show, "[-j] NAME",
	  "full policy, lower device identity, counters, pool membership" },
	{ "policy", cmd_policy, "attach NAME FILE.bpf.o | detach NAME | show [-j] NAME",
	  "a throttle policy written in BPF: attach, detach, show (Linux 6.9+)" },
	{ "set", cmd_set, "NAME KEY=VALUE...",
	  "change the policy of NAME live (all or nothing)" },
	{ "reset", cmd_reset, "NAME",
	  "zero the counters and histograms of NAME" },
	{ "stat", cmd_stat, "[-x|-L] [-C] [-j|-p [-o FILE]] [NAME...] [INTERVAL [COUNT]]",
	  "iostat-style statistics, per interval" },
	{ "hist", cmd_hist, "NAME [VIEW] [-j]",
	  "latency, size and alignment histograms (DTrace style)" },
	{ "align", cmd_align, "[-j] [--vendor GLOB] [--model GLOB] [--pool POOL] [NAME...]",
	  "align.d's report: sizes and alignment, READ / WRITE / ALL" },
	{ "events", cmd_events, "[-j] [-c COUNT] [-t SECONDS] [NAME...]",
	  "follow QUEUE FULL, throttle, LUN reset and bubble events" },
	{ "apply", cmd_apply, "[-n] [-q] [-d NAME] FILE",
	  "apply a policy file (lunq.conf(5)) to existing lunq devices" },
	{ "sweep", cmd_sweep, "NAME [OPTIONS] [BENCH OPTIONS] [-- LUNQBENCH OPTIONS]",
	  "run lunqbench under each qdepth and sched: throughput vs latency, knee" },
	{ "tune", cmd_tune, "NAME --p99 TIME [OPTIONS] [BENCH OPTIONS] [-- LUNQBENCH OPTIONS]\n"
	  "       lunqctl tune NAME --online [--settle S] [--elapsed S] [--mode knee|target]\n"
	  "                    [--p99 TIME] [--keep] [-j] [-q]",
	  "recommend a per-LUN qdepth as policy-file lines (sweep or --online)" },
	{ NULL, NULL, NULL, NULL }
};

static void main_usage(FILE *f)
{
	const struct lq_cmd *c;

	fprintf(f, "usage: %s COMMAND [ARGS]\n\n"
		"The controller of dm-lunq, the block-IO throttling and scheduling lab.\n\n"
		"Commands:\n", lq_prog);
	for (c = lq_cmds; c->name; c++)
		fprintf(f, "  %-8s %s\n", c->name, c->summary);
	fprintf(f, "\n"
		"'%s COMMAND --help' shows a command's options; lunqctl(8) has it all.\n"
		"Exit status: 0 ok, 1 usage or bad value, 2 no such device or module not\n"
		"loaded, 3 permission denied, 4 busy, 5 module version mismatch, 6 other.\n"
		"  -h, --help      this help\n"
		"  -V, --version   version of lunqctl and of its netlink protocol\n",
		lq_prog);
}

static const struct lq_cmd *find_cmd(const char *name)
{
	const struct lq_cmd *c;

	for (c = lq_cmds; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

int lq_cmd_help(const char *cmd)
{
	const struct lq_cmd *c = find_cmd(cmd);

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

/*
 * --list-options (hidden, like lunqbench's): every option of every
 * command, the lunqbench options sweep and tune pass on with them
 * (options.h); what tests/unit/ctl-options.sh holds lunqctl(8) and
 * lunqctl.bash to.
 */
static void list_options(void)
{
	const struct lq_bench *b = lq_bench();
	const struct lq_cmd *c;

	for (c = lq_cmds; c->name; c++)
		lq_opts_list(stdout, c->name, b->opt,
			     !strcmp(c->name, "sweep") || !strcmp(c->name, "tune") ? b->n : 0);
}

int lq_usage(const char *cmd, const char *fmt, ...)
{
	const struct lq_cmd *c = find_cmd(cmd);
	va_list ap;

	fprintf(stderr, "%s %s: ", lq_prog, cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (c)
		fprintf(stderr, "usage: %s %s %s\n", lq_prog, c->name, c->args);
	fprintf(stderr, "Try '%s %s --help'.\n", lq_prog, cmd);
	return LQ_EUSAGE;
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

void lq_fmt_size(char *buf, size_t len, u64 bytes)
{
	static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	unsigned int i = 0;
	u64 whole = bytes, frac = 0;

	while (whole >= 1024 && i + 1 < ARRAY_SIZE(u)) {
		frac = (whole % 1024) * 10 / 1024;
		whole /= 1024;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%llu.%llu %s", (unsigned long long)whole,
			 (unsigned long long)frac, u[i]);
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

int main(int argc, char **argv)
{
	const struct lq_cmd *c;
	int i;

	lq_nomem_status = LQ_EFAIL;
	if (argc < 2) {
		main_usage(stderr);
		return LQ_EUSAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		if (argc > 2 && strcmp(argv[1], "help") == 0) {
			if (lq_cmd_help(argv[2]))
				return lq_error(LQ_EUSAGE, "no command '%s'", argv[2]);
			return LQ_OK;
		}
		main_usage(stdout);
		return LQ_OK;
	}
	if (!strcmp(argv[1], "--list-options")) {
		list_options();
		return LQ_OK;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("lunqctl %s (netlink family \"%s\" version %d)\n",
		       LUNQ_VERSION, LUNQ_GENL_NAME, LUNQ_GENL_VERSION);
		return LQ_OK;
	}
	c = find_cmd(argv[1]);
	if (!c) {
		fprintf(stderr, "%s: unknown command '%s'\n", lq_prog, argv[1]);
		main_usage(stderr);
		return LQ_EUSAGE;
	}
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return lq_cmd_help(c->name);
	}
	return c->fn(argc - 1, argv + 1);
}

void lq_pool_of(const char *policy, char *buf, size_t len)
{
	struct lunq_keys p;

	buf[0] = '\0';
	if (!lq_policy_parse(policy, &p) && (p.given & (1ULL << LUNQ_POOL)))
		snprintf(buf, len, "%s", p.pool);
}
