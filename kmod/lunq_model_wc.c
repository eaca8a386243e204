// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq service-time models: the volatile write cache ("wce", SCSI's
 * WCE bit, and "cache_mb"), in front of any model but none.  It models
 * time only: lunq sends every write to the lower device at once and
 * completes it no earlier than the lower device did, so the cache never
 * holds data (see lunq_model.h).
 *
 * With wce:1 a write of data without FUA is accepted into the cache when
 * it has room, in arrival order, and completes LUNQ_WC_NS (+ xfer at
 * mbps) later.  What is in the cache is destaged to the media model in
 * the media's idle time: a destage starts when the head (hdd) or a
 * channel (flash) is free and nothing else was booked there (writes that
 * continue one another, up to 1 MiB, in one media command), so a read
 * waits at most for the destages already under way -- unless the cache
 * is full: then destages are booked at once (each where the media frees
 * next) and the write waits until enough of them are on media.  The
 * order ("destage"): fifo, arrival order (least recently written first);
 * cscan, ascending LBA from where the last destage ended, wrapping at the
 * end of the sweep (IBM's WOW, FAST '05: how array controllers destage).
 * Watermarks ("wc_high", "wc_low", % of cache_mb): idle destage runs
 * from when the cache is wc_high % full until it is down to wc_low %;
 * wc_high 0 destages whenever the media is idle.  Reads, FUA writes and
 * (wce:0) all writes go to the media model as before, behind what it has
 * booked.  An empty flush books every destage still waiting and
 * completes when the last one is on media; so does one after wce went
 * 1 -> 0 with data still cached.
 *
 * The cached writes are a ring of LUNQ_WC_SLOTS writes in arrival order
 * (a fuller ring counts as a full cache; cscan leaves holes that close
 * as the oldest leave); picking the next destage scans it, bounded by
 * LUNQ_WC_SLOTS; nothing is allocated.  Pure arithmetic on ns
 * times, under the device lock.  KUnit: lunq_model_wc_test.c.
 */
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/time64.h>
#include <linux/blk_types.h>

#include "lunq_model_base.h"

/* When the media could start another command: 0 = at once (fixed). */
static u64 wc_media_free(const struct lunq_model *m)
{
	return m->ops->free_at ? m->ops->free_at(m) : 0;
}

static struct lunq_model_wc_slot *wc_slot(struct lunq_model_wc_state *w,
					  u32 i)
{
	return &w->slot[(w->head + i) % LUNQ_WC_SLOTS];
}

#define WC_NONE	U32_MAX

/*
 * The next write to destage, as a position in the ring (WC_NONE: none
 * waits).  fifo: the oldest waiting.  cscan: the waiting one of lowest
 * sector at or after the cursor, else (the sweep wraps) the lowest.
 */
static u32 wc_next(struct lunq_model *m)
{
	struct lunq_model_wc_state *w = &m->wc;
	u32 i, up = WC_NONE, low = WC_NONE;

	for (i = 0; i < w->n; i++) {
		struct lunq_model_wc_slot *x = wc_slot(w, i);

		if (x->state != LUNQ_WC_PENDING)
			continue;
		if (m->cfg.destage != LUNQ_DESTAGE_CSCAN)
			return i;
		if (x->sector >= w->cursor &&
		    (up == WC_NONE || x->sector < wc_slot(w, up)->sector))
			up = i;
		if (low == WC_NONE || x->sector < wc_slot(w, low)->sector)
			low = i;
	}
	return up != WC_NONE ? up : low;
}

/*
 * A waiting write that continues a destage ending at @end, accepted by
 * @start: fifo, the next in the ring (arrival order); cscan, any.
 */
static u32 wc_continues(struct lunq_model *m, u32 after, u64 end,
			u64 start)
{
	struct lunq_model_wc_state *w = &m->wc;
	u32 i = after + 1;

	for (; i < w->n; i++) {
		struct lunq_model_wc_slot *x = wc_slot(w, i);

		if (x->state == LUNQ_WC_PENDING && x->sector == end &&
		    x->t <= start)
			return i;
		if (m->cfg.destage != LUNQ_DESTAGE_CSCAN)
			return WC_NONE;
	}
	if (m->cfg.destage != LUNQ_DESTAGE_CSCAN)
		return WC_NONE;
	for (i = 0; i < after && i < w->n; i++) {
		struct lunq_model_wc_slot *x = wc_slot(w, i);

		if (x->state == LUNQ_WC_PENDING && x->sector == end &&
		    x->t <= start)
			return i;
	}
	return WC_NONE;
}

/*
 * Book the write at ring position @i on the media, no earlier than @floor
 * (the media may have idled while the cache held it), with the writes that
 * continue it (contiguous, accepted by the time it starts, LUNQ_WC_MERGE
 * sectors at most): one media command, as a drive destages a sequential
 * run in one go.
 */
static void wc_book_at(struct lunq_model *m, u32 i, u64 floor)
{
	struct lunq_model_wc_state *w = &m->wc;
	struct lunq_model_wc_slot *s = wc_slot(w, i);
	u64 start = max3(wc_media_free(m), s->t, floor);
	u64 end = s->sector + s->sectors;
	u32 j, last = i, n = 1, lo = i, hi = i;

	/* the run is marked booked, end U64_MAX, until its end is known */
	s->state = LUNQ_WC_BOOKED;
	s->end = U64_MAX;
	for (;;) {
		j = wc_continues(m, last, end, start);
		if (j == WC_NONE ||
		    end - s->sector + wc_slot(w, j)->sectors > LUNQ_WC_MERGE)
			break;
		wc_slot(w, j)->state = LUNQ_WC_BOOKED;
		wc_slot(w, j)->end = U64_MAX;
		end += wc_slot(w, j)->sectors;
		last = j;
		lo = min(lo, j);
		hi = max(hi, j);
		n++;
	}
	start = max(m->ops->start(m, start, s->sector, end - s->sector),
		    w->last_end);
	/* the run's members lie between its lowest and highest positions */
	for (j = lo; j <= hi; j++)
		if (wc_slot(w, j)->state == LUNQ_WC_BOOKED &&
		    wc_slot(w, j)->end == U64_MAX)
			wc_slot(w, j)->end = start;
	w->last_end = start;
	w->booked += n;
	w->cursor = end;
}

/* Book the next write by the destage order; false when none waits. */
static bool wc_book_one(struct lunq_model *m, u64 floor)
{
	u32 i = wc_next(m);

	if (i == WC_NONE)
		return false;
	wc_book_at(m, i, floor);
	return true;
}

/* The write at ring position @i is on media: it leaves the cache. */
static void wc_done(struct lunq_model_wc_state *w, u32 i)
{
	struct lunq_model_wc_slot *x = wc_slot(w, i);

	x->state = LUNQ_WC_DONE;
	w->dirty -= x->sectors;
	w->booked--;
	while (w->n && wc_slot(w, 0)->state == LUNQ_WC_DONE) {
		w->head = (w->head + 1) % LUNQ_WC_SLOTS;
		w->n--;
	}
}

/*
 * The booked write first on media (ring position), WC_NONE: none.  fifo
 * books in ring order and ends are monotonic: the first booked is it.
 */
static u32 wc_first_end(const struct lunq_model *m,
			struct lunq_model_wc_state *w)
{
	u32 i, best = WC_NONE;

	for (i = 0; w->booked && i < w->n; i++) {
		if (wc_slot(w, i)->state != LUNQ_WC_BOOKED)
			continue;
		if (m->cfg.destage != LUNQ_DESTAGE_CSCAN)
			return i;
		if (best == WC_NONE ||
		    wc_slot(w, i)->end < wc_slot(w, best)->end)
			best = i;
	}
	return best;
}

/*
 * May the cache destage in the media's idle time, at @now?  Always with
 * wc_high:0; else from when it is wc_high % full until it is down to
 * wc_low % (drain_at: when it last started).
 */
static bool wc_may_destage(struct lunq_model *m, u64 now)
{
	struct lunq_model_wc_state *w = &m->wc;
	u64 cap = (u64)m->cfg.cache_mb << (20 - SECTOR_SHIFT);

	if (!m->cfg.wc_high)
		return true;
	if (w->dirty * 100 >= cap * m->cfg.wc_high) {
		if (!w->draining)
			w->drain_at = now;
		w->draining = true;
	} else if (w->dirty * 100 <= cap * m->cfg.wc_low)
		w->draining = false;
	return w->draining;
}

/*
 * Bring the cache to @now: destages booked in the media's idle time up
 * to @now, those on media by @now leave the cache.
 */
void lunq_wc_advance(struct lunq_model *m, u64 now)
{
	struct lunq_model_wc_state *w = &m->wc;
	u32 i;

	/* nothing cached, or no media (model:none) to destage to */
	if (!w->n || !m->ops)
		return;
	for (;;) {
		while ((i = wc_first_end(m, w)) != WC_NONE &&
		       wc_slot(w, i)->end <= now)
			wc_done(w, i);
		if (wc_media_free(m) > now || !wc_may_destage(m, now))
			return;
		i = wc_next(m);
		if (i == WC_NONE || wc_slot(w, i)->t > now)
			return;
		/* in the idle time since the media freed (or draining began) */
		wc_book_at(m, i, m->cfg.wc_high ? w->drain_at : 0);
	}
}

u64 lunq_wc_write(struct lunq_model *m, u64 now, u64 sector, u32 sectors)
{
	struct lunq_model_wc_state *w = &m->wc;
	u64 cap = (u64)m->cfg.cache_mb << (20 - SECTOR_SHIFT);
	struct lunq_model_wc_slot *s;
	u64 t = max(now, w->accept);

	if (sectors > cap)	/* larger than the cache: written through */
		return m->ops->start(m, now, sector, sectors);
	/*
	 * Full: destages are booked at once (the ring's oldest first when
	 * the ring is full), until this write fits; it waits for them.
	 */
	while (w->n && (w->dirty + sectors > cap || w->n == LUNQ_WC_SLOTS)) {
		u32 i;

		if (w->n == LUNQ_WC_SLOTS &&
		    wc_slot(w, 0)->state == LUNQ_WC_PENDING)
			wc_book_at(m, 0, now);
		else if (!w->booked)
			wc_book_one(m, now);
		i = wc_first_end(m, w);
		t = max(t, wc_slot(w, i)->end);
		wc_done(w, i);
	}
	s = wc_slot(w, w->n);
	*s = (struct lunq_model_wc_slot) {
		.t = t, .sector = sector, .sectors = sectors,
	};
	w->n++;
	w->dirty += sectors;
	w->accept = t;
	lunq_wc_advance(m, now);
	return t + LUNQ_WC_NS + lunq_model_xfer(&m->cfg, sectors);
}

u64 lunq_wc_flush(struct lunq_model *m, u64 now)
{
	lunq_wc_advance(m, now);
	while (wc_book_one(m, now))
		;
	return max(now, m->wc.last_end);
}
