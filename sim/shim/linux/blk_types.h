/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SIM_SHIM_LINUX_BLK_TYPES_H
#define SIM_SHIM_LINUX_BLK_TYPES_H
#include <linux/kernel.h>
#define SECTOR_SHIFT 9
#define SECTOR_SIZE (1 << SECTOR_SHIFT)
#endif
