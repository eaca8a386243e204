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
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/device-mapper.h>

#include "lunq_args.h"
#include "lunq_sched.h"

#define DM_MSG_PREFIX "lunq"

/*
 * Per-bio data, reserved by device-mapper in front of every clone
 * (ti->per_io_data_size), so the IO path never allocates: a waiting bio is
 * linked into the wait queue through its own lunq_waiter.
 */
struct lunq_io {
	struct lunq_waiter w;
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
	bool zoned;			/* lower device is zoned */

	/*
	 * @lock protects @host (throttle and wait queue), @policy and
	 * @pushback.  It is taken once in map and once in end_io per
	 * IO, with interrupts off because end_io may run in hard-irq context.
	 */
	spinlock_t lock;
	struct lunq_host host;
	struct lunq_policy policy;	/* what TABLE status echoes */
	bool pushback;			/* in a noflush suspend */

	struct work_struct dispatch;	/* sends waiters, see lunq_dispatch */
	struct mutex msg_lock;		/* serialises "set" messages */
	struct lunq_pcpu __percpu *stats;
};

/*
 * Waiters are sent by a work item, never from .end_io: end_io runs in
 * the lower driver's completion context (often hard or soft irq), and
 * submitting there is not allowed to block, while submit_bio() may sleep
 * for a request tag.  A bounded in-context path would still need this work
 * item as a fallback, so lunq keeps one path.  The queue is WQ_MEM_RECLAIM
 * because IO that frees memory may wait in it; WQ_HIGHPRI because the
 * dispatch delay adds to every waiter's latency.
 */
static struct workqueue_struct *lunq_wq;

static void lunq_dtr(struct dm_target *ti)
{
	struct lunq_c *lc = ti->private;

	cancel_work_sync(&lc->dispatch);
	/* dm destroys a table only once no IO is in flight or waiting */
	WARN_ON_ONCE(lc->host.q.nr || lc->host.inflight);
	if (lc->dev)
		dm_put_device(ti, lc->dev);
	free_percpu(lc->stats);
	mutex_destroy(&lc->msg_lock);
	kfree(lc);
}

/*
 * Parse @argc "key:value" words into a copy of *@p; on success replace
 * *@p.  On failure *@p is unchanged, *@word points at the bad word and
 * the return value is the error text.
 */
static const char *lunq_parse_words(struct lunq_policy *p, unsigned int argc,
				    char **argv, const char **word)
{
	struct lunq_policy np = *p;
	u32 seen = 0;
	unsigned int i;

	for (i = 0; i < argc; i++) {
		enum lunq_arg_err err;
		enum lunq_key key;

		err = lunq_parse_word(&np, argv[i], &seen, &key);
		if (err) {
			*word = argv[i];
			return lunq_arg_error(err, key);
		}
	}
	*p = np;
	return NULL;
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
	ti->error = (char *)lunq_parse_words(&lc->policy, n, as->argv, &word);
	if (ti->error) {
		DMERR("rejected optional argument '%.64s': %s", word,
		      ti->error);
		return -EINVAL;
	}
	dm_consume_args(as, n);
	return 0;
}

/* Push the throttle and order of @lc->policy into the IO path. */
static bool lunq_apply_policy(struct lunq_c *lc)
{
	const u32 *v = lc->policy.val;

	return lunq_host_set(&lc->host, v[LUNQ_QDEPTH], v[LUNQ_SCHED],
			     (u64)v[LUNQ_MAX_WAIT_MS] * NSEC_PER_MSEC);
}

static void lunq_dispatch(struct work_struct *work);

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
	spin_lock_init(&lc->lock);
	mutex_init(&lc->msg_lock);
	INIT_WORK(&lc->dispatch, lunq_dispatch);
	lunq_host_init(&lc->host);
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
	lc->zoned = bdev_is_zoned(lc->dev->bdev);

	lc->stats = alloc_percpu(struct lunq_pcpu);
	if (!lc->stats) {
		ti->error = "Cannot allocate per-CPU counters";
		ret = -ENOMEM;
		goto bad;
	}
	lunq_apply_policy(lc);

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

static inline struct lunq_io *lunq_io(struct bio *bio)
{
	return dm_per_bio_data(bio, sizeof(struct lunq_io));
}

static inline struct bio *lunq_bio(struct lunq_waiter *w)
{
	return dm_bio_from_per_bio_data(container_of(w, struct lunq_io, w),
					sizeof(struct lunq_io));
}

/*
 * Send @bio to the lower device; it holds a throttle slot.  The bio must
 * not be touched afterwards: it may complete before dm_submit_bio_remap()
 * returns.
 */
static void lunq_send(struct lunq_c *lc, struct bio *bio)
{
	bio_set_dev(bio, lc->dev->bdev);
	if (bio_sectors(bio) || op_is_zone_mgmt(bio_op(bio)))
		bio->bi_iter.bi_sector = lc->start +
			dm_target_offset(lc->ti, bio->bi_iter.bi_sector);
	lunq_io(bio)->flags |= LUNQ_IO_SENT;
	this_cpu_inc(lc->stats->sent);
	dm_submit_bio_remap(bio, NULL);
}

/*
 * The dispatcher: sends waiters while slots are free.  It takes a batch
 * under the lock and submits it outside; lunq_host.dispatching keeps the
 * map path from sending a newer bio ahead of the batch meanwhile.
 */
static void lunq_dispatch(struct work_struct *work)
{
	struct lunq_c *lc = container_of(work, struct lunq_c, dispatch);
	struct lunq_waiter *w;
	struct bio_list list;
	struct bio *bio;

	for (;;) {
		u64 now;

		bio_list_init(&list);
		spin_lock_irq(&lc->lock);
		now = ktime_get_ns();	/* after every waiter's t_queued */
		while ((w = lunq_host_next(&lc->host, now)))
			bio_list_add(&list, lunq_bio(w));
		lc->host.dispatching = !bio_list_empty(&list);
		spin_unlock_irq(&lc->lock);
		if (bio_list_empty(&list))
			break;
		while ((bio = bio_list_pop(&list)))
			lunq_send(lc, bio);
		cond_resched();
	}
}

static void lunq_kick(struct lunq_c *lc)
{
	queue_work(lunq_wq, &lc->dispatch);
}

/*
 * Ordering barriers (see lunq_sched.h): flushes and FUA writes keep their
 * place relative to every other bio, and so does every write to a zoned
 * device (zones must be written in order).
 */
static bool lunq_is_barrier(struct lunq_c *lc, struct bio *bio)
{
	return op_is_flush(bio->bi_opf) ||
	       (lc->zoned && op_is_write(bio_op(bio)));
}

static int lunq_map(struct dm_target *ti, struct bio *bio)
{
	struct lunq_c *lc = ti->private;
	struct lunq_io *io = lunq_io(bio);
	u64 lba = bio_sectors(bio) ? bio->bi_iter.bi_sector : LUNQ_NO_LBA;
	unsigned long flags;
	bool kick;

	io->flags = 0;
	spin_lock_irqsave(&lc->lock, flags);
	if (lunq_host_try_send(&lc->host, lba)) {
		spin_unlock_irqrestore(&lc->lock, flags);
		lunq_send(lc, bio);
		return DM_MAPIO_SUBMITTED;
	}
	if (bio->bi_opf & REQ_NOWAIT) {
		spin_unlock_irqrestore(&lc->lock, flags);
		bio_wouldblock_error(bio);
		return DM_MAPIO_SUBMITTED;
	}
	/* a noflush suspend is under way: hand new waiters back to dm */
	if (lc->pushback && dm_noflush_suspending(ti)) {
		spin_unlock_irqrestore(&lc->lock, flags);
		return DM_MAPIO_REQUEUE;
	}
	lunq_host_wait(&lc->host, &io->w, lba, lunq_is_barrier(lc, bio),
		       ktime_get_ns());
	kick = lunq_host_needs_kick(&lc->host);
	spin_unlock_irqrestore(&lc->lock, flags);
	if (kick)
		lunq_kick(lc);
	return DM_MAPIO_SUBMITTED;
}

static int lunq_end_io(struct dm_target *ti, struct bio *bio,
		       blk_status_t *error)
{
	struct lunq_c *lc = ti->private;
	unsigned long flags;
	bool kick;

	if (!(lunq_io(bio)->flags & LUNQ_IO_SENT))
		return DM_ENDIO_DONE;	/* refused (NOWAIT) or pushed back */
	this_cpu_inc(lc->stats->completed);
	spin_lock_irqsave(&lc->lock, flags);
	kick = lunq_host_done(&lc->host);
	spin_unlock_irqrestore(&lc->lock, flags);
	if (kick)
		lunq_kick(lc);
	return DM_ENDIO_DONE;
}

/*
 * Suspend.  presuspend runs before dm blocks new IO, so from here on the
 * map path (under the same lock) knows a suspend is coming:
 *  - flush suspend: waiters drain through the throttle, in queue order
 *    (the throttle is what is being measured, so a suspend never bursts
 *    the LUN with more than qdepth IOs); dm waits for them to complete.
 *  - noflush suspend: every waiter is handed back to dm, which re-issues
 *    it after resume (to the new table after a reload); new bios that
 *    would wait are handed back too.  Writes to a zoned device cannot be
 *    handed back (dm would fail them), so there noflush drains as well.
 * IOs already sent below are never aborted: dm waits for them.
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
	while (lc->pushback && (w = lunq_queue_pop_oldest(&lc->host.q)))
		bio_list_add(&list, lunq_bio(w));
	spin_unlock_irq(&lc->lock);

	while ((bio = bio_list_pop(&list))) {
		bio->bi_status = BLK_STS_DM_REQUEUE;
		bio_endio(bio);
	}
}

static void lunq_postsuspend(struct dm_target *ti)
{
	struct lunq_c *lc = ti->private;

	/* nothing is in flight any more; let a last dispatcher run finish */
	flush_work(&lc->dispatch);
}

static void lunq_resume(struct dm_target *ti)
{
	struct lunq_c *lc = ti->private;
	bool kick;

	spin_lock_irq(&lc->lock);
	lc->pushback = false;
	kick = lunq_host_needs_kick(&lc->host);
	spin_unlock_irq(&lc->lock);
	if (kick)
		lunq_kick(lc);
}

/* "set <key:value>...": all words are checked before any applies. */
static int lunq_msg_set(struct lunq_c *lc, unsigned int argc, char **argv)
{
	struct mapped_device *md = dm_table_get_md(lc->ti->table);
	struct lunq_policy np;
	const char *err, *word;
	bool kick;

	if (!argc) {
		DMERR("%s: message 'set': no key:value given",
		      dm_device_name(md));
		return -EINVAL;
	}
	mutex_lock(&lc->msg_lock);
	spin_lock_irq(&lc->lock);
	np = lc->policy;
	spin_unlock_irq(&lc->lock);

	err = lunq_parse_words(&np, argc, argv, &word);
	if (err) {
		mutex_unlock(&lc->msg_lock);
		DMERR("%s: message 'set' rejected '%.64s': %s; nothing changed",
		      dm_device_name(md), word, err);
		return -EINVAL;
	}
	spin_lock_irq(&lc->lock);
	lc->policy = np;
	kick = lunq_apply_policy(lc);
	spin_unlock_irq(&lc->lock);
	mutex_unlock(&lc->msg_lock);
	if (kick)
		lunq_kick(lc);
	return 0;
}

static void lunq_stats_reset(struct lunq_c *lc)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct lunq_pcpu *s = per_cpu_ptr(lc->stats, cpu);

		WRITE_ONCE(s->sent, 0);
		WRITE_ONCE(s->completed, 0);
	}
	spin_lock_irq(&lc->lock);
	lunq_host_reset_max(&lc->host);
	spin_unlock_irq(&lc->lock);
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
	DMERR("%s: unknown message '%.32s': expected 'set <key:value>...' or 'stats reset'",
	      dm_device_name(dm_table_get_md(ti->table)),
	      argc ? argv[0] : "");
	return -EINVAL;
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
 * INFO is a list of key=value words (kmod/dm-lunq.rst); new keys are only
 * ever appended.  TABLE echoes a line that recreates the device with the
 * policy now in force.
 */
static void lunq_status(struct dm_target *ti, status_type_t type,
			unsigned int status_flags, char *result,
			unsigned int maxlen)
{
	struct lunq_c *lc = ti->private;
	struct lunq_policy policy;
	struct lunq_host h;
	struct lunq_pcpu sum;
	unsigned int nopt;
	u64 oldest_ms = 0;
	size_t sz = 0;

	switch (type) {
	case STATUSTYPE_INFO:
		spin_lock_irq(&lc->lock);
		h = lc->host;
		if (h.q.nr)
			oldest_ms = div_u64(ktime_get_ns() -
					    lunq_queue_oldest(&lc->host.q),
					    NSEC_PER_MSEC);
		spin_unlock_irq(&lc->lock);
		lunq_sum(lc, &sum);
		DMEMIT("qdepth=%u sched=%s max_wait_ms=%u", h.qdepth,
		       h.q.mode == LUNQ_SCHED_DISKSORT ? "disksort" : "fifo",
		       (u32)div_u64(h.q.max_wait_ns, NSEC_PER_MSEC));
		DMEMIT(" inflight=%u waiting=%u oldest_wait_ms=%llu",
		       h.inflight, h.q.nr, oldest_ms);
		DMEMIT(" dispatched=%llu completed=%llu max_inflight=%u max_waiting=%u",
		       sum.sent, sum.completed, h.max_inflight,
		       h.max_waiting);
		break;

	case STATUSTYPE_TABLE:
		spin_lock_irq(&lc->lock);
		policy = lc->policy;
		spin_unlock_irq(&lc->lock);
		DMEMIT("%s %llu", lc->dev->name, (unsigned long long)lc->start);
		nopt = hweight32(policy.given);
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
	.version	 = {0, 2, 0},
	.features	 = DM_TARGET_NOWAIT,
	.module		 = THIS_MODULE,
	.ctr		 = lunq_ctr,
	.dtr		 = lunq_dtr,
	.map		 = lunq_map,
	.end_io		 = lunq_end_io,
	.presuspend	 = lunq_presuspend,
	.presuspend_undo = lunq_resume,
	.postsuspend	 = lunq_postsuspend,
	.resume		 = lunq_resume,
	.message	 = lunq_message,
	.status		 = lunq_status,
	.iterate_devices = lunq_iterate_devices,
	.io_hints	 = lunq_io_hints,
};

static int __init dm_lunq_init(void)
{
	int ret;

	lunq_wq = alloc_workqueue("kdmlunq", WQ_MEM_RECLAIM | WQ_HIGHPRI, 0);
	if (!lunq_wq)
		return -ENOMEM;
	ret = dm_register_target(&lunq_target);
	if (ret) {
		DMERR("register failed %d", ret);
		destroy_workqueue(lunq_wq);
	}
	return ret;
}

static void __exit dm_lunq_exit(void)
{
	dm_unregister_target(&lunq_target);
	destroy_workqueue(lunq_wq);
}

module_init(dm_lunq_init);
module_exit(dm_lunq_exit);

MODULE_DESCRIPTION(DM_NAME " lunq target: per-LUN throttling and scheduling lab");
MODULE_AUTHOR("The lunq developers");
MODULE_LICENSE("GPL");
