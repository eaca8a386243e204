// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl sweep and tune: the pure parts (see sweep.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sweep.h"
#include "json.h"
#include "ident.h"
#include "svg.h"
#include "units.h"

/* ---- arguments ---------------------------------------------------------- */

int lq_parse_uint_list(const char *s, u32 lo, u32 hi, u32 *v, int max,
		       char *err, size_t errlen)
{
	const char *p = s;
	int n = 0, i;

	for (;;) {
		unsigned long long x = 0;
		const char *start = p;

		while (*p >= '0' && *p <= '9') {
			x = x * 10 + (unsigned long long)(*p - '0');
			if (x > 0xffffffffULL)
				x = 0xffffffffULL + 1ULL;
			p++;
		}
		if (p == start || (*p && *p != ',')) {
			size_t l = strcspn(start, ",");

			snprintf(err, errlen, "'%.*s' is not a number", (int)(l > 32 ? 32 : l),
				 start);
			if (!l)
				snprintf(err, errlen, "empty item in '%s'", s);
			return -1;
		}
		if (x < lo || x > hi) {
			snprintf(err, errlen, "%.*s is out of range %u..%u",
				 (int)(p - start), start, lo, hi);
			return -1;
		}
		for (i = 0; i < n; i++)
			if (v[i] == (u32)x) {
				snprintf(err, errlen, "%u is given twice", (u32)x);
				return -1;
			}
		if (n == max) {
			snprintf(err, errlen, "more than %d items", max);
			return -1;
		}
		v[n++] = (u32)x;
		if (!*p)
			return n;
		p++;
	}
}

int lq_parse_duration_ns(const char *s, u64 *ns)
{
	static const struct lq_unit units[] = {
		{ "ns", 1, "ns" }, { "us", 1000, "us" }, { "ms", 1000000, "ms" },
		{ "s", 1000000000, "s" },
	};
	const struct lq_unit *u;
	u64 v;

	if (lq_parse_unit(s, strlen(s), units, ARRAY_SIZE(units), false, &v, &u) ||
	    !v || v / u->mult > 3600ULL * 24 * 365 * 1000000000ULL / u->mult)
		return -1;
	*ns = v;
	return 0;
}

/* ---- the sweep ---------------------------------------------------------- */

void lq_sweep_init(struct lq_sweep *s, const char *device, const char *path,
		   const char *bench)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->device, sizeof(s->device), "%s", device);
	snprintf(s->path, sizeof(s->path), "%s", path);
	snprintf(s->bench, sizeof(s->bench), "%s", bench);
}

static void free_curves(struct lq_sweep *s)
{
	int i;

	for (i = 0; i < s->ncurves; i++)
		free(s->curves[i].idx);
	free(s->curves);
	s->curves = NULL;
	s->ncurves = 0;
}

void lq_sweep_free(struct lq_sweep *s)
{
	free_curves(s);
	free(s->pts);
	s->pts = NULL;
	s->n = s->cap = 0;
}

struct lq_point *lq_sweep_add(struct lq_sweep *s, const struct lq_point *p)
{
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 16;
		struct lq_point *np = realloc(s->pts, (size_t)cap * sizeof(*np));

		if (!np)
			return NULL;
		s->pts = np;
		s->cap = cap;
	}
	s->pts[s->n] = *p;
	s->pts[s->n].curve = -1;
	s->pts[s->n].knee = false;
	return &s->pts[s->n++];
}

double lq_point_power(const struct lq_point *p)
{
	if (!p->ran || !(p->r.iops > 0) || !p->r.resp_p99_ns)
		return 0;
	return p->r.iops / ((double)p->r.resp_p99_ns / 1e9);
}

int lq_knee(const double *x, const double *y, int n, double *power)
{
	double best = 0;
	int i, k = -1;

	for (i = 0; i < n; i++) {
		double pw;

		if (!(x[i] > 0) || !(y[i] > 0))
			continue;
		pw = x[i] / (y[i] / 1e9);
		if (k < 0 || pw > best) {
			best = pw;
			k = i;
		}
	}
	if (power)
		*power = k < 0 ? 0 : best;
	return k;
}

static bool drawable(const struct lq_point *p)
{
	return p->ran && p->r.iops > 0 && p->r.resp_p99_ns > 0;
}

/* qdepth order: 0 (unlimited) after every other */
static u64 qkey(u32 q)
{
	return q ? q : 1ULL << 32;
}

/* Curve of point @p under the grouping rules, -1 when it has none. */
static int find_curve(const struct lq_sweep *s, const struct lq_point *p)
{
	int c;

	for (c = 0; c < s->ncurves; c++) {
		const struct lq_curve *cv = &s->curves[c];

		if (cv->open == p->open && !strcmp(cv->sched, p->sched) &&
		    (!p->open || cv->qdepth == p->qdepth))
			return c;
	}
	return -1;
}

static const struct lq_sweep *sort_sweep;

static int cmp_in_curve(const void *a, const void *b)
{
	const struct lq_point *p = &sort_sweep->pts[*(const int *)a];
	const struct lq_point *q = &sort_sweep->pts[*(const int *)b];

	if (p->open) {
		if (p->rate_pct != q->rate_pct)
			return p->rate_pct < q->rate_pct ? -1 : 1;
		if (p->target_iops != q->target_iops)
			return p->target_iops < q->target_iops ? -1 : 1;
	} else if (p->qdepth != q->qdepth) {
		return qkey(p->qdepth) < qkey(q->qdepth) ? -1 : 1;
	}
	return *(const int *)a < *(const int *)b ? -1 : 1;
}

int lq_sweep_curves(struct lq_sweep *s)
{
	int pass, i, c;

	free_curves(s);
	for (i = 0; i < s->n; i++) {
		s->pts[i].curve = -1;
		s->pts[i].knee = false;
	}
	/* closed curves first, then open ones, each in order of appearance */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < s->n; i++) {
			struct lq_point *p = &s->pts[i];
			struct lq_curve *cv;

			if (p->open != (pass == 1) || p->probe || !drawable(p))
				continue;
			c = find_curve(s, p);
			if (c < 0) {
				struct lq_curve *nc = realloc(s->curves,
					(size_t)(s->ncurves + 1) * sizeof(*nc));

				if (!nc)
					return -1;
				s->curves = nc;
				c = s->ncurves++;
				cv = &s->curves[c];
				memset(cv, 0, sizeof(*cv));
				cv->open = p->open;
				cv->knee = -1;
				snprintf(cv->sched, sizeof(cv->sched), "%s", p->sched);
				cv->qdepth = p->qdepth;
				if (p->open)
					snprintf(cv->label, sizeof(cv->label),
						 "%s qdepth=%u open", p->sched, p->qdepth);
				else
					snprintf(cv->label, sizeof(cv->label),
						 "%s closed", p->sched);
				cv->idx = malloc((size_t)s->n * sizeof(int));
				if (!cv->idx)
					return -1;
			}
			cv = &s->curves[c];
			cv->idx[cv->n++] = i;
			p->curve = c;
		}
	}
	for (c = 0; c < s->ncurves; c++) {
		struct lq_curve *cv = &s->curves[c];
		double *x = malloc((size_t)cv->n * sizeof(double));
		double *y = malloc((size_t)cv->n * sizeof(double));

		if (!x || !y) {
			free(x);
			free(y);
			return -1;
		}
		sort_sweep = s;
		qsort(cv->idx, (size_t)cv->n, sizeof(int), cmp_in_curve);
		for (i = 0; i < cv->n; i++) {
			x[i] = s->pts[cv->idx[i]].r.iops;
			y[i] = (double)s->pts[cv->idx[i]].r.resp_p99_ns;
		}
		cv->knee = lq_knee(x, y, cv->n, &cv->knee_power);
		if (cv->knee >= 0)
			s->pts[cv->idx[cv->knee]].knee = true;
		free(x);
		free(y);
	}
	return 0;
}

/* ---- text table --------------------------------------------------------- */

/* ms with three significant digits (at least 3 decimals below 1 ms) */
static void fmt_ms(char *buf, size_t len, u64 ns)
{
	double ms = (double)ns / 1e6;

	if (ms >= 99.95)
		snprintf(buf, len, "%.0f", ms);
	else if (ms >= 9.995)
		snprintf(buf, len, "%.1f", ms);
	else if (ms >= 0.9995)
		snprintf(buf, len, "%.2f", ms);
	else
		snprintf(buf, len, "%.3f", ms);
}

static void fmt_qdepth(char *buf, size_t len, u32 q)
{
	if (q)
		snprintf(buf, len, "%u", q);
	else
		snprintf(buf, len, "-");
}

/* Where a point sits on its curve, for the knee lines: "qdepth=4" or "70%" */
static void point_pos(char *buf, size_t len, const struct lq_point *p)
{
	if (p->open)
		snprintf(buf, len, "%u%% of max", p->rate_pct);
	else if (p->qdepth)
		snprintf(buf, len, "qdepth=%u", p->qdepth);
	else
		snprintf(buf, len, "qdepth=0 (unlimited)");
}

void lq_sweep_print(FILE *f, const struct lq_sweep *s)
{
	int i, c;

	fprintf(f, "%6s %-8s %-6s %5s %9s %8s %8s %8s %8s %8s %7s %s\n",
		"QDEPTH", "SCHED", "LOOP", "RATE", "IOPS", "MB/s", "P50_MS",
		"P99_MS", "P99.9_MS", "MAX_MS", "QFULL/S", "NOTE");
	for (i = 0; i < s->n; i++) {
		const struct lq_point *p = &s->pts[i];
		char q[16], rate[16], a[24], b[24], d[24], e[24], qf[24];
		char note[96] = "";
		size_t nl = 0;

		fmt_qdepth(q, sizeof(q), p->qdepth);
		if (p->open)
			snprintf(rate, sizeof(rate), "%u%%", p->rate_pct);
		else
			snprintf(rate, sizeof(rate), "-");
		if (!p->ran) {
			fprintf(f, "%6s %-8s %-6s %5s %9s %8s %8s %8s %8s %8s %7s %s\n",
				q, p->sched, p->open ? "open" : "closed", rate, "-",
				"-", "-", "-", "-", "-", "-", "not measured");
			continue;
		}
		fmt_ms(a, sizeof(a), p->r.resp_p50_ns);
		fmt_ms(b, sizeof(b), p->r.resp_p99_ns);
		fmt_ms(d, sizeof(d), p->r.resp_p999_ns);
		fmt_ms(e, sizeof(e), p->r.resp_max_ns);
		if (p->qfull_s >= 0)
			snprintf(qf, sizeof(qf), "%.1f", p->qfull_s);
		else
			snprintf(qf, sizeof(qf), "-");
#define NOTE(...) (nl += (size_t)snprintf(note + nl, sizeof(note) - nl, __VA_ARGS__), \
		   nl = nl < sizeof(note) ? nl : sizeof(note) - 1)
		if (p->knee)
			NOTE("%sknee", nl ? "," : "");
		if (p->probe)
			NOTE("%sprobe", nl ? "," : "");
		if (p->r.saturated)
			NOTE("%ssaturated", nl ? "," : "");
		if (p->r.errors)
			NOTE("%serrors=%llu", nl ? "," : "",
			     (unsigned long long)p->r.errors);
		if (p->r.verify_errors)
			NOTE("%sverify_errors=%llu", nl ? "," : "",
			     (unsigned long long)p->r.verify_errors);
#undef NOTE
		fprintf(f, "%6s %-8s %-6s %5s %9.1f %8.1f %8s %8s %8s %8s %7s%s%s\n",
			q, p->sched, p->open ? "open" : "closed", rate, p->r.iops,
			p->r.mbps, a, b, d, e, qf, nl ? " " : "", note);
	}
	if (!s->ncurves)
		return;
	fprintf(f, "%s:\n", LQ_KNEE_DEF);
	for (c = 0; c < s->ncurves; c++) {
		const struct lq_curve *cv = &s->curves[c];
		const struct lq_point *p;
		char pos[48], p99[24];

		if (cv->knee < 0)
			continue;
		p = &s->pts[cv->idx[cv->knee]];
		point_pos(pos, sizeof(pos), p);
		lq_fmt_ns(p99, sizeof(p99), p->r.resp_p99_ns);
		fprintf(f, "  %s: %s, %.1f IOPS, p99 %s, power %.0f/s%s\n",
			cv->label, pos, p->r.iops, p99, cv->knee_power,
			cv->n == 1 ? " (one point: no curve)" :
			cv->knee == cv->n - 1 ? " (the last point: no bend in the range measured)" :
			"");
	}
}

/* ---- CSV, JSON ---------------------------------------------------------- */

static void csv_str(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void lq_sweep_csv(FILE *f, const struct lq_sweep *s)
{
	int i;

	fputs("device,sched,qdepth,loop,rate_pct,target_iops,probe,", f);
	lq_result_csv_head(f);
	fputs(",qfull,qfull_s,power,curve,knee\n", f);
	for (i = 0; i < s->n; i++) {
		const struct lq_point *p = &s->pts[i];

		csv_str(f, s->device);
		fputc(',', f);
		csv_str(f, p->sched);
		fprintf(f, ",%u,%s,", p->qdepth, p->open ? "open" : "closed");
		if (p->open)
			fprintf(f, "%u,%.0f", p->rate_pct, p->target_iops);
		else
			fputc(',', f);
		fprintf(f, ",%d,", p->probe);
		if (!p->ran) {
			lq_result_csv(f, NULL);
			fputs(",,,", f);
		} else {
			lq_result_csv(f, &p->r);
			fputc(',', f);
			if (p->qfull_s >= 0)
				fprintf(f, "%llu,%.3f", (unsigned long long)p->qfull,
					p->qfull_s);
			else
				fputc(',', f);
			fprintf(f, ",%.1f", lq_point_power(p));
		}
		fputc(',', f);
		if (p->curve >= 0)
			csv_str(f, s->curves[p->curve].label);
		fprintf(f, ",%d\n", p->knee);
	}
}

static void json_point(FILE *f, const struct lq_sweep *s, const struct lq_point *p)
{
	fputs("{\"sched\":", f);
	lq_json_str(f, p->sched);
	fprintf(f, ",\"qdepth\":%u,\"loop\":\"%s\",", p->qdepth,
		p->open ? "open" : "closed");
	if (p->open)
		fprintf(f, "\"rate_pct\":%u,\"target_iops\":%.0f,", p->rate_pct,
			p->target_iops);
	else
		fputs("\"rate_pct\":null,\"target_iops\":null,", f);
	fprintf(f, "\"probe\":%s,\"measured\":%s", p->probe ? "true" : "false",
		p->ran ? "true" : "false");
	if (p->ran) {
		fputc(',', f);
		lq_result_json(f, &p->r);
		fputc(',', f);
		if (p->qfull_s >= 0)
			fprintf(f, "\"qfull\":%llu,\"qfull_s\":%.3f",
				(unsigned long long)p->qfull, p->qfull_s);
		else
			fputs("\"qfull\":null,\"qfull_s\":null", f);
		fprintf(f, ",\"power\":%.1f", lq_point_power(p));
	}
	fputs(",\"curve\":", f);
	if (p->curve >= 0)
		lq_json_str(f, s->curves[p->curve].label);
	else
		fputs("null", f);
	fprintf(f, ",\"knee\":%s}", p->knee ? "true" : "false");
}

void lq_sweep_json(FILE *f, const struct lq_sweep *s)
{
	int i, c;

	fprintf(f, "{\"schema\":%d,\"device\":", LQ_JSON_SCHEMA);
	lq_json_str(f, s->device);
	fputs(",\"path\":", f);
	lq_json_str(f, s->path);
	fputs(",\"bench\":", f);
	lq_json_str(f, s->bench);
	fputs(",\"knee_definition\":", f);
	lq_json_str(f, LQ_KNEE_DEF);
	fputs(",\"points\":[", f);
	for (i = 0; i < s->n; i++) {
		if (i)
			fputc(',', f);
		json_point(f, s, &s->pts[i]);
	}
	fputs("],\"curves\":[", f);
	for (c = 0; c < s->ncurves; c++) {
		const struct lq_curve *cv = &s->curves[c];

		fprintf(f, "%s{\"label\":", c ? "," : "");
		lq_json_str(f, cv->label);
		fprintf(f, ",\"loop\":\"%s\",\"sched\":", cv->open ? "open" : "closed");
		lq_json_str(f, cv->sched);
		if (cv->open)
			fprintf(f, ",\"qdepth\":%u", cv->qdepth);
		else
			fputs(",\"qdepth\":null", f);
		fputs(",\"points\":[", f);
		for (i = 0; i < cv->n; i++)
			fprintf(f, "%s%d", i ? "," : "", cv->idx[i]);
		fputs("],\"knee\":", f);
		if (cv->knee >= 0)
			fprintf(f, "%d,\"knee_at_end\":%s,\"knee_power\":%.1f}",
				cv->idx[cv->knee],
				cv->n > 1 && cv->knee == cv->n - 1 ? "true" : "false",
				cv->knee_power);
		else
			fputs("null,\"knee_at_end\":false,\"knee_power\":null}", f);
	}
	fputs("]}\n", f);
}

void lq_sweep_svg(FILE *f, const struct lq_sweep *s)
{
	size_t np = (size_t)(s->n ? s->n : 1);
	struct lq_svg_curve *sc = calloc((size_t)(s->ncurves ? s->ncurves : 1), sizeof(*sc));
	double *xy = malloc(np * 2 * sizeof(double));
	const char **txt = calloc(np * 2, sizeof(char *));
	char (*buf)[192] = calloc(np * 2, sizeof(*buf));
	char title[LUNQ_NAME_MAX + 64];
	int c, i, used = 0;

	if (!sc || !xy || !txt || !buf)
		goto out;
	for (c = 0; c < s->ncurves; c++) {
		const struct lq_curve *cv = &s->curves[c];
		double *x = xy + used, *y = xy + np + used;
		const char **mark = txt + used, **tip = txt + np + used;

		for (i = 0; i < cv->n; i++) {
			const struct lq_point *p = &s->pts[cv->idx[i]];
			char *m = buf[used + i], *t = buf[np + used + i], p99[24], ms[16];

			x[i] = p->r.iops;
			y[i] = (double)p->r.resp_p99_ns;
			if (p->open)
				snprintf(ms, sizeof(ms), "%u%%", p->rate_pct);
			else
				snprintf(ms, sizeof(ms), "%u", p->qdepth);
			snprintf(m, sizeof(buf[0]), "%s", ms);
			lq_fmt_ns(p99, sizeof(p99), p->r.resp_p99_ns);
			snprintf(t, sizeof(buf[0]), "%s, %s %s: %.1f IOPS, p99 %s",
				 cv->label, p->open ? "rate" : "qdepth", ms, p->r.iops, p99);
			mark[i] = m;
			tip[i] = t;
		}
		used += cv->n;
		sc[c].label = cv->label;
		sc[c].n = cv->n;
		sc[c].x = x;
		sc[c].y = y;
		sc[c].knee = cv->knee;
		sc[c].mark = mark;
		sc[c].tip = tip;
	}
	snprintf(title, sizeof(title), "%s: throughput vs p99 response time",
		 s->device);
	lq_svg_plot(f, title, sc, s->ncurves, LQ_KNEE_DEF);
out:
	free(sc);
	free(xy);
	free(txt);
	free(buf);
}

/* ---- tune --------------------------------------------------------------- */

int lq_tune_pick(const struct lq_point *pts, int n, u64 p99_ns,
		 double within_pct, struct lq_tune *t)
{
	double floor_iops;
	int i;

	t->pick = t->best = t->fastest_ok = t->max = -1;
	t->max_iops = 0;
	for (i = 0; i < n; i++) {
		const struct lq_point *p = &pts[i];

		if (p->open || !drawable(p))
			continue;
		if (t->max < 0 || p->r.iops > t->max_iops) {
			t->max = i;
			t->max_iops = p->r.iops;
		}
	}
	if (t->max < 0)
		return -1;
	floor_iops = t->max_iops * within_pct / 100.0;
	/* a relative epsilon, so 95% of a max that is exactly 20 x 95% is in */
	floor_iops -= t->max_iops * 1e-12;
	for (i = 0; i < n; i++) {
		const struct lq_point *p = &pts[i], *b;

		if (p->open || !drawable(p))
			continue;
		if (p->r.resp_p99_ns <= p99_ns &&
		    (t->fastest_ok < 0 || p->r.iops > pts[t->fastest_ok].r.iops))
			t->fastest_ok = i;
		if (p->r.iops < floor_iops)
			continue;
		if (p->r.resp_p99_ns <= p99_ns) {
			b = t->pick < 0 ? NULL : &pts[t->pick];
			if (!b || qkey(p->qdepth) < qkey(b->qdepth) ||
			    (p->qdepth == b->qdepth && p->r.iops > b->r.iops))
				t->pick = i;
		}
		b = t->best < 0 ? NULL : &pts[t->best];
		if (!b || p->r.resp_p99_ns < b->r.resp_p99_ns ||
		    (p->r.resp_p99_ns == b->r.resp_p99_ns &&
		     qkey(p->qdepth) < qkey(b->qdepth)))
			t->best = i;
	}
	if (t->pick >= 0)
		t->fastest_ok = -1;
	return t->pick;
}

/* A section-header pattern for @v: bare, or quoted when it must be. */
static size_t put_pattern(char *buf, size_t len, const char *v, bool literal)
{
	char tmp[256];
	size_t i, o = 0;
	bool quote = !*v;

	for (i = 0; v[i] && o + 1 < sizeof(tmp); i++) {
		char c = v[i];

		if (literal && strchr("*?[]\"\\", c))
			c = '?';
		if (c == ' ' || c == '\t' || c == '#' || c == ']' || c == '[' ||
		    c == '"')
			quote = true;
		tmp[o++] = c;
	}
	tmp[o] = '\0';
	return (size_t)snprintf(buf, len, quote ? "\"%s\"" : "%s", tmp);
}

void lq_tune_section(char *buf, size_t len, const struct lq_ident *id,
		     bool by_model)
{
	size_t o;

	if (!len)
		return;
#define ROOM (o < len ? len - o : 0)
#define ADV(x) (o += (x), o = o < len ? o : len - 1)
	o = 0;
	ADV((size_t)snprintf(buf, len, "["));
	if (by_model && id->model[0]) {
		if (id->vendor[0]) {
			ADV((size_t)snprintf(buf + o, ROOM, "vendor="));
			ADV(put_pattern(buf + o, ROOM, id->vendor, true));
			ADV((size_t)snprintf(buf + o, ROOM, " "));
		}
		ADV((size_t)snprintf(buf + o, ROOM, "model="));
		ADV(put_pattern(buf + o, ROOM, id->model, true));
	} else {
		ADV((size_t)snprintf(buf + o, ROOM, "name="));
		ADV(put_pattern(buf + o, ROOM, id->name, false));
	}
	snprintf(buf + o, ROOM, "]");
#undef ROOM
#undef ADV
}

static void qdepth_word(char *buf, size_t len, u32 q)
{
	if (q)
		snprintf(buf, len, "qdepth %u", q);
	else
		snprintf(buf, len, "qdepth 0 (unlimited)");
}

static void tune_point_json(FILE *f, const struct lq_point *p)
{
	if (!p) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"qdepth\":%u,\"iops\":%.3f,\"resp_p99_ns\":%llu}", p->qdepth,
		p->r.iops, (unsigned long long)p->r.resp_p99_ns);
}

void lq_tune_report(FILE *f, const struct lq_sweep *s, const struct lq_tune *t,
		    const struct lq_tune_req *q, bool json)
{
	const struct lq_point *pick = t->pick >= 0 ? &s->pts[t->pick] : NULL;
	const struct lq_point *mx = t->max >= 0 ? &s->pts[t->max] : NULL;
	char target[24], p99[24], qw[40], mq[40], sec[512] = "", byname[256];
	bool model = q->id->model[0] != '\0';

	lq_fmt_ns(target, sizeof(target), q->p99_ns);
	lq_tune_section(byname, sizeof(byname), q->id, false);
	if (pick)
		lq_tune_section(sec, sizeof(sec), q->id, true);
	if (json) {
		fprintf(f, "{\"schema\":%d,\"device\":", LQ_JSON_SCHEMA);
		lq_json_str(f, s->device);
		fprintf(f, ",\"p99_target_ns\":%llu,\"within_pct\":%g,\"sched\":",
			(unsigned long long)q->p99_ns, q->within_pct);
		lq_json_str(f, q->sched);
		if (mx)
			fprintf(f, ",\"max_iops\":%.3f,\"max_qdepth\":%u", t->max_iops,
				mx->qdepth);
		else
			fputs(",\"max_iops\":null,\"max_qdepth\":null", f);
		fprintf(f, ",\"met\":%s", pick ? "true" : "false");
		if (pick) {
			char pol[640];

			snprintf(pol, sizeof(pol), "%s\nqdepth = %u\n%s%s%s", sec,
				 pick->qdepth, q->sched_given ? "sched = " : "",
				 q->sched_given ? q->sched : "", q->sched_given ? "\n" : "");
			fprintf(f, ",\"qdepth\":%u,\"iops\":%.3f,\"resp_p99_ns\":%llu,\"section\":",
				pick->qdepth, pick->r.iops,
				(unsigned long long)pick->r.resp_p99_ns);
			lq_json_str(f, sec);
			fputs(",\"policy\":", f);
			lq_json_str(f, pol);
		} else {
			fputs(",\"qdepth\":null,\"iops\":null,\"resp_p99_ns\":null,"
			      "\"section\":null,\"policy\":null", f);
		}
		fputs(",\"best\":", f);
		tune_point_json(f, !pick && t->best >= 0 ? &s->pts[t->best] : NULL);
		fputs(",\"fastest_ok\":", f);
		tune_point_json(f, !pick && t->fastest_ok >= 0 ? &s->pts[t->fastest_ok] : NULL);
		fputs("}\n", f);
		return;
	}
	if (!mx) {
		fprintf(f, "%s: no point was measured\n", s->device);
		return;
	}
	qdepth_word(mq, sizeof(mq), mx->qdepth);
	if (pick) {
		qdepth_word(qw, sizeof(qw), pick->qdepth);
		lq_fmt_ns(p99, sizeof(p99), pick->r.resp_p99_ns);
		fprintf(f, "%s: %s is the smallest within %g%% of the most IOPS (%.1f at %s) whose p99 meets %s: %.1f IOPS, p99 %s\n",
			s->device, qw, q->within_pct, t->max_iops, mq, target,
			pick->r.iops, p99);
		fprintf(f, "# lunq.conf(5) lines for %s (p99 <= %s, sched %s):\n%s\nqdepth = %u\n",
			s->device, target, q->sched, sec, pick->qdepth);
		if (q->sched_given)
			fprintf(f, "sched = %s\n", q->sched);
		if (model)
			fprintf(f, "# or for %s alone: %s\n", s->device, byname);
		return;
	}
	fprintf(f, "%s: no qdepth within %g%% of the most IOPS (%.1f at %s) meets p99 %s",
		s->device, q->within_pct, t->max_iops, mq, target);
	if (t->best >= 0) {
		const struct lq_point *b = &s->pts[t->best];

		qdepth_word(qw, sizeof(qw), b->qdepth);
		lq_fmt_ns(p99, sizeof(p99), b->r.resp_p99_ns);
		fprintf(f, "; the best was %s: %.1f IOPS, p99 %s", qw, b->r.iops, p99);
	}
	if (t->fastest_ok >= 0) {
		const struct lq_point *o = &s->pts[t->fastest_ok];

		qdepth_word(qw, sizeof(qw), o->qdepth);
		fprintf(f, "; %s meets it at %.1f IOPS (%.0f%% of the most)", qw,
			o->r.iops, 100.0 * o->r.iops / t->max_iops);
	}
	fputs("\n", f);
}
