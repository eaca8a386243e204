/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KTAP from the userspace unit tests, tests/unit/NAME_test.c, in the
 * verbs of tap.sh and tests/vm/lib.sh, with the same lines: "KTAP
 * version 1" first, then
 *   ok(COND, NAME)     "ok N PREFIXNAME", or "not ok N PREFIXNAME" when
 *                      COND is false (its value: COND, as 0 or 1)
 *   fail(NAME)         "not ok N PREFIXNAME"
 *   skip(NAME, WHY)    "ok N PREFIXNAME # SKIP WHY" (a check that cannot
 *                      run here; tests/run counts it as skipped)
 *   diag(FMT, ...)     "# " and printf's FMT, ... and a newline
 * and the plan "1..N" last (the number of checks is known at the end; a
 * test that dies halfway has no plan, and tests/run fails it).  A failed
 * check does not end the test.  tests/run compiles each test, runs it and
 * counts its results.
 *
 * A test defines TAP_PREFIX, the prefix of its check names ("args-"), then
 * includes this header; main returns tap_exit().  tap_n counts the checks,
 * tap_failed the failed ones.  The verbs are macros, so a test may keep
 * a variable named ok.
 */
#ifndef LUNQ_TEST_TAP_H
#define LUNQ_TEST_TAP_H

#include <stdarg.h>
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

static inline int tap_ok(int cond, const char *name)
{
	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%sok %d " TAP_PREFIX "%s\n", cond ? "" : "not ", tap_n, name);
	fflush(stdout);
	return !!cond;
}

static inline void tap_skip(const char *name, const char *why)
{
	tap_n++;
	printf("ok %d " TAP_PREFIX "%s # SKIP %s\n", tap_n, name, why);
	fflush(stdout);
}

__attribute__((format(printf, 1, 2)))
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("# ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	fflush(stdout);
}

#define ok(cond, name)		tap_ok((cond), (name))
#define fail(name)		((void)tap_ok(0, (name)))
#define skip(name, why)		tap_skip((name), (why))
#define diag(...)		tap_diag(__VA_ARGS__)

/* The plan; main's exit status: 1 when a check failed */
static inline int tap_exit(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif /* LUNQ_TEST_TAP_H */
