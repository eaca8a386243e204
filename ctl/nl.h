/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqctl's client of the "lunq" generic netlink family (libnl-genl-3).
 * Every function returns an enum lq_exit code and, on failure, leaves a
 * one-line message (no newline) in the handle's err buffer.
 */
#ifndef LUNQCTL_NL_H
#define LUNQCTL_NL_H

#include "dev.h"
#include "exit.h"

struct lq_nl;

/* One event of the "events" group; @have has a bit per LUNQ_A_EV_* attr. */
struct lq_event {
	u32 kind;			/* enum lunq_event */
	char name[LUNQ_NAME_MAX];
	u64 time_ns, count, sector, wait_ns, svc_ns, suppressed;
	u32 from, to, bytes;
	bool write;
	char cause[32];
	u64 have;
};

/* Connect and resolve the family; checks the module's version. */
int lq_nl_open(struct lq_nl **nlp, char *err, size_t errlen);
void lq_nl_close(struct lq_nl *nl);
const char *lq_nl_err(const struct lq_nl *nl);

/* Times the events socket overflowed: events lost in userspace. */
u64 lq_nl_overruns(const struct lq_nl *nl);

int lq_nl_get_dev(struct lq_nl *nl, const char *name, struct lq_dev *d);
/* Every lunq device, sorted by name; *devs is malloc'ed. */
int lq_nl_dump(struct lq_nl *nl, struct lq_dev **devs, int *n);
/* h->counts must hold LUNQ_HIST_BUCKETS entries. */
int lq_nl_get_hist(struct lq_nl *nl, const char *name, u32 kind,
		   struct lq_hist *h);
int lq_nl_set(struct lq_nl *nl, const char *name, const char *policy);
int lq_nl_reset(struct lq_nl *nl, const char *name);

/* Join "events"; then lq_nl_events_wait() until it returns non-zero. */
int lq_nl_events_join(struct lq_nl *nl);
/*
 * Wait up to @timeout_ms (-1: forever) and hand every event to @cb.
 * Returns LQ_OK (also on timeout or EINTR) or an error code.
 */
int lq_nl_events_wait(struct lq_nl *nl, int timeout_ms,
		      void (*cb)(const struct lq_event *ev, void *arg),
		      void *arg);

#endif /* LUNQCTL_NL_H */
