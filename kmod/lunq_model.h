/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq service-time models: when the emulated LUN answers an IO.
 * Pure arithmetic on ns times; the target calls lunq_model_start() under
 * its lock when the LUN accepts a command and holds the completion until
 * max(lower-device completion, the returned time).  KUnit:
 * lunq_model_test.c.
 *
 * Terms: svc = svc_us, xfer = bytes / mbps (0 when mbps is 0), both per IO.
 *   none   no modelled time: the lower device alone decides.
 *   fixed  every IO takes svc + xfer from the moment it is sent, however
 *          many are outstanding (a pure latency, like dm-delay).
 *   flash  "channels" parallel channels; an IO takes the channel that frees
 *          first and occupies it svc + xfer: throughput grows with queue
 *          depth up to the channel count, then queueing sets in.
 *   hdd    one head: IOs are served one at a time in the order the LUN
 *          received them.  Each pays seek + rotation + svc + xfer; seek is
 *          0 when the IO starts where the last one ended, else
 *          3 * seek_ms * distance / capacity (linear in the LBA distance,
 *          so a full stroke is 3x the average seek of uniform random IO),
 *          rotation is half a revolution at "rpm" (0 if rpm is 0 or the IO
 *          is sequential).
 *   pblk   (any model but none) an IO whose start or length is not a
 *          multiple of pblk bytes is a read-modify-write: the time it
 *          occupies its channel or the head is multiplied by rmw_x.
 * Only reads and writes carrying data are modelled; flushes, discards and
 * the like complete when the lower device completes them.
 */
#ifndef LUNQ_MODEL_H
#define LUNQ_MODEL_H

#include <linux/types.h>

/* Values of the "model" key (index into its names in lunq_args.c). */
enum lunq_model_kind {
	LUNQ_MODEL_NONE = 0,
	LUNQ_MODEL_FIXED = 1,
	LUNQ_MODEL_FLASH = 2,
	LUNQ_MODEL_HDD = 3,
};

#define LUNQ_MAX_CHANNELS 1024

struct lunq_model_cfg {
	enum lunq_model_kind kind;
	u32 svc_us;
	u32 channels;		/* flash, 1..LUNQ_MAX_CHANNELS */
	u32 mbps;		/* 10^6 bytes/s; 0 = infinite */
	u32 seek_ms;		/* hdd: average seek */
	u32 rpm;		/* hdd: 0 = no rotational delay */
	u32 pblk;		/* bytes, power of two >= 512 */
	u32 rmw_x;		/* multiplier for misaligned IOs, >= 1 */
	u64 capacity;		/* sectors: the hdd's full stroke */
};

struct lunq_model {
	struct lunq_model_cfg cfg;
	u64 head;		/* hdd: sector after the last IO */
	u64 head_free;		/* hdd: when the head is free */
	u64 chan_free[LUNQ_MAX_CHANNELS];	/* flash */
};

/* Start from an idle LUN with @cfg. */
void lunq_model_init(struct lunq_model *m, const struct lunq_model_cfg *cfg);
/* Change parameters live; the head position and busy channels stay. */
void lunq_model_config(struct lunq_model *m, const struct lunq_model_cfg *cfg);

/* True when an IO of @sectors at @sector is a read-modify-write. */
bool lunq_model_misaligned(const struct lunq_model_cfg *cfg, u64 sector,
			   u32 sectors);

/*
 * The LUN accepted an IO of @sectors (> 0) at @sector at time @now: book
 * it and return when the LUN completes it (>= @now).
 */
u64 lunq_model_start(struct lunq_model *m, u64 now, u64 sector, u32 sectors);

#endif /* LUNQ_MODEL_H */
