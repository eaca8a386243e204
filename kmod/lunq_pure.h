/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Types for the pure-logic parts of dm-lunq.
 *
 * Files that include only this header (lunq_args.c and the later sort,
 * throttle and histogram code) build both in the kernel and in userspace,
 * so KUnit suites and userspace fuzzers exercise the very same code.
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
