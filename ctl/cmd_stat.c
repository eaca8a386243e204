// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl stat and events: the live views.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cmd.h"
#include "autotune.h"
#include "iostat.h"
#include "histview.h"
#include "json.h"
#include "units.h"
#include "lunq_names.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* SIGINT/SIGTERM end a loop cleanly (no SA_RESTART: sleeps return). */
static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static double now_real(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Seconds as a decimal > 0 ("1", "0.5"); -1 if not. */
static int parse_secs(const char *s, double *v)
{
	char *end;

	if (!s[0] || ((s[0] < '0' || s[0] > '9') && s[0] != '.'))
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	return (errno || *end || !(*v > 0) || *v > 86400 * 365) ? -1 : 0;
}

static bool is_number(const char *s)
{
	double v;

	return parse_secs(s, &v) == 0 || !strcmp(s, "0");
}

/* Sleep until @t (CLOCK_MONOTONIC seconds); false when interrupted. */
static bool sleep_until(double t)
{
	struct timespec ts = { .tv_sec = (time_t)t,
			       .tv_nsec = (long)((t - (time_t)t) * 1e9) };

	while (!stop) {
		int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);

		if (!rc)
			return true;
		if (rc != EINTR)
			return false;
	}
	return false;
}

static double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static bool wanted(const char *name, const char *dm, char **names, int n)
{
	int i;

	if (!n)
		return true;
	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name) || !strcmp(names[i], dm))
			return true;
	return false;
}

/*
 * @name's entry in @prev, the previous report's devices: lq_nl_dump()
 * sorts them by name, so a binary search (a report of n devices looks up
 * each: n log n, not n^2).
 */
static const struct lq_dev *find_prev(const struct lq_dev *prev, int n,
				      const char *name)
{
	int lo = 0, hi = n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		int c = strcmp(prev[mid].name, name);

		if (!c)
			return &prev[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int write_prom(const char *out, const struct lq_dev *devs, int n)
{
	char tmp[4096];
	FILE *f;

	if (!out) {
		lq_prom_print(stdout, devs, n);
		fflush(stdout);
		return LQ_OK;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", out, (int)getpid());
	f = fopen(tmp, "w");
	if (!f)
		return lq_error(LQ_EFAIL, "%s: %s", tmp, strerror(errno));
	lq_prom_print(f, devs, n);
	if (fclose(f) || rename(tmp, out)) {
		unlink(tmp);
		return lq_error(LQ_EFAIL, "%s: %s", out, strerror(errno));
	}
	return LQ_OK;
}

/* One device of a JSON report: its iostat object, and "auto" when known. */
static void stat_json(const struct lq_dev *d, const struct lq_iostat *r)
{
	struct lq_auto_view v;

	lq_iostat_json_begin(stdout, d->name, r);
	if (lq_auto_view_get(d, &v)) {
		fputs(",\"auto\":", stdout);
		lq_auto_json(stdout, &v);
	}
	fputc('}', stdout);
}

/*
 * After the table, per device with auto on: "NAME: throttle 16 (auto
 * knee: hold, ...)".  Nothing for a module without the auto statistics.
 */
static void auto_lines(const struct lq_dev *devs, int n,
		       const struct lq_dev *prev, int nprev, char **names,
		       int nnames)
{
	struct lq_auto_view v;
	struct lq_iostat r;
	char line[256];
	int i;

	for (i = 0; i < n; i++) {
		const struct lq_dev *p = find_prev(prev, nprev, devs[i].name);

		/* the devices with a row */
		if (!wanted(devs[i].name, devs[i].dm_name, names, nnames) ||
		    lq_iostat_compute(p ? p->st : NULL, devs[i].st, &r) ||
		    !lq_auto_view_get(&devs[i], &v))
			continue;
		lq_auto_state(line, sizeof(line), &v);
		if (line[0])
			printf("%s: %s\n", devs[i].name, line);
	}
}

enum view { V_BRIEF, V_SOLARIS, V_LINUX, V_JSON };

static void print_row(enum view v, const char *name, const struct lq_iostat *r)
{
	if (v == V_LINUX)
		lq_iostat_linux_row(stdout, name, r);
	else
		lq_iostat_row(stdout, name, r, v == V_SOLARIS);
}

/* A total's row: "pool:NAME" or "all" in the device column. */
static void total_row(enum view v, const char *pool,
		      const struct lq_iostat_total *t, bool *first)
{
	struct lq_iostat r;
	char name[LUNQ_POOL_NAME_MAX + 8];

	lq_iostat_total(t, &r);
	if (v != V_JSON) {
		snprintf(name, sizeof(name), pool ? "pool:%s" : "all", pool);
		print_row(v, name, &r);
		return;
	}
	printf("%s{\"pool\":", *first ? "" : ",");
	if (pool)
		lq_json_str(stdout, pool);
	else
		fputs("null", stdout);
	printf(",\"devices\":%u", t->ndev);
	lq_iostat_json_begin(stdout, NULL, &r);
	fputc('}', stdout);
	*first = false;
}

/*
 * One report: a row per device shown, then with @tot a total row per
 * pool (in the order pools first appear) and one for all of them.
 */
static int report(const struct lq_dev *devs, int n, const struct lq_dev *prev,
		  int nprev, char **names, int nnames, enum view v, bool tot)
{
	struct lq_iostat_total *pt = NULL, all = { 0 };
	char (*pools)[LUNQ_POOL_NAME_MAX + 1] = NULL;
	int i, j, np = 0, shown = 0;
	bool first = true;
	u64 d[__LUNQ_ST_MAX];

	if (tot && n) {
		pt = lq_xcalloc(n, sizeof(*pt));
		pools = lq_xcalloc(n, sizeof(*pools));
	}
	if (v == V_JSON)
		printf("{\"schema\":%d,\"time\":%.3f,\"devices\":[",
		       LQ_JSON_SCHEMA, now_real());
	else if (v == V_LINUX)
		lq_iostat_linux_header(stdout);
	else
		lq_iostat_header(stdout, v == V_SOLARIS);
	for (i = 0; i < n; i++) {
		const struct lq_dev *p;
		struct lq_iostat r;
		char pool[LUNQ_POOL_NAME_MAX + 1];

		if (!wanted(devs[i].name, devs[i].dm_name, names, nnames))
			continue;
		p = find_prev(prev, nprev, devs[i].name);
		if (lq_iostat_delta(p ? p->st : NULL, devs[i].st, d))
			continue;	/* no time passed */
		lq_iostat_from_delta(d, 1, &r);
		if (v == V_JSON) {
			printf("%s", shown ? "," : "");
			stat_json(&devs[i], &r);
		} else {
			print_row(v, devs[i].name, &r);
		}
		shown++;
		if (!tot)
			continue;
		lq_iostat_add(&all, d);
		lq_pool_of(devs[i].policy, pool, sizeof(pool));
		if (!pool[0])
			continue;
		for (j = 0; j < np && strcmp(pools[j], pool); j++)
			;
		if (j == np)
			snprintf(pools[np++], sizeof(pools[0]), "%s", pool);
		lq_iostat_add(&pt[j], d);
	}
	if (v == V_JSON && tot)
		printf("],\"totals\":[");
	if (tot) {
		for (j = 0; j < np; j++)
			total_row(v, pools[j], &pt[j], &first);
		if (all.ndev)
			total_row(v, NULL, &all, &first);
	}
	if (v != V_JSON)
		auto_lines(devs, n, prev, nprev, names, nnames);
	printf(v == V_JSON ? "]}\n" : "\n");
	fflush(stdout);
	free(pt);
	free(pools);
	return LQ_OK;
}

int cmd_stat(int argc, char **argv)
{
	struct lq_getopt g;
	bool ext = false, json = false, prom = false, lnx = false, tot = false;
	const char *out = NULL;
	double interval = 0, next;
	unsigned long count = 0, done = 0;
	struct lq_dev *prev = NULL, *devs = NULL;
	int nprev = 0, n, c, rc, nnames, i;
	struct lq_nl *nl;
	char **names;

	lq_getopt_init(&g, "stat", argc, argv, NULL, 0);
	while ((c = lq_getopt(&g)) != LQO_END) {
		switch (c) {
		case LQO_EXTENDED: ext = true; break;
		case LQO_LINUX: lnx = true; break;
		case LQO_TOTALS: tot = true; break;
		case LQO_JSON: json = true; break;
		case LQO_PROMETHEUS: prom = true; break;
		case LQO_OUTPUT: out = g.arg; break;
		case LQO_HELP: return lq_cmd_help("stat");
		default: return lq_getopt_fail(&g, c);
		}
	}
	if (json && prom)
		return lq_usage("stat", "--json and --prometheus exclude each other");
	if (out && !prom)
		return lq_usage("stat", "--output goes with --prometheus");
	if (prom && (lnx || tot || ext))
		return lq_usage("stat", "--prometheus prints raw counters: no -x, -L or -C");
	names = argv + optind;
	nnames = argc - optind;
	/* trailing numbers: INTERVAL [COUNT], as iostat takes them */
	if (nnames >= 2 && is_number(names[nnames - 1]) &&
	    is_number(names[nnames - 2])) {
		if (parse_secs(names[nnames - 2], &interval))
			return lq_usage("stat", "INTERVAL '%s' is not a number of seconds > 0",
					names[nnames - 2]);
		if (lq_parse_uint(names[nnames - 1], 1UL << 31, &count) || !count)
			return lq_usage("stat", "COUNT '%s' is not a whole number >= 1",
					names[nnames - 1]);
		nnames -= 2;
	} else if (nnames >= 1 && is_number(names[nnames - 1])) {
		if (parse_secs(names[nnames - 1], &interval))
			return lq_usage("stat", "INTERVAL '%s' is not a number of seconds > 0",
					names[nnames - 1]);
		nnames--;
	}
	if (!interval)
		count = 1;
	rc = lq_connect(&nl);
	if (rc)
		return rc;
	/* every device named must exist at the start */
	rc = lq_nl_dump(nl, &devs, &n);
	if (rc) {
		lq_error(rc, "%s", lq_nl_err(nl));
		goto out;
	}
	for (i = 0; i < nnames; i++) {
		int j;

		for (j = 0; j < n; j++)
			if (!strcmp(devs[j].name, names[i]) ||
			    !strcmp(devs[j].dm_name, names[i]))
				break;
		if (j == n) {
			rc = lq_error(LQ_ENOTFOUND,
				      "no lunq device '%s' ('%s list' shows them)",
				      names[i], lq_prog);
			goto out;
		}
	}
	catch_signals();
	next = now_mono();
	for (;;) {
		int shown = 0;

		if (prom) {
			struct lq_dev *sel = lq_xcalloc(n, sizeof(*sel));

			for (i = 0; i < n; i++)
				if (wanted(devs[i].name, devs[i].dm_name, names, nnames))
					sel[shown++] = devs[i];
			rc = write_prom(out, sel, shown);
			free(sel);
			if (rc)
				goto out;
		} else {
			rc = report(devs, n, prev, nprev, names, nnames,
				    json ? V_JSON : lnx ? V_LINUX : ext ? V_SOLARIS : V_BRIEF,
				    tot);
			if (rc)
				goto out;
		}
		if (++done == count || stop)
			break;
		next += interval;
		if (!sleep_until(next))
			break;
		free(prev);
		prev = devs;
		nprev = n;
		devs = NULL;
		rc = lq_nl_dump(nl, &devs, &n);
		if (rc) {
			lq_error(rc, "%s", lq_nl_err(nl));
			goto out;
		}
	}
	rc = LQ_OK;
out:
	free(prev);
	free(devs);
	lq_nl_close(nl);
	return rc;
}

/* ---- events ------------------------------------------------------------ */

struct ev_ctx {
	char **names;
	int nnames;
	bool json;
	unsigned long seen, max;
	double mono_to_real;	/* add to CLOCK_MONOTONIC seconds */
};

static void print_event(const struct lq_event *ev, void *arg)
{
	struct ev_ctx *x = arg;
	const char *kind = ev->kind < LUNQ_NR_EVENTS ? lunq_event_names[ev->kind] : "?";
	double t = ev->time_ns / 1e9 + x->mono_to_real;
	char a[32], b[32];

	if (x->nnames && !wanted(ev->name, ev->name, x->names, x->nnames))
		return;
	if (x->max && x->seen >= x->max)
		return;
	x->seen++;
	if (x->json) {
		printf("{\"schema\":%d,\"time\":%.6f,\"event\":\"%s\",\"device\":",
		       LQ_JSON_SCHEMA, t, kind);
		lq_json_str(stdout, ev->name);
		switch (ev->kind) {
		case LUNQ_EV_QFULL:
			printf(",\"count\":%llu", (unsigned long long)ev->count);
			break;
		case LUNQ_EV_THROTTLE:
			printf(",\"from\":%u,\"to\":%u,\"cause\":", ev->from, ev->to);
			lq_json_str(stdout, ev->cause);
			break;
		case LUNQ_EV_BUBBLE:
			printf(",\"sector\":%llu,\"bytes\":%u,\"dir\":\"%s\",\"wait_ns\":%llu,\"svc_ns\":%llu",
			       (unsigned long long)ev->sector, ev->bytes,
			       ev->write ? "write" : "read",
			       (unsigned long long)ev->wait_ns,
			       (unsigned long long)ev->svc_ns);
			break;
		case LUNQ_EV_EJECT:
			printf(",\"rule\":");
			lq_json_str(stdout, ev->cause);
			printf(",\"ns\":%llu,\"bound_ns\":%llu",
			       (unsigned long long)ev->count,
			       (unsigned long long)ev->wait_ns);
			break;
		}
		printf(",\"suppressed\":%llu}\n", (unsigned long long)ev->suppressed);
	} else {
		time_t s = (time_t)t;
		struct tm tm;
		char ts[32];

		localtime_r(&s, &tm);
		strftime(ts, sizeof(ts), "%H:%M:%S", &tm);
		printf("%s.%03d %s: ", ts, (int)((t - s) * 1000), ev->name);
		switch (ev->kind) {
		case LUNQ_EV_QFULL:
			printf("QUEUE FULL x%llu", (unsigned long long)ev->count);
			break;
		case LUNQ_EV_THROTTLE:
			printf("throttle %u -> %u (%s)", ev->from, ev->to,
			       ev->cause[0] ? ev->cause : "?");
			break;
		case LUNQ_EV_RESET:
			printf("LUN reset");
			break;
		case LUNQ_EV_BUBBLE:
			lq_fmt_ns(a, sizeof(a), ev->wait_ns);
			lq_fmt_ns(b, sizeof(b), ev->svc_ns);
			printf("bubble: %s of %u bytes at sector %llu waited %s, service %s",
			       ev->write ? "write" : "read", ev->bytes,
			       (unsigned long long)ev->sector, a, b);
			break;
		case LUNQ_EV_EJECT:
			lq_fmt_ns(a, sizeof(a), ev->count);
			lq_fmt_ns(b, sizeof(b), ev->wait_ns);
			printf("BPF policy ejected (%s: %s, bound %s); the table's policy is back",
			       ev->cause[0] ? ev->cause : "?", a, b);
			break;
		default:
			printf("event %u", ev->kind);
		}
		if (ev->suppressed)
			printf(" (%llu suppressed before)",
			       (unsigned long long)ev->suppressed);
		printf("\n");
	}
	fflush(stdout);
}

int cmd_events(int argc, char **argv)
{
	struct ev_ctx x = { 0 };
	struct lq_getopt g;
	double timeout = 0, end = 0;
	u64 lost = 0;
	struct lq_nl *nl;
	int c, rc, i;

	lq_getopt_init(&g, "events", argc, argv, NULL, 0);
	while ((c = lq_getopt(&g)) != LQO_END) {
		switch (c) {
		case LQO_JSON: x.json = true; break;
		case LQO_COUNT:
			if (lq_parse_uint(g.arg, 1UL << 31, &x.max) || !x.max)
				return lq_usage("events", "--count '%s' is not a whole number >= 1", g.arg);
			break;
		case LQO_TIMEOUT:
			if (parse_secs(g.arg, &timeout))
				return lq_usage("events", "--timeout '%s' is not a number of seconds > 0", g.arg);
			break;
		case LQO_HELP: return lq_cmd_help("events");
		default: return lq_getopt_fail(&g, c);
		}
	}
	x.names = argv + optind;
	x.nnames = argc - optind;
	x.mono_to_real = now_real() - now_mono();
	rc = lq_connect(&nl);
	if (rc)
		return rc;
	for (i = 0; i < x.nnames; i++) {
		struct lq_dev d;

		rc = lq_find_dev(nl, x.names[i], &d);
		if (rc)
			goto out;
		/* events carry the lunq name: match on it, not on a dm name */
		x.names[i] = strdup(d.name);
		if (!x.names[i]) {
			rc = lq_error(LQ_EFAIL, "out of memory");
			goto out;
		}
	}
	rc = lq_nl_events_join(nl);
	if (rc) {
		lq_error(rc, "%s", lq_nl_err(nl));
		goto out;
	}
	catch_signals();
	if (timeout)
		end = now_mono() + timeout;
	while (!stop && (!x.max || x.seen < x.max)) {
		int ms = -1;

		if (timeout) {
			double left = end - now_mono();

			if (left <= 0)
				break;
			ms = (int)(left * 1000) + 1;
		}
		rc = lq_nl_events_wait(nl, ms, print_event, &x);
		if (rc) {
			lq_error(rc, "%s", lq_nl_err(nl));
			goto out;
		}
		if (lq_nl_overruns(nl) != lost) {
			lost = lq_nl_overruns(nl);
			lq_error(LQ_OK, "events lost: lunqctl fell behind and the socket overflowed (%llu times)",
				 (unsigned long long)lost);
		}
	}
	rc = LQ_OK;
out:
	lq_nl_close(nl);
	return rc;
}
