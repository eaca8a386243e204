/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The faked device of the lunqctl unit tests that link ctl_nl_fake.c.
 */
#ifndef LUNQ_TEST_CTL_NL_FAKE_H
#define LUNQ_TEST_CTL_NL_FAKE_H

#include <stdio.h>
#include "nl.h"

/*
 * @d's throttle @thr and the adaptive throttle's statistics in @phase;
 * @measured: the figures a controller that has measured reports (peak
 * 2000 IOPS, service 8.2 ms, knee 16, p99 8.4 ms), else 0.
 */
void fake_auto(struct lq_dev *d, u64 thr, u64 phase, bool measured);

/*
 * @cmd (a lunqctl command's function) on @argc, @argv with its stdout
 * into the file @out and its stderr into @err; both back after.  Its
 * return value.
 */
int fake_run(int (*cmd)(int argc, char **argv), int argc, char **argv,
	     FILE *out, FILE *err);

#endif /* LUNQ_TEST_CTL_NL_FAKE_H */
