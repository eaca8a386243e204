// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq device registry and its sysfs directories, see lunq_dev.h.
 */
#include <linux/device-mapper.h>
#include <linux/blkdev.h>
#include <linux/hash.h>
#include <linux/hashtable.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/stringhash.h>
#include "lunq_core.h"
#include "lunq_dev.h"

#define DM_MSG_PREFIX "lunq"

/*
 * Buckets of each hash table, as a power of 2: 2^10 keeps a host's
 * thousand LUNs (issue 65: 256 LUNs over four paths) at one entry a
 * bucket on average, for 8 KiB a table; more devices only lengthen the
 * chains.
 */
#define LUNQ_DEV_HASH_BITS	10

/* the registry, and every entry's ->lc (readers: sysfs, netlink) */
DEFINE_MUTEX(lunq_devs_lock);
DEFINE_XARRAY_ALLOC(lunq_devs);
static u32 lunq_devs_next;			/* xa_alloc_cyclic's cursor */
static DEFINE_HASHTABLE(lunq_devs_by_name, LUNQ_DEV_HASH_BITS);
static DEFINE_HASHTABLE(lunq_devs_by_md, LUNQ_DEV_HASH_BITS);

static struct kobject *lunq_root;	/* /sys/kernel/lunq */
static struct kobject *lunq_by_dev;	/* /sys/kernel/lunq/by-dev */

static void lunq_dev_release(struct kobject *kobj)
{
	struct lunq_dev *d = container_of(kobj, struct lunq_dev, kobj);

	xa_erase(&lunq_devs, d->id);	/* the id, reserved until now */
	kfree(d);
}

static struct kobj_type lunq_dev_ktype = {
	.release = lunq_dev_release,
	.sysfs_ops = &kobj_sysfs_ops,
};

/* An entry with its id reserved (a NULL entry: walks skip it). */
struct lunq_dev *lunq_dev_alloc(void)
{
	struct lunq_dev *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		return NULL;
	if (xa_alloc_cyclic(&lunq_devs, &d->id, NULL, xa_limit_32b,
			    &lunq_devs_next, GFP_KERNEL) < 0) {
		kfree(d);
		return NULL;
	}
	kobject_init(&d->kobj, &lunq_dev_ktype);
	return d;
}

static u32 lunq_dev_name_hash(const char *name)
{
	return full_name_hash(NULL, name, strlen(name));
}

static u32 lunq_dev_md_hash(struct mapped_device *md, sector_t begin)
{
	return hash_ptr(md, 32) ^ hash_64(begin, 32);
}

struct lunq_dev *lunq_dev_find(const char *name)
{
	struct lunq_dev *d;

	hash_for_each_possible(lunq_devs_by_name, d, by_name,
			       lunq_dev_name_hash(name))
		if (!strcmp(d->name, name))
			return d;
	return NULL;
}

static void lunq_dev_names(struct lunq_c *lc, char *name, char *disk)
{
	struct mapped_device *md = dm_table_get_md(lc->ti->table);
	struct gendisk *gd = dm_disk(md);
	sector_t begin = lc->ti->begin;
	char dmname[DM_NAME_LEN];

	/* the name dmsetup knows (dm_device_name() is "MAJ:MIN") */
	if (dm_copy_name_and_uuid(md, dmname, NULL))
		strscpy(dmname, dm_device_name(md), sizeof(dmname));
	if (begin) {
		snprintf(name, LUNQ_NAME_MAX, "%s@%llu", dmname,
			 (unsigned long long)begin);
		snprintf(disk, 24, "%s@%llu", gd->disk_name,
			 (unsigned long long)begin);
	} else {
		strscpy(name, dmname, LUNQ_NAME_MAX);
		strscpy(disk, gd->disk_name, 24);
	}
}

/*
 * Is @name free for a directory?  Another device may still hold it (a
 * renamed device not resumed since, or one being removed), and "by-dev"
 * is ours.  Under lunq_devs_lock.
 */
static bool lunq_dev_name_free(const char *name)
{
	return strcmp(name, "by-dev") && !lunq_dev_find(name);
}

void lunq_dev_attach(struct lunq_c *lc)
{
	struct mapped_device *md = dm_table_get_md(lc->ti->table);
	char name[LUNQ_NAME_MAX], disk[24];
	struct lunq_dev *d;
	unsigned int noio;
	int ret;

	lunq_dev_names(lc, name, disk);
	/* the device is suspended: allocations must not write to it */
	noio = memalloc_noio_save();
	mutex_lock(&lunq_devs_lock);
	hash_for_each_possible(lunq_devs_by_md, d, by_md,
			       lunq_dev_md_hash(md, lc->ti->begin)) {
		if (d->md != md || d->begin != lc->ti->begin)
			continue;
		if (d->lc != lc) {
			/* a reload: the old table is suspended, take over */
			if (d->lc)
				lunq_take_over(lc, d->lc);
			d->lc = lc;
			lc->sysdev = d;
		}
		if (strcmp(d->name, name) && d->in_sysfs &&
		    lunq_dev_name_free(name) &&
		    !kobject_rename(&d->kobj, name)) {	/* dmsetup rename */
			strscpy(d->name, name, sizeof(d->name));
			hash_del(&d->by_name);
			hash_add(lunq_devs_by_name, &d->by_name,
				 lunq_dev_name_hash(d->name));
		}
		goto out;
	}
	/* taken: the directory is named after dm-N (unique) instead */
	if (!lunq_dev_name_free(name))
		strscpy(name, disk, sizeof(name));
	d = lc->spare;
	lc->spare = NULL;
	d->md = md;
	d->begin = lc->ti->begin;
	d->lc = lc;
	strscpy(d->name, name, sizeof(d->name));
	strscpy(d->disk, disk, sizeof(d->disk));
	/* the id's slot exists (reserved): storing allocates nothing */
	xa_store(&lunq_devs, d->id, d, GFP_NOWAIT);
	hash_add(lunq_devs_by_name, &d->by_name, lunq_dev_name_hash(d->name));
	hash_add(lunq_devs_by_md, &d->by_md, lunq_dev_md_hash(md, d->begin));
	lc->sysdev = d;
	ret = kobject_add(&d->kobj, lunq_root, "%s", d->name);
	if (ret) {
		DMWARN("%s: no sysfs directory (error %d)", d->name, ret);
	} else {
		d->in_sysfs = true;
		d->linked = !sysfs_create_link(lunq_by_dev, &d->kobj, d->disk);
	}
out:
	mutex_unlock(&lunq_devs_lock);
	memalloc_noio_restore(noio);
	lunq_evq_set_name(&lc->evq, d->name);
}

void lunq_dev_detach(struct lunq_c *lc)
{
	struct lunq_dev *d = NULL;

	mutex_lock(&lunq_devs_lock);
	if (lc->sysdev && lc->sysdev->lc == lc) {
		d = lc->sysdev;
		d->lc = NULL;
		/* NULL: the id stays reserved until the entry is freed */
		xa_store(&lunq_devs, d->id, NULL, GFP_NOWAIT);
		hash_del(&d->by_name);
		hash_del(&d->by_md);
	}
	mutex_unlock(&lunq_devs_lock);
	lc->sysdev = NULL;
	if (lc->spare)
		kobject_put(&lc->spare->kobj);
	lc->spare = NULL;
	if (!d)
		return;
	/* outside the lock: removal waits for readers, which take it */
	if (d->linked)
		sysfs_remove_link(lunq_by_dev, d->disk);
	if (d->in_sysfs)
		kobject_del(&d->kobj);
	kobject_put(&d->kobj);
}

int lunq_dev_init(const struct attribute_group **groups)
{
	lunq_dev_ktype.default_groups = groups;
	lunq_root = kobject_create_and_add("lunq", kernel_kobj);
	if (!lunq_root)
		return -ENOMEM;
	lunq_by_dev = kobject_create_and_add("by-dev", lunq_root);
	if (!lunq_by_dev) {
		kobject_put(lunq_root);
		return -ENOMEM;
	}
	return 0;
}

void lunq_dev_exit(void)
{
	kobject_put(lunq_by_dev);
	kobject_put(lunq_root);
}
