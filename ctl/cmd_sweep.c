// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl sweep and tune: set each policy on a lunq device, run lunqbench
 * against it for each point, and report (table, CSV, JSON, SVG; tune: the
 * policy-file lines).  The pure parts are sweep.c and svg.c; this file is
 * the plumbing: options, netlink, the lunqbench child, signals.
 * Reference: lunqctl(8), sections "sweep" and "tune".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "cmd.h"
#include "kv.h"
#include "ident.h"
#include "sweep.h"
#include "units.h"
#include "lunq_args.h"

#define MAX_SCHED	4
#define BENCH_ARGS	160
#define DEFAULT_ELAPSED	"10"
#define OUT_MAX		(1 << 20)	/* lunqbench output kept (the tail) */

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

/* ---- signals and the child ---------------------------------------------- */

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = sig;
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	/* no SA_RESTART: poll() and waitpid() return EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct run {
	char *out;		/* its stdout (and stderr unless -v), the tail */
	size_t len;
	int status;		/* waitpid status */
	bool interrupted;	/* stopped by our signal */
	bool timed_out;
	bool exec_failed;
};

static void keep(struct run *r, const char *buf, size_t n)
{
	if (r->len + n > OUT_MAX) {
		size_t drop = r->len + n - OUT_MAX;

		if (drop > r->len)
			drop = r->len;
		memmove(r->out, r->out + drop, r->len - drop);
		r->len -= drop;
		if (n > OUT_MAX) {
			buf += n - OUT_MAX;
			n = OUT_MAX;
		}
	}
	memcpy(r->out + r->len, buf, n);
	r->len += n;
	r->out[r->len] = '\0';
}

/*
 * Run lunqbench @argv as a child in its own process group (so a Ctrl-C
 * at the terminal reaches lunqctl only, which stops the child and then
 * restores the policy); it dies with lunqctl (PR_SET_PDEATHSIG).  Kill it
 * after @timeout_s (<= 0: never).  Returns 0 when it ran (see @r), -1
 * when it could not be started.
 */
static int run_bench(char *const *argv, bool verbose, double timeout_s,
		     struct run *r)
{
	pid_t pid, parent = getpid();
	int pfd[2], killed = 0;
	double t0 = now_mono(), kill_at = 0;
	char buf[4096];
	bool eof = false;

	memset(r, 0, sizeof(*r));
	r->out = malloc(OUT_MAX + 1);
	if (!r->out)
		return -1;
	r->out[0] = '\0';
	if (pipe2(pfd, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(127);
		int null = open("/dev/null", O_RDONLY);

		signal(SIGPIPE, SIG_DFL);
		if (null >= 0)
			dup2(null, STDIN_FILENO);	/* not in the terminal's group */
		dup2(pfd[1], STDOUT_FILENO);
		if (!verbose)
			dup2(pfd[1], STDERR_FILENO);
		execv(argv[0], argv);
		dprintf(pfd[1], "lunqctl: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);	/* both sides, whichever runs first */
	close(pfd[1]);
	for (;;) {
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		double now = now_mono();
		int rc;

		if (stop && !killed) {
			r->interrupted = true;
			kill(-pid, SIGTERM);
			killed = 1;
			kill_at = now + 5;
		} else if (!killed && timeout_s > 0 && now - t0 > timeout_s) {
			r->timed_out = true;
			kill(-pid, SIGTERM);
			killed = 1;
			kill_at = now + 5;
		} else if (killed == 1 && now > kill_at) {
			kill(-pid, SIGKILL);
			killed = 2;
		}
		if (eof) {
			pid_t w = waitpid(pid, &r->status, killed ? WNOHANG : 0);

			if (w == pid)
				break;
			if (w < 0 && errno != EINTR) {
				r->status = 0;
				break;
			}
			if (w == 0)
				usleep(100000);
			continue;
		}
		rc = poll(&p, 1, 200);
		if (rc < 0 && errno != EINTR)
			eof = true;
		if (rc > 0) {
			ssize_t k = read(pfd[0], buf, sizeof(buf));

			if (k > 0)
				keep(r, buf, (size_t)k);
			else if (k == 0 || (errno != EINTR && errno != EAGAIN))
				eof = true;
		}
	}
	close(pfd[0]);
	r->exec_failed = WIFEXITED(r->status) && WEXITSTATUS(r->status) == 127 &&
			 strstr(r->out, "lunqctl: cannot run ");
	return 0;
}

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

/* ---- finding lunqbench --------------------------------------------------- */

static bool executable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

/*
 * $LUNQBENCH; else ../bench/lunqbench and lunqbench next to this lunqctl
 * (/proc/self/exe: the build tree, or an install of both); else PATH.
 */
static int find_bench(char *buf, size_t len)
{
	const char *env = getenv("LUNQBENCH"), *path = getenv("PATH");
	char self[PATH_MAX - 32], *slash;
	ssize_t n;

	if (env && env[0]) {
		if (!executable(env))
			return lq_error(LQ_ENOTFOUND, "LUNQBENCH=%s is not an executable file",
					env);
		snprintf(buf, len, "%s", env);
		return LQ_OK;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			snprintf(buf, len, "%s/../bench/lunqbench", self);
			if (executable(buf))
				return LQ_OK;
			snprintf(buf, len, "%s/lunqbench", self);
			if (executable(buf))
				return LQ_OK;
		}
	}
	while (path && *path) {
		size_t l = strcspn(path, ":");

		snprintf(buf, len, "%.*s/lunqbench", (int)l, l ? path : ".");
		if (executable(buf))
			return LQ_OK;
		path += l;
		if (*path)
			path++;
	}
	return lq_error(LQ_ENOTFOUND,
			"lunqbench not found: not in $LUNQBENCH, next to lunqctl (../bench/lunqbench) or on PATH; build it with 'make -C bench'");
}

/* ---- options -------------------------------------------------------------- */

enum {
	O_QDEPTH = 256, O_SCHED, O_LOOP, O_CURVE, O_P99, O_WITHIN,
	O_ONLINE,		/* + index into online_opts[] */
	O_BENCH = O_ONLINE + 8,	/* + index into bench_opts[] */
};

/* tune --online's own options (cmd_tune_online.c): refused here */
static const struct {
	const char *name;
	bool arg;
} online_opts[] = {
	{ "online", false }, { "settle", true }, { "mode", true }, { "keep", false },
};
#define NONLINE_OPTS ((int)ARRAY_SIZE(online_opts))

static int refuse_online(const struct sw_opts *o, int i)
{
	if (!o->tune && i == 0)
		return lq_usage(o->cmd, "--online is tune's: 'lunqctl tune NAME --online' lets auto tune on the IO already running; sweep runs lunqbench");
	if (!o->tune)
		return lq_usage(o->cmd, "--%s goes with tune --online, not with sweep",
				online_opts[i].name);
	return lq_usage(o->cmd, "--%s goes with --online", online_opts[i].name);
}

/* lunqbench options accepted directly (each takes a value) */
static const char *const bench_opts[] = {
	"--engine", "--iodepth", "--threads", "--bs", "--rdpct", "--seekpct",
	"--range", "--elapsed", "--warmup", "--arrival", "--seed",
};
#define NBENCH_OPTS ((int)(sizeof(bench_opts) / sizeof(bench_opts[0])))

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

static int parse_opts(struct sw_opts *o, int argc, char **argv)
{
	static char iodepth[16];
	struct option lo[8 + NONLINE_OPTS + NBENCH_OPTS + 8];
	double elapsed = -1, warmup = 0;
	char err[256];
	int nlo = 0, c, i, dd = argc, rc;
	u32 maxq = 0;

#define LO(n, a, v) (lo[nlo++] = (struct option){ n, a, NULL, v })
	LO("qdepth", required_argument, O_QDEPTH);
	LO("sched", required_argument, O_SCHED);
	LO("output", required_argument, 'o');
	LO("json", no_argument, 'j');
	LO("quiet", no_argument, 'q');
	LO("verbose", no_argument, 'v');
	LO("help", no_argument, 'h');
	if (o->tune) {
		LO("p99", required_argument, O_P99);
		LO("within", required_argument, O_WITHIN);
	} else {
		LO("loop", required_argument, O_LOOP);
		LO("curve", required_argument, O_CURVE);
	}
	for (i = 0; i < NONLINE_OPTS; i++)
		LO(online_opts[i].name,
		   online_opts[i].arg ? required_argument : no_argument, O_ONLINE + i);
	for (i = 0; i < NBENCH_OPTS; i++)
		LO(bench_opts[i] + 2, required_argument, O_BENCH + i);
	LO("iorate", required_argument, 'R');
	LO(NULL, 0, 0);
#undef LO

	/* everything after "--" goes to lunqbench as it is */
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			dd = i;
			break;
		}
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(dd, argv, ":o:jqvh", lo, NULL)) != -1) {
		switch (c) {
		case O_QDEPTH:
			o->nqd = lq_parse_uint_list(optarg, 0, 65535, o->qd,
						    LQ_SWEEP_LIST_MAX, err, sizeof(err));
			if (o->nqd < 0)
				return lq_usage(o->cmd, "--qdepth: %s", err);
			break;
		case O_SCHED:
			rc = parse_sched_list(o, optarg);
			if (rc)
				return rc;
			o->sched_given = true;
			break;
		case O_LOOP:
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
		case O_CURVE:
			o->ncurve = lq_parse_uint_list(optarg, 1, 100, o->curve,
						       LQ_SWEEP_LIST_MAX, err, sizeof(err));
			if (o->ncurve < 0)
				return lq_usage(o->cmd, "--curve: %s", err);
			break;
		case O_P99:
			if (lq_parse_duration_ns(optarg, &o->p99_ns))
				return lq_usage(o->cmd, "--p99 '%s': a time with a unit (ns, us, ms, s), e.g. 10ms",
						optarg);
			break;
		case O_WITHIN: {
			unsigned long v;

			if (lq_parse_uint(optarg, 100, &v) || !v)
				return lq_usage(o->cmd, "--within '%s': a percentage 1..100",
						optarg);
			o->within = (double)v;
			break;
		}
		case 'o':
			if (!optarg[0])
				return lq_usage(o->cmd, "-o needs a PREFIX");
			o->prefix = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			return lq_cmd_help(o->cmd) ? LQ_EUSAGE : -1;
		case 'R':
			return note_bench_opt(o, "--iorate", optarg, &elapsed, &warmup);
		case ':':
			return lq_usage(o->cmd, "option '%s' needs a value", argv[optind - 1]);
		case '?':
			return lq_usage(o->cmd, "unknown option '%s' (lunqbench options go after --)",
					argv[optind - 1]);
		default:
			if (c >= O_ONLINE && c < O_ONLINE + NONLINE_OPTS)
				return refuse_online(o, c - O_ONLINE);
			if (c >= O_BENCH && c < O_BENCH + NBENCH_OPTS) {
				const char *opt = bench_opts[c - O_BENCH];

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
			return lq_usage(o->cmd, "bad option '%s'", argv[optind - 1]);
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
	char buf[LUNQ_POLICY_MAX], *w[LUNQ_NR_KEYS + 1];
	struct lunq_policy p;
	u64 seen = 0;
	int n, i;

	lunq_policy_init(&p);
	snprintf(buf, sizeof(buf), "%s", policy);
	n = lunq_split_words(buf, w, ARRAY_SIZE(w));
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		enum lunq_key key;

		/* a key this build does not know (a newer module): skip it */
		if (lunq_parse_word(&p, w[i], &seen, &key) &&
		    key != LUNQ_NR_KEYS)
			return -1;
	}
	lunq_policy_value(&p, LUNQ_QDEPTH, qd, qlen);
	lunq_policy_value(&p, LUNQ_SCHED, sched, slen);
	return 0;
}

static int set_policy(struct dev_state *ds, const char *words)
{
	char buf[64];
	int rc;

	if (!strcmp(ds->cur, words))
		return LQ_OK;
	snprintf(buf, sizeof(buf), "%s", words);
	rc = lq_nl_set(ds->nl, ds->d.name, buf);
	if (rc)
		return lq_error(rc, "%s (%s)", lq_nl_err(ds->nl), words);
	ds->changed = true;
	snprintf(ds->cur, sizeof(ds->cur), "%s", words);
	return LQ_OK;
}

static void restore_policy(struct dev_state *ds, bool quiet)
{
	char words[64];
	int rc;

	if (!ds->changed)
		return;
	snprintf(words, sizeof(words), "qdepth:%s sched:%s", ds->orig_qdepth,
		 ds->orig_sched);
	rc = lq_nl_set(ds->nl, ds->d.name, words);
	if (rc)
		lq_error(rc, "%s: could not restore %s: %s", ds->d.name, words,
			 lq_nl_err(ds->nl));
	else if (!quiet)
		fprintf(stderr, "%s: policy restored: qdepth %s, sched %s\n",
			ds->d.name, ds->orig_qdepth, ds->orig_sched);
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
	struct run r;
	struct lq_bench_res res;
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
	if (run_bench(argv, o->verbose,
		      o->point_s > 0 ? 3 * o->point_s + 60 : 0, &r)) {
		if (!o->quiet && !o->verbose)
			fputc('\n', stderr);
		free(r.out);
		return lq_error(LQ_EFAIL, "cannot start %s: %s", x->bench_path,
				strerror(errno));
	}
	have1 = snap(x->ds, &q1, &t1);
	if (r.interrupted || stop) {
		if (!o->quiet && !o->verbose)
			fputs(" interrupted\n", stderr);
		free(r.out);
		return LQ_EFAIL;
	}
	kv = lq_bench_find_kv(r.out);
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
	if (!kv || lq_bench_parse(kv, &res, err, sizeof(err))) {
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

		lq_fmt_dur(p99, sizeof(p99), res.resp_p99_ns);
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

static int sweep_main(struct sw_opts *o)
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
	rc = find_bench(x.bench_path, sizeof(x.bench_path));
	if (rc)
		return rc;
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
	catch_signals();
	rc = sweep_all(&x);
	restore_policy(&ds, o->quiet);
	if (stop) {
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

		memset(&id, 0, sizeof(id));
		snprintf(id.name, sizeof(id.name), "%s", ds.d.name);
		snprintf(id.dm, sizeof(id.dm), "%s", ds.d.dm_name);
		lq_ident_read("", ds.d.lower, &id);
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
	struct sw_opts o;
	int rc;

	memset(&o, 0, sizeof(o));
	o.tune = tune;
	o.cmd = tune ? "tune" : "sweep";
	o.within = 95;
	rc = parse_opts(&o, argc, argv);
	if (rc)
		return rc < 0 ? LQ_OK : rc;
	return sweep_main(&o);
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
