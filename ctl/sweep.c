// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl sweep: the measured points, their curves and knees (sweep.h).
 */
#include <stdlib.h>
#include <string.h>
#include "sweep.h"

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

bool lq_point_drawable(const struct lq_point *p)
{
	return p->ran && p->r.iops > 0 && p->r.resp_p99_ns > 0;
}

u64 lq_qdepth_key(u32 q)
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
		return lq_qdepth_key(p->qdepth) < lq_qdepth_key(q->qdepth) ? -1 : 1;
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

			if (p->open != (pass == 1) || p->probe || !lq_point_drawable(p))
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
