// SPDX-License-Identifier: GPL-2.0
/*
 * lunqbench's presets (--preset NAME): option settings applied after the
 * defaults and before the command line, so options given explicitly
 * override them (lb_parse_args(), options.c).  Applied like defaults,
 * they do not count as given: with --engine sync a preset's --iodepth
 * becomes the number of threads.  What a preset does beyond its settings
 * is in lunqbench.c: bubble's far job (make_jobs()), align's offset scan
 * and bs's size scan (run_scan()).
 */
#include "options.h"

static const char *const bubble[] = {
	/* the stream; the far job is made in make_jobs() */
	"seekpct=0", "iodepth=16", "range=50-100%", NULL,
};
static const char *const align[] = {
	"seekpct=100", "iodepth=8", "elapsed=5", "interval=0", NULL,
};
static const char *const seq[] = {
	"bs=1m", "seekpct=0", "iodepth=4", NULL,
};
static const char *const rand_[] = {
	"seekpct=100", "iodepth=32", NULL,
};
static const char *const bs[] = {
	/* the sizes of the scan, in order (main(): one run each) */
	"bs=512,1k,2k,4k,8k,16k,32k,64k,128k,256k,512k,1m",
	"seekpct=0", "iodepth=1", "elapsed=3", "interval=0", NULL,
};
static const char *const none[] = { NULL };

const struct lb_preset_def lb_presets[] = {
	{ "bubble", LB_PRESET_BUBBLE, "sequential reads QD 16 over the second "
	  "half and 10 random reads/s in the first 10% (the bubble)", bubble },
	{ "align", LB_PRESET_ALIGN, "one run per offset 0, 512, ..., 4096 (5 s each)",
	  align },
	{ "seq", LB_PRESET_SEQ, "1 MiB sequential reads, QD 4", seq },
	{ "rand", LB_PRESET_RAND, "4 KiB random reads, QD 32", rand_ },
	{ "bs", LB_PRESET_BS, "one run per IO size 512, 1k, ..., 1m (3 s each), "
	  "sequential reads QD 1 like dd: IOPS and MB/s by size", bs },
	{ NULL, LB_PRESET_NONE, NULL, none },
};
