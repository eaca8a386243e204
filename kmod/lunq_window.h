/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq's window work: for a policy with a window callback (auto, and
 * any policy loaded from outside), the work that cuts windows from the
 * statistics the device keeps anyway and gives the policy their figures;
 * the depth it answers goes to the throttle (lunq_window.c).
 */
#ifndef LUNQ_WINDOW_H
#define LUNQ_WINDOW_H

#include <linux/workqueue.h>
#include "lunq_wd.h"

struct lunq_c;
struct lunq_keys;

struct lunq_policy_ops;
struct lunq_pol_window;

/*
 * The tick's part for a policy from outside @ops (lunq_pol_dev.c registers
 * it, so this layer calls nothing above it): the watchdog's verdict @rule
 * (enum lunq_wd_rule, @rule_ns), @qf QUEUE FULLs to report, the window @s
 * when @ready.  It calls the policy outside the device's lock.  Returns
 * whether to kick.
 */
typedef bool (*lunq_win_ext_fn)(struct lunq_c *lc,
				const struct lunq_policy_ops *ops,
				enum lunq_wd_rule rule, u64 rule_ns, u32 qf,
				struct lunq_pol_window *s, bool ready);
void lunq_win_set_ext(lunq_win_ext_fn fn);

/* The module's window scratch buffers (module init and exit). */
int lunq_win_init(void);
void lunq_win_exit(void);
/* The delayed work of struct lunq_c.win_work (lunq_core_alloc()). */
void lunq_win_work(struct work_struct *work);
/* Whether the policy the table's keys @p select has a window callback. */
bool lunq_win_needed(const struct lunq_keys *p);
/*
 * The window's buffers when @need (may sleep, never on IO: a noio
 * allocation; 0 or -ENOMEM); freed by lunq_win_free().
 */
int lunq_win_alloc(struct lunq_c *lc, bool need);
/* Their bytes, for a context allocated with them (lunq_core_alloc()). */
size_t lunq_win_bytes(void);
void lunq_win_free(struct lunq_c *lc);
/* Resume and suspend (stop waits for a running tick). */
void lunq_win_start(struct lunq_c *lc);
void lunq_win_stop(struct lunq_c *lc);
/* After a policy change, under the device lock. */
void lunq_win_kick(struct lunq_c *lc);
/*
 * Auto in a pool, in the IO path under the device lock, when the pool's
 * acap moved (lunq_pool_news()): the fair share cuts the throttle now,
 * not at the next tick.  It only ever cuts, so nothing needs a kick.
 */
void lunq_win_pool_news(struct lunq_c *lc, u64 now);

#endif /* LUNQ_WINDOW_H */
