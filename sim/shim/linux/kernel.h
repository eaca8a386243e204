/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SIM_SHIM_LINUX_KERNEL_H
#define SIM_SHIM_LINUX_KERNEL_H
#include <linux/types.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/math64.h>
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define WARN_ON(c) ({ int _c = !!(c); _c; })
#define WARN_ON_ONCE(c) WARN_ON(c)
#define BUILD_BUG_ON(c) _Static_assert(!(c), #c)
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define fallthrough __attribute__((__fallthrough__))
#define EXPORT_SYMBOL_IF_KUNIT(s)
#define EXPORT_SYMBOL_GPL(s)
#endif
