/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqsim's random scenarios (doc/lunqsim.md, "Random scenarios"): a
 * seeded generator over documented ranges of what lunqsim simulates.
 */
#ifndef SIM_RANDOM_H
#define SIM_RANDOM_H

#include "scenario.h"

/*
 * Scenario @index of seed @seed into @s (the same pair, the same
 * scenario, whatever else is drawn); @kind gets its kind, one of
 * scn_random_kinds.
 */
/* the kinds scn_random() draws (doc/lunqsim.md's table), NULL-ended */
extern const char *const scn_random_kinds[];

void scn_random(struct scenario *s, unsigned long long seed,
		unsigned int index, const char **kind);

#endif /* SIM_RANDOM_H */
