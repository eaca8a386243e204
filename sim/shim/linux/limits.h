/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SIM_SHIM_LINUX_LIMITS_H
#define SIM_SHIM_LINUX_LIMITS_H
#include <stdint.h>
#define U64_MAX UINT64_MAX
#define U32_MAX UINT32_MAX
#define S64_MAX INT64_MAX
#define U16_MAX UINT16_MAX
#endif
