// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl's options: the table (lq_opts[]) and what is made from it with
 * liblunq's option engine (opts.h), the parser of a scope, each command's
 * --help text and the hidden --list-options (options.h).  A new option is an entry here
 * (and its id in enum lq_optid), an .TP item under its command's .SS in
 * lunqctl(8) and a word in ctl/lunqctl.bash: tests/unit/ctl-options.sh
 * fails until all three have it.  Also the commands' synopses and
 * summaries (lq_cmd_docs[]) and lq_usage(), the message of a usage error
 * ("lunqctl CMD: message", the usage line).  Pure: libc and liblunq's
 * messages and option engine only.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "exit.h"
#include "options.h"
#include "util.h"	/* liblunq: lq_prog, lq_die */

/* ---- the commands ------------------------------------------------------------ */

/* lunqctl.c's table runs them; main's help and lq_usage() print these */
const struct lq_cmd_doc lq_cmd_docs[] = {
	{ "create", "NAME DEV [KEY=VALUE...]",
	  "make lunq device NAME over block device DEV" },
	{ "remove", "NAME...",
	  "remove lunq devices" },
	{ "list", "[-j]",
	  "one line per lunq device: name, lower device, size, state, policy" },
	{ "show", "[-j] NAME",
	  "full policy, lower device identity, counters, pool membership" },
	{ "policy", "attach NAME FILE.bpf.o | detach NAME | eject NAME | show [-j] NAME",
	  "a throttle policy written in BPF: attach, detach, eject, show (Linux 6.9+)" },
	{ "set", "NAME KEY=VALUE...",
	  "change the policy of NAME live (all or nothing)" },
	{ "reset", "NAME",
	  "zero the counters and histograms of NAME" },
	{ "stat", "[-x|-L] [-C] [-j|-p [-o FILE]] [NAME...] [INTERVAL [COUNT]]",
	  "iostat-style statistics, per interval" },
	{ "hist", "NAME [VIEW] [-j]",
	  "latency, size and alignment histograms (DTrace style)" },
	{ "align", "[-j] [--vendor GLOB] [--model GLOB] [--pool POOL] [NAME...]",
	  "align.d's report: sizes and alignment, READ / WRITE / ALL" },
	{ "events", "[-j] [-c COUNT] [-t SECONDS] [NAME...]",
	  "follow QUEUE FULL, throttle, LUN reset and bubble events" },
	{ "apply", "[-n] [-q] [-d NAME] FILE",
	  "apply a policy file (lunq.conf(5)) to existing lunq devices" },
	{ "sweep", "NAME [OPTIONS] [BENCH OPTIONS] [-- LUNQBENCH OPTIONS]",
	  "run lunqbench under each qdepth and sched: throughput vs latency, knee" },
	{ "tune", "NAME --p99 TIME [OPTIONS] [BENCH OPTIONS] [-- LUNQBENCH OPTIONS]\n"
	  "       lunqctl tune NAME --online [--settle S] [--elapsed S] [--mode knee|target]\n"
	  "                    [--p99 TIME] [--keep] [-j] [-q]",
	  "recommend a per-LUN qdepth as policy-file lines (sweep or --online)" },
	{ NULL, NULL, NULL }
};

const struct lq_cmd_doc *lq_cmd_doc(const char *name)
{
	for (const struct lq_cmd_doc *c = lq_cmd_docs; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

int lq_usage(const char *cmd, const char *fmt, ...)
{
	const struct lq_cmd_doc *c = lq_cmd_doc(cmd);
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

/* ---- the table ------------------------------------------------------------ */

#define ONLINE	LQ_OPTF_ONLINE
#define NOHELP	LQ_OPTF_NOHELP
#define HIDDEN	LQ_OPTF_HIDDEN
#define JOIN	LQ_OPTF_JOIN
#define TEXT(c, t)		{ { NULL, 0, NULL }, c, LQO_NONE, 0, t, NULL, NULL }
#define OPT(c, n, l, m, id, f, h) { { n, l, m }, c, id, f, h, NULL, NULL }

const struct lq_opt lq_opts[] = {
	TEXT("create",
	     "Loads the table \"0 <size of DEV> lunq MAJ:MIN 0 N <words>\" and makes\n"
	     "/dev/mapper/NAME.  Refuses a DEV that is missing or in use (mounted,\n"
	     "held by another device) and a NAME that is taken.  KEY=VALUE (or\n"
	     "KEY:VALUE) words are any table keys (lunqctl(8), POLICY KEYS)."),

	TEXT("remove",
	     "Refuses a device that is open (mounted) or not lunq; stops at the\n"
	     "first one refused."),

	OPT("list", "json", 'j', NULL, LQO_JSON, 0, "a JSON array"),

	OPT("show", "json", 'j', NULL, LQO_JSON, 0, "one JSON object"),

	TEXT("policy",
	     "attach NAME FILE.bpf.o: FILE's struct lunq_policy_ops (a BPF\n"
	     "struct_ops map) becomes NAME's throttle policy; its link is pinned at\n"
	     "/sys/fs/bpf/lunq/NAME.  detach NAME: the table's policy again.  eject\n"
	     "NAME: as lunq's watchdog does: the table's policy again, the link\n"
	     "detached (EPOLLHUP), the pin kept.  show NAME: the policy in force,\n"
	     "where it comes from, the link, the last policy ejected and why.  Needs\n"
	     "Linux 6.9 or later (Debian 12: the 6.12 kernel); kmod/dm-lunq.rst,\n"
	     "\"Write your own policy\"."),
	OPT("policy", "json", 'j', NULL, LQO_JSON, 0, "show: one JSON object"),

	TEXT("set",
	     "KEY:VALUE is accepted too.  Every word is checked before anything is\n"
	     "sent; the kernel applies all of them or none.  Prints what changed.\n"
	     "Table-only keys (pool, pool_depth, pblk) need a new table:\n"
	     "lunqctl remove + create, or dmsetup reload."),

	TEXT("stat",
	     "The first report covers the time since the counters were last reset;\n"
	     "each following one the last INTERVAL seconds.  Without INTERVAL, one\n"
	     "report.  Columns (lunqctl(8), STAT COLUMNS): r/s w/s kr/s kw/s and with\n"
	     "-x wait actv wsvc_t asvc_t %w %b, plus qfull/s and the live throttle."),
	OPT("stat", "extended", 'x', NULL, LQO_EXTENDED, 0,
	    "Solaris iostat -xn columns (seeds 003, 004)"),
	OPT("stat", "linux", 'L', NULL, LQO_LINUX, 0,
	    "Linux iostat -x columns, await split into the time\n"
	    "waiting in lunq and at the device, and the\n"
	    "interval's misaligned and non-4k IOs"),
	OPT("stat", "totals", 'C', NULL, LQO_TOTALS, 0,
	    "a total row per pool and one for all devices"),
	OPT("stat", "json", 'j', NULL, LQO_JSON, 0,
	    "one JSON object per report, one line each"),
	OPT("stat", "prometheus", 'p', NULL, LQO_PROMETHEUS, 0,
	    "raw counters in Prometheus text format"),
	OPT("stat", "output", 'o', "FILE", LQO_OUTPUT, 0,
	    "with -p: write FILE atomically (textfile collector)"),

	TEXT("hist", "Which histogram (default --total, reads and writes apart):"),
	OPT("hist", "wait", 0, NULL, LQO_WAIT, 0, "latency: queued, at the LUN, both"),
	OPT("hist", "service", 0, NULL, LQO_SERVICE, JOIN, NULL),
	OPT("hist", "total", 0, NULL, LQO_TOTAL, JOIN, NULL),
	OPT("hist", "read", 0, NULL, LQO_READ, 0, "only one direction"),
	OPT("hist", "write", 0, NULL, LQO_WRITE, JOIN, NULL),
	OPT("hist", "size", 0, NULL, LQO_SIZE, 0, "IO sizes; start offset alignment"),
	OPT("hist", "align", 0, NULL, LQO_ALIGN, JOIN, NULL),
	TEXT("hist", "View (default --quantize then --percentiles):"),
	OPT("hist", "quantize", 'q', NULL, LQO_QUANTIZE, 0, "power-of-two rows, exact"),
	OPT("hist", "lquantize", 'l', "LO,HI,STEP", LQO_LQUANTIZE, 0,
	    "linear rows, e.g. 0,20ms,1ms or 0,64k,4k"),
	OPT("hist", "percentiles", 'P', NULL, LQO_PERCENTILES, 0,
	    "count, mean, p50 .. p99.99, max"),
	OPT("hist", "json", 'j', NULL, LQO_JSON, 0, "JSON (all of the above and buckets)"),

	TEXT("align",
	     "Per device: IOs, reads, writes, misaligned starts and non-4k sizes\n"
	     "(READ, WRITE, ALL) and the percent non-4k; a total row per pool and one\n"
	     "for all devices shown; then the size and alignment tables of those\n"
	     "devices together.  Counts since the last reset."),
	/* -V, -M and -P have always been taken, never documented */
	OPT("align", "vendor", 'V', "GLOB", LQO_VENDOR, LQ_OPTF_LETTER0,
	    "only devices whose lower device's vendor"),
	OPT("align", "model", 'M', "GLOB", LQO_MODEL, LQ_OPTF_LETTER0,
	    "or model matches (case-insensitive,\n"
	    "as lunq.conf(5) matches them)"),
	OPT("align", "pool", 'P', "POOL", LQO_POOL, LQ_OPTF_LETTER0,
	    "only the devices of pool POOL"),
	OPT("align", "json", 'j', NULL, LQO_JSON, 0, "one JSON object"),

	TEXT("events", "Runs until interrupted, COUNT events or SECONDS."),
	OPT("events", "json", 'j', NULL, LQO_JSON, 0, "one JSON object per line"),
	OPT("events", "count", 'c', "COUNT", LQO_COUNT, 0, "stop after COUNT events"),
	OPT("events", "timeout", 't', "SECS", LQO_TIMEOUT, 0, "stop after SECS seconds"),

	TEXT("apply",
	     "Sections match devices by name or the lower device's vendor, model,\n"
	     "serial, WWN.  A file with any error applies nothing."),
	OPT("apply", "dry-run", 'n', NULL, LQO_DRY_RUN, 0,
	    "say what would change, change nothing"),
	OPT("apply", "device", 'd', "NAME", LQO_DEVICE, 0,
	    "only this device; not a lunq device: exit 2,\n"
	    "with -q exit 0 silently (the udev rule's call)"),
	OPT("apply", "quiet", 'q', NULL, LQO_QUIET, 0, "print only errors"),

	TEXT("sweep",
	     "Sets each policy on NAME, runs lunqbench against /dev/mapper/NAME per\n"
	     "point, restores the policy (also on Ctrl-C), prints a table and each\n"
	     "curve's knee: the point of greatest IOPS / p99 (Kleinrock's power)."),
	OPT("sweep", "qdepth", 0, "LIST", LQO_QDEPTH, 0,
	    "throttles to try (default 1,2,4,8,16,32,64)"),
	OPT("sweep", "sched", 0, "LIST", LQO_SCHED, 0,
	    "e.g. fifo,disksort (default: the device's)"),
	OPT("sweep", "loop", 0, "closed|open|both", LQO_LOOP, 0,
	    "closed: --iorate max per policy (default);\n"
	    "open: that run measures the max, then open loop\n"
	    "at --curve percent of it (vdbench iorate=curve)"),
	OPT("sweep", "curve", 0, "LIST", LQO_CURVE, 0,
	    "percentages (default 10,50,70,80,90,100)"),
	OPT("sweep", "output", 'o', "PREFIX", LQO_OUTPUT, 0,
	    "write PREFIX.csv, PREFIX.json, PREFIX.svg"),
	OPT("sweep", "json", 'j', NULL, LQO_JSON, 0, "JSON on stdout instead of the table"),
	OPT("sweep", "quiet", 'q', NULL, LQO_QUIET, 0, "no progress lines on stderr"),
	OPT("sweep", "verbose", 'v', NULL, LQO_VERBOSE, 0,
	    "lunqbench's stderr shown as it runs"),
	/* lunqbench's: sweep sets it itself, and says so */
	OPT("sweep", "iorate", 0, "max|N", LQO_IORATE, HIDDEN, NULL),
	{ { NULL, 0, NULL }, "sweep", LQO_NONE, LQ_OPTF_BENCH,
	  "lunqbench options, passed on: %s, and every word after --.  "
	  "Defaults: --iodepth twice the largest qdepth (at least 16; --iodepth "
	  "qdepth: each point's own qdepth), --elapsed 10.", NULL, NULL },
	TEXT("sweep", "lunqbench: $LUNQBENCH, ../bench/lunqbench next to lunqctl, or PATH."),

	TEXT("tune",
	     "Runs a closed-loop sweep over --qdepth with one sched (lunqbench\n"
	     "keeps qdepth IOs outstanding: --iodepth qdepth), then picks the\n"
	     "smallest qdepth within 95% of the most IOPS whose p99 is at most TIME\n"
	     "and prints lunq.conf(5) lines: [vendor=V model=M] (or [name=NAME])\n"
	     "and qdepth = Q.  None meets the target: exit 1."),
	OPT("tune", "p99", 0, "TIME", LQO_P99, 0, "e.g. 10ms, 500us, 1.5ms, 1s"),
	{ { "within", 0, "PCT" }, "tune", LQO_WITHIN, 0, "of the most IOPS (default 95)",
	  "online", "it is the rule of the sweep" },
	{ { "qdepth", 0, "LIST" }, "tune", LQO_QDEPTH, 0, "(default 1,2,4,8,16,32,64)",
	  "online", "auto starts from the device's qdepth and finds the depth itself" },
	{ { "sched", 0, "S" }, "tune", LQO_SCHED, 0,
	  "one sched (default: the device's); then the\n"
	  "lines set it too",
	  "online", "auto keeps the device's sched" },
	TEXT("tune", "  -o PREFIX, -j, -q, -v and lunqbench options as for sweep."),
	{ { "output", 'o', "PREFIX" }, "tune", LQO_OUTPUT, NOHELP, NULL,
	  "online", "there is no sweep to write" },
	OPT("tune", "json", 'j', NULL, LQO_JSON, NOHELP, NULL),
	OPT("tune", "quiet", 'q', NULL, LQO_QUIET, NOHELP, NULL),
	{ { "verbose", 'v', NULL }, "tune", LQO_VERBOSE, NOHELP, NULL,
	  "online", "no lunqbench runs" },
	/* refused by tune --online as a lunqbench option (why NULL) */
	{ { "iorate", 0, "max|N" }, "tune", LQO_IORATE, HIDDEN, NULL, "online", NULL },
	TEXT("tune",
	     "With --online no sweep and no lunqbench: the module's auto throttle\n"
	     "(auto:knee; auto:target with --p99, a service p99 goal) tunes on the IO\n"
	     "already running on NAME until it holds one depth for --settle seconds;\n"
	     "then the same lines with that qdepth, and the policy is restored (also\n"
	     "on Ctrl-C).  Not settled by --elapsed, or no IO: exit 1."),
	{ { "online", 0, NULL }, "tune", LQO_ONLINE, ONLINE,
	  "tune on the live workload with auto", "sweep tune", NULL },
	{ { "settle", 0, "S" }, "tune", LQO_SETTLE, ONLINE,
	  "the depth held this long (default 5 s)", "sweep tune", NULL },
	OPT("tune", "elapsed", 0, "S", LQO_ELAPSED, ONLINE,
	    "give up after S seconds (default 60)"),
	{ { "mode", 0, "knee|target" }, "tune", LQO_MODE, ONLINE,
	  "knee (default), or target: needs --p99", "sweep tune", NULL },
	OPT("tune", "p99", 0, "TIME", LQO_P99, ONLINE,
	    "the service p99 goal of --mode target; alone\n"
	    "it means --mode target"),
	{ { "keep", 0, NULL }, "tune", LQO_KEEP, ONLINE,
	  "leave auto on once settled", "sweep tune", NULL },
	OPT("tune", "json", 'j', NULL, LQO_JSON, ONLINE,
	    "one JSON object instead of the lines"),
	OPT("tune", "quiet", 'q', NULL, LQO_QUIET, ONLINE, "no progress lines"),

	{ { NULL, 0, NULL }, NULL, LQO_NONE, 0, NULL, NULL, NULL }
};

/* ---- the scopes ------------------------------------------------------------ */

struct lq_optscope {
	const char *name;	/* a command, or "online" */
	const char *cmd;	/* whose entries, and messages */
	bool online;		/* its entries: @cmd's with LQ_OPTF_ONLINE */
	bool nohelp;		/* no -h, --help of its own */
	int col;		/* --help: where the option texts start */
	const char *unknown;	/* not an option (and no value, without @novalue) */
	const char *novalue;	/* an option without its value */
};

#define UNKNOWN		"unknown option '%s'"
#define BAD		"bad option '%s'"
#define NOVALUE		"option '%s' needs a value"
#define SWEEP_UNKNOWN	"unknown option '%s' (lunqbench options go after --)"

static const struct lq_optscope scopes[] = {
	{ "create", "create", false, false, 0, UNKNOWN, NULL },
	{ "remove", "remove", false, false, 0, UNKNOWN, NULL },
	{ "list", "list", false, false, 17, UNKNOWN, NULL },
	{ "show", "show", false, false, 17, UNKNOWN, NULL },
	{ "policy", "policy", false, false, 17, UNKNOWN, NULL },
	{ "set", "set", false, false, 0, UNKNOWN, NULL },
	{ "reset", "reset", false, false, 0, UNKNOWN, NULL },
	{ "stat", "stat", false, false, 21, BAD, NULL },
	{ "hist", "hist", false, false, 33, BAD, NULL },
	{ "align", "align", false, false, 31, BAD, NULL },
	{ "events", "events", false, false, 22, BAD, NULL },
	{ "apply", "apply", false, false, 22, BAD, NULL },
	{ "sweep", "sweep", false, false, 23, SWEEP_UNKNOWN, NOVALUE },
	{ "tune", "tune", false, false, 23, SWEEP_UNKNOWN, NOVALUE },
	/* main() answers -h and --help before tune NAME --online reads them */
	{ "online", "tune", true, true, 23, UNKNOWN, NOVALUE },
};

static const struct lq_optscope *find_scope(const char *name)
{
	for (size_t i = 0; i < sizeof(scopes) / sizeof(scopes[0]); i++)
		if (!strcmp(scopes[i].name, name))
			return &scopes[i];
	return NULL;
}

static bool in_scope(const struct lq_opt *e, const struct lq_optscope *s)
{
	return e->head.name && !strcmp(e->cmd, s->cmd) &&
	       !(e->flags & LQ_OPTF_ONLINE) == !s->online;
}

/* @word is one of the blank-separated words of @list */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; p && *p; p += strcspn(p, " "), p += *p == ' ') {
		if (strcspn(p, " ") == n && !strncmp(p, word, n))
			return true;
	}
	return false;
}

/* ---- the parser ------------------------------------------------------------- */

static const struct lq_optdef help_opt = { "help", 'h', NULL };

/* @d into the scope's set: the entry @e (NULL: the extra @x, or -h) */
static int add(struct lq_getopt *g, const struct lq_optdef *d,
	       const struct lq_opt *e, int x, bool refused)
{
	int i = lq_optset_add(&g->set, d);

	if (i < 0)
		return i;
	g->lo_opt[i] = e;
	g->lo_x[i] = x;
	g->lo_refused[i] = refused;
	return i;
}

void lq_getopt_init(struct lq_getopt *g, const char *scope, int argc,
		    char **argv, const struct lq_xopt *x, int nx)
{
	const struct lq_optscope *s = find_scope(scope);
	const struct lq_opt *e;

	if (!s)
		lq_die(LQ_EFAIL, "internal: no options of '%s'", scope);
	memset(g, 0, sizeof(*g));
	g->scope = s;
	g->argc = argc;
	g->argv = argv;
	g->help = -1;
	lq_optset_init(&g->set, argc, argv, s->novalue);
	for (e = lq_opts; e->cmd; e++)
		if (in_scope(e, s))
			add(g, &e->head, e, 0, false);
	for (e = lq_opts; e->cmd; e++)
		if (e->head.name && e->refuse && has_word(e->refuse, s->name))
			add(g, &e->head, e, 0, true);
	for (int i = 0; i < nx && i < LQ_GETOPT_MAX; i++) {
		g->xdef[i] = (struct lq_optdef){ x[i].name, 0, x[i].metavar };
		add(g, &g->xdef[i], NULL, i, false);
	}
	if (!s->nohelp)
		g->help = add(g, &help_opt, NULL, 0, false);
}

int lq_getopt_unknown(struct lq_getopt *g)
{
	return lq_usage(g->scope->cmd, g->scope->unknown, g->word);
}

int lq_getopt_fail(struct lq_getopt *g, int c)
{
	return c == LQO_ERR ? g->rc : lq_getopt_unknown(g);
}

int lq_getopt(struct lq_getopt *g)
{
	int c = lq_optset_next(&g->set);

	g->opt = NULL;
	g->arg = optarg;
	if (c == LQ_OPTS_END)
		return LQO_END;
	g->word = lq_optset_word(&g->set);
	if (c >= 0 && c == g->help)
		return LQO_HELP;
	if (c == LQ_OPTS_NOVALUE) {
		g->rc = lq_usage(g->scope->cmd, g->scope->novalue, g->word);
		return LQO_ERR;
	}
	if (c < 0) {
		if (g->keep_unknown)
			return LQO_UNKNOWN;
		g->rc = lq_getopt_unknown(g);
		return LQO_ERR;
	}
	g->opt = g->lo_opt[c];
	if (!g->opt) {
		g->x = g->lo_x[c];
		return LQO_EXTRA;
	}
	return g->lo_refused[c] ? LQO_REFUSED : (int)g->opt->id;
}

/* ---- --help -------------------------------------------------------------------- */

#define WRAP	71	/* an LQ_OPTF_BENCH entry's lines */

static void bench_text(FILE *f, const char *fmt, const struct lq_xopt *x, int nx)
{
	char list[1024] = "", text[2048];
	size_t len = 0;

	for (int i = 0; i < nx && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s--%s",
					i ? " " : "", x[i].name);
	if (nx > 0 && len < sizeof(list))
		snprintf(list + len, sizeof(list) - len, " VALUE");
	else if (nx <= 0)
		snprintf(list, sizeof(list),
			 "those lunqbench --list-options names (no lunqbench found)");
	snprintf(text, sizeof(text), fmt, list);
	lq_help_text(f, text, 0, 0, WRAP);
}

void lq_opts_help(FILE *f, const char *cmd, const struct lq_xopt *x, int nx)
{
	const struct lq_optscope *s = find_scope(cmd);
	bool first = true;

	for (const struct lq_opt *e = lq_opts; e->cmd; e++) {
		int at;

		if (strcmp(e->cmd, cmd) || (e->flags & (LQ_OPTF_HIDDEN | LQ_OPTF_NOHELP |
							 LQ_OPTF_JOIN)))
			continue;
		if (first)
			fputc('\n', f);
		first = false;
		if (e->flags & LQ_OPTF_BENCH) {
			bench_text(f, e->help, x, nx);
			continue;
		}
		if (!e->head.name) {
			lq_help_text(f, e->help, 0, 0, INT_MAX);
			continue;
		}
		at = lq_help_head(f, &e->head, !(e->flags & LQ_OPTF_LETTER0));
		for (const struct lq_opt *j = e + 1; j->cmd && (j->flags & LQ_OPTF_JOIN); j++)
			at += fprintf(f, " | --%s", j->head.name);
		lq_help_text(f, e->help, s->col, at, INT_MAX);
	}
}

/* ---- --list-options ----------------------------------------------------------- */

/* @name is one of the @n names in @seen; else it is added */
static bool listed(const char **seen, int *n, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(seen[i], name))
			return true;
	if (*n < LQ_GETOPT_MAX)
		seen[(*n)++] = name;
	return false;
}

void lq_opts_list(FILE *f, const char *cmd, const struct lq_xopt *x, int nx)
{
	const char *seen[LQ_GETOPT_MAX];
	int n = 0;

	for (const struct lq_opt *e = lq_opts; e->cmd; e++) {
		char letter[3] = "-";

		if (!e->head.name || strcmp(e->cmd, cmd) ||
		    (e->flags & LQ_OPTF_HIDDEN) || listed(seen, &n, e->head.name))
			continue;
		if (e->head.letter && !(e->flags & LQ_OPTF_LETTER0))
			letter[1] = e->head.letter;
		fprintf(f, "%s\t--%s\t%s\t%s\tlunqctl\n", cmd, e->head.name, letter,
			e->head.metavar ? e->head.metavar : "-");
	}
	for (int i = 0; i < nx; i++)
		if (!listed(seen, &n, x[i].name))
			fprintf(f, "%s\t--%s\t-\t%s\tlunqbench\n", cmd, x[i].name,
				x[i].metavar ? x[i].metavar : "-");
}
