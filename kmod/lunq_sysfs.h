/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq sysfs files of /sys/kernel/lunq/<name>/ (lunq_sysfs.c): the
 * attribute groups every registry entry's directory gets (lunq_dev.c).
 */
#ifndef LUNQ_SYSFS_H
#define LUNQ_SYSFS_H

#include <linux/sysfs.h>

extern const struct attribute_group *lunq_dev_groups[];
/* Build the attribute tables (module init, before the first entry). */
int lunq_sysfs_init(void);

#endif /* LUNQ_SYSFS_H */
