/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq "auto": the work that cuts the controller's windows from the
 * statistics and applies its depth (lunq_autorun.c); above lunq_core.
 */
#ifndef LUNQ_AUTORUN_H
#define LUNQ_AUTORUN_H

#include <linux/workqueue.h>

/* The delayed work of struct lunq_c.auto_work (lunq_core_alloc()). */
void lunq_auto_work(struct work_struct *work);

#endif /* LUNQ_AUTORUN_H */
