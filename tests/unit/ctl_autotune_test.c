// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of ctl/autotune.c (lunqctl and the module's adaptive
 * throttle, pure parts): the policy string parser, the view of the auto
 * statistics (absent on an older module), stat's auto line and JSON
 * object, when tune --online calls auto settled (probes are excursions),
 * and tune --online's report, text and JSON, whose lines read back with
 * the real policy-file parser.  One "ok N name" / "not ok N name" line
 * per check.
 *
 * LINK: ctl/autotune.c ctl/tune.c ctl/sweep.c ctl/svg.c ctl/policyfile.c ctl/kv.c lib/json.c lib/units.c kmod/lunq_args.c kmod/lunq_names.c
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "autotune.h"
#include "policyfile.h"
#include "pf_check.h"
#include "golden.h"

#define TAP_PREFIX "autotune-"
#include "tap.h"

static int same(const char *got, const char *want)
{
	if (!strcmp(got, want))
		return 1;
	diag("got:  %s", got);
	diag("want: %s", want);
	return 0;
}

static void test_policy(void)
{
	struct lunq_keys p;

	ok(!lq_policy_parse("qdepth:32 auto:knee target_us:0 auto_max:64", &p) &&
	   p.val[LUNQ_QDEPTH] == 32 && p.val[LUNQ_AUTO] == LQ_AUTO_KNEE &&
	   p.val[LUNQ_AUTO_MIN] == 1 && p.val[LUNQ_AUTO_MAX] == 64,
	   "policy-parse");
	ok(!lq_policy_parse("newkey:1 qdepth:8", &p) && p.val[LUNQ_QDEPTH] == 8 &&
	   p.val[LUNQ_AUTO] == LQ_AUTO_OFF, "policy-skip-unknown-key");
	ok(lq_policy_parse("qdepth:x", &p) == -1, "policy-bad-word");
	ok(!lq_policy_parse("", &p) && p.val[LUNQ_AUTO_MAX] == 256,
	   "policy-defaults");
	ok(!strcmp(lq_auto_phase_name(3), "hold") &&
	   !strcmp(lq_auto_phase_name(5), "track") &&
	   !strcmp(lq_auto_phase_name(6), "?") &&
	   !strcmp(lq_auto_mode_name(2), "target"), "names");
	/* the mode names are the module's key table's (kmod/lunq_args.c) */
	ok(!strcmp(lq_auto_mode_name(LQ_AUTO_OFF), "off") &&
	   !strcmp(lq_auto_mode_name(LQ_AUTO_KNEE), "knee") &&
	   !strcmp(lq_auto_mode_name(LQ_AUTO_TARGET), "target") &&
	   !strcmp(lq_auto_mode_name(3), "?") && !strcmp(lq_auto_mode_name(99), "?"),
	   "mode-names-from-key-table");
}

static void dev_knee(struct lq_dev *d)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "lq0");
	snprintf(d->policy, sizeof(d->policy), "qdepth:32 auto:knee");
	d->st[LUNQ_ST_THROTTLE] = 16;
	d->st[LUNQ_ST_AUTO_PHASE] = LQ_AP_HOLD;
	d->st[LUNQ_ST_AUTO_PEAK_IOPS] = 2000;
	d->st[LUNQ_ST_AUTO_SVC_MIN_NS] = 8200000;
	d->st[LUNQ_ST_AUTO_KNEE] = 16;
	d->st[LUNQ_ST_AUTO_P99_NS] = 8400000;
	d->st[LUNQ_ST_AUTO_WINDOWS] = 57;
	d->st[LUNQ_ST_AUTO_MOVES] = 4;
	for (int k = LUNQ_ST_AUTO_PHASE; k <= LUNQ_ST_AUTO_MOVES; k++)
		d->have[k] = true;
	d->have[LUNQ_ST_THROTTLE] = true;
}

/* dev_knee's device turned to auto:target 5 ms, tracking at 12 */
static void dev_target(struct lq_dev *d)
{
	snprintf(d->policy, sizeof(d->policy), "qdepth:1 auto:target target_us:5000");
	d->st[LUNQ_ST_AUTO_PHASE] = LQ_AP_TRACK;
	d->st[LUNQ_ST_THROTTLE] = 12;
	d->st[LUNQ_ST_AUTO_P99_NS] = 4100000;
}

static void test_view(void)
{
	struct lq_auto_view v;
	struct lq_dev d;
	char line[256], *out;

	dev_knee(&d);
	ok(lq_auto_view_get(&d, &v) && v.mode == LQ_AUTO_KNEE && v.throttle == 16 &&
	   v.phase == LQ_AP_HOLD && v.knee == 16 && v.moves == 4, "view");
	lq_auto_state(line, sizeof(line), &v);
	ok(same(line, "throttle 16 (auto knee: hold, knee 16, peak 2000 IOPS, min service 8.20 ms, window p99 8.40 ms)"),
	   "state-knee");
	CAPTURE(out, lq_auto_json(f, &v));
	ok(same(out, "{\"mode\":\"knee\",\"phase\":\"hold\",\"target_ns\":null,\"throttle\":16,\"peak_iops\":2000,\"svc_min_ns\":8200000,\"knee\":16,\"p99_ns\":8400000,\"windows\":57,\"moves\":4}"),
	   "json-knee");
	free(out);

	dev_target(&d);
	ok(lq_auto_view_get(&d, &v) && v.target_ns == 5000000, "view-target");
	lq_auto_state(line, sizeof(line), &v);
	ok(same(line, "throttle 12 (auto target 5.00 ms: track, window p99 4.10 ms, peak 2000 IOPS, min service 8.20 ms)"),
	   "state-target");
	CAPTURE(out, lq_auto_json(f, &v));
	ok(strstr(out, "\"mode\":\"target\",\"phase\":\"track\",\"target_ns\":5000000,") != NULL,
	   "json-target");
	free(out);

	/* nothing measured yet */
	dev_knee(&d);
	d.st[LUNQ_ST_AUTO_PHASE] = LQ_AP_DOWN;
	d.st[LUNQ_ST_AUTO_PEAK_IOPS] = d.st[LUNQ_ST_AUTO_SVC_MIN_NS] = 0;
	d.st[LUNQ_ST_AUTO_KNEE] = d.st[LUNQ_ST_AUTO_P99_NS] = 0;
	lq_auto_view_get(&d, &v);
	lq_auto_state(line, sizeof(line), &v);
	ok(same(line, "throttle 16 (auto knee: down, knee -, peak - IOPS, min service -, window p99 -)"),
	   "state-unknown-yet");

	/* auto off: no line; an older module: no view */
	snprintf(d.policy, sizeof(d.policy), "qdepth:32");
	d.st[LUNQ_ST_AUTO_PHASE] = LQ_AP_OFF;
	ok(lq_auto_view_get(&d, &v) && v.mode == LQ_AUTO_OFF, "view-off");
	lq_auto_state(line, sizeof(line), &v);
	ok(line[0] == '\0', "state-off-empty");
	memset(d.have, 0, sizeof(d.have));
	ok(!lq_auto_view_get(&d, &v), "view-old-module");
	dev_knee(&d);
	snprintf(d.policy, sizeof(d.policy), "qdepth:banana");
	ok(!lq_auto_view_get(&d, &v), "view-bad-policy");
}

static void test_settle(void)
{
	struct lq_settle s;

	lq_settle_init(&s, 5);
	ok(lq_settle_feed(&s, 0.25, LQ_AP_DOWN, 32) == LQ_SETTLE_SEARCHING &&
	   lq_settle_feed(&s, 0.5, LQ_AP_UP, 8) == LQ_SETTLE_SEARCHING,
	   "settle-searching");
	ok(lq_settle_feed(&s, 0.75, LQ_AP_PROBE, 9) == LQ_SETTLE_SEARCHING,
	   "settle-probe-before-hold");
	ok(lq_settle_feed(&s, 1.0, LQ_AP_HOLD, 16) == LQ_SETTLE_HOLDING &&
	   s.depth == 16 && s.since == 1.0, "settle-hold-starts");
	ok(lq_settle_feed(&s, 3.0, LQ_AP_PROBE, 17) == LQ_SETTLE_HOLDING &&
	   s.depth == 16 && s.since == 1.0, "settle-probe-ignored");
	ok(lq_settle_feed(&s, 5.75, LQ_AP_HOLD, 16) == LQ_SETTLE_HOLDING,
	   "settle-not-yet");
	ok(lq_settle_feed(&s, 6.0, LQ_AP_HOLD, 16) == LQ_SETTLE_DONE, "settle-done");
	/* a new depth in hold starts over; down/up breaks the hold */
	ok(lq_settle_feed(&s, 6.25, LQ_AP_HOLD, 15) == LQ_SETTLE_HOLDING &&
	   s.since == 6.25, "settle-depth-moved");
	ok(lq_settle_feed(&s, 6.5, LQ_AP_UP, 15) == LQ_SETTLE_SEARCHING && !s.held,
	   "settle-search-again");
	ok(lq_settle_feed(&s, 7.0, LQ_AP_TRACK, 12) == LQ_SETTLE_HOLDING &&
	   lq_settle_feed(&s, 12.0, LQ_AP_TRACK, 12) == LQ_SETTLE_DONE,
	   "settle-track");
}

/* The report's lines from the section on, read back as a policy file. */
static int pastes(const char *text, const struct lq_ident *id, const char *want)
{
	const char *from = strstr(text, "# lunq.conf(5)");

	return from && pf_resolves(from, "online", id, want);
}

static void test_report(void)
{
	struct lq_ident qemu = { .name = "lq0", .dm = "lq0", .lower = "sda",
				 .vendor = "QEMU", .model = "QEMU HARDDISK" };
	struct lq_ident nullb = { .name = "lq1", .dm = "lq1", .lower = "nullb0" };
	struct lq_online_res r = {
		.device = "lq0", .id = &qemu, .settled = true, .depth = 16,
		.iops = 1998.4, .settled_s = 7.25, .held_s = 5, .limit_s = 60,
	};
	struct lq_dev d;
	char *out, msg[160];

	dev_knee(&d);
	lq_auto_view_get(&d, &r.v);
	CAPTURE(out, lq_online_report(f, &r, false));
	ok(same(out,
		"lq0: auto knee held qdepth 16 for 5.0 s (settled after 7.2 s): 1998.4 IOPS, service p99 8.40 ms\n"
		"# lunq.conf(5) lines for lq0 (auto knee on the live workload):\n"
		"[vendor=QEMU model=\"QEMU HARDDISK\"]\n"
		"qdepth = 16\n"
		"# auto: peak 2000 IOPS x min service 8.20 ms = knee 16\n"
		"# or for lq0 alone: [name=lq0]\n"), "report-knee");
	ok(pastes(out, &qemu, "qdepth:16"), "report-knee-pastes");
	free(out);

	CAPTURE(out, lq_online_report(f, &r, true));
	ok(same(out,
		"{\"schema\":2,\"device\":\"lq0\",\"mode\":\"knee\",\"target_ns\":null,\"settled\":true,"
		"\"depth\":16,\"phase\":\"hold\",\"iops\":1998.4,\"peak_iops\":2000,"
		"\"svc_min_ns\":8200000,\"knee\":16,\"p99_ns\":8400000,\"windows\":57,"
		"\"moves\":4,\"settled_s\":7.25,\"held_s\":5,\"kept\":false,"
		"\"section\":\"[vendor=QEMU model=\\\"QEMU HARDDISK\\\"]\","
		"\"policy\":\"[vendor=QEMU model=\\\"QEMU HARDDISK\\\"]\\nqdepth = 16\\n\"}\n"),
	   "report-knee-json");
	free(out);

	dev_target(&d);
	lq_auto_view_get(&d, &r.v);
	r.device = "lq1";
	r.id = &nullb;
	r.depth = 12;
	r.kept = true;
	CAPTURE(out, lq_online_report(f, &r, false));
	ok(same(out,
		"lq1: auto target held qdepth 12 for 5.0 s (settled after 7.2 s): 1998.4 IOPS, service p99 4.10 ms\n"
		"# lunq.conf(5) lines for lq1 (auto target, service p99 <= 5.00 ms on the live workload):\n"
		"[name=lq1]\n"
		"qdepth = 12\n"
		"# auto: window p99 4.10 ms at qdepth 12, target 5.00 ms\n"), "report-target");
	ok(pastes(out, &nullb, "qdepth:12"), "report-target-pastes");
	free(out);
	CAPTURE(out, lq_online_report(f, &r, true));
	ok(strstr(out, "\"mode\":\"target\",\"target_ns\":5000000,\"settled\":true,\"depth\":12,") &&
	   strstr(out, "\"kept\":true"), "report-target-json");
	free(out);

	/* gave up: nothing on stdout in text, settled:false in JSON */
	r.settled = false;
	r.v.phase = LQ_AP_PROBE;
	r.v.throttle = 13;
	r.settled_s = 60.1;
	CAPTURE(out, lq_online_report(f, &r, false));
	ok(out[0] == '\0', "report-unsettled-text-empty");
	free(out);
	CAPTURE(out, lq_online_report(f, &r, true));
	ok(strstr(out, "\"settled\":false,\"depth\":13,\"phase\":\"probe\",\"iops\":null,") &&
	   strstr(out, "\"section\":null,\"policy\":null}"), "report-unsettled-json");
	free(out);
	lq_online_unsettled(msg, sizeof(msg), &r);
	ok(same(msg, "auto did not settle within 60 s: last depth 13, phase probe"),
	   "unsettled-message");
}

int main(void)
{
	test_policy();
	test_view();
	test_settle();
	test_report();
	return tap_exit();
}
