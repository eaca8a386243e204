/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Types for the pure-logic parts of dm-lunq.
 *
 * Included by lunq_args.h, lunq_hist.h, lunq_integ.h and lunq_names.h (and
 * lib/lq.h): lunq_args.c, lunq_hist.c, lunq_integ.c and lunq_names.c
 * build both in the kernel and in userspace (liblunq, lunqctl, lunqbench,
 * the unit tests and fuzzers), so KUnit suites and userspace tests
 * exercise the very same code.  The wait queue (lunq_sched.c) and the
 * throttle (lunq_throttle.c) do not include it: they are kernel-only,
 * tested by KUnit.
 */
#ifndef LUNQ_PURE_H
#define LUNQ_PURE_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/kernel.h>
#include <linux/bitops.h>
#else
#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <errno.h>
typedef uint32_t u32;
typedef uint64_t u64;
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#endif

#endif /* LUNQ_PURE_H */
