/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq events for the generic netlink group "events": posted from the
 * IO path (any context, IRQs off or not) into a small per-device ring,
 * rate-limited per kind, and multicast by a work item.  Nothing is queued
 * while nobody listens.
 */
#ifndef LUNQ_EVENTS_H
#define LUNQ_EVENTS_H

#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include "uapi/lunq.h"

#define LUNQ_EVQ_SIZE		64	/* events waiting for the work item */
#define LUNQ_EV_PER_SEC		20	/* per kind and device (bubble, ...) */
#define LUNQ_EV_QFULL_GAP_NS	(100 * NSEC_PER_MSEC) /* one per storm tick */

/* What moved the throttle (lunq_ev.cause, trace event lunq_throttle). */
enum lunq_tcause { LUNQ_TC_SET, LUNQ_TC_QFULL, LUNQ_TC_RAMP_UP,
		   LUNQ_TC_RESTORE, LUNQ_TC_AUTO, LUNQ_TC_BPF };

struct lunq_ev {
	u8 kind;		/* enum lunq_event */
	u8 write;
	u8 cause;
	u32 from, to, bytes;
	u64 t, count, sector, wait_ns, svc_ns, suppressed;
};

struct lunq_evq {
	spinlock_t lock;	/* everything below; IRQ-safe */
	unsigned int head, n;	/* ring of queued events */
	struct lunq_ev ring[LUNQ_EVQ_SIZE];
	u64 win_start[LUNQ_NR_EVENTS];	/* rate limit: current window */
	u32 win_n[LUNQ_NR_EVENTS];
	u64 suppressed[LUNQ_NR_EVENTS];	/* since the last one sent */
	u64 qfull_count;		/* QUEUE FULLs since the last event */
	u64 dropped;			/* all events lost (stat) */
	char name[LUNQ_NAME_MAX];	/* device name, set on attach */
	dev_t devt;			/* the dm device (trace events) */
	struct work_struct work;
};

void lunq_evq_init(struct lunq_evq *q);
/* Stop: no more events are sent; waits for the work item. */
void lunq_evq_stop(struct lunq_evq *q);
void lunq_evq_set_name(struct lunq_evq *q, const char *name);

/* Post @ev (ev->t set) unless rate-limited; any context. */
void lunq_ev_post(struct lunq_evq *q, struct lunq_ev *ev);

/* A QUEUE FULL answer at @now: counted, one event per storm tick. */
void lunq_ev_qfull(struct lunq_evq *q, u64 now);

u64 lunq_evq_dropped(struct lunq_evq *q);
void lunq_evq_reset(struct lunq_evq *q);		/* stats reset */
void lunq_evq_add_dropped(struct lunq_evq *q, u64 n);	/* reload */

/*
 * Where events go: the netlink family registers itself (lunq_netlink.c),
 * so this layer calls nothing above it.  Without a sink nothing is queued.
 */
struct lunq_ev_sink {
	bool (*listening)(void);	/* anybody in the events group? */
	void (*send)(const char *name, const struct lunq_ev *ev); /* sleeps */
};

void lunq_ev_set_sink(const struct lunq_ev_sink *sink);

#endif /* LUNQ_EVENTS_H */
