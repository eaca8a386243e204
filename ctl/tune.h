/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqctl tune: from the closed-loop points of a sweep, the smallest
 * qdepth within a share of the most IOPS whose p99 meets a target; the
 * lunq.conf(5) section it recommends for the device; tune's verdict.
 * Pure code (libc only); unit-tested in tests/unit/ctl_sweep_test.c.
 */
#ifndef LUNQCTL_TUNE_H
#define LUNQCTL_TUNE_H

#include <stdio.h>
#include "sweep.h"
#include "ident.h"

struct lq_tune {
	int pick;		/* the recommended point, -1: none meets the rule */
	int best;		/* pick < 0: within @within of max, lowest p99 */
	int fastest_ok;		/* pick < 0: most IOPS with p99 <= target, or -1 */
	int max;		/* the point of the most IOPS, -1: none measured */
	double max_iops;
};

/*
 * The tune rule over the measured closed-loop points of @pts: among the
 * points within @within_pct percent of the most IOPS (iops >= max *
 * within_pct / 100), those whose p99 is at most @p99_ns; of them the
 * smallest qdepth (0, unlimited, counts as the largest); on equal qdepth
 * the most IOPS, then the earliest.  When none: @best is the point within
 * @within_pct of the max with the lowest p99 (on equal p99 the smaller
 * qdepth), @fastest_ok the point with the most IOPS whose p99 meets the
 * target (-1 when no point does).  Returns @t->pick.
 */
int lq_tune_pick(const struct lq_point *pts, int n, u64 p99_ns,
		 double within_pct, struct lq_tune *t);

/*
 * A lunq.conf(5) section header naming the device: "[vendor=V model=M]"
 * (vendor left out when empty) when @id has a model, else "[name=NAME]"
 * with @id->name.  Values are quoted when they hold blanks or characters
 * a bare pattern cannot; wildcard characters (* ? [ ]), double quotes and
 * backslashes in vendor and model become "?", which matches them.
 */
void lq_tune_section(char *buf, size_t len, const struct lq_ident *id,
		     bool by_model);

/* What tune was asked, for its report. */
struct lq_tune_req {
	u64 p99_ns;		/* the target */
	double within_pct;	/* 95 */
	const char *sched;	/* the sched of the sweep */
	bool sched_given;	/* --sched: the recommendation sets it too */
	const struct lq_ident *id;	/* the device (name) and its lower device */
};

/*
 * tune's verdict after the table.  Text, when a point meets the rule:
 *   NAME: qdepth Q is the smallest within P% of the most IOPS (X at
 *     qdepth M) whose p99 meets T: X IOPS, p99 Y
 *   # lunq.conf(5) lines for NAME (p99 <= T, sched S):
 *   [vendor=V model=M]      (or [name=NAME])
 *   qdepth = Q
 *   sched = S               (only with sched_given)
 *   # or for NAME alone: [name=NAME]   (with a vendor/model section)
 * When none does:
 *   NAME: no qdepth within P% of the most IOPS (...) meets p99 T; the
 *     best was qdepth Q: X IOPS, p99 Y[; qdepth R meets it at X IOPS
 *     (N% of the most)]
 * JSON: one object {device, p99_target_ns, within_pct, sched, max_iops,
 * max_qdepth, met, qdepth, iops, resp_p99_ns, section, policy, best,
 * fastest_ok} (null where it does not apply).
 */
void lq_tune_report(FILE *f, const struct lq_sweep *s, const struct lq_tune *t,
		    const struct lq_tune_req *q, bool json);

#endif /* LUNQCTL_TUNE_H */
