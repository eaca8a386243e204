// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq: refuse a table whose lower device leads back to this device.
 *
 * A lunq device mapped onto itself, or onto a device from which it can be
 * reached again (lunq over linear over lunq, ...), sends every bio around
 * the cycle for ever: on 6.1 the first read hangs in D state, on 6.12 it
 * fills the slab until the OOM killer takes the machine.  The block layer
 * refuses only the direct self-map, and only from 6.2 on.
 *
 * The chain is walked in the holder graph the kernel keeps for stacked
 * devices: bd_link_disk_holder() (called by dm for every device a loaded
 * table opens, live or inactive, and by md for its members) records each
 * lower device in the holder disk's "slaves" directory in sysfs.  Its
 * in-memory list (gendisk->slave_bdevs) is guarded by disk->open_mutex on
 * 6.1 but by a mutex private to block/holder.c on 6.12, so a module cannot
 * read it safely; the sysfs directories are the same graph with kernfs's
 * own locking, read here through the VFS (process context: the table load
 * ioctl).  Nothing on the walk opens a block device or waits for IO, so a
 * suspended device in the chain does not make it sleep.
 *
 * Races: the constructor calls this after dm_get_device(), i.e. after its
 * own holder link exists.  Of two loads that would close a cycle between
 * them, the one that walks second sees the other's link; links made by
 * loads of other targets (dm-linear) after this walk are not seen: a cycle
 * closed by reloading a non-lunq device is not refused (dm-lunq.rst).
 */
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/kdev_t.h>

#include "lunq_compat.h"
#include "lunq_loop.h"

#define LUNQ_LOOP_DEPTH	16	/* devices on one chain below ours */
#define LUNQ_LOOP_NODES	256	/* distinct devices visited */
#define LUNQ_LOOP_NAME	32	/* DISK_NAME_LEN; partition names fit too */
#define LUNQ_LOOP_KIDS	128	/* lower devices of one device */

struct lunq_loop_walk {
	const char *self;
	int depth;
	char path[LUNQ_LOOP_DEPTH][LUNQ_LOOP_NAME];
	int nseen;
	char seen[LUNQ_LOOP_NODES][LUNQ_LOOP_NAME];
};

struct lunq_loop_dir {
	struct dir_context ctx;
	int n;
	bool overflow;
	char (*names)[LUNQ_LOOP_NAME];
};

static bool lunq_loop_filldir_one(struct lunq_loop_dir *d, const char *name,
				  int len)
{
	if (name[0] == '.')
		return true;
	if (d->n >= LUNQ_LOOP_KIDS || len >= LUNQ_LOOP_NAME) {
		d->overflow = true;
		return false;
	}
	memcpy(d->names[d->n], name, len);
	d->names[d->n][len] = '\0';
	d->n++;
	return true;
}

static LUNQ_FILLDIR_RET lunq_loop_filldir(struct dir_context *ctx,
					  const char *name, int len,
					  loff_t off, u64 ino,
					  unsigned int type)
{
	struct lunq_loop_dir *d = container_of(ctx, struct lunq_loop_dir, ctx);

	return LUNQ_FILLDIR_VAL(lunq_loop_filldir_one(d, name, len));
}

/*
 * The lower devices of block device @name (a disk, or a partition: then
 * its disk's): the entries of its "slaves" directory.  Returns their
 * number, -ENOENT when there is no such directory, -E2BIG on too many.
 */
static int lunq_loop_slaves(const char *name,
			    char (*names)[LUNQ_LOOP_NAME])
{
	struct lunq_loop_dir d = { .ctx.actor = lunq_loop_filldir,
				   .names = names };
	char path[96];
	struct file *f;
	int ret;

	snprintf(path, sizeof(path), "/sys/class/block/%s/slaves", name);
	f = filp_open(path, O_RDONLY | O_DIRECTORY, 0);
	if (IS_ERR(f)) {
		/* a partition: /sys/class/block/sda1/.. is sda */
		snprintf(path, sizeof(path), "/sys/class/block/%s/../slaves",
			 name);
		f = filp_open(path, O_RDONLY | O_DIRECTORY, 0);
	}
	if (IS_ERR(f))
		return PTR_ERR(f);
	ret = iterate_dir(f, &d.ctx);
	filp_close(f, NULL);
	if (ret)
		return ret;
	return d.overflow ? -E2BIG : d.n;
}

/* "MAJ:MIN" of block device @name, from its sysfs "dev" file */
static void lunq_loop_devno(const char *name, char *buf, size_t len)
{
	char path[96], tmp[24];
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	strscpy(buf, name, len);	/* its name if the number is unknown */
	snprintf(path, sizeof(path), "/sys/class/block/%s/dev", name);
	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return;
	n = kernel_read(f, tmp, sizeof(tmp) - 1, &pos);
	filp_close(f, NULL);
	if (n <= 0)
		return;
	tmp[n] = '\0';
	tmp[strcspn(tmp, "\n")] = '\0';
	strscpy(buf, tmp, len);
}

/* sysfs at /sys in this process's mount namespace */
static bool lunq_loop_have_sysfs(void)
{
	struct file *f = filp_open("/sys/class/block", O_RDONLY | O_DIRECTORY, 0);

	if (IS_ERR(f))
		return false;
	filp_close(f, NULL);
	return true;
}

static bool lunq_loop_seen(struct lunq_loop_walk *w, const char *name)
{
	int i;

	for (i = 0; i < w->nseen; i++)
		if (!strcmp(w->seen[i], name))
			return true;
	return false;
}

/*
 * Depth-first from @name (pushed on w->path): 1 if self is reached (the
 * path then ends at self), 0 if not, -errno if the walk could not finish.
 */
static int lunq_loop_dfs(struct lunq_loop_walk *w, const char *name)
{
	char (*kids)[LUNQ_LOOP_NAME];
	int i, n, ret = 0;

	if (w->depth >= LUNQ_LOOP_DEPTH)
		return -E2BIG;
	strscpy(w->path[w->depth++], name, LUNQ_LOOP_NAME);
	if (!strcmp(name, w->self))
		return 1;
	if (lunq_loop_seen(w, name))
		goto out;

	kids = kcalloc(LUNQ_LOOP_KIDS, LUNQ_LOOP_NAME, GFP_KERNEL);
	if (!kids)
		return -ENOMEM;
	n = lunq_loop_slaves(name, kids);
	if (n == -ENOENT)
		n = 0;		/* a device with no slaves directory */
	for (i = 0; i < n && !ret; i++)
		ret = lunq_loop_dfs(w, kids[i]);
	kfree(kids);
	if (n < 0)
		return n;
	if (ret)
		return ret;
	if (w->nseen >= LUNQ_LOOP_NODES)
		return -E2BIG;
	strscpy(w->seen[w->nseen++], name, LUNQ_LOOP_NAME);
out:
	w->depth--;
	return 0;
}

/*
 * ti->error must outlive the constructor (dm prints it after the ctr
 * returns, then frees the target): a few static buffers, taken in turn.
 */
static char lunq_loop_msgs[4][LUNQ_LOOP_MSG];
static atomic_t lunq_loop_msg_next = ATOMIC_INIT(0);

static const char *lunq_loop_msg(struct lunq_loop_walk *w, const char *lower)
{
	char *m = lunq_loop_msgs[atomic_inc_return(&lunq_loop_msg_next) &
				 (ARRAY_SIZE(lunq_loop_msgs) - 1)];
	char num[24];
	size_t len;
	int i;

	lunq_loop_devno(lower, num, sizeof(num));
	len = scnprintf(m, LUNQ_LOOP_MSG,
			"lower device %s leads back to this device (", num);
	lunq_loop_devno(w->self, num, sizeof(num));
	len += scnprintf(m + len, LUNQ_LOOP_MSG - len, "%s", num);
	for (i = 0; i < w->depth; i++) {
		lunq_loop_devno(w->path[i], num, sizeof(num));
		len += scnprintf(m + len, LUNQ_LOOP_MSG - len, " -> %s", num);
	}
	scnprintf(m + len, LUNQ_LOOP_MSG - len, ")");
	return m;
}

static const char *lunq_loop_fixed_msg(dev_t self)
{
	char *m = lunq_loop_msgs[atomic_inc_return(&lunq_loop_msg_next) &
				 (ARRAY_SIZE(lunq_loop_msgs) - 1)];

	scnprintf(m, LUNQ_LOOP_MSG,
		  "lower device %u:%u leads back to this device (%u:%u -> %u:%u)",
		  MAJOR(self), MINOR(self), MAJOR(self), MINOR(self),
		  MAJOR(self), MINOR(self));
	return m;
}

const char *lunq_loop_self(struct dm_target *ti, const char *path)
{
	struct gendisk *disk = dm_disk(dm_table_get_md(ti->table));
	unsigned int maj, min;
	dev_t dev;
	char dummy;

	/* as dm_get_device() reads it: "MAJ:MIN" or a path */
	if (sscanf(path, "%u:%u%c", &maj, &min, &dummy) == 2) {
		dev = MKDEV(maj, min);
		if (MAJOR(dev) != maj || MINOR(dev) != min)
			return NULL;
	} else if (lookup_bdev(path, &dev)) {
		return NULL;	/* dm_get_device() will say why */
	}
	return dev == disk_devt(disk) ? lunq_loop_fixed_msg(dev) : NULL;
}

int lunq_loop_check(struct dm_target *ti, struct block_device *lower,
		    const char **error)
{
	struct gendisk *disk = dm_disk(dm_table_get_md(ti->table));
	struct lunq_loop_walk *w;
	char lname[LUNQ_LOOP_NAME];
	int ret;

	if (lower->bd_disk == disk) {
		*error = lunq_loop_fixed_msg(disk_devt(disk));
		return -ELOOP;
	}
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w) {
		*error = "Cannot allocate the device-loop check";
		return -ENOMEM;
	}
	w->self = disk->disk_name;
	snprintf(lname, sizeof(lname), "%pg", lower);
	if (!lunq_loop_have_sysfs()) {
		pr_warn_ratelimited("dm-lunq: %s: no /sys/class/block here: table not checked for a device loop\n",
				    w->self);
		kfree(w);
		return 0;
	}
	ret = lunq_loop_dfs(w, lname);
	if (ret == 1) {
		*error = lunq_loop_msg(w, lname);
		ret = -ELOOP;
	} else if (ret == -E2BIG) {
		*error = "The lower device's stack is too deep or wide to check for a loop (16 levels, 256 devices)";
		ret = -ELOOP;
	} else if (ret < 0) {
		*error = "Cannot check the lower device's stack for a loop";
	}
	kfree(w);
	return ret;
}
