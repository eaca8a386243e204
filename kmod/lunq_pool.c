// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq named pools: the registry (see lunq_pool.h).  The slot
 * accounting itself is in lunq_lun.c.
 */
#include <linux/err.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "lunq_args.h"
#include "lunq_pool.h"

struct lunq_pool_entry {
	struct lunq_pool slots;
	struct list_head node;
	unsigned int refs;		/* tables naming the pool */
	char name[LUNQ_POOL_NAME_MAX + 1];
};

/* Guards the list and the reference counts; taken by ctr and dtr only. */
static DEFINE_MUTEX(lunq_pools_lock);
static LIST_HEAD(lunq_pools);

struct lunq_pool *lunq_pool_get(const char *name, u32 depth, const char **err)
{
	struct lunq_pool_entry *e;
	int ret = -EINVAL;

	mutex_lock(&lunq_pools_lock);
	list_for_each_entry(e, &lunq_pools, node) {
		if (strcmp(e->name, name))
			continue;
		if (depth && depth != e->slots.depth) {
			*err = "pool_depth: differs from the depth of the existing pool of that name";
			e = NULL;
		} else {
			e->refs++;
		}
		goto out;
	}
	e = NULL;
	if (!depth) {
		*err = "pool_depth: needed by the first table that names a pool";
		goto out;
	}
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e) {
		*err = "Cannot allocate the pool";
		ret = -ENOMEM;
		goto out;
	}
	lunq_pool_init_slots(&e->slots, depth);
	e->slots.t0 = ktime_get_ns();
	strscpy(e->name, name, sizeof(e->name));
	e->refs = 1;
	list_add(&e->node, &lunq_pools);
out:
	mutex_unlock(&lunq_pools_lock);
	return e ? &e->slots : ERR_PTR(ret);
}

void lunq_pool_put(struct lunq_pool *pool)
{
	struct lunq_pool_entry *e = container_of(pool, struct lunq_pool_entry,
						 slots);

	mutex_lock(&lunq_pools_lock);
	if (!--e->refs) {
		list_del(&e->node);
		WARN_ON_ONCE(atomic_read(&pool->inflight));
		kfree(e);
	}
	mutex_unlock(&lunq_pools_lock);
}

const char *lunq_pool_name(const struct lunq_pool *pool)
{
	return container_of(pool, struct lunq_pool_entry, slots)->name;
}
