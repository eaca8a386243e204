/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arena's scenario files (arena/scenarios/NN-NAME.scn, the format in
 * arena/scenarios/README.md) for C: lunqsim reads the files the VM arena
 * reads.  The same checks as tests/lib/scenario-file.sh, with the same
 * messages (tests/unit/scenario-file.sh holds the two to the same
 * answers): a file either reads the same in both or is refused by both.
 */
#ifndef SIM_SCENARIO_H
#define SIM_SCENARIO_H

#include <stdio.h>

#define SCN_MAX_LUNS	8	/* as scenario-file.sh's SCN_MAX_LUNS */
#define SCN_MAX_PHASES	32	/* ... SCN_MAX_PHASES */
#define SCN_MAX_PHASE_S	600	/* ... SCN_MAX_PHASE_S */
#define SCN_LINE	1024	/* the longest line read */

enum scn_changes { SCN_SET, SCN_FOREIGN, SCN_RATE };
enum scn_goal { SCN_IOPS, SCN_LATENCY };

struct scenario {
	char name[64], about[SCN_LINE], lower[8], lun[SCN_LINE];
	unsigned int luns, start, phase_s, fperiod_ms, nph;
	unsigned int bound_ms, target_ms;
	char load[SCN_LINE], load2[SCN_LINE], nb[SCN_LINE], nb_load[SCN_LINE];
	enum scn_changes changes;
	enum scn_goal goal;
	char objective[SCN_LINE], lat[32], lat_name[64], blat[32], blat_name[64];
	char observer[32];
	char phase[SCN_MAX_PHASES][SCN_LINE];
};

/*
 * Read @path into @s.  Returns 0, or the number of errors, each printed
 * to @err as "PATH:LINE: what" (LINE "end" for what the whole file
 * lacks) -- scenario-file.sh's scn_read.
 */
int scn_read(const char *path, struct scenario *s, FILE *err);

/*
 * Write @s to @f as a scenario file, @comment (lines starting with '#',
 * or NULL) first: what scn_read() reads back into the same @s (the
 * defaults it fills in written out).  Returns 0, or -1 on a write error.
 */
int scn_write(FILE *f, const struct scenario *s, const char *comment);

#endif /* SIM_SCENARIO_H */
