// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl tune: the rule that picks a qdepth from a sweep, the policy-file
 * section it recommends, its report (tune.h).
 */
#include <string.h>
#include "tune.h"
#include "json.h"
#include "units.h"

int lq_tune_pick(const struct lq_point *pts, int n, u64 p99_ns,
		 double within_pct, struct lq_tune *t)
{
	double floor_iops;
	int i;

	t->pick = t->best = t->fastest_ok = t->max = -1;
	t->max_iops = 0;
	for (i = 0; i < n; i++) {
		const struct lq_point *p = &pts[i];

		if (p->open || !lq_point_drawable(p))
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

		if (p->open || !lq_point_drawable(p))
			continue;
		if (p->r.resp_p99_ns <= p99_ns &&
		    (t->fastest_ok < 0 || p->r.iops > pts[t->fastest_ok].r.iops))
			t->fastest_ok = i;
		if (p->r.iops < floor_iops)
			continue;
		if (p->r.resp_p99_ns <= p99_ns) {
			b = t->pick < 0 ? NULL : &pts[t->pick];
			if (!b || lq_qdepth_key(p->qdepth) < lq_qdepth_key(b->qdepth) ||
			    (p->qdepth == b->qdepth && p->r.iops > b->r.iops))
				t->pick = i;
		}
		b = t->best < 0 ? NULL : &pts[t->best];
		if (!b || p->r.resp_p99_ns < b->r.resp_p99_ns ||
		    (p->r.resp_p99_ns == b->r.resp_p99_ns &&
		     lq_qdepth_key(p->qdepth) < lq_qdepth_key(b->qdepth)))
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
