// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl tune NAME --online: no sweep, no lunqbench.  Turn the module's
 * adaptive throttle on (auto:knee, or auto:target with --p99) over the IO
 * already running on the device, poll its statistics until it holds one
 * depth for --settle seconds, print that depth as the lunq.conf(5) lines
 * tune prints, and restore the policy (also on Ctrl-C) unless --keep.
 * The pure parts (settling, the report) are autotune.c.
 * Reference: lunqctl(8), section "tune NAME --online".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cmd.h"
#include "autotune.h"
#include "bench.h"
#include "devrun.h"
#include "ident.h"
#include "units.h"

#define POLL_S		0.25
#define IDLE_S		1.0	/* no completion for this long: idle */
#define PROGRESS_S	1.0	/* a progress line at least this often */
#define DEFAULT_SETTLE	5.0
#define DEFAULT_ELAPSED	60.0

struct on_opts {
	const char *name;
	double settle_s, elapsed_s;
	u32 mode;		/* LQ_AUTO_KNEE, LQ_AUTO_TARGET */
	u64 p99_ns;
	u32 target_us;
	bool keep, json, quiet;
};

/* ---- the clock ------------------------------------------------------------ */

static double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void nap(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s,
			       .tv_nsec = (long)((s - (time_t)s) * 1e9) };

	nanosleep(&ts, NULL);	/* EINTR: the caller looks at lq_stop */
}

/* ---- options ---------------------------------------------------------------- */

/*
 * An option tune's sweep takes and --online does not: tune's own (@why
 * from options.c), or a lunqbench option (@why NULL): those lunqbench's
 * table lets sweep and tune pass on, and --iorate.
 */
static int refuse(const char *opt, const char *why)
{
	if (!why)
		return lq_usage("tune", "--%s is a lunqbench option: --online runs no lunqbench, it tunes on the IO already running",
				opt);
	return lq_usage("tune", "--%s does not go with --online: %s", opt, why);
}

static int parse_secs_opt(const char *opt, const char *arg, double *v)
{
	*v = lq_parse_secs(arg);
	if (!(*v > 0) || *v > 86400)
		return lq_usage("tune", "--%s '%s': seconds > 0 (at most a day), e.g. 5, 2.5 or 1m",
				opt, arg);
	return LQ_OK;
}

static int parse_one(struct on_opts *o, int c, const char *arg, bool *mode_given)
{
	switch (c) {
	case LQO_ONLINE:
		return LQ_OK;
	case LQO_SETTLE:
		return parse_secs_opt("settle", arg, &o->settle_s);
	case LQO_ELAPSED:
		return parse_secs_opt("elapsed", arg, &o->elapsed_s);
	case LQO_MODE:
		if (!strcmp(arg, "knee"))
			o->mode = LQ_AUTO_KNEE;
		else if (!strcmp(arg, "target"))
			o->mode = LQ_AUTO_TARGET;
		else
			return lq_usage("tune", "--mode '%s': knee or target", arg);
		*mode_given = true;
		return LQ_OK;
	case LQO_P99:
		return lq_opt_p99("tune", arg, &o->p99_ns);
	case LQO_KEEP:
		o->keep = true;
		return LQ_OK;
	case LQO_JSON:
		o->json = true;
		return LQ_OK;
	case LQO_QUIET:
		o->quiet = true;
		return LQ_OK;
	}
	return lq_usage("tune", "bad option");
}

/* The rules between the options, once all are read. */
static int check_opts(struct on_opts *o, bool mode_given)
{
	u64 us;

	if (o->p99_ns && !mode_given)
		o->mode = LQ_AUTO_TARGET;	/* --p99 alone: auto:target */
	if (o->mode == LQ_AUTO_KNEE && o->p99_ns)
		return lq_usage("tune", "--p99 goes with --mode target (auto:knee has no target)");
	if (o->mode == LQ_AUTO_TARGET && !o->p99_ns)
		return lq_usage("tune", "--mode target needs --p99 TIME, the service p99 goal, e.g. --p99 10ms");
	if (o->mode == LQ_AUTO_TARGET) {
		us = (o->p99_ns + 500) / 1000;
		if (!us || us > 60000000)
			return lq_usage("tune", "--p99: 1us..60s with --online (target_us is in microseconds)");
		o->target_us = (u32)us;
	}
	if (o->settle_s >= o->elapsed_s)
		return lq_usage("tune", "--settle %g s must be shorter than --elapsed %g s",
				o->settle_s, o->elapsed_s);
	return LQ_OK;
}

/*
 * The options of scope "online" (options.c) and, refused, the lunqbench
 * options tune's sweep passes on: lunqbench's table has them (read, not
 * run; without a lunqbench they are unknown options here).
 */
static int parse_opts(struct on_opts *o, int argc, char **argv)
{
	const struct lq_bench *b;
	struct lq_getopt g;
	bool mode_given = false;
	int c, i, rc;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--"))
			return lq_usage("tune", "'--' and lunqbench options do not go with --online: it runs no lunqbench");
	b = lq_bench();
	o->mode = LQ_AUTO_KNEE;
	o->settle_s = DEFAULT_SETTLE;
	o->elapsed_s = DEFAULT_ELAPSED;
	lq_getopt_init(&g, "online", argc, argv, b->opt, b->n);
	while ((c = lq_getopt(&g)) != LQO_END) {
		if (c == LQO_REFUSED)
			return refuse(g.opt->head.name, g.opt->why);
		if (c == LQO_EXTRA)
			return refuse(b->opt[g.x].name, NULL);
		if (c < 0)
			return lq_getopt_fail(&g, c);
		rc = parse_one(o, c, g.arg, &mode_given);
		if (rc)
			return rc;
	}
	if (optind + 1 != argc)
		return lq_usage("tune", optind >= argc ? "needs NAME" : "takes one NAME");
	o->name = argv[optind];
	return check_opts(o, mode_given);
}

/* ---- the device ---------------------------------------------------------------- */

struct on_dev {
	struct lq_nl *nl;
	struct lq_dev d;
	char qdepth[16], autom[16], target_us[16];	/* the policy before */
	bool set_target;	/* target_us was sent too */
	bool changed;
};

static int remember_policy(struct on_dev *od)
{
	struct lunq_keys p;

	if (lq_policy_parse(od->d.policy, &p))
		return lq_error(LQ_EFAIL, "%s: cannot parse the kernel's policy \"%s\"",
				od->d.name, od->d.policy);
	if (p.val[LUNQ_REACTION]) {
		char r[16];

		lunq_policy_value(&p, LUNQ_REACTION, r, sizeof(r));
		return lq_error(LQ_EUSAGE, "%s has reaction:%s; auto moves the throttle itself and needs reaction:none ('%s set %s reaction=none' first)",
				od->d.name, r, lq_prog, od->d.name);
	}
	lunq_policy_value(&p, LUNQ_QDEPTH, od->qdepth, sizeof(od->qdepth));
	lunq_policy_value(&p, LUNQ_AUTO, od->autom, sizeof(od->autom));
	lunq_policy_value(&p, LUNQ_TARGET_US, od->target_us, sizeof(od->target_us));
	return LQ_OK;
}

static int set_auto(struct on_dev *od, const struct on_opts *o)
{
	char words[64];
	int rc;

	if (o->mode == LQ_AUTO_TARGET)
		snprintf(words, sizeof(words), "auto:target target_us:%u", o->target_us);
	else
		snprintf(words, sizeof(words), "auto:knee");
	od->set_target = o->mode == LQ_AUTO_TARGET;
	rc = lq_policy_send(od->nl, od->d.name, words);
	if (rc)
		return rc;
	od->changed = true;
	return LQ_OK;
}

static void restore_policy(struct on_dev *od, bool quiet)
{
	char words[96], said[96];

	if (!od->changed)
		return;
	snprintf(words, sizeof(words), "qdepth:%s auto:%s", od->qdepth, od->autom);
	snprintf(said, sizeof(said), "qdepth %s, auto %s", od->qdepth, od->autom);
	if (od->set_target) {
		snprintf(words + strlen(words), sizeof(words) - strlen(words),
			 " target_us:%s", od->target_us);
		snprintf(said + strlen(said), sizeof(said) - strlen(said),
			 ", target_us %s", od->target_us);
	}
	lq_policy_restore(od->nl, od->d.name, words, said, quiet);
	od->changed = false;
}

/* ---- polling -------------------------------------------------------------------- */

/* What the poll loop keeps between snapshots. */
struct on_poll {
	struct lq_settle st;
	double t0;			/* our clock at the start */
	u64 ios, snap;			/* last snapshot: reads + writes, snaptime_ns */
	u64 ios_sum;			/* completions since the start */
	bool io_seen;
	double last_io;			/* when completions last grew */
	u64 held_ios, held_snap;	/* ios_sum, snaptime when the hold began */
	/* progress lines */
	double last_line;
	u64 line_ios, line_snap, line_phase, line_depth;
};

static u64 dev_ios(const struct lq_dev *d)
{
	return d->st[LUNQ_ST_READS] + d->st[LUNQ_ST_WRITES];
}

/* Completions and kernel time since the last snapshot (a reset: from 0). */
static void account(struct on_poll *p, const struct lq_dev *d, double t)
{
	u64 ios = dev_ios(d), dios = ios >= p->ios ? ios - p->ios : ios;

	p->ios = ios;
	p->snap = d->st[LUNQ_ST_SNAPTIME_NS];
	p->ios_sum += dios;
	if (dios) {
		p->io_seen = true;
		p->last_io = t;
	}
}

static double rate(u64 ios, u64 ios0, u64 snap, u64 snap0)
{
	return snap > snap0 ? (double)(ios - ios0) * 1e9 / (double)(snap - snap0) : 0;
}

static void progress(const struct on_opts *o, struct on_poll *p,
		     const struct lq_auto_view *v, enum lq_settle_state s,
		     double t)
{
	char p99[24], held[48] = "";

	if (o->quiet || (v->phase == p->line_phase && v->throttle == p->line_depth &&
			 t - p->last_line < PROGRESS_S))
		return;
	if (v->p99_ns)
		lq_fmt_ns(p99, sizeof(p99), v->p99_ns);
	else
		snprintf(p99, sizeof(p99), "-");
	if (s != LQ_SETTLE_SEARCHING && p->st.depth == v->throttle)
		snprintf(held, sizeof(held), ", held %.1f of %g s",
			 t - p->st.since, o->settle_s);
	else if (s != LQ_SETTLE_SEARCHING)	/* a probe */
		snprintf(held, sizeof(held), ", depth %u held %.1f of %g s",
			 p->st.depth, t - p->st.since, o->settle_s);
	fprintf(stderr, "tune %s --online: phase %s, depth %llu, %.0f IOPS, p99 %s%s\n",
		o->name, lq_auto_phase_name(v->phase),
		(unsigned long long)v->throttle,
		rate(p->ios_sum, p->line_ios, p->snap, p->line_snap), p99, held);
	p->last_line = t;
	p->line_ios = p->ios_sum;
	p->line_snap = p->snap;
	p->line_phase = v->phase;
	p->line_depth = v->throttle;
}

/*
 * One snapshot into the settle tracker.  An idle device (no completion
 * for IDLE_S) holds nothing: auto's depth stays when there is no IO, which
 * says nothing about the LUN.
 */
static enum lq_settle_state feed(struct on_poll *p, const struct lq_auto_view *v,
				 double t)
{
	enum lq_settle_state s;

	if (t - p->last_io >= IDLE_S)
		p->st.held = false;
	s = lq_settle_feed(&p->st, t, t - p->last_io >= IDLE_S ? LQ_AP_OFF : v->phase,
			   (u32)v->throttle);
	if (p->st.held && p->st.since == t) {
		p->held_ios = p->ios_sum;
		p->held_snap = p->snap;
	}
	return s;
}

/*
 * Poll until settled (LQ_OK, @r filled) or --elapsed (LQ_EUSAGE, *@gave_up,
 * @r has the last snapshot).  Else an exit code, the message printed: no
 * IO (LQ_EUSAGE), stopped by a signal (LQ_EFAIL, none), netlink.
 */
static int poll_auto(struct on_dev *od, const struct on_opts *o,
		     struct lq_online_res *r, bool *gave_up)
{
	struct on_poll p;
	struct lq_dev d;
	int rc;

	memset(&p, 0, sizeof(p));
	lq_settle_init(&p.st, o->settle_s);
	p.t0 = now_mono();
	p.ios = dev_ios(&od->d);
	p.snap = p.line_snap = od->d.st[LUNQ_ST_SNAPTIME_NS];
	p.line_phase = p.line_depth = ~0ULL;
	for (;;) {
		enum lq_settle_state s;
		double t;

		nap(POLL_S);
		if (lq_stop)
			return LQ_EFAIL;
		rc = lq_nl_get_dev(od->nl, od->d.name, &d);
		if (rc)
			return lq_error(rc, "%s", lq_nl_err(od->nl));
		t = now_mono() - p.t0;
		account(&p, &d, t);
		if (!lq_auto_view_get(&d, &r->v))
			return lq_error(LQ_EFAIL, "%s: the auto statistics are gone", d.name);
		s = feed(&p, &r->v, t);
		progress(o, &p, &r->v, s, t);
		if (!p.io_seen && t >= o->settle_s)
			return lq_error(LQ_EUSAGE, "no IO on %s: --online tunes on the live workload; run the load first",
					d.name);
		r->settled_s = t;
		if (s == LQ_SETTLE_DONE) {
			r->settled = true;
			r->depth = p.st.depth;
			r->held_s = t - p.st.since;
			r->iops = rate(p.ios_sum, p.held_ios, p.snap, p.held_snap);
			return LQ_OK;
		}
		if (t >= o->elapsed_s) {
			*gave_up = true;
			return LQ_EUSAGE;
		}
	}
}

static int online_main(const struct on_opts *o)
{
	struct on_dev od;
	struct lq_online_res r;
	struct lq_ident id;
	char msg[160];
	bool gave_up = false;
	int rc;

	memset(&od, 0, sizeof(od));
	memset(&r, 0, sizeof(r));
	rc = lq_connect(&od.nl);
	if (rc)
		return rc;
	rc = lq_find_dev(od.nl, o->name, &od.d);
	if (rc)
		goto out;
	if (!od.d.have[LUNQ_ST_AUTO_PHASE]) {
		rc = lq_error(LQ_EFAIL, "%s: this dm-lunq has no adaptive throttle (no auto_phase statistic); --online needs a module with auto",
			      od.d.name);
		goto out;
	}
	rc = remember_policy(&od);
	if (rc)
		goto out;
	lq_dev_ident(&od.d, &id);
	lq_catch_signals();
	rc = set_auto(&od, o);
	if (rc)
		goto out;
	if (!o->quiet)
		fprintf(stderr, "tune %s --online: auto:%s%s from qdepth %s on the IO running now; settle %g s, give up after %g s\n",
			od.d.name, lq_auto_mode_name(o->mode),
			o->mode == LQ_AUTO_TARGET ? " (service p99 goal)" : "",
			od.qdepth, o->settle_s, o->elapsed_s);
	rc = poll_auto(&od, o, &r, &gave_up);
	r.device = od.d.name;
	r.id = &id;
	r.limit_s = o->elapsed_s;
	r.kept = o->keep && !rc;
	if (lq_stop) {
		rc = lq_error(LQ_EFAIL, "interrupted after %.1f s", r.settled_s);
		goto out;
	}
	if (!rc || gave_up)
		lq_online_report(stdout, &r, o->json);
	fflush(stdout);
	if (gave_up) {
		lq_online_unsettled(msg, sizeof(msg), &r);
		lq_error(rc, "%s", msg);
	}
	if (r.kept) {
		od.changed = false;
		if (!o->quiet)
			fprintf(stderr, "%s: auto:%s stays on (--keep); before: qdepth %s, auto %s\n",
				od.d.name, lq_auto_mode_name(o->mode), od.qdepth, od.autom);
	}
out:
	restore_policy(&od, o->quiet);
	lq_nl_close(od.nl);
	return rc;
}

bool lq_tune_online_wanted(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		size_t n = strlen(argv[i]);

		/* --online or an abbreviation getopt would take for it */
		if (n >= 4 && !strncmp(argv[i], "--online", n))
			return true;
	}
	return false;
}

int cmd_tune_online(int argc, char **argv)
{
	struct on_opts o;
	int rc;

	memset(&o, 0, sizeof(o));
	rc = parse_opts(&o, argc, argv);
	if (rc)
		return rc;
	return online_main(&o);
}
