// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of ctl/cmd_tune_online.c (lunqctl tune NAME --online) without
 * the module: the file is included here with netlink, the clock and the
 * sleep replaced by a scripted device on a virtual clock (a poll takes no
 * real time).  Each case scripts what auto shows over time (phase, live
 * depth, IOPS) and checks the exit status, stdout, stderr and the policy
 * words sent (set, then restore): settling over a probe, --settle,
 * auto:target, --keep, -j, no IO, IO that stops during the hold, a depth
 * that never holds (--elapsed), Ctrl-C, reaction:sd, a module without
 * auto.  One "ok N name" / "not ok N name" line per check.
 *
 * LINK: ctl/autotune.c ctl/tune.c ctl/sweep.c ctl/svg.c ctl/kv.c ctl/options.c lib/opts.c lib/util.c lib/json.c lib/units.c kmod/lunq_args.c kmod/lunq_names.c ctl/devrun.c tests/unit/ctl_bench_fake.c tests/unit/ctl_nl_fake.c
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

/* ---- the virtual clock ---------------------------------------------------- */

static double vt;		/* seconds */

static int fake_clock_gettime(clockid_t c, struct timespec *ts)
{
	(void)c;
	ts->tv_sec = (time_t)vt;
	ts->tv_nsec = (long)((vt - (double)ts->tv_sec) * 1e9);
	return 0;
}

static int fake_nanosleep(const struct timespec *req, struct timespec *rem)
{
	(void)rem;
	vt += req->tv_sec + req->tv_nsec / 1e9;
	return 0;
}

#define clock_gettime fake_clock_gettime
#define nanosleep fake_nanosleep
#include "cmd_tune_online.c"
#include "ctl_nl_fake.h"
#undef clock_gettime
#undef nanosleep

/* ---- the scripted device ---------------------------------------------------- */

struct script {
	const char *policy;
	bool no_auto;		/* a module without the auto statistics */
	/* at @t seconds after auto was set: phase, depth, IOPS */
	void (*at)(double t, u64 *phase, u64 *depth, double *iops);
	double stop_at;		/* a signal then (0: none) */
};

static const struct script *sc;
static char policy[LUNQ_POLICY_MAX];	/* the device's, as set changes it */
static double t_set = -1, ios_f, last_t;
static char sent[4][96];
static int nsent;

int lq_ident_read(const char *sysroot, const char *majmin, struct lq_ident *id)
{
	(void)sysroot;
	(void)majmin;
	snprintf(id->vendor, sizeof(id->vendor), "QEMU");
	snprintf(id->model, sizeof(id->model), "QEMU HARDDISK");
	return 0;
}

static void fill(struct lq_dev *d)
{
	u64 phase = 0, depth = 32;
	double iops = 0;
	int k;

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "lq0");
	snprintf(d->dm_name, sizeof(d->dm_name), "lq0");
	snprintf(d->lower, sizeof(d->lower), "8:0");
	snprintf(d->policy, sizeof(d->policy), "%s", policy);
	if (t_set >= 0)
		sc->at(vt - t_set, &phase, &depth, &iops);
	else
		depth = 32;
	ios_f += iops * (vt - last_t);
	last_t = vt;
	if (sc->stop_at && t_set >= 0 && vt - t_set >= sc->stop_at)
		lq_stop = SIGINT;
	d->st[LUNQ_ST_READS] = (u64)ios_f;
	d->st[LUNQ_ST_SNAPTIME_NS] = (u64)(vt * 1e9);
	fake_auto(d, depth, phase, iops);
	for (k = 1; k < __LUNQ_ST_MAX; k++)
		d->have[k] = !sc->no_auto || k < LUNQ_ST_AUTO_PHASE;
}

int lq_find_dev(struct lq_nl *nl, const char *name, struct lq_dev *d)
{
	(void)nl;
	(void)name;
	fill(d);
	return LQ_OK;
}

int lq_nl_get_dev(struct lq_nl *nl, const char *name, struct lq_dev *d)
{
	(void)nl;
	(void)name;
	fill(d);
	return LQ_OK;
}

/* The kernel's set: the words over the policy in force, all or nothing. */
int lq_nl_set(struct lq_nl *nl, const char *name, const char *words)
{
	char buf[LUNQ_POLICY_MAX], *w[LUNQ_NR_KEYS];
	struct lunq_keys p;
	u64 seen = 0;
	int i, k;

	(void)nl;
	(void)name;
	if (nsent < 4)
		snprintf(sent[nsent++], sizeof(sent[0]), "%s", words);
	if (t_set < 0)
		t_set = vt;
	if (lq_policy_parse(policy, &p))
		return LQ_EFAIL;
	snprintf(buf, sizeof(buf), "%s", words);
	k = lunq_split_words(buf, w, ARRAY_SIZE(w));
	for (i = 0; i < k; i++) {
		enum lunq_key key;

		if (lunq_parse_word(&p, w[i], &seen, &key))
			return LQ_EFAIL;
	}
	if (lunq_policy_check(&p))
		return LQ_EFAIL;
	lunq_policy_format(&p, policy, sizeof(policy));
	return LQ_OK;
}

/* ---- scripts ------------------------------------------------------------------ */

/* down from 32, up, hold at 16 from 2 s, a probe at 4 s; 2000 IOPS */
static void knee(double t, u64 *phase, u64 *depth, double *iops)
{
	*iops = 2000;
	if (t < 1) {
		*phase = LQ_AP_DOWN;
		*depth = t < 0.5 ? 32 : 16;
	} else if (t < 2) {
		*phase = LQ_AP_UP;
		*depth = 8;
	} else if (t >= 4 && t < 4.3) {
		*phase = LQ_AP_PROBE;
		*depth = 17;
	} else {
		*phase = LQ_AP_HOLD;
		*depth = 16;
	}
}

static void idle(double t, u64 *phase, u64 *depth, double *iops)
{
	(void)t;
	*phase = LQ_AP_DOWN;
	*depth = 32;
	*iops = 0;
}

/* the load ends at 4 s, while auto holds 16 */
static void load_ends(double t, u64 *phase, u64 *depth, double *iops)
{
	knee(t, phase, depth, iops);
	if (t >= 4)
		*iops = 0;
}

/* hold, but the depth moves every 2 s */
static void restless(double t, u64 *phase, u64 *depth, double *iops)
{
	*iops = 1500;
	*phase = LQ_AP_HOLD;
	*depth = 15 + ((int)(t / 2) % 2);
}

static void track(double t, u64 *phase, u64 *depth, double *iops)
{
	*iops = 1200;
	*phase = LQ_AP_TRACK;
	*depth = t < 1 ? 1 + (u64)(t * 10) : 12;
}

/* ---- running one case ---------------------------------------------------------- */

#define TAP_PREFIX "tune-online-"
#include "tap.h"

static char out[16384], err[16384];
static double ran_s;

static void slurp(FILE *f, char *buf, size_t len)
{
	size_t k;

	rewind(f);
	k = fread(buf, 1, len - 1, f);
	buf[k] = '\0';
	fclose(f);
}

/* lunqctl tune ARGS... under @s; stdout in out[], stderr in err[] */
static int run(const struct script *s, const char *args)
{
	char buf[256], *argv[16], *save = NULL, *w;
	FILE *fo = tmpfile(), *fe = tmpfile();
	int argc = 0, rc;

	snprintf(buf, sizeof(buf), "tune %s", args);
	for (w = strtok_r(buf, " ", &save); w && argc < 15; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	sc = s;
	snprintf(policy, sizeof(policy), "%s", s->policy);
	vt = 1000;
	last_t = vt;
	t_set = -1;
	ios_f = 0;
	nsent = 0;
	lq_stop = 0;
	memset(sent, 0, sizeof(sent));
	rc = fake_run(cmd_tune_online, argc, argv, fo, fe);
	slurp(fo, out, sizeof(out));
	slurp(fe, err, sizeof(err));
	ran_s = t_set >= 0 ? vt - t_set : 0;
	return rc;
}

static int has(const char *text, const char *s)
{
	if (strstr(text, s))
		return 1;
	diag("missing \"%s\" in:", s);
	for (const char *p = text; *p; ) {
		size_t l = strcspn(p, "\n");

		diag("  %.*s", (int)l, p);
		p += l + (p[l] == '\n');
	}
	return 0;
}

static void test_knee(void)
{
	static const struct script s = { .policy = "qdepth:32 sched:fifo", .at = knee };
	int rc = run(&s, "lq0 --online");

	ok(rc == LQ_OK && ran_s >= 7 && ran_s < 7.3, "knee-settles-over-probe");
	ok(has(out, "lq0: auto knee held qdepth 16 for 5.0 s (settled after 7.0 s): 2000.0 IOPS, service p99 8.40 ms\n"
		  "# lunq.conf(5) lines for lq0 (auto knee on the live workload):\n"
		  "[vendor=QEMU model=\"QEMU HARDDISK\"]\nqdepth = 16\n"
		  "# auto: peak 2000 IOPS x min service 8.20 ms = knee 16\n"
		  "# or for lq0 alone: [name=lq0]\n"), "knee-report");
	ok(has(err, "tune lq0 --online: auto:knee from qdepth 32 on the IO running now; settle 5 s, give up after 60 s\n") &&
	   has(err, "tune lq0 --online: phase up, depth 8, 2000 IOPS, p99 8.40 ms\n") &&
	   has(err, "tune lq0 --online: phase hold, depth 16, 2000 IOPS, p99 8.40 ms, held 0.0 of 5 s\n") &&
	   has(err, "phase probe, depth 17, 2000 IOPS, p99 8.40 ms, depth 16 held 2.0 of 5 s\n") &&
	   has(err, "lq0: policy restored: qdepth 32, auto off\n"), "knee-progress");
	ok(nsent == 2 && !strcmp(sent[0], "auto:knee") &&
	   !strcmp(sent[1], "qdepth:32 auto:off"), "knee-set-restore");
	if (getenv("LUNQ_SAMPLES"))	/* for the man page's example */
		printf("# stderr:\n%s# stdout:\n%s", err, out);

	rc = run(&s, "lq0 --online --settle 2 -q");
	ok(rc == LQ_OK && ran_s >= 4 && ran_s < 4.3 && !err[0], "settle-2-quiet");

	rc = run(&s, "lq0 --online --keep");
	ok(rc == LQ_OK && nsent == 1 &&
	   has(err, "lq0: auto:knee stays on (--keep); before: qdepth 32, auto off\n") &&
	   !strstr(err, "restored"), "keep");

	rc = run(&s, "lq0 --online -j -q");
	ok(rc == LQ_OK && has(out, "{\"schema\":2,\"device\":\"lq0\",\"mode\":\"knee\",\"target_ns\":null,\"settled\":true,\"depth\":16,\"phase\":\"hold\",\"iops\":2000,") &&
	   has(out, "\"section\":\"[vendor=QEMU model=\\\"QEMU HARDDISK\\\"]\",\"policy\":\"[vendor=QEMU model=\\\"QEMU HARDDISK\\\"]\\nqdepth = 16\\n\"}\n") &&
	   !err[0], "json");
}

static void test_target(void)
{
	static const struct script s = { .policy = "qdepth:1", .at = track };
	int rc = run(&s, "lq0 --online --p99 5ms --settle 3");

	ok(rc == LQ_OK && ran_s >= 4 && ran_s < 4.3, "target-settles");
	ok(nsent == 2 && !strcmp(sent[0], "auto:target target_us:5000") &&
	   !strcmp(sent[1], "qdepth:1 auto:off target_us:0"), "target-set-restore");
	ok(has(out, "lq0: auto target held qdepth 12 for 3.0 s") &&
	   has(out, "(auto target, service p99 <= 5.00 ms on the live workload)") &&
	   has(out, "qdepth = 12\n# auto: window p99 8.40 ms at qdepth 12, target 5.00 ms\n") &&
	   has(err, "policy restored: qdepth 1, auto off, target_us 0\n"), "target-report");
	rc = run(&s, "lq0 --online --mode target --p99 1.5ms -q");
	ok(rc == LQ_OK && !strcmp(sent[0], "auto:target target_us:1500"), "target-mode-us");
}

static void test_failures(void)
{
	static const struct script quiet = { .policy = "qdepth:32", .at = idle };
	static const struct script ends = { .policy = "qdepth:32", .at = load_ends };
	static const struct script moving = { .policy = "qdepth:32", .at = restless };
	static const struct script intr = { .policy = "qdepth:32", .at = knee, .stop_at = 2 };
	static const struct script react = { .policy = "qdepth:32 reaction:sd", .at = knee };
	static const struct script old = { .policy = "qdepth:32", .at = knee, .no_auto = true };
	int rc;

	rc = run(&quiet, "lq0 --online");
	ok(rc == LQ_EUSAGE && ran_s >= 5 && ran_s < 5.3 && !out[0] &&
	   has(err, "lunqctl: no IO on lq0: --online tunes on the live workload; run the load first\n") &&
	   nsent == 2 && !strcmp(sent[1], "qdepth:32 auto:off"), "no-io");

	rc = run(&ends, "lq0 --online --elapsed 12");
	ok(rc == LQ_EUSAGE && ran_s >= 12 && !out[0] &&
	   has(err, "lunqctl: auto did not settle within 12 s: last depth 16, phase hold\n") &&
	   nsent == 2, "io-stops-during-hold");

	rc = run(&moving, "lq0 --online --elapsed 10 --settle 3");
	ok(rc == LQ_EUSAGE && ran_s >= 10 && ran_s < 10.3 && !out[0] &&
	   has(err, "lunqctl: auto did not settle within 10 s: last depth 16, phase hold\n") &&
	   has(err, "policy restored"), "never-settles");
	rc = run(&moving, "lq0 --online --elapsed 10 --settle 3 -j -q");
	ok(rc == LQ_EUSAGE && has(out, "\"settled\":false,\"depth\":16,\"phase\":\"hold\",\"iops\":null,") &&
	   has(out, "\"section\":null,\"policy\":null}\n"), "never-settles-json");

	rc = run(&intr, "lq0 --online");
	ok(rc == LQ_EFAIL && !out[0] && has(err, "lunqctl: interrupted after 2.0 s\n") &&
	   has(err, "policy restored") && nsent == 2, "interrupted");
	rc = run(&intr, "lq0 --online --keep");
	ok(rc == LQ_EFAIL && nsent == 2, "interrupted-keep-restores");

	rc = run(&react, "lq0 --online");
	ok(rc == LQ_EUSAGE && nsent == 0 &&
	   has(err, "lunqctl: lq0 has reaction:sd; auto moves the throttle itself and needs reaction:none ('lunqctl set lq0 reaction=none' first)\n"),
	   "reaction-refused");

	rc = run(&old, "lq0 --online");
	ok(rc == LQ_EFAIL && nsent == 0 &&
	   has(err, "no adaptive throttle (no auto_phase statistic)"), "old-module");
}

static void test_args(void)
{
	static const struct script s = { .policy = "qdepth:32", .at = knee };
	static const struct {
		const char *args, *want;
	} bad[] = {
		{ "lq0 --online --qdepth 4", "--qdepth does not go with --online" },
		{ "lq0 --online --mode target", "--mode target needs --p99" },
		{ "lq0 --online --mode knee --p99 5ms", "--p99 goes with --mode target" },
		{ "lq0 --online --settle 0", "--settle '0': seconds > 0" },
		{ "lq0 --online --settle 60", "--settle 60 s must be shorter than --elapsed 60 s" },
		{ "lq0 --online --elapsed x", "--elapsed 'x': seconds > 0" },
		{ "lq0 --online --bs 4k", "--bs is a lunqbench option" },
		{ "lq0 --online -- --bs 4k", "'--' and lunqbench options do not go with --online" },
		{ "lq0 --online -o x", "--output does not go with --online" },
		{ "lq0 --online --p99 10", "--p99 '10': a time with a unit" },
		{ "--online", "needs NAME" },
	};
	char *argv_on[] = { "tune", "lq0", "--onl", NULL };
	char *argv_dd[] = { "tune", "lq0", "--", "--online", NULL };
	char *argv_o[] = { "tune", "lq0", "--o", NULL };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		char name[64];
		int rc = run(&s, bad[i].args);

		snprintf(name, sizeof(name), "args-%zu", i);
		ok(rc == LQ_EUSAGE && nsent == 0 && has(err, bad[i].want), name);
	}
	ok(lq_tune_online_wanted(3, argv_on) && !lq_tune_online_wanted(4, argv_dd) &&
	   !lq_tune_online_wanted(3, argv_o), "wanted");
}

int main(void)
{
	test_knee();
	test_target();
	test_failures();
	test_args();
	return tap_exit();
}
