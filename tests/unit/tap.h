/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KTAP from the userspace unit tests, tests/unit/NAME_test.c (the same
 * lines as tap.sh's): "KTAP version 1" first, one "ok N PREFIXname" /
 * "not ok N PREFIXname" line per check, a skipped check as
 * "ok N PREFIXname # SKIP why", diagnostics as "# ..." lines, and the
 * plan "1..N" last (the number of checks is known at the end; a test
 * that dies halfway has no plan, and tests/run fails it).  tests/run
 * compiles each test, runs it and counts its results (an "ok" with
 * "# SKIP" as skipped).
 *
 * A test defines TAP_PREFIX, the prefix of its check names ("args-"), then
 * includes this header: check(COND, NAME), tap_skip(NAME, WHY); main
 * returns tap_exit().  tap_n counts the checks, tap_failed the failed ones.
 */
#ifndef LUNQ_TEST_TAP_H
#define LUNQ_TEST_TAP_H

#include <stdio.h>

#ifndef TAP_PREFIX
#error "define TAP_PREFIX, the prefix of the test's check names, before tap.h"
#endif

static int tap_n, tap_failed;

/* the version line before anything main prints */
__attribute__((constructor)) static void tap_start(void)
{
	printf("KTAP version 1\n");
	fflush(stdout);
}

static inline void check(int cond, const char *name)
{
	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%sok %d " TAP_PREFIX "%s\n", cond ? "" : "not ", tap_n, name);
	fflush(stdout);
}

/* A check that cannot run here (tests/run counts it as skipped). */
static inline void tap_skip(const char *name, const char *why)
{
	tap_n++;
	printf("ok %d " TAP_PREFIX "%s # SKIP %s\n", tap_n, name, why);
	fflush(stdout);
}

/* The plan; main's exit status: 1 when a check failed */
static inline int tap_exit(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif /* LUNQ_TEST_TAP_H */
