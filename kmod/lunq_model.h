/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq service-time models: when the emulated LUN answers an IO.
 * Pure arithmetic on ns times; the host side (lunq_io.c) calls
 * lunq_model_io() (lunq_model_flush() for an empty flush) under the device
 * lock when the LUN accepts a command and holds the completion until
 * max(lower-device completion, the returned time).  The model's state
 * is allocated apart from the device context (struct lunq_c's @model,
 * lunq_model_alloc()) when a table or "set" first names a model, zeroed:
 * an idle LUN; lunq_apply_policy() configures it (lunq_model_config()).
 *
 * A model is a struct lunq_model_ops in its own file (lunq_model_<name>.c,
 * KUnit in lunq_model_<name>_test.c), its state a member of struct
 * lunq_model; lunq_model.c picks the ops by "model", lunq_model_base.c
 * has what all models share (svc + xfer + pblk penalty).  To add one: a
 * LUNQ_MODEL_ value and its name in lunq_args.c, the ops in
 * lunq_model_<name>.c, its entry in lunq_models[] (lunq_model.c), its
 * state in lunq_model_base.h, Kbuild, and kmod/dm-lunq.rst.
 *
 * Terms: svc = svc_us, xfer = bytes / mbps (0 when mbps is 0), both per IO.
 *   none   no modelled time: the lower device alone decides.
 *   fixed  svc + xfer from the moment it is sent (lunq_model_fixed.c).
 *   flash  "channels" parallel channels (lunq_model_flash.c).
 *   hdd    one head, seek + rotation + svc + xfer (lunq_model_hdd.c);
 *          lun_order:sptf queues what arrives while the head is busy and
 *          starts the nearest first when it frees (lunq_model_pick()).
 *   array  spindles hdds striped by stripe_kb (lunq_model_array.c);
 *          lun_order:sptf: each spindle's drive orders its own queue of
 *          spindle_depth commands, as the hdd's.
 *   pblk   (any model but none) an IO whose start or length is not a
 *          multiple of pblk bytes is a read-modify-write: the time it
 *          occupies its channel or the head is multiplied by rmw_x.
 *   wce    (any model but none) a volatile write cache of cache_mb in
 *          front of the media: writes complete at cache speed while it
 *          has room and are destaged in the media's idle time; an empty
 *          flush waits until what it covers is on media, a FUA write
 *          goes to the media; destage in arrival or LBA (cscan) order,
 *          from wc_high % full down to wc_low % (lunq_model_wc.c).
 *   rcache (any model but none) rcache_mb: a read whose 64 KiB segments
 *          are cached completes at cache speed, a miss stages them
 *          (lunq_model_rc.c).
 *   bus    (any model but none) bus_mbps: one transfer rate shared by
 *          every channel or the head, booked in arrival order; a command
 *          completes when its media time and its transfer are both done,
 *          so large IOs saturate it and small ones do not (lunq_model.c).
 * Only reads and writes carrying data are modelled; an empty flush asks
 * the write cache (and the model's flush, if any: without a cache it
 * completes when the lower device completes it); discards and the like
 * complete when the lower device completes them.
 */
#ifndef LUNQ_MODEL_H
#define LUNQ_MODEL_H

#include "lunq_model_base.h"

/*
 * Take @cfg (the first time on a zeroed model, then live): the head
 * position, busy channels and the write cache's contents stay.
 */
void lunq_model_config(struct lunq_model *m, const struct lunq_model_cfg *cfg);

/* The ops of @kind, NULL for none (or an unknown kind). */
const struct lunq_model_ops *lunq_model_ops(enum lunq_model_kind kind);

/* What reaches the LUN: lunq_model_io()'s @dir. */
enum lunq_model_dir {
	LUNQ_MD_READ,
	LUNQ_MD_WRITE,		/* may go to the write cache */
	LUNQ_MD_FUA,		/* a write that must be on media */
};

/*
 * The LUN accepted a read or write of @sectors (> 0) at @sector at @now:
 * through the write cache (lunq_model_wc.c), when it completes (>= @now).
 * LUNQ_FINISH_PENDING: it waits in an hdd's queue (lun_order:sptf, and
 * @cookie not NULL); lunq_model_pick() hands @cookie back with its time.
 */
u64 lunq_model_io(struct lunq_model *m, u64 now, u64 sector, u32 sectors,
		  enum lunq_model_dir dir, void *cookie);
/*
 * The next queued command that starts by @now: its cookie and *@finish;
 * NULL when none (call again until NULL).
 */
void *lunq_model_pick(struct lunq_model *m, u64 now, u64 *finish);
/* When the next queued command may start (0: none queued). */
u64 lunq_model_next(const struct lunq_model *m);
/* Take @cookie's command out of the queue (it will not run). */
void lunq_model_drop(struct lunq_model *m, void *cookie);
/* Take any queued command out (a LUN reset aborts them); NULL: none. */
void *lunq_model_unqueue(struct lunq_model *m);

/* An empty flush at @now: when what it covers is on media (>= @now). */
u64 lunq_model_flush(struct lunq_model *m, u64 now);

#endif /* LUNQ_MODEL_H */
