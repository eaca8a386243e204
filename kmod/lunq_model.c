// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq service-time models: the family's front, see lunq_model.h.
 * Each model is in lunq_model_<name>.c, what they share in
 * lunq_model_base.c.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/blk_types.h>

#include "lunq_model.h"

static const struct lunq_model_ops *const lunq_models[] = {
	[LUNQ_MODEL_FIXED] = &lunq_model_fixed,
	[LUNQ_MODEL_FLASH] = &lunq_model_flash,
	[LUNQ_MODEL_HDD] = &lunq_model_hdd,
	[LUNQ_MODEL_ARRAY] = &lunq_model_array,
};

const struct lunq_model_ops *lunq_model_ops(enum lunq_model_kind kind)
{
	return (unsigned int)kind < ARRAY_SIZE(lunq_models) ?
		lunq_models[kind] : NULL;
}

/*
 * bus_mbps: one transfer path for the whole LUN, booked in arrival order
 * from the moment the LUN accepts a command; the command completes when
 * both its media (or cache) time and its transfer are done.
 */
static u64 lunq_bus(struct lunq_model *m, u64 now, u32 sectors, u64 t)
{
	if (!m->cfg.bus_mbps)
		return t;
	m->bus_free = max(now, m->bus_free) +
		      lunq_xfer_ns(sectors, m->cfg.bus_mbps);
	return max(t, m->bus_free);
}

u64 lunq_model_io(struct lunq_model *m, u64 now, u64 sector, u32 sectors,
		  enum lunq_model_dir dir, void *cookie)
{
	u64 t;

	if (!m->ops)
		return now;
	lunq_wc_advance(m, now);
	if (dir == LUNQ_MD_WRITE && m->cfg.wce)
		return lunq_bus(m, now, sectors,
				lunq_wc_write(m, now, sector, sectors));
	/* a read the read cache holds does not reach the media */
	if (dir == LUNQ_MD_READ && m->cfg.rcache_mb &&
	    lunq_rc_read(m, sector, sectors))
		return lunq_bus(m, now, sectors, now + LUNQ_RC_NS +
				lunq_model_xfer(&m->cfg, sectors));
	/* the drive (an array: the spindle's) orders it (lunq_model_pick()) */
	if (m->cfg.order == LUNQ_ORDER_SPTF && cookie &&
	    ((m->cfg.kind == LUNQ_MODEL_HDD &&
	      lunq_hdd_enqueue(m, now, sector, sectors, cookie)) ||
	     (m->cfg.kind == LUNQ_MODEL_ARRAY &&
	      lunq_array_enqueue(m, now, sector, sectors, cookie))))
		return LUNQ_FINISH_PENDING;
	t = m->ops->start(m, now, sector, sectors);
	return lunq_bus(m, now, sectors, t);
}

void *lunq_model_pick(struct lunq_model *m, u64 now, u64 *finish)
{
	u32 sectors;
	void *cookie;

	if (!m->hdd.nq)
		return NULL;
	lunq_wc_advance(m, now);
	if (m->cfg.kind == LUNQ_MODEL_ARRAY)
		cookie = lunq_array_pick(m, now, finish, &sectors);
	else
		cookie = lunq_hdd_pick(m, now, finish, &sectors);
	if (cookie)
		*finish = lunq_bus(m, now, sectors, *finish);
	return cookie;
}

u64 lunq_model_next(const struct lunq_model *m)
{
	if (m->cfg.kind == LUNQ_MODEL_ARRAY)
		return lunq_array_next(m);
	return m->hdd.nq ? max_t(u64, m->hdd.head_free, 1) : 0;
}

/* Queue entry @i leaves without running (dropped, or a reset). */
static void lunq_model_unqueue_at(struct lunq_model *m, u32 i)
{
	struct lunq_model_hdd_state *h = &m->hdd;

	if (m->cfg.kind == LUNQ_MODEL_ARRAY)
		lunq_array_unqueue_at(m, i);
	else
		h->q[i] = h->q[--h->nq];
}

void lunq_model_drop(struct lunq_model *m, void *cookie)
{
	struct lunq_model_hdd_state *h = &m->hdd;
	u32 i;

	for (i = 0; i < h->nq; i++)
		if (h->q[i].cookie == cookie) {
			lunq_model_unqueue_at(m, i);
			return;
		}
}

void *lunq_model_unqueue(struct lunq_model *m)
{
	struct lunq_model_hdd_state *h = &m->hdd;
	void *cookie;

	if (!h->nq)
		return NULL;
	cookie = h->q[h->nq - 1].cookie;
	lunq_model_unqueue_at(m, h->nq - 1);
	return cookie;
}

u64 lunq_model_flush(struct lunq_model *m, u64 now)
{
	u64 t;

	if (!m->ops)
		return now;
	t = lunq_wc_flush(m, now);
	if (m->ops->flush)
		t = max(t, m->ops->flush(m, now));
	return t;
}

void lunq_model_config(struct lunq_model *m, const struct lunq_model_cfg *cfg)
{
	struct lunq_model_hdd_state *h = &m->hdd;
	u32 i;

	m->cfg = *cfg;
	m->ops = lunq_model_ops(cfg->kind);
	/* what each spindle's drive holds, after a live change of model */
	memset(m->array.in_drive, 0, sizeof(m->array.in_drive));
	for (i = 0; i < h->nq; i++)
		if (h->q[i].in_drive && h->q[i].spindle < LUNQ_MAX_SPINDLES)
			m->array.in_drive[h->q[i].spindle]++;
	/* what another model ran left room in the drives */
	if (cfg->kind == LUNQ_MODEL_ARRAY)
		lunq_array_refill_all(m);
}
