// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq's watchdog on a policy from outside, see lunq_wd.h.  Pure
 * logic; KUnit: lunq_wd_test.c.
 */
#include "lunq_wd.h"

#define LUNQ_WD_MS	(1000ULL * 1000)	/* ns */

u64 lunq_wd_timeout_ns(u32 ms)
{
	if (!ms)
		ms = LUNQ_WD_TIMEOUT_DFLT_MS;
	if (ms > LUNQ_WD_TIMEOUT_MAX_MS)
		ms = LUNQ_WD_TIMEOUT_MAX_MS;
	return ms * LUNQ_WD_MS;
}

void lunq_wd_start(struct lunq_wd *wd, u32 timeout_ms, u64 now, u64 sent)
{
	wd->timeout_ns = lunq_wd_timeout_ns(timeout_ms);
	wd->sent = sent;
	wd->progress_t = now;
}

void lunq_wd_resume(struct lunq_wd *wd, u64 now, u64 sent)
{
	wd->sent = sent;
	wd->progress_t = now;
}

enum lunq_wd_rule lunq_wd_call(u64 ns)
{
	return ns > LUNQ_WD_CALL_NS ? LUNQ_WD_CALL : LUNQ_WD_NONE;
}

enum lunq_wd_rule lunq_wd_tick(struct lunq_wd *wd, u64 now, u64 sent,
			       u32 waiting, u64 oldest_ns, u32 depth,
			       u32 floor, u64 *ns)
{
	*ns = 0;
	if (!waiting || sent != wd->sent || now < wd->progress_t) {
		wd->sent = sent;
		wd->progress_t = now;
	} else if (now - wd->progress_t >= wd->timeout_ns) {
		*ns = now - wd->progress_t;
		return LUNQ_WD_STALL;
	}
	if (waiting && floor && depth && depth <= floor &&
	    oldest_ns > wd->timeout_ns) {
		*ns = oldest_ns;
		return LUNQ_WD_FLOOR;
	}
	return LUNQ_WD_NONE;
}

const char *lunq_wd_rule_name(enum lunq_wd_rule rule)
{
	static const char * const names[LUNQ_WD_NR_RULES] = {
		[LUNQ_WD_NONE] = "none",
		[LUNQ_WD_CALL] = "callback",
		[LUNQ_WD_STALL] = "stall",
		[LUNQ_WD_FLOOR] = "floor",
		[LUNQ_WD_MANUAL] = "manual",
	};

	return rule < LUNQ_WD_NR_RULES ? names[rule] : "?";
}
