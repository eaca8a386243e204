// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl sweep and tune: set each policy on a lunq device, run lunqbench
 * against it for each point, and report (table, CSV, JSON, SVG; tune: the
 * policy-file lines).  The pure parts are sweep.c and svg.c, the options
 * options.c (and lunqbench's table, through bench.c, which also runs the
 * lunqbench child); this file is the plumbing: netlink, signals.
 * Reference: lunqctl(8), sections "sweep" and "tune".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "cmd.h"
#include "bench.h"
#include "devrun.h"
#include "kv.h"
#include "ident.h"
#include "sweep.h"
#include "sweep_write.h"
#include "tune.h"
#include "uintlist.h"
#include "units.h"
#include "lunq_args.h"

#define MAX_SCHED	4
#define BENCH_ARGS	160
#define DEFAULT_ELAPSED	"10"

static const u32 default_qdepths[] = { 1, 2, 4, 8, 16, 32, 64 };
static const u32 default_curve[] = { 10, 50, 70, 80, 90, 100 };

enum loop { LOOP_CLOSED, LOOP_OPEN, LOOP_BOTH };

struct sw_opts {
	bool tune;
	const char *cmd;
	const char *name;
	u32 qd[LQ_SWEEP_LIST_MAX];
	int nqd;
	char sched[MAX_SCHED][16];
	int nsched;
	enum loop loop;
	u32 curve[LQ_SWEEP_LIST_MAX];
	int ncurve;
	const char *prefix;
	bool json, quiet, verbose;
	u64 p99_ns;
	double within;
	/* lunqbench options common to all points (no argv[0], target, rate) */
	char *bench[BENCH_ARGS];
	int nbench;
	bool have_iodepth, have_range, have_elapsed, sched_given;
	bool follow;		/* --iodepth qdepth: each point's lunqbench
				 * --iodepth is its qdepth */
	bool sync;		/* --engine sync: threads, not iodepth, are
				 * the outstanding IOs */
	bool have_threads;
	double point_s;		/* elapsed + warmup of a point, -1 unknown */
};

/* ---- the child ------------------------------------------------------------- */

/* The last @lines lines of @out on stderr, each as "  lunqbench: ..." */
static void show_tail(const char *out, int lines)
{
	const char *p = out + strlen(out);
	int k = 0;

	while (p > out && (p[-1] == '\n'))
		p--;
	while (p > out && k <= lines) {
		p--;
		if (*p == '\n')
			k++;
	}
	if (*p == '\n')
		p++;
	while (*p) {
		size_t l = strcspn(p, "\n");

		fprintf(stderr, "  lunqbench: %.*s\n", (int)l, p);
		p += l;
		if (*p)
			p++;
	}
}

/* ---- options -------------------------------------------------------------- */

/* tune --online's options (options.c: refused by sweep and by tune) */
static int refuse_online(const struct sw_opts *o, const struct lq_opt *opt)
{
	if (!o->tune && opt->id == LQO_ONLINE)
		return lq_usage(o->cmd, "--online is tune's: 'lunqctl tune NAME --online' lets auto tune on the IO already running; sweep runs lunqbench");
	if (!o->tune)
		return lq_usage(o->cmd, "--%s goes with tune --online, not with sweep",
				opt->head.name);
	return lq_usage(o->cmd, "--%s goes with --online", opt->head.name);
}

static int add_bench(struct sw_opts *o, const char *a, const char *b)
{
	if (o->nbench + 2 > BENCH_ARGS)
		return lq_usage(o->cmd, "too many lunqbench options");
	o->bench[o->nbench++] = (char *)a;
	if (b)
		o->bench[o->nbench++] = (char *)b;
	return LQ_OK;
}

/* A lunqbench option (direct or after --) that sweep cares about. */
static int note_bench_opt(struct sw_opts *o, const char *opt, const char *val,
			  double *elapsed, double *warmup)
{
	size_t l = strcspn(opt, "=");

	if (!strncmp(opt, "--iorate", l) && l == 8)
		return lq_usage(o->cmd, "--iorate is set by %s itself (closed loop: max; open: --loop, --curve)",
				o->cmd);
	if (!strncmp(opt, "--kv", 4) && (l == 4))
		return LQ_OK;
	if (l == 6 && !strncmp(opt, "--json", l))
		return lq_usage(o->cmd, "--json: %s reads lunqbench's --kv line", o->cmd);
	if (l == 9 && !strncmp(opt, "--iodepth", l))
		o->have_iodepth = true;
	if (l == 8 && !strncmp(opt, "--engine", l) && val)
		o->sync = !strcmp(val, "sync");
	if (l == 9 && !strncmp(opt, "--threads", l))
		o->have_threads = true;
	if (l == 7 && !strncmp(opt, "--range", l))
		o->have_range = true;
	if (l == 9 && !strncmp(opt, "--elapsed", l)) {
		o->have_elapsed = true;
		*elapsed = val ? lq_parse_secs(val) : -1;
	}
	if (l == 8 && !strncmp(opt, "--warmup", l) && val)
		*warmup = lq_parse_secs(val);
	return LQ_OK;
}

static int parse_sched_list(struct sw_opts *o, const char *arg)
{
	char buf[128], *save = NULL, *tok;

	if (strlen(arg) >= sizeof(buf))
		return lq_usage(o->cmd, "--sched '%s' is too long", arg);
	snprintf(buf, sizeof(buf), "%s", arg);
	o->nsched = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char word[64], out[64], err[256];
		char *w[1] = { word };
		int i;

		snprintf(word, sizeof(word), "sched=%s", tok);
		if (lq_kv_words(1, w, LQ_KV_LIVE, out, sizeof(out), err, sizeof(err)))
			return lq_usage(o->cmd, "--sched: %s", err);
		for (i = 0; i < o->nsched; i++)
			if (!strcmp(o->sched[i], tok))
				return lq_usage(o->cmd, "--sched: %s is given twice", tok);
		if (o->nsched == MAX_SCHED)
			return lq_usage(o->cmd, "--sched: more than %d", MAX_SCHED);
		snprintf(o->sched[o->nsched++], sizeof(o->sched[0]), "%s", tok);
	}
	if (!o->nsched)
		return lq_usage(o->cmd, "--sched needs a list, e.g. fifo,disksort");
	if (o->tune && o->nsched > 1)
		return lq_usage(o->cmd, "--sched: tune takes one");
	return LQ_OK;
}

/*
 * The options before "--": sweep's or tune's own (options.c) and the
 * lunqbench options lunqbench's table marks for sweep (@b, when found).
 */
static int parse_opts(struct sw_opts *o, int argc, char **argv,
		      const struct lq_bench *b)
{
	static char iodepth[16];
	struct lq_getopt g;
	double elapsed = -1, warmup = 0;
	char err[256];
	int c, i, dd = argc, rc;
	u32 maxq = 0;

	/* everything after "--" goes to lunqbench as it is */
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			dd = i;
			break;
		}
	lq_getopt_init(&g, o->cmd, dd, argv, b->opt, b->n);
	/* no lunqbench: an option that is not sweep's may well be its */
	g.keep_unknown = b->rc != LQ_OK;
	while ((c = lq_getopt(&g)) != LQO_END) {
		switch (c) {
		case LQO_QDEPTH:
			o->nqd = lq_parse_uint_list(optarg, 0, 65535, o->qd,
						    LQ_SWEEP_LIST_MAX, err, sizeof(err));
			if (o->nqd < 0)
				return lq_usage(o->cmd, "--qdepth: %s", err);
			break;
		case LQO_SCHED:
			rc = parse_sched_list(o, optarg);
			if (rc)
				return rc;
			o->sched_given = true;
			break;
		case LQO_LOOP:
			if (!strcmp(optarg, "closed"))
				o->loop = LOOP_CLOSED;
			else if (!strcmp(optarg, "open"))
				o->loop = LOOP_OPEN;
			else if (!strcmp(optarg, "both"))
				o->loop = LOOP_BOTH;
			else
				return lq_usage(o->cmd, "--loop '%s': closed, open or both",
						optarg);
			break;
		case LQO_CURVE:
			o->ncurve = lq_parse_uint_list(optarg, 1, 100, o->curve,
						       LQ_SWEEP_LIST_MAX, err, sizeof(err));
			if (o->ncurve < 0)
				return lq_usage(o->cmd, "--curve: %s", err);
			break;
		case LQO_P99:
			rc = lq_opt_p99(o->cmd, optarg, &o->p99_ns);
			if (rc)
				return rc;
			break;
		case LQO_WITHIN: {
			unsigned long v;

			if (lq_parse_uint(optarg, 100, &v) || !v)
				return lq_usage(o->cmd, "--within '%s': a percentage 1..100",
						optarg);
			o->within = (double)v;
			break;
		}
		case LQO_OUTPUT:
			if (!optarg[0])
				return lq_usage(o->cmd, "-o needs a PREFIX");
			o->prefix = optarg;
			break;
		case LQO_JSON:
			o->json = true;
			break;
		case LQO_QUIET:
			o->quiet = true;
			break;
		case LQO_VERBOSE:
			o->verbose = true;
			break;
		case LQO_HELP:
			return lq_cmd_help(o->cmd) ? LQ_EUSAGE : -1;
		case LQO_IORATE:
			return note_bench_opt(o, "--iorate", optarg, &elapsed, &warmup);
		case LQO_REFUSED:
			return refuse_online(o, g.opt);
		case LQO_UNKNOWN:	/* without lunqbench: why it is missing */
			return lq_error(b->rc, "%s", b->err);
		case LQO_EXTRA: {
			const char *opt = b->dashed[g.x];

			if (!strcmp(opt, "--iodepth") && !strcmp(optarg, "qdepth")) {
				o->follow = o->have_iodepth = true;
				break;
			}
			rc = note_bench_opt(o, opt, optarg, &elapsed, &warmup);
			if (!rc)
				rc = add_bench(o, opt, optarg);
			if (rc)
				return rc;
			break;
		}
		case LQO_ERR:
			return g.rc;
		default:
			return lq_usage(o->cmd, "bad option '%s'", g.word);
		}
	}
	if (optind + 1 != dd)
		return lq_usage(o->cmd, optind >= dd ? "needs NAME" : "takes one NAME");
	o->name = argv[optind];
	for (i = dd + 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;

		if (!strcmp(a, "--iodepth=qdepth") ||
		    (!strcmp(a, "--iodepth") && i + 1 < argc &&
		     !strcmp(argv[i + 1], "qdepth"))) {
			o->follow = o->have_iodepth = true;
			i += a[9] ? 0 : 1;
			continue;
		}

		if (!strncmp(a, "--", 2) && !strchr(a, '=') && i + 1 < argc &&
		    strncmp(argv[i + 1], "--", 2))
			v = argv[i + 1];
		else if (!strncmp(a, "--", 2) && strchr(a, '='))
			v = strchr(a, '=') + 1;
		rc = note_bench_opt(o, a, v, &elapsed, &warmup);
		if (!rc)
			rc = add_bench(o, a, NULL);
		if (rc)
			return rc;
	}
	if (o->tune && !o->p99_ns)
		return lq_usage(o->cmd, "needs --p99 TIME, e.g. --p99 10ms");
	if (!o->nqd) {
		memcpy(o->qd, default_qdepths, sizeof(default_qdepths));
		o->nqd = ARRAY_SIZE(default_qdepths);
	}
	if (!o->ncurve) {
		memcpy(o->curve, default_curve, sizeof(default_curve));
		o->ncurve = ARRAY_SIZE(default_curve);
	}
	for (i = 0; i < o->nqd; i++)
		if (o->qd[i] > maxq)
			maxq = o->qd[i];
	/* the outstanding IOs: --iodepth (uring), --threads (sync) */
	if (o->sync && o->have_iodepth && !o->follow)
		return lq_usage(o->cmd, "--engine sync: give --threads, not --iodepth");
	if (o->sync && o->have_threads)
		o->have_iodepth = true;
	if (!o->have_iodepth && o->tune) {
		o->follow = true;	/* the LUN's latency at the throttle's depth */
	} else if (!o->have_iodepth) {
		/* the same offered load at every point, above every throttle */
		snprintf(iodepth, sizeof(iodepth), "%u", maxq * 2 > 16 ? maxq * 2 : 16);
		rc = add_bench(o, o->sync ? "--threads" : "--iodepth", iodepth);
		if (rc)
			return rc;
	}
	if (o->follow && o->sync && o->have_threads)
		return lq_usage(o->cmd, "--iodepth qdepth with --engine sync sets --threads itself");
	if (!o->have_elapsed) {
		rc = add_bench(o, "--elapsed", DEFAULT_ELAPSED);
		if (rc)
			return rc;
		elapsed = lq_parse_secs(DEFAULT_ELAPSED);
	}
	o->point_s = elapsed >= 0 && warmup >= 0 ? elapsed + warmup : -1;
	if (o->follow)
		for (i = 0; i < o->nqd; i++)
			if (!o->qd[i])
				return lq_usage(o->cmd, "qdepth 0 (unlimited) needs a number for --iodepth");
	return LQ_OK;
}

/* ---- the device ------------------------------------------------------------- */

struct dev_state {
	struct lq_nl *nl;
	struct lq_dev d;
	char orig_qdepth[16], orig_sched[16];
	char cur[64];		/* the policy words sweep set last, "" none */
	bool changed;
};

/* The values in force of qdepth and sched in a policy string. */
static int policy_values(const char *policy, char *qd, size_t qlen,
			 char *sched, size_t slen)
{
	struct lunq_keys p;

	if (lq_policy_parse(policy, &p))
		return -1;
	lunq_policy_value(&p, LUNQ_QDEPTH, qd, qlen);
	lunq_policy_value(&p, LUNQ_SCHED, sched, slen);
	return 0;
}

static int set_policy(struct dev_state *ds, const char *words)
{
	int rc;

	if (!strcmp(ds->cur, words))
		return LQ_OK;
	rc = lq_policy_send(ds->nl, ds->d.name, words);
	if (rc)
		return rc;
	ds->changed = true;
	snprintf(ds->cur, sizeof(ds->cur), "%s", words);
	return LQ_OK;
}

static void restore_policy(struct dev_state *ds, bool quiet)
{
	char words[64], said[64];

	if (!ds->changed)
		return;
	snprintf(words, sizeof(words), "qdepth:%s sched:%s", ds->orig_qdepth,
		 ds->orig_sched);
	snprintf(said, sizeof(said), "qdepth %s, sched %s", ds->orig_qdepth,
		 ds->orig_sched);
	lq_policy_restore(ds->nl, ds->d.name, words, said, quiet);
	ds->changed = false;
}

/* qfull and snaptime now; false when the module did not report them */
static bool snap(struct dev_state *ds, u64 *qfull, u64 *t)
{
	struct lq_dev d;

	if (lq_nl_get_dev(ds->nl, ds->d.name, &d) || !d.have[LUNQ_ST_QFULL] ||
	    !d.have[LUNQ_ST_SNAPTIME_NS])
		return false;
	*qfull = d.st[LUNQ_ST_QFULL];
	*t = d.st[LUNQ_ST_SNAPTIME_NS];
	return true;
}

/* ---- the sweep ---------------------------------------------------------------- */

struct ctx {
	struct sw_opts *o;
	struct dev_state *ds;
	struct lq_sweep *s;
	char bench_path[PATH_MAX];
	int done, total;
};

static void fmt_eta(char *buf, size_t len, double s)
{
	if (s < 0)
		buf[0] = '\0';
	else if (s < 120)
		snprintf(buf, len, ", ~%.0f s left", s);
	else
		snprintf(buf, len, ", ~%.0f min left", s / 60);
}

/*
 * Run one point under the policy (@p->qdepth, @p->sched) at @rate
 * (0: closed loop).  Adds it to the sweep when it ran; *@iops gets its
 * IOPS.  LQ_OK, or an exit code (stopped, lunqbench failed).
 */
static int run_point(struct ctx *x, struct lq_point *p, double *iops)
{
	struct sw_opts *o = x->o;
	char *argv[BENCH_ARGS + 16], rate[32], words[64], err[256], eta[48];
	char qd[16];
	struct lq_run r;
	struct lq_result res;
	const char *kv;
	u64 q0 = 0, t0 = 0, q1 = 0, t1 = 0;
	bool have0, have1;
	int argc = 0, i, rc;
	double left = -1;

	snprintf(words, sizeof(words), "qdepth:%u sched:%s", p->qdepth, p->sched);
	rc = set_policy(x->ds, words);
	if (rc)
		return rc;
	argv[argc++] = x->bench_path;
	for (i = 0; i < o->nbench; i++)
		argv[argc++] = o->bench[i];
	if (o->follow) {
		snprintf(qd, sizeof(qd), "%u", p->qdepth);
		argv[argc++] = o->sync ? "--threads" : "--iodepth";
		argv[argc++] = qd;
	}
	if (p->open)
		snprintf(rate, sizeof(rate), "%.0f", p->target_iops);
	argv[argc++] = "--iorate";
	argv[argc++] = p->open ? rate : "max";
	argv[argc++] = "--kv";
	argv[argc++] = "--interval";
	argv[argc++] = "0";
	argv[argc++] = x->s->path;
	argv[argc] = NULL;

	x->done++;
	if (o->point_s > 0)
		left = (x->total - x->done + 1) * (o->point_s + 1);
	fmt_eta(eta, sizeof(eta), left);
	if (!o->quiet) {
		fprintf(stderr, "point %d/%d: qdepth=%u sched=%s ", x->done, x->total,
			p->qdepth, p->sched);
		if (p->open)
			fprintf(stderr, "open %u%% = %s IOPS", p->rate_pct, rate);
		else
			fprintf(stderr, "closed%s", p->probe ? " (max probe)" : "");
		fprintf(stderr, "%s ...%s", eta, o->verbose ? "\n" : "");
		fflush(stderr);
	}
	have0 = snap(x->ds, &q0, &t0);
	if (lq_bench_run(argv, o->verbose,
			 o->point_s > 0 ? 3 * o->point_s + 60 : 0, &lq_stop, &r)) {
		if (!o->quiet && !o->verbose)
			fputc('\n', stderr);
		free(r.out);
		return lq_error(LQ_EFAIL, "cannot start %s: %s", x->bench_path,
				strerror(errno));
	}
	have1 = snap(x->ds, &q1, &t1);
	if (r.interrupted || lq_stop) {
		if (!o->quiet && !o->verbose)
			fputs(" interrupted\n", stderr);
		free(r.out);
		return LQ_EFAIL;
	}
	kv = lq_result_find(r.out);
	/* lunqbench exits 3 (verify) or 4 (IO errors) after a full run: the
	 * point stands, its errors are in the table
	 */
	if (r.exec_failed || !WIFEXITED(r.status) ||
	    (WEXITSTATUS(r.status) && !(kv && (WEXITSTATUS(r.status) == 3 ||
					      WEXITSTATUS(r.status) == 4)))) {
		if (!o->quiet && !o->verbose)
			fputs(" failed\n", stderr);
		show_tail(r.out, 20);
		if (r.timed_out)
			rc = lq_error(LQ_EFAIL, "lunqbench ran past %.0f s and was stopped",
				      3 * o->point_s + 60);
		else if (WIFSIGNALED(r.status))
			rc = lq_error(LQ_EFAIL, "lunqbench was killed by signal %d",
				      WTERMSIG(r.status));
		else
			rc = lq_error(LQ_EFAIL, "lunqbench failed (exit %d): %s",
				      WEXITSTATUS(r.status), x->bench_path);
		free(r.out);
		return rc;
	}
	if (!kv || lq_result_parse(kv, &res, err, sizeof(err))) {
		if (!o->quiet && !o->verbose)
			fputs(" failed\n", stderr);
		show_tail(r.out, 20);
		free(r.out);
		return lq_error(LQ_EFAIL, "%s", kv ? err :
				"lunqbench printed no summary line (ios=...)");
	}
	free(r.out);
	p->r = res;
	p->ran = true;
	p->qfull_s = -1;
	if (have0 && have1 && t1 > t0) {
		p->qfull = q1 >= q0 ? q1 - q0 : q1;
		p->qfull_s = (double)p->qfull / ((double)(t1 - t0) / 1e9);
	}
	if (!lq_sweep_add(x->s, p))
		return lq_error(LQ_EFAIL, "out of memory");
	*iops = res.iops;
	if (!o->quiet) {
		char p99[24];

		lq_fmt_ns(p99, sizeof(p99), res.resp_p99_ns);
		fprintf(stderr, "%s%.1f IOPS, p99 %s%s%s%s\n", o->verbose ? "  " : " ",
			res.iops, p99, res.saturated ? ", saturated" : "",
			res.errors ? ", IO errors" : "",
			res.verify_errors ? ", verify errors" : "");
	}
	return LQ_OK;
}

static int sweep_all(struct ctx *x)
{
	struct sw_opts *o = x->o;
	int si, qi, ci, rc;

	for (si = 0; si < o->nsched; si++)
		for (qi = 0; qi < o->nqd; qi++) {
			struct lq_point p;
			double max = 0;

			memset(&p, 0, sizeof(p));
			snprintf(p.sched, sizeof(p.sched), "%s", o->sched[si]);
			p.qdepth = o->qd[qi];
			p.probe = o->loop == LOOP_OPEN;
			rc = run_point(x, &p, &max);
			if (rc)
				return rc;
			if (o->loop == LOOP_CLOSED)
				continue;
			for (ci = 0; ci < o->ncurve; ci++) {
				double dummy;

				p.open = true;
				p.probe = false;
				p.rate_pct = o->curve[ci];
				p.target_iops = (double)(u64)(max * o->curve[ci] / 100 + 0.5);
				if (p.target_iops < 1)
					p.target_iops = 1;
				rc = run_point(x, &p, &dummy);
				if (rc)
					return rc;
			}
		}
	return LQ_OK;
}

static int write_file(const char *prefix, const char *ext,
		      void (*fn)(FILE *, const struct lq_sweep *),
		      const struct lq_sweep *s)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s.%s", prefix, ext);
	f = fopen(path, "w");
	if (!f)
		return lq_error(LQ_EFAIL, "%s: %s", path, strerror(errno));
	fn(f, s);
	if (ferror(f) | fclose(f))
		return lq_error(LQ_EFAIL, "%s: write error", path);
	return LQ_OK;
}

static int write_outputs(const struct sw_opts *o, const struct lq_sweep *s)
{
	int rc = LQ_OK;

	if (!o->prefix)
		return LQ_OK;
	rc = write_file(o->prefix, "csv", lq_sweep_csv, s);
	if (!rc)
		rc = write_file(o->prefix, "json", lq_sweep_json, s);
	if (!rc)
		rc = write_file(o->prefix, "svg", lq_sweep_svg, s);
	if (!rc && !o->quiet)
		fprintf(stderr, "wrote %s.csv, %s.json, %s.svg\n", o->prefix,
			o->prefix, o->prefix);
	return rc;
}

/* "--bs 4k --elapsed 3": the common lunqbench options, for the record */
static void join_bench(const struct sw_opts *o, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < o->nbench && off + 1 < len; i++) {
		bool q = strpbrk(o->bench[i], " \t\"'") != NULL;

		off += (size_t)snprintf(buf + off, len - off, q ? "%s'%s'" : "%s%s",
					i ? " " : "", o->bench[i]);
	}
	if (o->follow && off + 1 < len)
		snprintf(buf + off, len - off, "%s%s qdepth", off ? " " : "",
			 o->sync ? "--threads" : "--iodepth");
}

static int sweep_main(struct sw_opts *o, const struct lq_bench *b)
{
	struct dev_state ds;
	struct lq_sweep s;
	struct ctx x;
	struct lq_ident id;
	char path[LUNQ_NAME_MAX + 16], bench[1024];
	int rc, rc2;

	memset(&ds, 0, sizeof(ds));
	memset(&x, 0, sizeof(x));
	x.o = o;
	x.ds = &ds;
	x.s = &s;
	if (b->rc)
		return lq_error(b->rc, "%s", b->err);
	snprintf(x.bench_path, sizeof(x.bench_path), "%s", b->path);
	rc = lq_connect(&ds.nl);
	if (rc)
		return rc;
	rc = lq_find_dev(ds.nl, o->name, &ds.d);
	if (rc)
		goto out_nl;
	if (policy_values(ds.d.policy, ds.orig_qdepth, sizeof(ds.orig_qdepth),
			  ds.orig_sched, sizeof(ds.orig_sched))) {
		rc = lq_error(LQ_EFAIL, "%s: cannot parse the kernel's policy \"%s\"",
			      ds.d.name, ds.d.policy);
		goto out_nl;
	}
	if (ds.d.begin && !o->have_range) {
		rc = lq_error(LQ_EUSAGE, "%s starts at sector %llu of /dev/mapper/%s: give lunqbench --range for its bytes",
			      ds.d.name, (unsigned long long)ds.d.begin, ds.d.dm_name);
		goto out_nl;
	}
	snprintf(path, sizeof(path), "/dev/mapper/%s", ds.d.dm_name);
	if (access(path, F_OK)) {
		rc = lq_error(LQ_ENOTFOUND, "%s: %s (try 'dmsetup mknodes')", path,
			      strerror(errno));
		goto out_nl;
	}
	if (!o->nsched) {
		snprintf(o->sched[0], sizeof(o->sched[0]), "%s", ds.orig_sched);
		o->nsched = 1;
	}
	x.total = o->nsched * o->nqd * (o->loop == LOOP_CLOSED ? 1 : 1 + o->ncurve);
	join_bench(o, bench, sizeof(bench));
	lq_sweep_init(&s, ds.d.name, path, bench);
	if (!o->quiet)
		fprintf(stderr, "%s %s: %d point%s, lunqbench %s %s\n", o->cmd,
			ds.d.name, x.total, x.total == 1 ? "" : "s", bench, path);
	lq_catch_signals();
	rc = sweep_all(&x);
	restore_policy(&ds, o->quiet);
	if (lq_stop) {
		rc = lq_error(LQ_EFAIL, "interrupted after %d of %d points", s.n, x.total);
		if (!s.n)
			goto out;
	} else if (rc && !s.n) {
		goto out;
	}
	if (lq_sweep_curves(&s)) {
		rc = lq_error(LQ_EFAIL, "out of memory");
		goto out;
	}
	if (!o->tune) {
		if (o->json)
			lq_sweep_json(stdout, &s);
		else
			lq_sweep_print(stdout, &s);
	} else if (!rc) {
		struct lq_tune t;
		struct lq_tune_req q = {
			.p99_ns = o->p99_ns, .within_pct = o->within,
			.sched = o->sched[0], .sched_given = o->sched_given,
			.id = &id,
		};

		lq_dev_ident(&ds.d, &id);
		lq_tune_pick(s.pts, s.n, o->p99_ns, o->within, &t);
		if (!o->json) {
			lq_sweep_print(stdout, &s);
			putchar('\n');
		}
		lq_tune_report(stdout, &s, &t, &q, o->json);
		if (t.pick < 0)
			rc = LQ_EUSAGE;
	} else {
		lq_sweep_print(stdout, &s);
	}
	fflush(stdout);
	rc2 = write_outputs(o, &s);
	if (!rc)
		rc = rc2;
out:
	lq_sweep_free(&s);
out_nl:
	restore_policy(&ds, o->quiet);
	lq_nl_close(ds.nl);
	return rc;
}

static int sweep_cmd(int argc, char **argv, bool tune)
{
	const struct lq_bench *b = lq_bench();
	struct sw_opts o;
	int rc;

	memset(&o, 0, sizeof(o));
	o.tune = tune;
	o.cmd = tune ? "tune" : "sweep";
	o.within = 95;
	rc = parse_opts(&o, argc, argv, b);
	if (rc)
		return rc < 0 ? LQ_OK : rc;
	return sweep_main(&o, b);
}

int cmd_sweep(int argc, char **argv)
{
	return sweep_cmd(argc, argv, false);
}

int cmd_tune(int argc, char **argv)
{
	if (lq_tune_online_wanted(argc, argv))
		return cmd_tune_online(argc, argv);
	return sweep_cmd(argc, argv, true);
}
