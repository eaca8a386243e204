/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names of dm-lunq's statistics, histograms and events, as sysfs files,
 * netlink clients and lunqctl print them.  Pure (lunq_pure.h): userspace
 * builds it too.
 */
#ifndef LUNQ_NAMES_H
#define LUNQ_NAMES_H

#include "lunq_pure.h"
#ifdef __KERNEL__
#include "uapi/lunq.h"
#else
#include <linux/types.h>
#include "uapi/lunq.h"
#endif

extern const char *const lunq_stat_names[__LUNQ_ST_MAX];
extern const char *const lunq_hist_names[LUNQ_NR_HISTS];
extern const char *const lunq_event_names[LUNQ_NR_EVENTS];
/* Values of the auto_phase statistic (enum lunq_auto_phase). */
#define LUNQ_NR_AUTO_PHASES 6
extern const char *const lunq_auto_phase_names[LUNQ_NR_AUTO_PHASES];

#endif /* LUNQ_NAMES_H */
