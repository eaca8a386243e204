/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq's watchdog on a policy from outside (BPF), modelled on
 * sched_ext's: lunq keeps the device working whatever the policy does, and
 * ejects a policy that stops it.  The rules (lunq_wd_call(),
 * lunq_wd_tick()) are pure logic; the window work (lunq_window.c) asks
 * them, and lunq_policy_eject() carries the verdict out: the table's
 * policy takes over, the reason is kept (lunqctl policy show), traced
 * (lunq:lunq_pol_eject), posted (netlink event "eject") and logged once
 * per ten seconds.  KUnit: lunq_wd_test.c.
 *
 * A policy is ejected when
 *  - one of its callbacks ran longer than LUNQ_WD_CALL_NS (it runs in the
 *    window work, outside the device's lock, so IO goes on meanwhile; a
 *    callback cannot be stopped, only not called again);
 *  - the device stalls under it: commands wait in lunq and none has been
 *    sent below for its timeout;
 *  - it keeps the depth at its floor (auto_min) while the oldest command
 *    waiting in lunq has waited longer than its timeout;
 *  - by hand ("policy eject", lunqctl policy eject).
 * The timeout is the policy's own timeout_ms (struct lunq_policy_ops), at
 * most LUNQ_WD_TIMEOUT_MAX_MS; 0 means LUNQ_WD_TIMEOUT_DFLT_MS.
 */
#ifndef LUNQ_WD_H
#define LUNQ_WD_H

#include "lunq_pure.h"

/*
 * sched_ext's ceiling on ops.timeout_ms (SCX_WATCHDOG_MAX_TIMEOUT), and
 * the SCSI layer's default command timeout: a wait longer than this is an
 * error anywhere in the stack.
 */
#define LUNQ_WD_TIMEOUT_MAX_MS	30000
/*
 * A third of the ceiling: a stalled device is handed back to the table's
 * policy before the commands it did send time out at the SCSI layer.
 */
#define LUNQ_WD_TIMEOUT_DFLT_MS	10000
/*
 * The longest a callback may run: the window work's tick (50 ms).  A
 * callback that takes longer than a tick holds up the next window and
 * every other callback of the device; the example policies take
 * microseconds.
 */
#define LUNQ_WD_CALL_NS		(50ULL * 1000 * 1000)

/* Why a policy was ejected (the netlink event's cause, policy show). */
enum lunq_wd_rule {
	LUNQ_WD_NONE,
	LUNQ_WD_CALL,		/* a callback ran longer than LUNQ_WD_CALL_NS */
	LUNQ_WD_STALL,		/* waiters, and nothing sent for the timeout */
	LUNQ_WD_FLOOR,		/* depth at the floor, a waiter past it */
	LUNQ_WD_MANUAL,		/* "policy eject" */
	LUNQ_WD_NR_RULES
};

/* The watchdog's state for one device's policy from outside. */
struct lunq_wd {
	u64 timeout_ns;		/* the policy's, bounded */
	u64 sent;		/* commands sent below at the last progress */
	u64 progress_t;		/* when one was last sent (or none waited) */
};

/* The timeout for a policy's timeout_ms @ms (0: the default), in ns. */
u64 lunq_wd_timeout_ns(u32 ms);
/* A policy starts at @now with @sent commands sent so far. */
void lunq_wd_start(struct lunq_wd *wd, u32 timeout_ms, u64 now, u64 sent);
/* The device resumes at @now: a stall counts from here. */
void lunq_wd_resume(struct lunq_wd *wd, u64 now, u64 sent);
/* A callback ran @ns: LUNQ_WD_CALL when that is too long, else NONE. */
enum lunq_wd_rule lunq_wd_call(u64 ns);
/*
 * A tick at @now: @sent commands sent below so far, @waiting waiting in
 * lunq, the oldest for @oldest_ns, the depth @depth with floor @floor (0:
 * none, the policy has no choice).
 * The rule broken, or LUNQ_WD_NONE; *@ns is what broke it: the time
 * without a command sent (stall), the oldest waiter's wait (floor).
 */
enum lunq_wd_rule lunq_wd_tick(struct lunq_wd *wd, u64 now, u64 sent,
			       u32 waiting, u64 oldest_ns, u32 depth,
			       u32 floor, u64 *ns);
/* The rule's name: "callback", "stall", "floor", "manual". */
const char *lunq_wd_rule_name(enum lunq_wd_rule rule);

#endif /* LUNQ_WD_H */
