/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqctl: a list of integers on the command line, "1,2,4,8" (sweep's
 * --qdepth and --curve).  Pure code (libc only); unit-tested in
 * tests/unit/ctl_sweep_test.c.
 */
#ifndef LUNQCTL_UINTLIST_H
#define LUNQCTL_UINTLIST_H

#include "lq.h"		/* liblunq: types */

/*
 * "1,2,4,8": at most @max distinct integers in [@lo, @hi] into @v; their
 * number, or -1 with a message in @err (empty item, not a number, out of
 * range, repeated, too many).
 */
int lq_parse_uint_list(const char *s, u32 lo, u32 hi, u32 *v, int max,
		       char *err, size_t errlen);

#endif /* LUNQCTL_UINTLIST_H */
