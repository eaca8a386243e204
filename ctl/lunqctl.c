// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl: the userspace controller of dm-lunq.  Entry point, the table
 * of subcommands and their help, and helpers shared by cmd_*.c.
 * Reference: ctl/lunqctl.8.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <limits.h>
#include "cmd.h"

#ifndef LUNQ_VERSION
#define LUNQ_VERSION "0.5.0"
#endif

const char *lq_prog = "lunqctl";

const struct lq_cmd lq_cmds[] = {
	{ "create", cmd_create, "NAME DEV [KEY=VALUE...]",
	  "make lunq device NAME over block device DEV",
	  "Loads the table \"0 <size of DEV> lunq MAJ:MIN 0 N <words>\" and makes\n"
	  "/dev/mapper/NAME.  Refuses a DEV that is missing or in use (mounted,\n"
	  "held by another device) and a NAME that is taken.  KEY=VALUE (or\n"
	  "KEY:VALUE) words are any table keys (lunqctl(8), POLICY KEYS).\n" },
	{ "remove", cmd_remove, "NAME...",
	  "remove lunq devices",
	  "Refuses a device that is open (mounted) or not lunq; stops at the\n"
	  "first one refused.\n" },
	{ "list", cmd_list, "[-j]",
	  "one line per lunq device: name, lower device, size, state, policy",
	  "  -j, --json     a JSON array\n" },
	{ "show", cmd_show, "[-j] NAME",
	  "full policy, lower device identity, counters, pool membership",
	  "  -j, --json     one JSON object\n" },
	{ "set", cmd_set, "NAME KEY=VALUE...",
	  "change the policy of NAME live (all or nothing)",
	  "KEY:VALUE is accepted too.  Every word is checked before anything is\n"
	  "sent; the kernel applies all of them or none.  Prints what changed.\n"
	  "Table-only keys (pool, pool_depth, pblk) need a new table:\n"
	  "lunqctl remove + create, or dmsetup reload.\n" },
	{ "reset", cmd_reset, "NAME",
	  "zero the counters and histograms of NAME", "" },
	{ "stat", cmd_stat, "[-x|-L] [-C] [-j|-p [-o FILE]] [NAME...] [INTERVAL [COUNT]]",
	  "iostat-style statistics, per interval",
	  "The first report covers the time since the counters were last reset;\n"
	  "each following one the last INTERVAL seconds.  Without INTERVAL, one\n"
	  "report.  Columns (lunqctl(8), STAT COLUMNS): r/s w/s kr/s kw/s and with\n"
	  "-x wait actv wsvc_t asvc_t %w %b, plus qfull/s and the live throttle.\n"
	  "  -x, --extended     Solaris iostat -xn columns (seeds 003, 004)\n"
	  "  -L, --linux        Linux iostat -x columns, await split into the time\n"
	  "                     waiting in lunq and at the device, and the\n"
	  "                     interval's misaligned and non-4k IOs\n"
	  "  -C, --totals       a total row per pool and one for all devices\n"
	  "  -j, --json         one JSON object per report, one line each\n"
	  "  -p, --prometheus   raw counters in Prometheus text format\n"
	  "  -o, --output FILE  with -p: write FILE atomically (textfile collector)\n" },
	{ "hist", cmd_hist, "NAME [VIEW] [-j]",
	  "latency, size and alignment histograms (DTrace style)",
	  "Which histogram (default --total, reads and writes apart):\n"
	  "  --wait | --service | --total   latency: queued, at the LUN, both\n"
	  "  --read | --write               only one direction\n"
	  "  --size | --align               IO sizes; start offset alignment\n"
	  "View (default --quantize then --percentiles):\n"
	  "  -q, --quantize                 power-of-two rows, exact\n"
	  "  -l, --lquantize LO,HI,STEP     linear rows, e.g. 0,20ms,1ms or 0,64k,4k\n"
	  "  -P, --percentiles              count, mean, p50 .. p99.99, max\n"
	  "  -j, --json                     JSON (all of the above and buckets)\n" },
	{ "align", cmd_align, "[-j] [--vendor GLOB] [--model GLOB] [--pool POOL] [NAME...]",
	  "align.d's report: sizes and alignment, READ / WRITE / ALL",
	  "Per device: IOs, reads, writes, misaligned starts and non-4k sizes\n"
	  "(READ, WRITE, ALL) and the percent non-4k; a total row per pool and one\n"
	  "for all devices shown; then the size and alignment tables of those\n"
	  "devices together.  Counts since the last reset.\n"
	  "  --vendor GLOB                only devices whose lower device's vendor\n"
	  "  --model GLOB                 or model matches (case-insensitive,\n"
	  "                               as lunq.conf(5) matches them)\n"
	  "  --pool POOL                  only the devices of pool POOL\n"
	  "  -j, --json                   one JSON object\n" },
	{ "events", cmd_events, "[-j] [-c COUNT] [-t SECONDS] [NAME...]",
	  "follow QUEUE FULL, throttle, LUN reset and bubble events",
	  "Runs until interrupted, COUNT events or SECONDS.\n"
	  "  -j, --json          one JSON object per line\n"
	  "  -c, --count COUNT   stop after COUNT events\n"
	  "  -t, --timeout SECS  stop after SECS seconds\n" },
	{ "apply", cmd_apply, "[-n] [-q] [-d NAME] FILE",
	  "apply a policy file (lunq.conf(5)) to existing lunq devices",
	  "Sections match devices by name or the lower device's vendor, model,\n"
	  "serial, WWN.  A file with any error applies nothing.\n"
	  "  -n, --dry-run       say what would change, change nothing\n"
	  "  -d, --device NAME   only this device; not a lunq device: exit 2,\n"
	  "                      with -q exit 0 silently (the udev rule's call)\n"
	  "  -q, --quiet         print only errors\n" },
	{ "sweep", cmd_sweep, "NAME [OPTIONS] [BENCH OPTIONS] [-- LUNQBENCH OPTIONS]",
	  "run lunqbench under each qdepth and sched: throughput vs latency, knee",
	  "Sets each policy on NAME, runs lunqbench against /dev/mapper/NAME per\n"
	  "point, restores the policy (also on Ctrl-C), prints a table and each\n"
	  "curve's knee: the point of greatest IOPS / p99 (Kleinrock's power).\n"
	  "  --qdepth LIST        throttles to try (default 1,2,4,8,16,32,64)\n"
	  "  --sched LIST         e.g. fifo,disksort (default: the device's)\n"
	  "  --loop closed|open|both\n"
	  "                       closed: --iorate max per policy (default);\n"
	  "                       open: that run measures the max, then open loop\n"
	  "                       at --curve percent of it (vdbench iorate=curve)\n"
	  "  --curve LIST         percentages (default 10,50,70,80,90,100)\n"
	  "  -o, --output PREFIX  write PREFIX.csv, PREFIX.json, PREFIX.svg\n"
	  "  -j, --json           JSON on stdout instead of the table\n"
	  "  -q, --quiet          no progress lines on stderr\n"
	  "  -v, --verbose        lunqbench's stderr shown as it runs\n"
	  "lunqbench options, passed on: --engine --iodepth --threads --bs --rdpct\n"
	  "--seekpct --range --elapsed --warmup --arrival --seed VALUE, and every\n"
	  "word after --.  Defaults: --iodepth twice the largest qdepth (at least\n"
	  "16; --iodepth qdepth: each point's own qdepth), --elapsed 10.\n"
	  "lunqbench: $LUNQBENCH, ../bench/lunqbench next to lunqctl, or PATH.\n" },
	{ "tune", cmd_tune, "NAME --p99 TIME [OPTIONS] [BENCH OPTIONS] [-- LUNQBENCH OPTIONS]\n"
	  "       lunqctl tune NAME --online [--settle S] [--elapsed S] [--mode knee|target]\n"
	  "                    [--p99 TIME] [--keep] [-j] [-q]",
	  "recommend a per-LUN qdepth as policy-file lines (sweep or --online)",
	  "Runs a closed-loop sweep over --qdepth with one sched (lunqbench\n"
	  "keeps qdepth IOs outstanding: --iodepth qdepth), then picks the\n"
	  "smallest qdepth within 95% of the most IOPS whose p99 is at most TIME\n"
	  "and prints lunq.conf(5) lines: [vendor=V model=M] (or [name=NAME])\n"
	  "and qdepth = Q.  None meets the target: exit 1.\n"
	  "  --p99 TIME           e.g. 10ms, 500us, 1.5ms, 1s\n"
	  "  --within PCT         of the most IOPS (default 95)\n"
	  "  --qdepth LIST        (default 1,2,4,8,16,32,64)\n"
	  "  --sched S            one sched (default: the device's); then the\n"
	  "                       lines set it too\n"
	  "  -o PREFIX, -j, -q, -v and lunqbench options as for sweep.\n"
	  "With --online no sweep and no lunqbench: the module's auto throttle\n"
	  "(auto:knee; auto:target with --p99, a service p99 goal) tunes on the IO\n"
	  "already running on NAME until it holds one depth for --settle seconds;\n"
	  "then the same lines with that qdepth, and the policy is restored (also\n"
	  "on Ctrl-C).  Not settled by --elapsed, or no IO: exit 1.\n"
	  "  --online             tune on the live workload with auto\n"
	  "  --settle S           the depth held this long (default 5 s)\n"
	  "  --elapsed S          give up after S seconds (default 60)\n"
	  "  --mode knee|target   knee (default), or target: needs --p99\n"
	  "  --p99 TIME           the service p99 goal of --mode target; alone\n"
	  "                       it means --mode target\n"
	  "  --keep               leave auto on once settled\n"
	  "  -j, --json           one JSON object instead of the lines\n"
	  "  -q, --quiet          no progress lines\n" },
	{ NULL, NULL, NULL, NULL, NULL }
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
	if (c->help[0])
		printf("\n%s", c->help);
	return LQ_OK;
}

int lq_error(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", lq_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
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

int lq_parse_policy(const char *s, struct lunq_policy *p)
{
	char buf[LUNQ_POLICY_MAX], *w[LUNQ_NR_KEYS + 1];
	int n, i;
	u64 seen = 0;

	lunq_policy_init(p);
	snprintf(buf, sizeof(buf), "%s", s);
	n = lunq_split_words(buf, w, ARRAY_SIZE(w));
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		enum lunq_key key;

		if (lunq_parse_word(p, w[i], &seen, &key))
			return -1;
	}
	return 0;
}

void lq_pool_of(const char *policy, char *buf, size_t len)
{
	struct lunq_policy p;

	buf[0] = '\0';
	if (!lq_parse_policy(policy, &p) && (p.given & (1ULL << LUNQ_POOL)))
		snprintf(buf, len, "%s", p.pool);
}
