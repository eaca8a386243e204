/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * dm-lunq's generic netlink family "lunq": the one definition shared by
 * the kernel module and userspace (lunqctl, tests).  Reference:
 * kmod/dm-lunq.rst, section "Generic netlink".
 *
 * Requests carry LUNQ_A_NAME (a device's name as in /sys/kernel/lunq/).
 * Every statistic is a u64 inside the nest LUNQ_A_STATS whose attribute
 * type is its enum lunq_stat value; new statistics are only appended, so
 * an older client skips the ones it does not know.
 */
#ifndef _UAPI_LINUX_DM_LUNQ_H
#define _UAPI_LINUX_DM_LUNQ_H

#define LUNQ_GENL_NAME		"lunq"
#define LUNQ_GENL_VERSION	1
#define LUNQ_GENL_MCGRP_EVENTS	"events"

#define LUNQ_NAME_MAX		160	/* with the terminating NUL */
#define LUNQ_POLICY_MAX		1024	/* a "key:value ..." string, with NUL */
#define LUNQ_POL_NAME		16	/* a throttle policy's name, with NUL */

enum lunq_cmd {
	LUNQ_CMD_UNSPEC,
	LUNQ_CMD_GET_DEV,	/* NAME -> one device; dump: every device */
	LUNQ_CMD_GET_HIST,	/* NAME, HIST -> one histogram */
	LUNQ_CMD_SET,		/* NAME, POLICY: all-or-nothing (admin) */
	LUNQ_CMD_RESET,		/* NAME: zero counters, histograms (admin) */
	LUNQ_CMD_EVENT,		/* multicast on "events" */
	__LUNQ_CMD_MAX
};
#define LUNQ_CMD_MAX (__LUNQ_CMD_MAX - 1)

enum lunq_attr {
	LUNQ_A_UNSPEC,
	LUNQ_A_NAME,		/* string: device name (directory name) */
	LUNQ_A_DM_NAME,		/* string: device-mapper name */
	LUNQ_A_DISK,		/* string: "dm-N" */
	LUNQ_A_LOWER,		/* string: lower device "MAJ:MIN" */
	LUNQ_A_BEGIN,		/* u64: first sector of the target */
	LUNQ_A_LEN,		/* u64: sectors */
	LUNQ_A_POLICY,		/* string: "key:value ..." as TABLE status */
	LUNQ_A_STATS,		/* nest of u64, type = enum lunq_stat */
	LUNQ_A_HIST,		/* u32: enum lunq_hist_kind */
	LUNQ_A_HIST_COUNT,	/* u64: values recorded */
	LUNQ_A_HIST_SUM,	/* u64: their sum */
	LUNQ_A_HIST_MAX,	/* u64: the largest */
	LUNQ_A_HIST_BUCKETS,	/* binary: struct lunq_bucket[], nonzero only */
	LUNQ_A_EVENT,		/* u32: enum lunq_event */
	LUNQ_A_EV_TIME_NS,	/* u64: CLOCK_MONOTONIC of the event */
	LUNQ_A_EV_FROM,		/* u32: throttle before */
	LUNQ_A_EV_TO,		/* u32: throttle after */
	LUNQ_A_EV_CAUSE,	/* string: set, qfull, ramp-up, restore, auto, bpf */
	LUNQ_A_EV_COUNT,	/* u64: QUEUE FULLs since the previous event */
	LUNQ_A_EV_SECTOR,	/* u64: bubble IO's first sector (device) */
	LUNQ_A_EV_BYTES,	/* u32: bubble IO's size */
	LUNQ_A_EV_WRITE,	/* u8: bubble IO is a write */
	LUNQ_A_EV_WAIT_NS,	/* u64: bubble IO's wait time */
	LUNQ_A_EV_SVC_NS,	/* u64: bubble IO's service time */
	LUNQ_A_EV_SUPPRESSED,	/* u64: events of this kind rate-limited away */
	LUNQ_A_PAD,
	LUNQ_A_VERSION,		/* u32: LUNQ_GENL_VERSION of the module */
	LUNQ_A_THROTTLE_POLICY,	/* string: the throttle policy in force */
	LUNQ_A_THROTTLE_POLICY_FROM,	/* string: table or bpf */
	/* the last BPF policy ejected since one was attached (GET_DEV), and
	 * LUNQ_EV_EJECT's figures
	 */
	LUNQ_A_EJECT_POLICY,	/* string: its name */
	LUNQ_A_EJECT_RULE,	/* string: callback, stall, floor, manual */
	LUNQ_A_EJECT_HOOK,	/* string: rule callback: start, window, qfull */
	LUNQ_A_EJECT_TIME_NS,	/* u64: when (CLOCK_MONOTONIC) */
	LUNQ_A_EJECT_NS,	/* u64: the callback's run time (callback), the
				 * time without a command sent (stall), the
				 * oldest waiter's wait (floor)
				 */
	LUNQ_A_EJECT_BOUND_NS,	/* u64: the rule's bound (0: manual) */
	__LUNQ_A_MAX
};
#define LUNQ_A_MAX (__LUNQ_A_MAX - 1)

/* One bucket of LUNQ_A_HIST_BUCKETS (layout: kmod/lunq_hist.h). */
struct lunq_bucket {
	__u32 index;
	__u32 pad;
	__u64 count;
};

enum lunq_hist_kind {
	LUNQ_HIST_WAIT_READ,	/* ns, arrival -> accepted by the LUN */
	LUNQ_HIST_WAIT_WRITE,
	LUNQ_HIST_SVC_READ,	/* ns, accepted by the LUN -> completed */
	LUNQ_HIST_SVC_WRITE,
	LUNQ_HIST_TOTAL_READ,	/* ns, arrival -> completed */
	LUNQ_HIST_TOTAL_WRITE,
	LUNQ_HIST_SIZE,		/* bytes of each read and write */
	/* bytes: largest power of two dividing the start offset (offset 0:
	 * 2^41, the overflow bucket)
	 */
	LUNQ_HIST_ALIGN,
	LUNQ_HIST_SIZE_WRITE,	/* the writes of LUNQ_HIST_SIZE (reads: the rest) */
	LUNQ_HIST_ALIGN_WRITE,	/* the writes of LUNQ_HIST_ALIGN */
	LUNQ_NR_HISTS
};

enum lunq_event {
	LUNQ_EV_QFULL,		/* QUEUE FULL answers (EV_COUNT since last) */
	LUNQ_EV_THROTTLE,	/* the live throttle moved (FROM, TO, CAUSE) */
	LUNQ_EV_RESET,		/* the emulated LUN reset itself */
	LUNQ_EV_BUBBLE,		/* a read/write's wait + service > bubble_ms */
	LUNQ_EV_EJECT,		/* a BPF policy ejected (EJECT_RULE, _NS,
				 * _BOUND_NS)
				 */
	LUNQ_NR_EVENTS
};

/* Statistics: attribute types in LUNQ_A_STATS, and /sys/kernel/lunq files. */
enum lunq_stat {
	LUNQ_ST_UNSPEC,
	LUNQ_ST_READS,		/* completed, per operation */
	LUNQ_ST_WRITES,
	LUNQ_ST_FLUSHES,	/* empty flushes */
	LUNQ_ST_DISCARDS,	/* discard, secure erase */
	LUNQ_ST_OTHER,		/* write zeroes, zone management */
	LUNQ_ST_READ_SECTORS,
	LUNQ_ST_WRITE_SECTORS,
	LUNQ_ST_DISCARD_SECTORS,
	LUNQ_ST_ERRORS,		/* completed with an error */
	LUNQ_ST_COMPLETED,	/* all of the above operations */
	LUNQ_ST_DISPATCHED,	/* sent to the lower device */
	LUNQ_ST_REQUEUED,	/* handed back to dm (noflush suspend) */
	LUNQ_ST_RETRIED,	/* sent again after QUEUE FULL or abort */
	LUNQ_ST_QFULL,		/* QUEUE FULL answers */
	LUNQ_ST_RESETS,		/* LUN resets */
	LUNQ_ST_ABORTED,	/* commands aborted by LUN resets */
	LUNQ_ST_THROTTLE_CHANGES, /* reaction moves of the throttle */
	LUNQ_ST_MAX_INFLIGHT,
	LUNQ_ST_MAX_WAITING,
	LUNQ_ST_THROTTLE,	/* gauges: the live throttle (qdepth now) */
	LUNQ_ST_INFLIGHT,
	LUNQ_ST_WAITING,
	LUNQ_ST_RETRYING,
	LUNQ_ST_LUN_INFLIGHT,
	LUNQ_ST_POOL_INFLIGHT,
	LUNQ_ST_OLDEST_WAIT_NS,
	LUNQ_ST_MISALIGNED_4K,	/* reads/writes not starting on 4 KiB */
	LUNQ_ST_SIZE_NOT_4K,	/* reads/writes not a multiple of 4 KiB */
	LUNQ_ST_BUBBLES,	/* IOs over bubble_ms */
	LUNQ_ST_EVENTS_DROPPED,	/* events rate-limited or overflowed */
	LUNQ_ST_SNAPTIME_NS,	/* integrals: see dm-lunq.rst "iostat" */
	LUNQ_ST_WLENTIME_NS,
	LUNQ_ST_RLENTIME_NS,
	LUNQ_ST_WTIME_NS,
	LUNQ_ST_RTIME_NS,
	LUNQ_ST_CRTIME_NS,	/* when the counters started: creation or
				 * the last reset (monotonic clock, ns)
				 */
	LUNQ_ST_AUTO_PHASE,	/* auto (gauges): 0 off, 1 down, 2 up,
				 * 3 hold, 4 probe, 5 track (auto:target)
				 */
	LUNQ_ST_AUTO_PEAK_IOPS,	/* most IOPS of the recent windows */
	LUNQ_ST_AUTO_SVC_MIN_NS, /* lowest mean service time, recent */
	LUNQ_ST_AUTO_KNEE,	/* peak IOPS x minimum service time */
	LUNQ_ST_AUTO_P99_NS,	/* service p99 of the last window */
	LUNQ_ST_AUTO_WINDOWS,	/* windows since auto started (counter) */
	LUNQ_ST_AUTO_MOVES,	/* its depth changes since then */
	LUNQ_ST_AUTO_SVC_NS,	/* mean service time of the last window */
	LUNQ_ST_READ_WAIT_NS,	/* sums over completed reads: waiting in lunq */
	LUNQ_ST_READ_SVC_NS,	/* and at the device (Linux iostat's r_await) */
	LUNQ_ST_WRITE_WAIT_NS,
	LUNQ_ST_WRITE_SVC_NS,
	LUNQ_ST_WRITE_MISALIGNED_4K, /* the writes of LUNQ_ST_MISALIGNED_4K */
	LUNQ_ST_WRITE_SIZE_NOT_4K,
	LUNQ_ST_POL_ZERO,	/* the policy in force: answers of 0, raised */
	LUNQ_ST_POL_BELOW,	/* other answers below auto_min, raised */
	LUNQ_ST_POL_ABOVE,	/* answers above auto_max, lowered */   /* the writes of LUNQ_ST_SIZE_NOT_4K */
	__LUNQ_ST_MAX
};
#define LUNQ_ST_MAX (__LUNQ_ST_MAX - 1)

#endif /* _UAPI_LINUX_DM_LUNQ_H */
