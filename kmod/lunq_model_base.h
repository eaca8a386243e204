/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq service-time models, what every model is built from: the
 * configuration, the ops a model answers, each model's state, and the
 * time an IO occupies a channel or the head (lunq_model_base.c).  The
 * models (lunq_model_<name>.c) include this; everyone else includes
 * lunq_model.h, the family's front.
 */
#ifndef LUNQ_MODEL_BASE_H
#define LUNQ_MODEL_BASE_H

#include <linux/limits.h>
#include <linux/types.h>

/* Values of the "model" key (index into its names in lunq_args.c). */
enum lunq_model_kind {
	LUNQ_MODEL_NONE = 0,
	LUNQ_MODEL_FIXED = 1,
	LUNQ_MODEL_FLASH = 2,
	LUNQ_MODEL_HDD = 3,
	LUNQ_MODEL_ARRAY = 4,
};

#define LUNQ_MAX_CHANNELS 1024
#define LUNQ_MAX_SPINDLES 64

struct lunq_model_cfg {
	enum lunq_model_kind kind;
	u32 svc_us;
	u32 channels;		/* flash, 1..LUNQ_MAX_CHANNELS */
	u32 mbps;		/* 10^6 bytes/s; 0 = infinite */
	u32 seek_ms;		/* hdd: average seek */
	u32 rpm;		/* hdd: 0 = no rotational delay */
	u32 pblk;		/* bytes, power of two >= 512 */
	u32 rmw_x;		/* multiplier for misaligned IOs, >= 1 */
	u32 wce;		/* 1: volatile write cache (lunq_model_wc.c) */
	u32 cache_mb;		/* its size, MiB */
	u32 bus_mbps;		/* 10^6 bytes/s shared by all; 0 = infinite */
	u32 order;		/* hdd: LUNQ_ORDER_FIFO or _SPTF (lun_order) */
	u32 spindles;		/* array: hdd spindles, 1..LUNQ_MAX_SPINDLES */
	u32 stripe_kb;		/* array: stripe unit, KiB */
	u32 spindle_depth;	/* array, sptf: commands a spindle's drive holds */
	u32 destage;		/* wce: LUNQ_DESTAGE_FIFO or _CSCAN */
	u32 wc_high;		/* wce: % full that starts idle destage */
	u32 wc_low;		/* wce: % full that stops it (<= wc_high) */
	u32 rcache_mb;		/* read cache, MiB (0: none) */
	u32 seek_curve;		/* hdd, array: LUNQ_SEEK_LINEAR or _SQRT */
	u64 capacity;		/* sectors: the hdd's full stroke */
};

struct lunq_model;

/* What a model answers. */
struct lunq_model_ops {
	const char *name;
	/*
	 * The LUN accepted a read or write of @sectors (> 0) at @sector at
	 * @now: book it, return when the LUN completes it (>= @now).
	 */
	u64 (*start)(struct lunq_model *m, u64 now, u64 sector, u32 sectors);
	/*
	 * An empty flush reached the LUN at @now: when is everything it
	 * covers on the media (>= @now)?  NULL: at once (no volatile cache,
	 * so the lower device's completion decides).
	 */
	u64 (*flush)(struct lunq_model *m, u64 now);
	/*
	 * When the media could start another command (the head, the first
	 * channel to free); NULL: at once (fixed: no contention).  The
	 * write cache destages in the time before it.
	 */
	u64 (*free_at)(const struct lunq_model *m);
};

extern const struct lunq_model_ops lunq_model_fixed;	/* lunq_model_fixed.c */
extern const struct lunq_model_ops lunq_model_flash;	/* lunq_model_flash.c */
extern const struct lunq_model_ops lunq_model_hdd;	/* lunq_model_hdd.c */
extern const struct lunq_model_ops lunq_model_array;	/* lunq_model_array.c */

/* Values of the "seek_curve" key: seek time against LBA distance. */
enum lunq_seek_curve {
	LUNQ_SEEK_LINEAR = 0,	/* 3 x seek_ms x distance / stroke */
	LUNQ_SEEK_SQRT = 1,	/* settle + a part in sqrt(distance) */
};

/* Values of the "lun_order" key (index into its names in lunq_args.c). */
enum lunq_lun_order {
	LUNQ_ORDER_FIFO = 0,
	LUNQ_ORDER_SPTF = 1,
};

#define LUNQ_DRIVE_Q	256	/* hdd, array: commands queued in the LUN */
/*
 * array, sptf: the most commands one member drive holds and orders, as
 * SATA NCQ's 32 tags; the rest wait in the controller in arrival order.
 */
#define LUNQ_SPINDLE_Q_MAX	32
#define LUNQ_FINISH_PENDING	U64_MAX	/* in the drive's queue: not known */

/*
 * A command in an hdd's queue (lun_order:sptf), not yet started; for an
 * array, one in a spindle's queue: its sector is the spindle's, and it is
 * in the drive (ordered by it) or still in the controller's queue.
 */
struct lunq_model_dq {
	void *cookie;		/* the caller's: handed back by the pick */
	u64 t;			/* accepted (array: reached the drive) */
	u64 sector;
	u32 sectors;
	u16 spindle;		/* array: its spindle; hdd: 0 */
	u16 in_drive;		/* 1: the drive holds it (hdd: always) */
};

/* Each model's state; every one is kept across live changes of "model". */
struct lunq_model_hdd_state {
	u64 head;		/* sector after the last IO */
	u64 head_free;		/* when the head is free */
	struct lunq_model_dq q[LUNQ_DRIVE_Q];	/* sptf: waiting, unordered */
	u32 nq;
};

struct lunq_model_array_state {
	u64 head[LUNQ_MAX_SPINDLES];		/* each spindle's position */
	u64 head_free[LUNQ_MAX_SPINDLES];	/* and when it is free */
	u32 in_drive[LUNQ_MAX_SPINDLES];	/* sptf: commands each holds */
};

struct lunq_model_flash_state {
	u64 chan_free[LUNQ_MAX_CHANNELS];	/* when each channel is free */
};

#define LUNQ_WC_SLOTS	1024	/* writes in the cache at most */
#define LUNQ_WC_NS	20000	/* a write into the cache, ns (+ xfer) */
#define LUNQ_WC_MERGE	2048	/* sectors destaged in one media command */

/* Values of the "destage" key: the write cache's destage order. */
enum lunq_destage {
	LUNQ_DESTAGE_FIFO = 0,	/* arrival order (least recently written) */
	LUNQ_DESTAGE_CSCAN = 1,	/* ascending LBA, circular (WOW's CSCAN) */
};

/* A slot's state: waiting, booked on the media, on media (gone). */
enum lunq_wc_slot_state { LUNQ_WC_PENDING, LUNQ_WC_BOOKED, LUNQ_WC_DONE };

/* One write in the cache, until it is on media. */
struct lunq_model_wc_slot {
	u64 t;			/* accepted into the cache */
	u64 end;		/* booked: its destage is on media then */
	u64 sector;
	u32 sectors;
	u32 state;		/* enum lunq_wc_slot_state */
};

/*
 * The write cache (lunq_model_wc.c): slot[head..head+n) in arrival order;
 * "booked" of them booked on the media (fifo: the first ones; cscan: any),
 * done ones leave from the head.
 */
struct lunq_model_wc_state {
	struct lunq_model_wc_slot slot[LUNQ_WC_SLOTS];
	u32 head, n, booked;
	u64 dirty;		/* sectors in the cache, not yet on media */
	u64 accept;		/* the last write was accepted then */
	u64 last_end;		/* the last destage booked is on media then */
	u64 cursor;		/* cscan: the sector after the last destage */
	u64 drain_at;		/* wc_high: when the cache last reached it */
	bool draining;		/* idle destage on (wc_high reached) */
};

/*
 * The read cache (lunq_model_rc.c): LUNQ_RC_SEG-sector segments, 8-way
 * set associative, LRU within a set; its size bounds the sets in use.
 */
#define LUNQ_RC_SEG	128	/* sectors: a segment, 64 KiB */
#define LUNQ_RC_WAYS	8	/* segments per set */
#define LUNQ_RC_MAX_MB	128	/* the table's size: rcache_mb's maximum */
#define LUNQ_RC_ENTRIES	(LUNQ_RC_MAX_MB * 2048 / LUNQ_RC_SEG)
#define LUNQ_RC_NS	20000	/* a read hit, ns (+ xfer), as a cache write */

struct lunq_model_rc_entry {
	u64 seg;		/* segment number + 1; 0: empty */
	u64 used;		/* the cache's clock at its last hit or fill */
};

struct lunq_model_rc_state {
	/*
	 * LUNQ_RC_ENTRIES entries, allocated with the first rcache_mb > 0
	 * (lunq_model_alloc()) and kept until the table goes; NULL: no
	 * cache, whatever rcache_mb says
	 */
	struct lunq_model_rc_entry *e;
	u64 clock;		/* counts lookups: LRU's order */
	u64 hits, misses;
};

struct lunq_model {
	struct lunq_model_cfg cfg;
	const struct lunq_model_ops *ops;	/* NULL: none */
	struct lunq_model_hdd_state hdd;
	struct lunq_model_array_state array;
	struct lunq_model_wc_state wc;
	struct lunq_model_rc_state rc;
	u64 bus_free;		/* when the LUN's bus is free */
	struct lunq_model_flash_state flash;	/* large, keep last */
};

/* True when an IO of @sectors at @sector is a read-modify-write. */
bool lunq_model_misaligned(const struct lunq_model_cfg *cfg, u64 sector,
			   u32 sectors);

/* The write cache (lunq_model_wc.c), for lunq_model.c. */
/* Destages booked in the media's idle time up to @now; done ones leave. */
void lunq_wc_advance(struct lunq_model *m, u64 now);
/* wce:1: a write reaches the cache at @now; when it completes. */
u64 lunq_wc_write(struct lunq_model *m, u64 now, u64 sector, u32 sectors);
/* An empty flush at @now: when everything cached is on media. */
u64 lunq_wc_flush(struct lunq_model *m, u64 now);

/* The read cache (lunq_model_rc.c), for lunq_model.c. */
/* rcache_mb > 0: true when every segment of the read is cached (a hit). */
bool lunq_rc_read(struct lunq_model *m, u64 sector, u32 sectors);

/*
 * Seek + rotation of an hdd of @cap sectors, from @head to @sector, with
 * @cfg's seek_ms and rpm (lunq_model_hdd.c; the array's spindles too).
 */
u64 lunq_hdd_position(const struct lunq_model_cfg *cfg, u64 cap, u64 head,
		      u64 sector);

/* The array's spindle queues (lunq_model_array.c), for lunq_model.c. */
/*
 * sptf: queue a command that lies within one stripe unit on its spindle
 * (the drive's queue, or the controller's when the drive holds
 * spindle_depth); false when it crosses units or the queue is full.
 */
bool lunq_array_enqueue(struct lunq_model *m, u64 now, u64 sector,
			u32 sectors, void *cookie);
/* As lunq_hdd_pick(), over the spindles whose head is free by @now. */
void *lunq_array_pick(struct lunq_model *m, u64 now, u64 *finish,
		      u32 *sectors);
/* When the next queued command may start (0: none queued). */
u64 lunq_array_next(const struct lunq_model *m);
/* Queue entry @i leaves (picked, dropped or aborted): its slot refills. */
void lunq_array_unqueue_at(struct lunq_model *m, u32 i);
/*
 * After a live change of model: each spindle's drive takes the oldest
 * commands waiting for it in the controller, up to spindle_depth.
 */
void lunq_array_refill_all(struct lunq_model *m);

/* The hdd's drive queue (lunq_model_hdd.c), for lunq_model.c. */
/* Queue a command (sptf); false when the queue is full. */
bool lunq_hdd_enqueue(struct lunq_model *m, u64 now, u64 sector,
		      u32 sectors, void *cookie);
/*
 * When the head is free by @now, start the queued command of shortest
 * positioning time (the oldest of equals; with lun_order:fifo the
 * oldest): its cookie, *@finish when it completes.  NULL: none to start.
 */
void *lunq_hdd_pick(struct lunq_model *m, u64 now, u64 *finish,
		    u32 *sectors);

/* The transfer of @sectors at @mbps MB/s, ns (0 when @mbps is 0). */
u64 lunq_xfer_ns(u32 sectors, u32 mbps);
/* The transfer of @sectors at mbps (0 when mbps is 0), ns. */
u64 lunq_model_xfer(const struct lunq_model_cfg *cfg, u32 sectors);

/*
 * The time an IO occupies a channel or the head: svc + xfer + @extra,
 * times rmw_x when misaligned.  For the models' files.
 */
u64 lunq_model_busy(const struct lunq_model_cfg *cfg, u64 sector,
		    u32 sectors, u64 extra);

#endif /* LUNQ_MODEL_BASE_H */
