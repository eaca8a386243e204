/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq service-time models: when the emulated LUN answers an IO.
 * Pure arithmetic on ns times; the host side (lunq_io.c) calls
 * lunq_model_start() under the device lock when the LUN accepts a command
 * and holds the completion until max(lower-device completion, the
 * returned time).
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
 *   hdd    one head, seek + rotation + svc + xfer (lunq_model_hdd.c).
 *   pblk   (any model but none) an IO whose start or length is not a
 *          multiple of pblk bytes is a read-modify-write: the time it
 *          occupies its channel or the head is multiplied by rmw_x.
 * Only reads and writes carrying data are modelled; an empty flush asks
 * the model's flush (none of these has a volatile cache, so it completes
 * when the lower device completes it), discards and the like complete
 * when the lower device completes them.
 */
#ifndef LUNQ_MODEL_H
#define LUNQ_MODEL_H

#include "lunq_model_base.h"

/* Start from an idle LUN with @cfg. */
void lunq_model_init(struct lunq_model *m, const struct lunq_model_cfg *cfg);
/* Change parameters live; the head position and busy channels stay. */
void lunq_model_config(struct lunq_model *m, const struct lunq_model_cfg *cfg);

/* The ops of @kind, NULL for none (or an unknown kind). */
const struct lunq_model_ops *lunq_model_ops(enum lunq_model_kind kind);

/*
 * The LUN accepted an IO of @sectors (> 0) at @sector at time @now: book
 * it and return when the LUN completes it (>= @now; @now for none).
 */
static inline u64 lunq_model_start(struct lunq_model *m, u64 now, u64 sector,
				   u32 sectors)
{
	return m->ops ? m->ops->start(m, now, sector, sectors) : now;
}

/* An empty flush at @now: when it may complete (>= @now). */
static inline u64 lunq_model_flush(struct lunq_model *m, u64 now)
{
	return m->ops && m->ops->flush ? m->ops->flush(m, now) : now;
}

#endif /* LUNQ_MODEL_H */
