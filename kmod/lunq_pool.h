/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq named pools: command slots shared by every lunq device whose
 * table names the same pool.  A pool is created by the first table that
 * names it (which must give pool_depth) and freed when the last table
 * naming it is destroyed; a table reload takes its reference before the
 * old table drops its own, so the pool and its count of commands in
 * flight carry across the reload.
 */
#ifndef LUNQ_POOL_H
#define LUNQ_POOL_H

#include "lunq_lun.h"

/*
 * Take a reference on pool @name, creating it with @depth slots if it does
 * not exist.  @depth 0 means "not given": the pool must exist.  On error
 * returns an ERR_PTR (-EINVAL: a depth rule, -ENOMEM) and sets *@err to a
 * constant message.
 */
struct lunq_pool *lunq_pool_get(const char *name, u32 depth, const char **err);
void lunq_pool_put(struct lunq_pool *pool);
const char *lunq_pool_name(const struct lunq_pool *pool);

#endif /* LUNQ_POOL_H */
