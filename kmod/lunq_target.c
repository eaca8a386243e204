// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq: a device-mapper target for experimenting with block-IO
 * throttling and scheduling.  Stacked on any block device, it models what
 * a disk driver (host side: queue-depth throttle, wait queue) and a storage
 * LUN (command slots, QUEUE FULL, service time) do to every IO.
 *
 * Table line:  <dev_path> <offset> [<#opt_args> <opt_arg>...]
 * where each opt_arg is a "key:value" word (see lunq_args.c and
 * kmod/dm-lunq.rst).  This file is the device-mapper target only, in dm's
 * order; the device core (lunq_core.c), a bio's life
 * (lunq_io.c) and the views (sysfs, netlink) live apart, and nothing
 * calls into this file (tests/lint/kmod-layers.sh).
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/device-mapper.h>

#include "lunq_compat.h"
#include "lunq_core.h"
#include "lunq_io.h"
#include "lunq_zplug_dev.h"
#include "lunq_pol_dev.h"
#include "lunq_throttle_dev.h"
#include "lunq_window.h"
#include "lunq_bpf.h"
#include "lunq_dev.h"
#include "lunq_sysfs.h"
#include "lunq_netlink.h"
#include "lunq_loop.h"
#include "lunq_trace.h"

#define DM_MSG_PREFIX "lunq"

static void lunq_dtr(struct dm_target *ti)
{
	struct lunq_c *lc = ti->private;

	spin_lock_irq(&lc->lock);
	lc->dying = true;	/* the timer is not re-armed from here on */
	spin_unlock_irq(&lc->lock);
	lunq_dev_detach(lc);	/* first: no sysfs or netlink caller after this */
	lunq_bpf_detach(lc);	/* a BPF policy: its link stays, unattached */
	lunq_win_stop(lc);	/* before the timer and the dispatcher */
	lunq_win_free(lc);
	lunq_core_free(lc);
}

static int lunq_parse_opts(struct lunq_c *lc, struct dm_arg_set *as)
{
	static const struct dm_arg opt_args = {
		0, 2 * LUNQ_NR_KEYS, "Invalid number of optional arguments"
	};
	struct dm_target *ti = lc->ti;
	const char *word;
	unsigned int n;
	int ret;

	if (!as->argc)
		return 0;
	ret = dm_read_arg_group(&opt_args, as, &n, &ti->error);
	if (ret)
		return ret;
	ti->error = (char *)lunq_parse_words(lc, &lc->keys, n, as->argv,
					     false, &word);
	if (ti->error) {
		if (word)
			DMERR("rejected optional argument '%.64s': %s", word,
			      ti->error);
		else
			DMERR("rejected optional arguments: %s", ti->error);
		return -EINVAL;
	}
	dm_consume_args(as, n);
	return 0;
}

/*
 * Whether the optional arguments of the table line @argv select a policy
 * with a window: its buffers then come in the context's block.  A word in
 * error: no (lunq_parse_opts() refuses the line after).
 */
static bool lunq_ctr_window(unsigned int argc, char **argv)
{
	struct lunq_keys k;
	enum lunq_key key;
	unsigned int n, i;
	u64 seen = 0;

	if (argc < 3 || kstrtouint(argv[2], 10, &n) || n > argc - 3)
		return false;
	lunq_keys_init(&k);
	for (i = 0; i < n; i++)
		if (lunq_parse_word(&k, argv[3 + i], &seen, &key))
			return false;
	return !lunq_policy_resolve(&k, seen) && lunq_win_needed(&k);
}

/*
 * Construct a lunq mapping: <dev_path> <offset> [<#opt_args> <opt_arg>...]
 */
static int lunq_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	struct dm_arg_set as = { .argc = argc, .argv = argv };
	unsigned long long start;
	const char *path, *err;
	struct lunq_c *lc;
	sector_t dev_size;
	char dummy;
	int ret;

	if (argc < 2) {
		ti->error = "Missing <dev_path> or <offset>";
		return -EINVAL;
	}

	lc = lunq_core_alloc(ti, lunq_io_dispatch, lunq_win_work,
			     lunq_ctr_window(argc, argv) ? lunq_win_bytes() : 0);
	if (!lc) {
		ti->error = "Cannot allocate lunq context";
		return -ENOMEM;
	}
	ti->private = lc;

	path = dm_shift_arg(&as);
	ret = -EINVAL;
	if (sscanf(dm_shift_arg(&as), "%llu%c", &start, &dummy) != 1 ||
	    start != (sector_t)start) {
		ti->error = "Invalid offset: must be a sector number";
		goto bad;
	}
	lc->start = start;

	err = lunq_loop_self(ti, path);
	if (err) {
		ti->error = (char *)err;
		ret = -ELOOP;
		goto bad;
	}
	ret = dm_get_device(ti, path, dm_table_get_mode(ti->table), &lc->dev);
	if (ret) {
		ti->error = "Cannot open the lower device (check dev_path)";
		goto bad;
	}
	ret = lunq_loop_check(ti, lc->dev->bdev, &err);
	if (ret) {
		ti->error = (char *)err;
		goto bad;
	}
	dev_size = bdev_nr_sectors(lc->dev->bdev);
	if (lc->start >= dev_size || ti->len > dev_size - lc->start) {
		ti->error = "Offset plus length exceeds the lower device";
		ret = -EINVAL;
		goto bad;
	}
	lc->zoned = bdev_is_zoned(lc->dev->bdev);

	ret = lunq_parse_opts(lc, &as);
	if (ret)
		goto bad;
	if (as.argc) {
		ti->error = "Too many arguments after the optional arguments";
		ret = -EINVAL;
		goto bad;
	}
	if (lc->keys.given & (1U << LUNQ_POOL)) {
		lc->lun.pool = lunq_pool_get(lc->keys.pool,
					     lc->keys.val[LUNQ_POOL_DEPTH],
					     &err);
		if (IS_ERR(lc->lun.pool)) {
			ti->error = (char *)err;
			ret = PTR_ERR(lc->lun.pool);
			lc->lun.pool = NULL;
			goto bad;
		}
		/* a table joining the pool reads back the pool's depth */
		lc->keys.val[LUNQ_POOL_DEPTH] = lc->lun.pool->depth;
		/* and the other initiators come and go as for its other LUNs */
		lc->lun.t0 = lc->lun.pool->t0;
		/* a pool that already existed: check foreign against it */
		ti->error = (char *)lunq_parse_words(lc, &lc->keys, 0, NULL,
						     false, &err);
		if (ti->error) {
			ret = -EINVAL;
			goto bad;
		}
	}

	lc->spare = lunq_dev_alloc();
	if (!lc->spare || lunq_zplug_dev_alloc(lc) ||
	    lunq_win_alloc(lc, lunq_win_needed(&lc->keys))) {
		ti->error = "Cannot allocate counters and histograms";
		ret = -ENOMEM;
		goto bad;
	}
	ti->error = (char *)lunq_model_alloc(lc, &lc->keys);
	if (ti->error) {
		ret = -ENOMEM;
		goto bad;
	}
	lunq_apply_policy(lc, lc->t0);
	lc->host.thr.log_n = 0;	/* the initial value is not a change */

	ti->num_flush_bios = 1;
	/*
	 * With a model the device has a (possibly volatile) write cache:
	 * advertise one, and FUA, so flushes and FUA writes reach the
	 * model whatever "wce" says live; without one, the lower device's
	 * show through.
	 */
	if (lc->keys.val[LUNQ_MODEL])
		ti->flush_supported = true;
	ti->num_discard_bios = 1;
	ti->num_secure_erase_bios = 1;
	ti->num_write_zeroes_bios = 1;
	ti->per_io_data_size = sizeof(struct lunq_io);
	lc->evq.devt = disk_devt(dm_disk(dm_table_get_md(ti->table)));
	lc->tq = dm_disk(dm_table_get_md(ti->table))->queue;
	/* We call dm_submit_bio_remap(): dm accounts time from there on. */
	lunq_dm_accounts_remapped_io(ti);
	return 0;

bad:
	lunq_dtr(ti);
	return ret;
}

static int lunq_map(struct dm_target *ti, struct bio *bio)
{
	return lunq_io_map(ti->private, bio);
}

static int lunq_end_io(struct dm_target *ti, struct bio *bio,
		       blk_status_t *error)
{
	return lunq_io_end(ti->private, bio, error);
}

/*
 * Suspend.  presuspend runs before dm blocks new IO, so from here on the
 * map path (under the same lock) knows a suspend is coming:
 *  - flush suspend: waiters and retries drain through the throttle and
 *    the LUN, in order (the throttle is what is being measured, so a
 *    suspend never bursts the LUN with more than qdepth IOs); dm waits
 *    for them to complete.
 *  - noflush suspend: every waiter and retry is handed back to dm, which
 *    re-issues it after resume (to the new table after a reload); new bios
 *    that would wait are handed back too.  Writes to a zoned device cannot
 *    be handed back (dm would fail them), so there noflush drains as well.
 * IOs already sent below are never aborted: dm waits for them (and for
 * completions the model still holds).
 */
static void lunq_presuspend(struct dm_target *ti)
{
	struct lunq_c *lc = ti->private;
	struct lunq_waiter *w;
	struct bio_list list;
	struct bio *bio;

	bio_list_init(&list);
	spin_lock_irq(&lc->lock);
	lc->pushback = dm_noflush_suspending(ti) && !lc->zoned;
	while (lc->pushback && (w = lunq_host_pop_any(&lc->host)))
		bio_list_add(&list, lunq_waiter_bio(w));
	lunq_account(lc, ktime_get_ns());
	spin_unlock_irq(&lc->lock);

	while ((bio = bio_list_pop(&list))) {
		lunq_stats_inc(&lc->st, LUNQ_ST_REQUEUED);
		lunq_io(bio)->flags = 0;
		bio->bi_status = BLK_STS_DM_REQUEUE;
		bio_endio(bio);
	}
}

static void lunq_postsuspend(struct dm_target *ti)
{
	struct lunq_c *lc = ti->private;

	/* nothing is in flight any more; let a last dispatcher run finish */
	flush_work(&lc->dispatch);
	lunq_win_stop(lc);	/* the policy's state stays for the resume */
}

/* Nothing is in flight: the lower device's write pointers are exact. */
static int lunq_preresume(struct dm_target *ti)
{
	lunq_zplug_dev_report(ti->private);
	return 0;
}

static void lunq_resume(struct dm_target *ti)
{
	struct lunq_c *lc = ti->private;
	bool kick;

	lunq_dev_attach(lc);

	spin_lock_irq(&lc->lock);
	lc->pushback = false;
	kick = lunq_host_needs_kick(&lc->host);
	lunq_arm_timer(lc);
	spin_unlock_irq(&lc->lock);
	if (kick)
		lunq_kick(lc);
	lunq_win_start(lc);
}

/* "set <key:value>...": all words are checked before any applies. */
static int lunq_msg_set(struct lunq_c *lc, unsigned int argc, char **argv)
{
	struct mapped_device *md = dm_table_get_md(lc->ti->table);
	const char *err, *word;
	int ret;

	if (!argc) {
		DMERR("%s: message 'set': no key:value given",
		      dm_device_name(md));
		return -EINVAL;
	}
	ret = lunq_set_words(lc, argc, argv, &err, &word);
	if (!ret)
		return 0;
	if (word)
		DMERR("%s: message 'set' rejected '%.64s': %s; nothing changed",
		      dm_device_name(md), word, err);
	else
		DMERR("%s: message 'set' rejected: %s; nothing changed",
		      dm_device_name(md), err);
	return ret;
}

/*
 * "throttle log": the last LUNQ_TLOG_SIZE moves of the live throttle, oldest
 * first, one per line: <ms since the table was loaded> <from> <to> <cause>.
 */
static int lunq_msg_tlog(struct lunq_c *lc, char *result, unsigned int maxlen)
{
	struct lunq_tlog *log;
	unsigned int sz = 0, n, i;

	log = kmalloc_array(LUNQ_TLOG_SIZE, sizeof(*log), GFP_KERNEL);
	if (!log)
		return -ENOMEM;
	n = lunq_tlog_copy(lc, log);
	for (i = 0; i < n; i++)
		DMEMIT("%llu %u %u %s\n", div_u64(log[i].t, NSEC_PER_MSEC),
		       log[i].from, log[i].to, lunq_tcause_names[log[i].cause]);
	kfree(log);
	return 1;
}

static int lunq_message(struct dm_target *ti, unsigned int argc, char **argv,
			char *result, unsigned int maxlen)
{
	struct lunq_c *lc = ti->private;

	if (argc >= 1 && !strcmp(argv[0], "set"))
		return lunq_msg_set(lc, argc - 1, argv + 1);
	if (argc == 2 && !strcmp(argv[0], "stats") &&
	    !strcmp(argv[1], "reset")) {
		lunq_stats_reset(lc);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[0], "throttle") &&
	    !strcmp(argv[1], "log"))
		return lunq_msg_tlog(lc, result, maxlen);
	if (argc >= 1 && !strcmp(argv[0], "policy"))
		return lunq_bpf_message(lc, argc - 1, argv + 1, result, maxlen);
	DMERR("%s: unknown message '%.32s': expected 'set <key:value>...', 'stats reset', 'throttle log', 'policy expect NAME', 'policy detach' or 'policy eject'",
	      dm_device_name(dm_table_get_md(ti->table)),
	      argc ? argv[0] : "");
	return -EINVAL;
}

/*
 * INFO is a list of key=value words (kmod/dm-lunq.rst); new keys are only
 * ever appended.  TABLE echoes a line that recreates the device with the
 * policy now in force.
 */
static void lunq_status(struct dm_target *ti, status_type_t type,
			unsigned int status_flags, char *result,
			unsigned int maxlen)
{
	struct lunq_c *lc = ti->private;
	u64 v[__LUNQ_ST_MAX];
	struct lunq_keys policy;
	char pname[LUNQ_POL_NAME];
	unsigned int nopt;
	bool ext;
	size_t sz = 0;

	switch (type) {
	case STATUSTYPE_INFO:
		lunq_fill_stats(lc, v);
		ext = lunq_get_policy(lc, &policy, pname);
		DMEMIT("qdepth=%llu sched=%s max_wait_ms=%u",
		       v[LUNQ_ST_THROTTLE],
		       policy.val[LUNQ_SCHED] ? "disksort" : "fifo",
		       policy.val[LUNQ_MAX_WAIT_MS]);
		DMEMIT(" inflight=%llu waiting=%llu oldest_wait_ms=%llu",
		       v[LUNQ_ST_INFLIGHT], v[LUNQ_ST_WAITING],
		       div_u64(v[LUNQ_ST_OLDEST_WAIT_NS], NSEC_PER_MSEC));
		DMEMIT(" dispatched=%llu completed=%llu max_inflight=%llu max_waiting=%llu",
		       v[LUNQ_ST_DISPATCHED], v[LUNQ_ST_COMPLETED],
		       v[LUNQ_ST_MAX_INFLIGHT], v[LUNQ_ST_MAX_WAITING]);
		DMEMIT(" lun_inflight=%llu retrying=%llu qfull=%llu resets=%llu",
		       v[LUNQ_ST_LUN_INFLIGHT], v[LUNQ_ST_RETRYING],
		       v[LUNQ_ST_QFULL], v[LUNQ_ST_RESETS]);
		DMEMIT(" aborted=%llu retried=%llu throttle_changes=%llu",
		       v[LUNQ_ST_ABORTED], v[LUNQ_ST_RETRIED],
		       v[LUNQ_ST_THROTTLE_CHANGES]);
		DMEMIT(" pool=%s pool_inflight=%llu",
		       lc->lun.pool ? lunq_pool_name(lc->lun.pool) : "-",
		       v[LUNQ_ST_POOL_INFLIGHT]);
		DMEMIT(" snaptime_ns=%llu wlentime_ns=%llu rlentime_ns=%llu",
		       v[LUNQ_ST_SNAPTIME_NS], v[LUNQ_ST_WLENTIME_NS],
		       v[LUNQ_ST_RLENTIME_NS]);
		DMEMIT(" wtime_ns=%llu rtime_ns=%llu", v[LUNQ_ST_WTIME_NS],
		       v[LUNQ_ST_RTIME_NS]);
		DMEMIT(" throttle_policy=%s throttle_policy_from=%s", pname,
		       ext ? "bpf" : "table");
		break;

	case STATUSTYPE_TABLE:
		lunq_get_policy(lc, &policy, NULL);
		DMEMIT("%s %llu", lc->dev->name, (unsigned long long)lc->start);
		nopt = hweight64(policy.given);
		if (nopt) {
			DMEMIT(" %u ", nopt);
			lunq_policy_format(&policy, result + sz, maxlen - sz);
		}
		break;

	case STATUSTYPE_IMA:
		DMEMIT_TARGET_NAME_VERSION(ti->type);
		DMEMIT(",device_name=%s,start=%llu;", lc->dev->name,
		       (unsigned long long)lc->start);
		break;
	}
}

#ifdef CONFIG_BLK_DEV_ZONED
/* zones of the lower device, remapped as dm-linear does */
static int lunq_report_zones(struct dm_target *ti,
			     struct dm_report_zones_args *args,
			     unsigned int nr_zones)
{
	struct lunq_c *lc = ti->private;

	return dm_report_zones(lc->dev->bdev, lc->start,
			       lc->start + dm_target_offset(ti, args->next_sector),
			       args, nr_zones);
}
#else
#define lunq_report_zones NULL
#endif

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
 * An emulated LUN with a pblk (table-only) advertises that physical block
 * size, as a 512e disk does, so tools can see what the model penalises.
 */
static void lunq_io_hints(struct dm_target *ti, struct queue_limits *limits)
{
	struct lunq_c *lc = ti->private;

	unsigned int pblk = lc->keys.val[LUNQ_PBLK];

	if (lc->keys.given & (1U << LUNQ_PBLK)) {
		limits->physical_block_size = max(limits->physical_block_size,
						  pblk);
		limits->io_min = max_t(unsigned int, limits->io_min,
				       limits->physical_block_size);
	}
}

static struct target_type lunq_target = {
	.name		 = "lunq",
	.version	 = {0, 5, 0},
	.features	 = DM_TARGET_NOWAIT | DM_TARGET_ZONED_HM,
	.module		 = THIS_MODULE,
	.ctr		 = lunq_ctr,
	.dtr		 = lunq_dtr,
	.map		 = lunq_map,
	.end_io		 = lunq_end_io,
	.presuspend	 = lunq_presuspend,
	.presuspend_undo = lunq_resume,
	.postsuspend	 = lunq_postsuspend,
	.preresume	 = lunq_preresume,
	.resume		 = lunq_resume,
	.message	 = lunq_message,
	.status		 = lunq_status,
	.report_zones	 = lunq_report_zones,
	.iterate_devices = lunq_iterate_devices,
	.io_hints	 = lunq_io_hints,
};

static int __init dm_lunq_init(void)
{
	int ret = -ENOMEM;

	ret = lunq_core_init();
	if (ret)
		return ret;
	ret = lunq_win_init();
	if (ret)
		goto bad_win;
	lunq_sysfs_init();
	ret = lunq_dev_init(lunq_dev_groups);
	if (ret)
		goto bad_dev;
	ret = lunq_nl_init();
	if (ret)
		goto bad_nl;
	ret = dm_register_target(&lunq_target);
	if (ret) {
		DMERR("register failed %d", ret);
		goto bad_reg;
	}
	lunq_bpf_init();
	return 0;

bad_reg:
	lunq_nl_exit();
bad_nl:
	lunq_dev_exit();
bad_dev:
	lunq_win_exit();
bad_win:
	lunq_core_exit();
	return ret;
}

static void __exit dm_lunq_exit(void)
{
	dm_unregister_target(&lunq_target);
	lunq_bpf_exit();
	lunq_nl_exit();
	lunq_dev_exit();
	lunq_win_exit();
	lunq_core_exit();
}

module_init(dm_lunq_init);
module_exit(dm_lunq_exit);

MODULE_DESCRIPTION(DM_NAME " lunq target: per-LUN throttling and scheduling lab");
MODULE_AUTHOR("The lunq developers");
MODULE_LICENSE("GPL");
