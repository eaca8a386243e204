/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/shim/linux/: the few kernel headers lunq's pure files include,
 * for the host (lunqsim): types, min/max, 64-bit division, limits and
 * time units, with the kernel's meaning.  Nothing here is lunq's.
 */
#ifndef SIM_SHIM_LINUX_TYPES_H
#define SIM_SHIM_LINUX_TYPES_H
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <errno.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
#endif
