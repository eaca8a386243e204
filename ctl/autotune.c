// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl and the module's adaptive throttle: stat's view of it, when
 * tune --online calls it settled, tune --online's report (autotune.h).
 * Pure: libc only.
 */
#include <string.h>
#include "autotune.h"
#include "json.h"
#include "tune.h"	/* lq_tune_section() */
#include "units.h"
#include "lunq_names.h"

/*
 * The names are the key auto's in the module's key table
 * (kmod/lunq_args.c), read through lunq_policy_value(); a value that does
 * not read back as itself (lunq_policy_value() names any value past the
 * table's "off") is "?".
 */
const char *lq_auto_mode_name(u32 mode)
{
	static char names[8][16];	/* by value, filled when first asked */
	struct lunq_keys p;
	enum lunq_key key;
	char word[32];
	u64 seen = 0;

	if (mode >= ARRAY_SIZE(names))
		return "?";
	if (!names[mode][0]) {
		lunq_keys_init(&p);
		p.val[LUNQ_AUTO] = mode;
		lunq_policy_value(&p, LUNQ_AUTO, names[mode], sizeof(names[mode]));
		snprintf(word, sizeof(word), "auto:%s", names[mode]);
		lunq_keys_init(&p);
		if (lunq_parse_word(&p, word, &seen, &key) || p.val[LUNQ_AUTO] != mode)
			snprintf(names[mode], sizeof(names[mode]), "?");
	}
	return names[mode];
}

const char *lq_auto_phase_name(u64 phase)
{
	return phase < LUNQ_NR_AUTO_PHASES ? lunq_auto_phase_names[phase] : "?";
}

bool lq_auto_view_get(const struct lq_dev *d, struct lq_auto_view *v)
{
	struct lunq_keys p;

	memset(v, 0, sizeof(*v));
	if (!d->have[LUNQ_ST_AUTO_PHASE] || lq_policy_parse(d->policy, &p))
		return false;
	v->mode = p.val[LUNQ_AUTO];
	v->target_ns = (u64)p.val[LUNQ_TARGET_US] * 1000;
	v->throttle = d->st[LUNQ_ST_THROTTLE];
	v->phase = d->st[LUNQ_ST_AUTO_PHASE];
	v->peak_iops = d->st[LUNQ_ST_AUTO_PEAK_IOPS];
	v->svc_min_ns = d->st[LUNQ_ST_AUTO_SVC_MIN_NS];
	v->knee = d->st[LUNQ_ST_AUTO_KNEE];
	v->p99_ns = d->st[LUNQ_ST_AUTO_P99_NS];
	v->windows = d->st[LUNQ_ST_AUTO_WINDOWS];
	v->moves = d->st[LUNQ_ST_AUTO_MOVES];
	return true;
}

/* A duration, "-" when 0 (not known yet). */
static void fmt_ns0(char *buf, size_t len, u64 ns)
{
	if (ns)
		lq_fmt_ns(buf, len, ns);
	else
		snprintf(buf, len, "-");
}

static void fmt_u0(char *buf, size_t len, u64 v)
{
	if (v)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "-");
}

void lq_auto_state(char *buf, size_t len, const struct lq_auto_view *v)
{
	char knee[24], peak[24], svc[24], p99[24], target[24];
	const char *phase = lq_auto_phase_name(v->phase);

	if (!len)
		return;
	buf[0] = '\0';
	if (v->mode == LQ_AUTO_OFF)
		return;
	fmt_u0(knee, sizeof(knee), v->knee);
	fmt_u0(peak, sizeof(peak), v->peak_iops);
	fmt_ns0(svc, sizeof(svc), v->svc_min_ns);
	fmt_ns0(p99, sizeof(p99), v->p99_ns);
	if (v->mode == LQ_AUTO_TARGET) {
		fmt_ns0(target, sizeof(target), v->target_ns);
		snprintf(buf, len,
			 "throttle %llu (auto target %s: %s, window p99 %s, peak %s IOPS, min service %s)",
			 (unsigned long long)v->throttle, target, phase, p99,
			 peak, svc);
		return;
	}
	snprintf(buf, len,
		 "throttle %llu (auto %s: %s, knee %s, peak %s IOPS, min service %s, window p99 %s)",
		 (unsigned long long)v->throttle, lq_auto_mode_name(v->mode),
		 phase, knee, peak, svc, p99);
}

void lq_auto_json(FILE *f, const struct lq_auto_view *v)
{
	fputs("{\"mode\":", f);
	lq_json_str(f, lq_auto_mode_name(v->mode));
	fputs(",\"phase\":", f);
	lq_json_str(f, lq_auto_phase_name(v->phase));
	if (v->mode == LQ_AUTO_TARGET)
		fprintf(f, ",\"target_ns\":%llu", (unsigned long long)v->target_ns);
	else
		fputs(",\"target_ns\":null", f);
	fprintf(f, ",\"throttle\":%llu,\"peak_iops\":%llu,\"svc_min_ns\":%llu,\"knee\":%llu,\"p99_ns\":%llu,\"windows\":%llu,\"moves\":%llu}",
		(unsigned long long)v->throttle,
		(unsigned long long)v->peak_iops,
		(unsigned long long)v->svc_min_ns,
		(unsigned long long)v->knee, (unsigned long long)v->p99_ns,
		(unsigned long long)v->windows, (unsigned long long)v->moves);
}

/* ---- when auto has settled --------------------------------------------- */

void lq_settle_init(struct lq_settle *s, double need_s)
{
	memset(s, 0, sizeof(*s));
	s->need_s = need_s;
}

enum lq_settle_state lq_settle_feed(struct lq_settle *s, double t, u64 phase,
				    u32 depth)
{
	switch (phase) {
	case LQ_AP_PROBE:
		/* one window above the held depth, then back: not a move */
		if (!s->held)
			return LQ_SETTLE_SEARCHING;
		break;
	case LQ_AP_HOLD:
	case LQ_AP_TRACK:
		if (!s->held || depth != s->depth) {
			s->held = true;
			s->depth = depth;
			s->since = t;
		}
		break;
	default:
		s->held = false;
		return LQ_SETTLE_SEARCHING;
	}
	return t - s->since >= s->need_s ? LQ_SETTLE_DONE : LQ_SETTLE_HOLDING;
}

/* ---- the report ---------------------------------------------------------- */

static void report_json(FILE *f, const struct lq_online_res *r,
			const char *sec, const char *pol)
{
	const struct lq_auto_view *v = &r->v;

	fprintf(f, "{\"schema\":%d,\"device\":", LQ_JSON_SCHEMA);
	lq_json_str(f, r->device);
	fputs(",\"mode\":", f);
	lq_json_str(f, lq_auto_mode_name(v->mode));
	if (v->mode == LQ_AUTO_TARGET)
		fprintf(f, ",\"target_ns\":%llu", (unsigned long long)v->target_ns);
	else
		fputs(",\"target_ns\":null", f);
	fprintf(f, ",\"settled\":%s,\"depth\":%llu,\"phase\":",
		r->settled ? "true" : "false",
		(unsigned long long)(r->settled ? r->depth : v->throttle));
	lq_json_str(f, lq_auto_phase_name(v->phase));
	fputs(",\"iops\":", f);
	if (r->settled)
		lq_json_num(f, r->iops);
	else
		fputs("null", f);
	fprintf(f, ",\"peak_iops\":%llu,\"svc_min_ns\":%llu,\"knee\":%llu,\"p99_ns\":%llu,\"windows\":%llu,\"moves\":%llu,\"settled_s\":",
		(unsigned long long)v->peak_iops,
		(unsigned long long)v->svc_min_ns,
		(unsigned long long)v->knee, (unsigned long long)v->p99_ns,
		(unsigned long long)v->windows, (unsigned long long)v->moves);
	lq_json_num(f, r->settled_s);
	fputs(",\"held_s\":", f);
	lq_json_num(f, r->held_s);
	fprintf(f, ",\"kept\":%s,\"section\":", r->kept ? "true" : "false");
	if (r->settled) {
		lq_json_str(f, sec);
		fputs(",\"policy\":", f);
		lq_json_str(f, pol);
	} else {
		fputs("null,\"policy\":null", f);
	}
	fputs("}\n", f);
}

/* The comment line with the controller's estimate, no newline. */
static void estimate_line(char *buf, size_t len, const struct lq_online_res *r)
{
	const struct lq_auto_view *v = &r->v;
	char a[24], b[24], c[24];

	if (v->mode == LQ_AUTO_TARGET) {
		fmt_ns0(a, sizeof(a), v->p99_ns);
		fmt_ns0(b, sizeof(b), v->target_ns);
		snprintf(buf, len, "# auto: window p99 %s at qdepth %u, target %s",
			 a, r->depth, b);
		return;
	}
	fmt_u0(a, sizeof(a), v->peak_iops);
	fmt_ns0(b, sizeof(b), v->svc_min_ns);
	fmt_u0(c, sizeof(c), v->knee);
	snprintf(buf, len, "# auto: peak %s IOPS x min service %s = knee %s",
		 a, b, c);
}

void lq_online_report(FILE *f, const struct lq_online_res *r, bool json)
{
	const struct lq_auto_view *v = &r->v;
	char sec[512], byname[256], pol[600], est[160], p99[24], target[24];
	bool target_mode = v->mode == LQ_AUTO_TARGET;

	lq_tune_section(sec, sizeof(sec), r->id, true);
	lq_tune_section(byname, sizeof(byname), r->id, false);
	snprintf(pol, sizeof(pol), "%s\nqdepth = %u\n", sec, r->depth);
	if (json) {
		report_json(f, r, sec, pol);
		return;
	}
	if (!r->settled)
		return;
	fmt_ns0(p99, sizeof(p99), v->p99_ns);
	fmt_ns0(target, sizeof(target), v->target_ns);
	fprintf(f, "%s: auto %s held qdepth %u for %.1f s (settled after %.1f s): %.1f IOPS, service p99 %s\n",
		r->device, lq_auto_mode_name(v->mode), r->depth, r->held_s,
		r->settled_s, r->iops, p99);
	if (target_mode)
		fprintf(f, "# lunq.conf(5) lines for %s (auto target, service p99 <= %s on the live workload):\n",
			r->device, target);
	else
		fprintf(f, "# lunq.conf(5) lines for %s (auto knee on the live workload):\n",
			r->device);
	estimate_line(est, sizeof(est), r);
	fprintf(f, "%s%s\n", pol, est);
	if (r->id->model[0])
		fprintf(f, "# or for %s alone: %s\n", r->device, byname);
}

void lq_online_unsettled(char *buf, size_t len, const struct lq_online_res *r)
{
	snprintf(buf, len, "auto did not settle within %g s: last depth %llu, phase %s",
		 r->limit_s, (unsigned long long)r->v.throttle,
		 lq_auto_phase_name(r->v.phase));
}
