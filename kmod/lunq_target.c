// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq: a device-mapper target for experimenting with block-IO
 * throttling and scheduling.  Stacked on any block device, it models what
 * a disk driver (host side: queue-depth throttle, wait queue) and a storage
 * LUN (command slots, QUEUE FULL, service time) do to every IO.
 *
 * Table line:  <dev_path> <offset> [<#opt_args> <opt_arg>...]
 * where each opt_arg is a "key:value" word (see lunq_args.c and
 * kmod/dm-lunq.rst).  This file is the device-mapper plumbing only; the
 * policies live in files free of bio handling.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/device-mapper.h>

#include "lunq_args.h"

#define DM_MSG_PREFIX "lunq"

/*
 * Per-bio data, reserved by device-mapper in front of every clone
 * (ti->per_io_data_size), so the IO path never allocates.  Later policies
 * link waiting bios through it.
 */
struct lunq_io {
	unsigned int flags;
};

#define LUNQ_IO_SENT	0x1	/* handed to the lower device */

/* Hot counters, one copy per CPU, summed when read. */
struct lunq_pcpu {
	u64 sent;
	u64 completed;
};

struct lunq_c {
	struct dm_target *ti;
	struct dm_dev *dev;
	sector_t start;
	struct lunq_policy policy;
	struct lunq_pcpu __percpu *stats;
};

static void lunq_dtr(struct dm_target *ti)
{
	struct lunq_c *lc = ti->private;

	if (lc->dev)
		dm_put_device(ti, lc->dev);
	free_percpu(lc->stats);
	kfree(lc);
}

static int lunq_parse_opts(struct lunq_c *lc, struct dm_arg_set *as)
{
	static const struct dm_arg opt_args = {
		0, 2 * LUNQ_NR_KEYS, "Invalid number of optional arguments"
	};
	struct dm_target *ti = lc->ti;
	unsigned int n;
	u32 seen = 0;
	int ret;

	if (!as->argc)
		return 0;
	ret = dm_read_arg_group(&opt_args, as, &n, &ti->error);
	if (ret)
		return ret;
	while (n--) {
		const char *word = dm_shift_arg(as);
		enum lunq_arg_err err;
		enum lunq_key key;

		err = lunq_parse_word(&lc->policy, word, &seen, &key);
		if (err) {
			ti->error = (char *)lunq_arg_error(err, key);
			DMERR("rejected optional argument '%.64s': %s",
			      word, ti->error);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Construct a lunq mapping: <dev_path> <offset> [<#opt_args> <opt_arg>...]
 */
static int lunq_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	struct dm_arg_set as = { .argc = argc, .argv = argv };
	unsigned long long start;
	const char *path;
	struct lunq_c *lc;
	sector_t dev_size;
	char dummy;
	int ret;

	if (argc < 2) {
		ti->error = "Missing <dev_path> or <offset>";
		return -EINVAL;
	}

	lc = kzalloc(sizeof(*lc), GFP_KERNEL);
	if (!lc) {
		ti->error = "Cannot allocate lunq context";
		return -ENOMEM;
	}
	lc->ti = ti;
	ti->private = lc;
	lunq_policy_init(&lc->policy);

	path = dm_shift_arg(&as);
	ret = -EINVAL;
	if (sscanf(dm_shift_arg(&as), "%llu%c", &start, &dummy) != 1 ||
	    start != (sector_t)start) {
		ti->error = "Invalid offset: must be a sector number";
		goto bad;
	}
	lc->start = start;

	ret = lunq_parse_opts(lc, &as);
	if (ret)
		goto bad;
	if (as.argc) {
		ti->error = "Too many arguments after the optional arguments";
		ret = -EINVAL;
		goto bad;
	}

	ret = dm_get_device(ti, path, dm_table_get_mode(ti->table), &lc->dev);
	if (ret) {
		ti->error = "Cannot open the lower device (check dev_path)";
		goto bad;
	}
	dev_size = bdev_nr_sectors(lc->dev->bdev);
	if (lc->start >= dev_size || ti->len > dev_size - lc->start) {
		ti->error = "Offset plus length exceeds the lower device";
		ret = -EINVAL;
		goto bad;
	}

	lc->stats = alloc_percpu(struct lunq_pcpu);
	if (!lc->stats) {
		ti->error = "Cannot allocate per-CPU counters";
		ret = -ENOMEM;
		goto bad;
	}

	ti->num_flush_bios = 1;
	ti->num_discard_bios = 1;
	ti->num_secure_erase_bios = 1;
	ti->num_write_zeroes_bios = 1;
	ti->per_io_data_size = sizeof(struct lunq_io);
	/* We call dm_submit_bio_remap(): dm accounts time from there on. */
	ti->accounts_remapped_io = true;
	return 0;

bad:
	lunq_dtr(ti);
	return ret;
}

/*
 * Send @bio to the lower device.  The bio must not be touched afterwards:
 * it may complete before dm_submit_bio_remap() returns.
 */
static void lunq_send(struct lunq_c *lc, struct bio *bio)
{
	struct lunq_io *io = dm_per_bio_data(bio, sizeof(struct lunq_io));

	bio_set_dev(bio, lc->dev->bdev);
	if (bio_sectors(bio) || op_is_zone_mgmt(bio_op(bio)))
		bio->bi_iter.bi_sector = lc->start +
			dm_target_offset(lc->ti, bio->bi_iter.bi_sector);
	io->flags |= LUNQ_IO_SENT;
	this_cpu_inc(lc->stats->sent);
	dm_submit_bio_remap(bio, NULL);
}

static int lunq_map(struct dm_target *ti, struct bio *bio)
{
	struct lunq_io *io = dm_per_bio_data(bio, sizeof(struct lunq_io));

	io->flags = 0;
	lunq_send(ti->private, bio);
	return DM_MAPIO_SUBMITTED;
}

static int lunq_end_io(struct dm_target *ti, struct bio *bio,
		       blk_status_t *error)
{
	struct lunq_io *io = dm_per_bio_data(bio, sizeof(struct lunq_io));
	struct lunq_c *lc = ti->private;

	if (io->flags & LUNQ_IO_SENT)
		this_cpu_inc(lc->stats->completed);
	return DM_ENDIO_DONE;
}

static void lunq_sum(struct lunq_c *lc, struct lunq_pcpu *sum)
{
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		struct lunq_pcpu *s = per_cpu_ptr(lc->stats, cpu);

		sum->sent += READ_ONCE(s->sent);
		sum->completed += READ_ONCE(s->completed);
	}
}

/*
 * INFO is a list of key=value words; new keys are only ever appended.
 * TABLE echoes a line that recreates the device.
 */
static void lunq_status(struct dm_target *ti, status_type_t type,
			unsigned int status_flags, char *result,
			unsigned int maxlen)
{
	struct lunq_c *lc = ti->private;
	struct lunq_pcpu sum;
	unsigned int nopt;
	size_t sz = 0;

	switch (type) {
	case STATUSTYPE_INFO:
		lunq_sum(lc, &sum);
		DMEMIT("inflight=%llu sent=%llu completed=%llu",
		       sum.sent > sum.completed ? sum.sent - sum.completed : 0,
		       sum.sent, sum.completed);
		break;

	case STATUSTYPE_TABLE:
		DMEMIT("%s %llu", lc->dev->name, (unsigned long long)lc->start);
		nopt = hweight32(lc->policy.given);
		if (nopt) {
			DMEMIT(" %u ", nopt);
			lunq_policy_format(&lc->policy, result + sz, maxlen - sz);
		}
		break;

	case STATUSTYPE_IMA:
		DMEMIT_TARGET_NAME_VERSION(ti->type);
		DMEMIT(",device_name=%s,start=%llu;", lc->dev->name,
		       (unsigned long long)lc->start);
		break;
	}
}

static int lunq_iterate_devices(struct dm_target *ti,
				iterate_devices_callout_fn fn, void *data)
{
	struct lunq_c *lc = ti->private;

	return fn(ti, lc->dev, lc->start, ti->len, data);
}

/*
 * Device-mapper stacks the lower device's limits through
 * iterate_devices, so a pass-through LUN looks exactly like the device
 * below it (block sizes, discard and write-zeroes limits, write cache).
 * This is the place where an emulated LUN will later advertise limits of
 * its own (the pblk model's physical block size).
 */
static void lunq_io_hints(struct dm_target *ti, struct queue_limits *limits)
{
}

static struct target_type lunq_target = {
	.name		 = "lunq",
	.version	 = {0, 1, 0},
	.features	 = DM_TARGET_NOWAIT,
	.module		 = THIS_MODULE,
	.ctr		 = lunq_ctr,
	.dtr		 = lunq_dtr,
	.map		 = lunq_map,
	.end_io		 = lunq_end_io,
	.status		 = lunq_status,
	.iterate_devices = lunq_iterate_devices,
	.io_hints	 = lunq_io_hints,
};

static int __init dm_lunq_init(void)
{
	int ret = dm_register_target(&lunq_target);

	if (ret)
		DMERR("register failed %d", ret);
	return ret;
}

static void __exit dm_lunq_exit(void)
{
	dm_unregister_target(&lunq_target);
}

module_init(dm_lunq_init);
module_exit(dm_lunq_exit);

MODULE_DESCRIPTION(DM_NAME " lunq target: per-LUN throttling and scheduling lab");
MODULE_AUTHOR("The lunq developers");
MODULE_LICENSE("GPL");
