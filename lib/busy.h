/* SPDX-License-Identifier: GPL-2.0 */
/*
 * liblunq: what keeps a block device busy.  The kernel refuses an
 * exclusive open (O_EXCL: EBUSY) of a device that is mounted, held by dm
 * or md, a swap area, or opened exclusively by another program; both
 * tools then name what they find: lunqbench's refusal to write, lunqctl
 * create's and remove's "in use".  Libc only; every path is read under a
 * root directory, so a test can hand it a fixture tree.
 */
#ifndef LIBLUNQ_BUSY_H
#define LIBLUNQ_BUSY_H

#include <stdbool.h>
#include <stddef.h>

enum lq_use_kind {
	LQ_USE_MOUNT,		/* a mount point in mountinfo */
	LQ_USE_HOLDER,		/* an entry of sysfs's holders/ */
	LQ_USE_SWAP,		/* a swap area in /proc/swaps */
};

/* One thing that keeps a block device busy. */
struct lq_use {
	enum lq_use_kind kind;
	const char *part;	/* the partition it is on ("sdb1"), NULL: the
				 * device itself */
	const char *name;	/* the mount point (unescaped: "\040" is a
				 * space) or the holder ("dm-3"); NULL: swap */
	const char *dm;		/* a holder's dm name, NULL when it has none */
};

/* Called for each use found; true stops the walk. */
typedef bool lq_use_fn(const struct lq_use *u, void *arg);

/*
 * The uses of block device @maj:@min (opened as @path, or NULL), then
 * those of each of its partitions (by name); for each device its mounts
 * (in mountinfo's order), its holders (by name), a swap area.  Reads
 * @root/proc/self/mountinfo, @root/proc/swaps and @root/sys/dev/block/
 * (@root "" or NULL: the real ones).  True when @fn stopped the walk.
 */
bool lq_busy_walk(const char *root, unsigned int maj, unsigned int min,
		  const char *path, lq_use_fn *fn, void *arg);

/*
 * The first use as one reason, into @buf: "mounted on /mnt", "held by
 * dm-0 (lq)", "a swap area", "partition sdb1 mounted on /mnt", else "in
 * use (opened exclusively by another program)" (lunqbench's refusal).
 */
void lq_busy_reason(const char *root, unsigned int maj, unsigned int min,
		    const char *path, char *buf, size_t n);

#endif /* LIBLUNQ_BUSY_H */
