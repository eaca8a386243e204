// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl sweep: the sweep written out, as a table, CSV, JSON and the
 * SVG plot (sweep_write.h).
 */
#include <stdlib.h>
#include <string.h>
#include "sweep_write.h"
#include "json.h"
#include "svg.h"
#include "units.h"

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
