/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq host reaction to QUEUE FULL: how the host side moves its
 * throttle when the emulated LUN refuses a command.  Pure logic, times in
 * ns (monotonic); the target calls these under its lock and applies the
 * returned throttle.  KUnit: lunq_react_test.c.
 *
 *   none    throttle fixed; the command is retried forever.
 *   linux   the SCSI midlayer (scsi_track_queue_full, scsi_error.c): every
 *           QUEUE FULL asks for depth-1; QUEUE FULLs in the same bucket
 *           (16 jiffies) count once; the 11th counted one at the same depth
 *           lowers the throttle by 1.  Ramp-up on a good completion: +1
 *           when both the last ramp-up and the last counted QUEUE FULL are
 *           at least ramp_up_ns ago (queue_ramp_up_period, 120 s).
 *   sd      Solaris sd, non-adaptive (sd_reduce_throttle): throttle cut to
 *           the commands still in transport (1 if none); restore_ns (60 s)
 *           after the first cut it goes back to the maximum at once.
 *   sd-fc   sd's adaptive (fibre) variant: cut to the commands in transport
 *           (unchanged if none); restore_ns after the first cut, then every
 *           step_ns (10 s), the throttle grows by max(throttle/10, 1) up to
 *           the maximum; a throttle that would stay below min (8) jumps
 *           straight back to the maximum (sd_restore_throttle).
 * The maximum is the configured qdepth (sd's un_saved_throttle, Linux's
 * max_queue_depth).
 */
#ifndef LUNQ_REACT_H
#define LUNQ_REACT_H

#include <linux/types.h>

/* Values of the "reaction" key (index into its names in lunq_args.c). */
enum lunq_reaction {
	LUNQ_REACT_NONE = 0,
	LUNQ_REACT_LINUX = 1,
	LUNQ_REACT_SD = 2,
	LUNQ_REACT_SD_FC = 3,
};

struct lunq_react_cfg {
	enum lunq_reaction mode;
	u32 max;		/* configured qdepth, >= 1 unless mode none */
	u32 min;		/* sd-fc low-water mark */
	u64 bucket_ns;		/* linux: QUEUE FULLs closer count once */
	u64 ramp_up_ns;		/* linux */
	u64 restore_ns;		/* sd, sd-fc: first restore */
	u64 step_ns;		/* sd-fc: later steps */
};

struct lunq_react {
	struct lunq_react_cfg cfg;
	u32 cur;		/* the throttle now */
	/* linux */
	bool have_qfull, have_ramp;
	u64 last_qfull;		/* last counted QUEUE FULL */
	u64 last_ramp;
	u32 last_depth;		/* depth the count is for */
	u32 count;
	/* sd, sd-fc: when the pending restore runs; 0 = none */
	u64 restore_at;
};

/*
 * Start with @cfg: throttle at the maximum, history cleared.  When only the
 * periods change (same mode and maximum), lunq_react_config() keeps the
 * throttle and the history instead.
 */
void lunq_react_init(struct lunq_react *r, const struct lunq_react_cfg *cfg);
void lunq_react_config(struct lunq_react *r, const struct lunq_react_cfg *cfg);

/*
 * The LUN answered QUEUE FULL at @now; @in_transport commands are still
 * outstanding (not counting the refused one).  Returns the new throttle.
 */
u32 lunq_react_qfull(struct lunq_react *r, u64 now, u32 in_transport);
/* A command completed with good status at @now.  Returns the throttle. */
u32 lunq_react_good(struct lunq_react *r, u64 now);
/* Run a restore that is due at @now (sd, sd-fc).  Returns the throttle. */
u32 lunq_react_tick(struct lunq_react *r, u64 now);
/* When lunq_react_tick() next has work, or 0. */
static inline u64 lunq_react_deadline(const struct lunq_react *r)
{
	return r->restore_at;
}

#endif /* LUNQ_REACT_H */
