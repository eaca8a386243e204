// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl: SVG plot of throughput (IOPS) against p99 latency, log scale
 * (see svg.h).
 */
#include <stdbool.h>
#include <string.h>
#include "svg.h"

/* Geometry (px): the plot area, the legend right of it. */
#define W	880
#define H_MIN	520
#define PL	90		/* plot area left */
#define PT	50		/* top */
#define PW	520		/* width */
#define PH	380		/* height */
#define LX	(PL + PW + 30)	/* legend */
#define ROW	18		/* legend row */

static const char *const palette[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NCOLORS ((int)(sizeof(palette) / sizeof(palette[0])))

void lq_svg_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			/* XML 1.0 has no control characters but tab, newline */
			fputc(c < 0x20 && c != '\t' && c != '\n' ? '?' : c, f);
		}
	}
}

double lq_svg_log10(double v)
{
	const double ln2 = 0.69314718055994530942, ln10 = 2.30258509299404568402;
	double m = v, z, z2, t, s = 0;
	int e = 0, k;

	if (!(v > 0))
		return 0;
	while (m >= 2) {
		m /= 2;
		e++;
	}
	while (m < 1) {
		m *= 2;
		e--;
	}
	/* ln m = 2 atanh(z), z = (m - 1) / (m + 1) <= 1/3 */
	z = (m - 1) / (m + 1);
	z2 = z * z;
	t = z;
	for (k = 1; k < 64; k += 2) {
		s += t / k;
		t *= z2;
	}
	return (2 * s + e * ln2) / ln10;
}

double lq_svg_nice_step(double max, int ticks)
{
	static const double m[] = { 1, 2, 5, 10 };
	double raw, p = 1;
	size_t i;

	if (!(max > 0) || ticks < 1)
		return 1;
	raw = max / ticks;
	while (p * 10 <= raw)
		p *= 10;
	while (p > raw)
		p /= 10;
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (m[i] * p >= raw)
			return m[i] * p;
	return 10 * p;
}

static bool ok_point(const struct lq_svg_curve *c, int i)
{
	return c->x[i] >= 0 && c->y[i] > 0 && c->x[i] < 1e15 && c->y[i] < 1e18;
}

/* "100 us", "2 ms", "5 s": a 1-2-5 tick value in ns */
static void y_label(char *buf, size_t len, double ns)
{
	unsigned long long v = (unsigned long long)(ns + 0.5);

	if (v < 1000)
		snprintf(buf, len, "%llu ns", v);
	else if (v < 1000000)
		snprintf(buf, len, "%llu us", v / 1000);
	else if (v < 1000000000)
		snprintf(buf, len, "%llu ms", v / 1000000);
	else
		snprintf(buf, len, "%llu s", v / 1000000000);
}

static void x_label(char *buf, size_t len, double v, double step)
{
	if (step >= 1000)
		snprintf(buf, len, "%.0fk", v / 1000);
	else if (step >= 1)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%g", v);
}

struct axes {
	double xtop, xstep;
	double ylo, yhi;	/* powers of ten, ns */
	double llo, lspan;	/* log10(ylo), log10(yhi / ylo) */
};

static double px(const struct axes *a, double x)
{
	return PL + x / a->xtop * PW;
}

static double py(const struct axes *a, double y)
{
	return PT + PH - (lq_svg_log10(y) - a->llo) / a->lspan * PH;
}

static void draw_axes(FILE *f, const struct axes *a)
{
	char lab[32];
	double d, v;
	int k, decades = (int)(a->lspan + 0.5);

	/* x: grid and ticks */
	for (k = 0; k * a->xstep <= a->xtop * (1 + 1e-9); k++) {
		v = k * a->xstep;
		x_label(lab, sizeof(lab), v, a->xstep);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e0e0e0\"/>\n",
			px(a, v), PT, px(a, v), PT + PH);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\"/>\n",
			px(a, v), PT + PH, px(a, v), PT + PH + 5);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
			px(a, v), PT + PH + 18, lab);
	}
	/* y: 1, 2, 5 per decade; only decades labelled beyond 4 decades */
	for (d = a->ylo; d < a->yhi * 1.5; d *= 10) {
		static const int mult[] = { 1, 2, 5 };
		size_t m;

		for (m = 0; m < 3; m++) {
			bool major = mult[m] == 1;

			v = d * mult[m];
			if (v > a->yhi * 1.0001)
				break;
			fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>\n",
				PL, py(a, v), PL + PW, py(a, v),
				major ? "#d0d0d0" : "#eeeeee");
			fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#000\"/>\n",
				PL - (major ? 6 : 3), py(a, v), PL, py(a, v));
			if (!major && decades > 4)
				continue;
			y_label(lab, sizeof(lab), v);
			fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
				PL - 9, py(a, v) + 4, lab);
		}
	}
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000\"/>\n",
		PL, PT, PW, PH);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\">throughput (IOPS)</text>\n",
		PL + PW / 2, PT + PH + 40);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\" transform=\"rotate(-90 %d %d)\">p99 response time (log scale)</text>\n",
		PL - 62, PT + PH / 2, PL - 62, PT + PH / 2);
}

void lq_svg_plot(FILE *f, const char *title, const struct lq_svg_curve *c,
		 int nc, const char *note)
{
	double xmax = 0, ymin = 0, ymax = 0;
	struct axes a;
	int i, k, h, npts = 0;

	for (k = 0; k < nc; k++)
		for (i = 0; i < c[k].n; i++) {
			if (!ok_point(&c[k], i))
				continue;
			if (c[k].x[i] > xmax)
				xmax = c[k].x[i];
			if (!npts || c[k].y[i] < ymin)
				ymin = c[k].y[i];
			if (!npts || c[k].y[i] > ymax)
				ymax = c[k].y[i];
			npts++;
		}
	h = PT + ROW * (nc + 3);
	h = h + 20 > H_MIN ? h + 20 : H_MIN;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n",
		W, h, W, h);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", W, h);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"15\" font-weight=\"bold\">", PL, PT - 20);
	lq_svg_escape(f, title ? title : "");
	fputs("</text>\n", f);
	if (note) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#444\">", PL, PT + PH + 62);
		lq_svg_escape(f, note);
		fputs("</text>\n", f);
	}
	if (!npts) {
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000\"/>\n",
			PL, PT, PW, PH);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"14\">no data</text>\n",
			PL + PW / 2, PT + PH / 2);
		fputs("</svg>\n", f);
		return;
	}
	a.xstep = lq_svg_nice_step(xmax * 1.05, 8);
	a.xtop = a.xstep;
	while (a.xtop < xmax * 1.05 - 1e-9)
		a.xtop += a.xstep;
	a.ylo = 1;
	while (a.ylo * 10 <= ymin)
		a.ylo *= 10;
	a.yhi = a.ylo * 10;
	while (a.yhi < ymax)
		a.yhi *= 10;
	a.llo = lq_svg_log10(a.ylo);
	a.lspan = lq_svg_log10(a.yhi) - a.llo;
	draw_axes(f, &a);

	for (k = 0; k < nc; k++) {
		const struct lq_svg_curve *cv = &c[k];
		const char *col = palette[k % NCOLORS];
		const char *dash = k >= NCOLORS ? " stroke-dasharray=\"6,3\"" : "";
		int first = 1;

		fprintf(f, "<g>\n<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s points=\"",
			col, dash);
		for (i = 0; i < cv->n; i++) {
			if (!ok_point(cv, i))
				continue;
			fprintf(f, "%s%.1f,%.1f", first ? "" : " ", px(&a, cv->x[i]),
				py(&a, cv->y[i]));
			first = 0;
		}
		fputs("\"/>\n", f);
		for (i = 0; i < cv->n; i++) {
			if (!ok_point(cv, i))
				continue;
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\">",
				px(&a, cv->x[i]), py(&a, cv->y[i]), col);
			if (cv->tip && cv->tip[i]) {
				fputs("<title>", f);
				lq_svg_escape(f, cv->tip[i]);
				fputs("</title>", f);
			}
			fputs("</circle>\n", f);
			if (cv->mark && cv->mark[i] && cv->mark[i][0]) {
				fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" fill=\"%s\">",
					px(&a, cv->x[i]) + 5, py(&a, cv->y[i]) - 5, col);
				lq_svg_escape(f, cv->mark[i]);
				fputs("</text>\n", f);
			}
		}
		if (cv->knee >= 0 && cv->knee < cv->n && ok_point(cv, cv->knee))
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\"/>\n",
				px(&a, cv->x[cv->knee]), py(&a, cv->y[cv->knee]));
		fputs("</g>\n", f);
		/* legend row */
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>\n",
			LX, PT + ROW * k + 6, LX + 24, PT + ROW * k + 6, col, dash);
		fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"%s\"/>\n",
			LX + 12, PT + ROW * k + 6, col);
		fprintf(f, "<text x=\"%d\" y=\"%d\">", LX + 30, PT + ROW * k + 10);
		lq_svg_escape(f, cv->label ? cv->label : "");
		fputs("</text>\n", f);
	}
	fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"7\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\"/>\n",
		LX + 12, PT + ROW * nc + 12);
	fprintf(f, "<text x=\"%d\" y=\"%d\">knee (greatest IOPS / p99)</text>\n",
		LX + 30, PT + ROW * nc + 16);
	fputs("</svg>\n", f);
}
