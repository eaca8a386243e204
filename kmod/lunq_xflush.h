/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq, TEST-ONLY: the negative control of the crash-consistency tests
 * (tests/vm/t-crash-control.sh, on tests/vm/crash-lib.sh).  Built only
 * with LUNQ_TEST_XFLUSH=y (`make kmod-xflush`, build/kmod-xflush/); in
 * every other build these are empty inlines and lunq_xflush.c is not
 * compiled.
 *
 * With the module parameter xflush_every=N > 0, every Nth plain write
 * (data, no PREFLUSH, no FUA) is copied and acknowledged at once, and
 * the copy reaches the lower device only after the next flush has
 * completed: a volatile write cache that ignores flushes.  The write so
 * crosses the flush, which the replay test must catch.
 */
#ifndef LUNQ_XFLUSH_H
#define LUNQ_XFLUSH_H

#include <linux/bio.h>

#ifdef LUNQ_TEST_XFLUSH
/* @bio, mapped to the lower device: true when taken (already ended) */
bool lunq_xflush_take(struct bio *bio);
/* a flush completed: the writes held so far go down now */
void lunq_xflush_flushed(void);
/* write every held copy and wait for them (suspend, module exit) */
void lunq_xflush_drain(void);
void lunq_xflush_init(void);
#else
static inline bool lunq_xflush_take(struct bio *bio) { return false; }
static inline void lunq_xflush_flushed(void) { }
static inline void lunq_xflush_drain(void) { }
static inline void lunq_xflush_init(void) { }
#endif

#endif /* LUNQ_XFLUSH_H */
