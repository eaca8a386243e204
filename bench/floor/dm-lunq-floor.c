// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq-floor: the floor of a pass-through target, for bench/overhead.sh.
 *
 * What any device-mapper target that keeps per-IO statistics must pay and
 * lunq cannot avoid: dm core's per-bio data (ti->per_io_data_size) and an
 * end_io callback, around a remap to the lower device.  It keeps nothing:
 * the map writes one word of its per-bio data, end_io reads it back.  So
 *   lunq's instructions per IO - the floor's = what lunq's own work costs
 *   the floor's - dm-linear's        = dm core's plumbing for such a target
 * Not part of lunq (bench/floor/build.sh builds it for the VM kernel; the
 * guest loads it from the project tree).
 *
 * Table: <start> <len> lunq_floor <dev> <offset>
 */
#include <linux/module.h>
#include <linux/device-mapper.h>
#include <linux/bio.h>

struct floor_c {
	struct dm_dev *dev;
	sector_t start;
};

struct floor_io {
	unsigned long mark;
};

static int floor_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	struct floor_c *fc;
	unsigned long long start;
	char dummy;
	int r;

	if (argc != 2) {
		ti->error = "need <dev> <offset>";
		return -EINVAL;
	}
	if (sscanf(argv[1], "%llu%c", &start, &dummy) != 1) {
		ti->error = "bad offset";
		return -EINVAL;
	}
	fc = kzalloc(sizeof(*fc), GFP_KERNEL);
	if (!fc)
		return -ENOMEM;
	fc->start = start;
	r = dm_get_device(ti, argv[0], dm_table_get_mode(ti->table), &fc->dev);
	if (r) {
		ti->error = "device lookup failed";
		kfree(fc);
		return r;
	}
	ti->num_flush_bios = 1;
	ti->num_discard_bios = 1;
	ti->per_io_data_size = sizeof(struct floor_io);
	ti->private = fc;
	return 0;
}

static void floor_dtr(struct dm_target *ti)
{
	struct floor_c *fc = ti->private;

	dm_put_device(ti, fc->dev);
	kfree(fc);
}

static int floor_map(struct dm_target *ti, struct bio *bio)
{
	struct floor_c *fc = ti->private;
	struct floor_io *io = dm_per_bio_data(bio, sizeof(*io));

	io->mark = 1;
	bio_set_dev(bio, fc->dev->bdev);
	if (bio_sectors(bio))
		bio->bi_iter.bi_sector = fc->start +
			dm_target_offset(ti, bio->bi_iter.bi_sector);
	return DM_MAPIO_REMAPPED;
}

static int floor_end_io(struct dm_target *ti, struct bio *bio,
			blk_status_t *error)
{
	struct floor_io *io = dm_per_bio_data(bio, sizeof(*io));

	WARN_ON_ONCE(io->mark != 1);
	return DM_ENDIO_DONE;
}

static int floor_iterate_devices(struct dm_target *ti,
				 iterate_devices_callout_fn fn, void *data)
{
	struct floor_c *fc = ti->private;

	return fn(ti, fc->dev, fc->start, ti->len, data);
}

static struct target_type floor_target = {
	.name		 = "lunq_floor",
	.version	 = {1, 0, 0},
	.features	 = DM_TARGET_NOWAIT,
	.module		 = THIS_MODULE,
	.ctr		 = floor_ctr,
	.dtr		 = floor_dtr,
	.map		 = floor_map,
	.end_io		 = floor_end_io,
	.iterate_devices = floor_iterate_devices,
};

static int __init floor_init(void)
{
	return dm_register_target(&floor_target);
}

static void __exit floor_exit(void)
{
	dm_unregister_target(&floor_target);
}

module_init(floor_init);
module_exit(floor_exit);
MODULE_DESCRIPTION("dm-lunq-floor: a minimal remap with per-bio data and end_io (benchmark floor)");
MODULE_LICENSE("GPL");
