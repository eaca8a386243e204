// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq policy "knee" (auto:knee): the depth of greatest power (IOPS per
 * unit of service time), found as BBR finds its window: peak rate x least
 * service time. The controller is lunq_auto.c's (its rules in
 * lunq_auto.h); its callbacks, shared with the other auto mode, are
 * lunq_pol_auto.c's.
 */
#include "lunq_pol_ops.h"

const struct lunq_policy_ops lunq_pol_knee = LUNQ_POL_AUTO_OPS("knee");
