/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq device registry: one entry per lunq target of a live table,
 * shown as /sys/kernel/lunq/<name>/ (name: the dm device's name, with
 * "@<begin>" appended for a target not starting at sector 0) and linked
 * from /sys/kernel/lunq/by-dev/dm-N[@<begin>].
 *
 * Hand-over: device-mapper constructs a new table while the old one is
 * live, and gives targets no sysfs hook.  So the entry belongs to the
 * mapped device, not to a table: the first resume of a table creates it,
 * a later table's resume takes it over (and adds the old table's
 * statistics to its own: the old table is suspended by then), and the dtr
 * of the table it points to removes it (device removed, or reloaded with
 * another target).  Readers (sysfs, netlink) find the live table through
 * the entry under lunq_devs_lock, so a file read while the device goes
 * away answers -ENODEV instead of touching a freed table.
 */
#ifndef LUNQ_DEV_H
#define LUNQ_DEV_H

#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/xarray.h>
#include "uapi/lunq.h"

struct lunq_c;

struct lunq_dev {
	struct kobject kobj;
	u32 id;				/* index in lunq_devs, from the ctr */
	struct hlist_node by_name;	/* lunq_dev_find()'s table */
	struct hlist_node by_md;	/* (md, begin): the attach's table */
	struct mapped_device *md;
	sector_t begin;
	char name[LUNQ_NAME_MAX];
	char disk[24];			/* "dm-N", "dm-N@begin" */
	struct lunq_c *lc;		/* live target; under lunq_devs_lock */
	bool in_sysfs, linked;
};

/*
 * The registry: lunq_devs holds every attached entry at its id (ids are
 * reserved by lunq_dev_alloc() and given out cyclically: a netlink dump
 * resumes after the last id it sent, so it neither repeats nor skips an
 * entry that stays; one created meanwhile at a lower id, after the ids
 * wrapped, waits for the next dump); names and (md, begin) are found
 * through hash tables.  Every lookup is O(1) and a walk O(n) however many devices
 * there are.  Under lunq_devs_lock.
 */
extern struct mutex lunq_devs_lock;
extern struct xarray lunq_devs;

struct lunq_dev *lunq_dev_alloc(void);		/* the ctr: NULL, -ENOMEM */
struct lunq_dev *lunq_dev_find(const char *name);	/* or NULL */
void lunq_dev_attach(struct lunq_c *lc);	/* .resume */
void lunq_dev_detach(struct lunq_c *lc);	/* .dtr */

/* @groups: the attributes of every entry's directory (lunq_sysfs.h) */
int lunq_dev_init(const struct attribute_group **groups);
void lunq_dev_exit(void);

#endif /* LUNQ_DEV_H */
