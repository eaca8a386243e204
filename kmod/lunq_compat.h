/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq: kernel API compatibility, keyed on LINUX_VERSION_CODE.
 *
 * Supported range: Linux 5.15 (LTS) through 7.3.
 *  - 5.15 is the floor: the status method answers STATUSTYPE_IMA with
 *    DMEMIT_TARGET_NAME_VERSION (dm-ima, 5.15), and older kernels would
 *    need shims for more than is listed here.  Below it the build stops
 *    with an #error.
 *  - 7.3 is the newest release built and tested here.  Newer kernels are
 *    not refused.
 * Built and tested: 6.1 -- Debian's kernel (make kmod, make test's whole
 * VM suite) and the KUnit/QEMU kernels built from linux-source-6.1 --,
 * 6.12 -- Debian's 6.12 LTS -- and 7.3 -- Debian's trixie-backports
 * kernel, scripts/bpo-kernel -- (make test's kernel matrix: the groups
 * whose behaviour depends on the kernel, scripts/kernels; KUnit from
 * their linux-source).  The other versions (5.15 .. 6.0, 6.2 .. 6.11,
 * 6.13 .. 7.2) are covered by the shims below as written from the kernel
 * changelogs, not by a build here: every branch for them is untested.
 *
 * Direction: dm-lunq is written against the newest API; each block below
 * supplies it on the older kernels of the range.  A function shim is a
 * lunq_ function behind a #define of the upstream name, so a stable or
 * distribution kernel that backports the API still compiles (our macro
 * only renames our own calls).  Include this after the kernel headers.
 * LINUX_VERSION_CODE is used here and nowhere else: checkpatch's
 * LINUX_VERSION_CODE and CONSTANT_COMPARISON warnings are allowed for this
 * file alone (tests/lint/checkpatch.sh).
 *
 * Checked against the range and needing no shim (version added/changed):
 *  - dm: dm_get_device() with dm_table_get_mode() passed straight through
 *    (mode is fmode_t before 6.5, blk_mode_t from 6.5: same source),
 *    dm_read_arg_group()/dm_shift_arg(), ti->num_{flush,discard,
 *    secure_erase,write_zeroes}_bios and per_io_data_size, the .message
 *    (with result/maxlen), .status, .io_hints, .iterate_devices,
 *    .presuspend(_undo), .postsuspend, .resume and .end_io signatures,
 *    DM_TARGET_NOWAIT, dm_noflush_suspending(), dm_copy_name_and_uuid(),
 *    dm_per_bio_data(); dm_accept_partial_bio() and .report_zones are not
 *    used.
 *  - block: bio_set_dev(), bdev_nr_sectors() (5.11), bdev_is_zoned(),
 *    op_is_zone_mgmt(), op_is_flush(), REQ_NOWAIT, bio_wouldblock_error(),
 *    blk_status_t and BLK_STS_DM_REQUEUE; bio_op() is enum req_op from
 *    6.0 (unsigned int before), kept in an unsigned int either way.
 *  - generic netlink: genl_small_ops (5.10), family-wide policy/maxattr,
 *    NLA_POLICY_MAX, nla_strdup(), NL_SET_ERR_MSG{,_ATTR}(),
 *    genlmsg_multicast(), genl_has_listeners().  genl_split_ops (6.2) is
 *    not needed: small ops stay supported.
 *  - sysfs: kobj_type.default_groups (5.2; default_attrs removed in
 *    5.18), sysfs_emit()/sysfs_emit_at() (5.10).  kobject_init() takes a
 *    const kobj_type from 6.2 (ee6d3dd4ed48, also in later 6.1.y); lunq's
 *    ktype stays non-const, which every version accepts.
 *  - timers: only hrtimers (below); no timer_list, so del_timer() ->
 *    timer_delete() (6.2; old names gone in 6.15) and from_timer() ->
 *    timer_container_of() (6.16) do not apply.
 *  - strings and helpers: strscpy() only (strlcpy() was removed in 6.8),
 *    kvmalloc_array()/kvcalloc(), mul_u64_u64_div_u64() (5.9),
 *    <linux/minmax.h> (5.10), percpu and atomic64 helpers, ktime_get_ns().
 *  - no module_param.
 */
#ifndef LUNQ_COMPAT_H
#define LUNQ_COMPAT_H

#include <linux/version.h>
#include <linux/blkdev.h>
#include <linux/hrtimer.h>
#include <linux/device-mapper.h>
#include <net/genetlink.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 15, 0)
#error "dm-lunq supports Linux 5.15 and later: this kernel is older than 5.15"
#endif

/*
 * dm_submit_bio_remap() and dm_target.accounts_remapped_io: 5.18,
 * 0fbb4d93b38b ("dm: add dm_submit_bio_remap interface").  Before, a
 * target that returned DM_MAPIO_SUBMITTED submitted the clone itself and
 * dm accounted the IO from its arrival, time spent waiting in lunq
 * included.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 18, 0)
static inline void lunq_dm_submit_bio_remap(struct bio *clone,
					    struct bio *tgt_clone)
{
	submit_bio_noacct(tgt_clone ? tgt_clone : clone);
}

#define dm_submit_bio_remap lunq_dm_submit_bio_remap

static inline void lunq_dm_accounts_remapped_io(struct dm_target *ti)
{
}
#else
/* dm accounts the IO from dm_submit_bio_remap() on */
static inline void lunq_dm_accounts_remapped_io(struct dm_target *ti)
{
	ti->accounts_remapped_io = true;
}
#endif

/*
 * bdev_nowait(): 6.1, 568ec936bf13 ("block: replace blk_queue_nowait with
 * bdev_nowait"), also backported to older stable series, which lost
 * blk_queue_nowait() with it: test the queue flag directly.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
static inline bool lunq_bdev_nowait(struct block_device *bdev)
{
	return test_bit(QUEUE_FLAG_NOWAIT, &bdev_get_queue(bdev)->queue_flags);
}

#define bdev_nowait lunq_bdev_nowait
#endif

/*
 * genl_family.resv_start_op: 6.1, 9c5d03d36251 ("genetlink: start to
 * validate reserved header bytes").  Commands from it on get a checked
 * header and strict attribute validation only; older kernels have no
 * such field.  Use inside the family's initializer, without a comma:
 * the macro brings its own.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 1, 0)
#define LUNQ_GENL_RESV_START_OP(op)	.resv_start_op = (op),
#else
#define LUNQ_GENL_RESV_START_OP(op)
#endif

/*
 * GENL_MCAST_CAP_SYS_ADMIN: a multicast group that only CAP_SYS_ADMIN
 * may join.  genl_bind() checks it when a socket joins (bind() or
 * NETLINK_ADD_MEMBERSHIP), in the joining task's context:
 * ns_capable(net->user_ns, ...) on current's credentials, init's user
 * namespace for lunq's family (not netnsok).  Upstream 6.7 ("genetlink:
 * add CAP_NET_ADMIN test for multicast bind"), backported to stable 6.1.68
 * (Debian 12's 6.1 and 6.12 have it, and 7.3).  Tested by its #define,
 * not LINUX_VERSION_CODE, so that every stable or distribution kernel
 * with the backport uses it.  Without it nothing can refuse a join: 6.1
 * has no per-family bind callback, and where one exists (6.12:
 * genl_family.bind(int mcgrp)) it is given no net and genl_bind() ignores
 * its return.  There, LUNQ_GENL_MCAST_PRIVATE is 0 and lunq_netlink.c
 * leaves a slow IO's address (sector, size, direction) out of its bubble
 * events.
 */
#ifdef GENL_MCAST_CAP_SYS_ADMIN
#define LUNQ_GENL_MCAST_SYS_ADMIN	GENL_MCAST_CAP_SYS_ADMIN
#define LUNQ_GENL_MCAST_PRIVATE		1
#else
#define LUNQ_GENL_MCAST_SYS_ADMIN	0
#define LUNQ_GENL_MCAST_PRIVATE		0
#endif

/*
 * hrtimer_setup(): 6.13, 908a1d775422 ("hrtimers: Introduce
 * hrtimer_setup() to replace hrtimer_init()"); hrtimer_init() was removed
 * in 6.15 (9779489a31d7, "hrtimers: Delete hrtimer_init()").
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
static inline void
lunq_hrtimer_setup(struct hrtimer *timer,
		   enum hrtimer_restart (*function)(struct hrtimer *),
		   clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}

#define hrtimer_setup lunq_hrtimer_setup
#endif

/*
 * filldir_t returns bool (true: go on) from 6.1, 25885a35a720 ("Change
 * calling conventions for filldir_t"); int (0: go on) before.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 1, 0)
#define LUNQ_FILLDIR_RET	bool
#define LUNQ_FILLDIR_VAL(more)	(more)
#else
#define LUNQ_FILLDIR_RET	int
#define LUNQ_FILLDIR_VAL(more)	((more) ? 0 : -EINVAL)
#endif

/*
 * BPF struct_ops types registered by a module: 6.9 (register_bpf_struct_ops()
 * in <linux/bpf.h>, __register_bpf_struct_ops() exported; Debian's 6.12
 * has it), with the BPF JIT and syscall.  Before, lunq has no BPF
 * policies (lunq_bpf.c).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0) && \
	defined(CONFIG_BPF_JIT) && defined(CONFIG_BPF_SYSCALL)
#define LUNQ_HAVE_BPF_POLICY 1
#endif

/*
 * WQ_PERCPU: 6.17 ("workqueue: Add new WQ_PERCPU flag"; Debian's 6.12.y
 * has it backported).  From 7.x alloc_workqueue() warns (a WARN_ONCE,
 * a splat) when a queue says neither WQ_PERCPU nor WQ_UNBOUND, on the
 * way to making unbound the default; seen on 7.3.  Before, per-CPU was
 * what no flag meant: 0 says the same there.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 17, 0)
#define WQ_PERCPU 0
#endif

#endif /* LUNQ_COMPAT_H */
