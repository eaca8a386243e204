// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq policy "target" (auto:target): the largest depth whose service
 * p99 stays within target_us. The controller is lunq_auto.c's (its rules
 * in lunq_auto.h); its callbacks, shared with the other auto mode, are
 * lunq_pol_auto.c's.
 */
#include "lunq_pol_ops.h"

const struct lunq_policy_ops lunq_pol_target = LUNQ_POL_AUTO_OPS("target");
