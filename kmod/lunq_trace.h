/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq trace events: the trace system "lunq", for ftrace, trace-cmd,
 * `perf trace -e 'lunq:*'` and bpftrace (tracepoint:lunq:*).  Instantiated
 * once, in lunq_trace.c (CREATE_TRACE_POINTS); while an event is off its
 * call site costs one static branch.
 *
 * Every event names the lunq device: @dev (the dm device's dev_t) and
 * @name (its lunq name, cut to LUNQ_TRACE_NAME - 1 characters).  Events of
 * one IO add @sector (on the lunq device, 512-byte units), @bytes and @op
 * (REQ_OP_*: 0 read, 1 write, 2 flush, 3 discard...).  Times are ns.
 *
 *   lunq_wait      a bio waits at the throttle
 *   lunq_dispatch  a bio is sent to the lower device (@lsector there),
 *                  after @wait_ns at the throttle (0 on the lock-free path)
 *   lunq_complete  it completes: @wait_ns + @svc_ns = total
 *   lunq_throttle  the throttle moves @from -> @to for @cause
 *   lunq_qfull     the host learns of a QUEUE FULL (lunqctl stat's qfull)
 *   lunq_reset     the emulated LUN resets
 *   lunq_bubble    a completion took longer than bubble_ms
 *   lunq_auto_window  one window of the policy (auto, or one loaded from
 *                     outside): its figures and its decision
 *   lunq_pol_answer   every answer of the policy in force, any hook:
 *                     its inputs, its answer and the depth clamped
 *   lunq_pol_eject    a policy from outside ejected by the watchdog
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM lunq

/*
 * @op as the events record it: enum req_op's number as a plain integer.
 * REQ_OP_* are blk_opf_t, a type sparse restricts to bitwise use, so
 * neither TRACE_DEFINE_ENUM nor __print_symbolic may hold them; these
 * names of the same numbers can.  Defined once: the rest of this header
 * is read again by define_trace.h.
 */
#ifndef LUNQ_TRACE_OPS_ONCE
#define LUNQ_TRACE_OPS_ONCE
#include <linux/blk_types.h>
#include <linux/blkdev.h>

enum lunq_trace_op {
	LUNQ_TRACE_OP_READ = (__force u8)REQ_OP_READ,
	LUNQ_TRACE_OP_WRITE = (__force u8)REQ_OP_WRITE,
	LUNQ_TRACE_OP_FLUSH = (__force u8)REQ_OP_FLUSH,
	LUNQ_TRACE_OP_DISCARD = (__force u8)REQ_OP_DISCARD,
	LUNQ_TRACE_OP_SECURE_ERASE = (__force u8)REQ_OP_SECURE_ERASE,
	LUNQ_TRACE_OP_WRITE_ZEROES = (__force u8)REQ_OP_WRITE_ZEROES,
	LUNQ_TRACE_OP_ZONE_APPEND = (__force u8)REQ_OP_ZONE_APPEND,
};
#endif

#if !defined(_LUNQ_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _LUNQ_TRACE_H

#include <linux/tracepoint.h>
#include <linux/blk_types.h>
#include "lunq_events.h"
#include "lunq_pol_ops.h"
#include "lunq_builtin.h"

#define LUNQ_TRACE_NAME	32

/* enum values in the print formats, for perf and trace-cmd */
TRACE_DEFINE_ENUM(LUNQ_TRACE_OP_READ);
TRACE_DEFINE_ENUM(LUNQ_TRACE_OP_WRITE);
TRACE_DEFINE_ENUM(LUNQ_TRACE_OP_FLUSH);
TRACE_DEFINE_ENUM(LUNQ_TRACE_OP_DISCARD);
TRACE_DEFINE_ENUM(LUNQ_TRACE_OP_SECURE_ERASE);
TRACE_DEFINE_ENUM(LUNQ_TRACE_OP_WRITE_ZEROES);
TRACE_DEFINE_ENUM(LUNQ_TRACE_OP_ZONE_APPEND);
TRACE_DEFINE_ENUM(LUNQ_TC_SET);
TRACE_DEFINE_ENUM(LUNQ_TC_QFULL);
TRACE_DEFINE_ENUM(LUNQ_TC_RAMP_UP);
TRACE_DEFINE_ENUM(LUNQ_TC_RESTORE);
TRACE_DEFINE_ENUM(LUNQ_TC_AUTO);
TRACE_DEFINE_ENUM(LUNQ_TC_BPF);
TRACE_DEFINE_ENUM(LUNQ_PH_START);
TRACE_DEFINE_ENUM(LUNQ_PH_WINDOW);
TRACE_DEFINE_ENUM(LUNQ_PH_QFULL);
TRACE_DEFINE_ENUM(LUNQ_PH_GOOD);
TRACE_DEFINE_ENUM(LUNQ_PH_TICK);
TRACE_DEFINE_ENUM(LUNQ_PH_IDLE);
TRACE_DEFINE_ENUM(LUNQ_PH_SHARE);
TRACE_DEFINE_ENUM(LUNQ_PH_STARVED);

#define LUNQ_TP_DEV_ASSIGN(q)				\
	do {						\
		__entry->dev = (q)->devt;		\
		strscpy(__entry->name, (q)->name, LUNQ_TRACE_NAME); \
	} while (0)

#define LUNQ_TP_DEV_FMT		"%d,%d %s"

/* An IO of the lunq device: where, how much, what. */
DECLARE_EVENT_CLASS(lunq_bio_class,
	TP_PROTO(const struct lunq_evq *q, sector_t sector, u32 bytes,
		 enum req_op op),
	TP_ARGS(q, sector, bytes, op),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__array(char, name, LUNQ_TRACE_NAME)
		__field(sector_t, sector)
		__field(u32, bytes)
		__field(u8, op)
	),
	TP_fast_assign(
		LUNQ_TP_DEV_ASSIGN(q);
		__entry->sector = sector;
		__entry->bytes = bytes;
		__entry->op = (__force u8)op;
	),
	TP_printk(LUNQ_TP_DEV_FMT " %s %llu + %u bytes", MAJOR(__entry->dev), MINOR(__entry->dev),
		  __entry->name,
		  __print_symbolic(__entry->op,
				 { LUNQ_TRACE_OP_READ, "read" },
				 { LUNQ_TRACE_OP_WRITE, "write" },
				 { LUNQ_TRACE_OP_FLUSH, "flush" },
				 { LUNQ_TRACE_OP_DISCARD, "discard" },
				 { LUNQ_TRACE_OP_SECURE_ERASE, "secure-erase" },
				 { LUNQ_TRACE_OP_WRITE_ZEROES, "write-zeroes" },
				 { LUNQ_TRACE_OP_ZONE_APPEND, "zone-append" }),
		  (unsigned long long)__entry->sector, __entry->bytes)
);

DEFINE_EVENT(lunq_bio_class, lunq_wait,
	TP_PROTO(const struct lunq_evq *q, sector_t sector, u32 bytes,
		 enum req_op op),
	TP_ARGS(q, sector, bytes, op)
);

TRACE_EVENT(lunq_dispatch,
	TP_PROTO(const struct lunq_evq *q, sector_t sector, u32 bytes,
		 enum req_op op, sector_t lsector, u64 wait_ns),
	TP_ARGS(q, sector, bytes, op, lsector, wait_ns),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__array(char, name, LUNQ_TRACE_NAME)
		__field(sector_t, sector)
		__field(u32, bytes)
		__field(u8, op)
		__field(sector_t, lsector)
		__field(u64, wait_ns)
	),
	TP_fast_assign(
		LUNQ_TP_DEV_ASSIGN(q);
		__entry->sector = sector;
		__entry->bytes = bytes;
		__entry->op = (__force u8)op;
		__entry->lsector = lsector;
		__entry->wait_ns = wait_ns;
	),
	TP_printk(LUNQ_TP_DEV_FMT " %s %llu + %u bytes lower %llu wait %llu ns",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  __entry->name,
		  __print_symbolic(__entry->op,
				 { LUNQ_TRACE_OP_READ, "read" },
				 { LUNQ_TRACE_OP_WRITE, "write" },
				 { LUNQ_TRACE_OP_FLUSH, "flush" },
				 { LUNQ_TRACE_OP_DISCARD, "discard" },
				 { LUNQ_TRACE_OP_SECURE_ERASE, "secure-erase" },
				 { LUNQ_TRACE_OP_WRITE_ZEROES, "write-zeroes" },
				 { LUNQ_TRACE_OP_ZONE_APPEND, "zone-append" }),
		  (unsigned long long)__entry->sector, __entry->bytes,
		  (unsigned long long)__entry->lsector, __entry->wait_ns)
);

/*
 * A completion (lunq_complete) and a slow one (lunq_bubble).  @status
 * becomes an errno only when the event is on (every IO passes here).
 */
DECLARE_EVENT_CLASS(lunq_done_class,
	TP_PROTO(const struct lunq_evq *q, sector_t sector, u32 bytes,
		 enum req_op op, blk_status_t status, u64 wait_ns, u64 svc_ns),
	TP_ARGS(q, sector, bytes, op, status, wait_ns, svc_ns),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__array(char, name, LUNQ_TRACE_NAME)
		__field(sector_t, sector)
		__field(u32, bytes)
		__field(u8, op)
		__field(int, error)
		__field(u64, wait_ns)
		__field(u64, svc_ns)
	),
	TP_fast_assign(
		LUNQ_TP_DEV_ASSIGN(q);
		__entry->sector = sector;
		__entry->bytes = bytes;
		__entry->op = (__force u8)op;
		__entry->error = blk_status_to_errno(status);
		__entry->wait_ns = wait_ns;
		__entry->svc_ns = svc_ns;
	),
	TP_printk(LUNQ_TP_DEV_FMT " %s %llu + %u bytes wait %llu svc %llu total %llu ns error %d",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  __entry->name,
		  __print_symbolic(__entry->op,
				 { LUNQ_TRACE_OP_READ, "read" },
				 { LUNQ_TRACE_OP_WRITE, "write" },
				 { LUNQ_TRACE_OP_FLUSH, "flush" },
				 { LUNQ_TRACE_OP_DISCARD, "discard" },
				 { LUNQ_TRACE_OP_SECURE_ERASE, "secure-erase" },
				 { LUNQ_TRACE_OP_WRITE_ZEROES, "write-zeroes" },
				 { LUNQ_TRACE_OP_ZONE_APPEND, "zone-append" }),
		  (unsigned long long)__entry->sector, __entry->bytes,
		  __entry->wait_ns, __entry->svc_ns,
		  __entry->wait_ns + __entry->svc_ns, __entry->error)
);

DEFINE_EVENT(lunq_done_class, lunq_complete,
	TP_PROTO(const struct lunq_evq *q, sector_t sector, u32 bytes,
		 enum req_op op, blk_status_t status, u64 wait_ns, u64 svc_ns),
	TP_ARGS(q, sector, bytes, op, status, wait_ns, svc_ns)
);

DEFINE_EVENT(lunq_done_class, lunq_bubble,
	TP_PROTO(const struct lunq_evq *q, sector_t sector, u32 bytes,
		 enum req_op op, blk_status_t status, u64 wait_ns, u64 svc_ns),
	TP_ARGS(q, sector, bytes, op, status, wait_ns, svc_ns)
);

TRACE_EVENT(lunq_throttle,
	TP_PROTO(const struct lunq_evq *q, u32 from, u32 to, u8 cause),
	TP_ARGS(q, from, to, cause),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__array(char, name, LUNQ_TRACE_NAME)
		__field(u32, from)
		__field(u32, to)
		__field(u8, cause)
	),
	TP_fast_assign(
		LUNQ_TP_DEV_ASSIGN(q);
		__entry->from = from;
		__entry->to = to;
		__entry->cause = cause;
	),
	TP_printk(LUNQ_TP_DEV_FMT " throttle %u -> %u cause %s",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  __entry->name, __entry->from, __entry->to,
		  __print_symbolic(__entry->cause,
				 { LUNQ_TC_SET, "set" },
				 { LUNQ_TC_QFULL, "qfull" },
				 { LUNQ_TC_RAMP_UP, "ramp-up" },
				 { LUNQ_TC_RESTORE, "restore" },
				 { LUNQ_TC_AUTO, "auto" },
				 { LUNQ_TC_BPF, "bpf" }))
);

TRACE_EVENT(lunq_qfull,
	TP_PROTO(const struct lunq_evq *q, sector_t sector, u32 bytes,
		 enum req_op op, u32 depth, u32 transport),
	TP_ARGS(q, sector, bytes, op, depth, transport),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__array(char, name, LUNQ_TRACE_NAME)
		__field(sector_t, sector)
		__field(u32, bytes)
		__field(u8, op)
		__field(u32, depth)
		__field(u32, transport)
	),
	TP_fast_assign(
		LUNQ_TP_DEV_ASSIGN(q);
		__entry->sector = sector;
		__entry->bytes = bytes;
		__entry->op = (__force u8)op;
		__entry->depth = depth;
		__entry->transport = transport;
	),
	TP_printk(LUNQ_TP_DEV_FMT " %s %llu + %u bytes throttle %u in transport %u",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  __entry->name,
		  __print_symbolic(__entry->op,
				 { LUNQ_TRACE_OP_READ, "read" },
				 { LUNQ_TRACE_OP_WRITE, "write" },
				 { LUNQ_TRACE_OP_FLUSH, "flush" },
				 { LUNQ_TRACE_OP_DISCARD, "discard" },
				 { LUNQ_TRACE_OP_SECURE_ERASE, "secure-erase" },
				 { LUNQ_TRACE_OP_WRITE_ZEROES, "write-zeroes" },
				 { LUNQ_TRACE_OP_ZONE_APPEND, "zone-append" }),
		  (unsigned long long)__entry->sector, __entry->bytes,
		  __entry->depth, __entry->transport)
);

TRACE_EVENT(lunq_reset,
	TP_PROTO(const struct lunq_evq *q, u64 resets, u32 queued, u64 block_ns),
	TP_ARGS(q, resets, queued, block_ns),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__array(char, name, LUNQ_TRACE_NAME)
		__field(u64, resets)
		__field(u32, queued)
		__field(u64, block_ns)
	),
	TP_fast_assign(
		LUNQ_TP_DEV_ASSIGN(q);
		__entry->resets = resets;
		__entry->queued = queued;
		__entry->block_ns = block_ns;
	),
	TP_printk(LUNQ_TP_DEV_FMT " LUN reset %llu: %u queued aborted, host blocked %llu ns",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  __entry->name, __entry->resets, __entry->queued,
		  __entry->block_ns)
);

TRACE_EVENT(lunq_auto_window,
	TP_PROTO(const struct lunq_evq *q, const struct lunq_pol_window *s,
		 u32 from, u32 to),
	TP_ARGS(q, s, from, to),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__array(char, name, LUNQ_TRACE_NAME)
		__field(u64, ns)
		__field(u64, ios)
		__field(u64, iops)
		__field(u64, svc_mean_ns)
		__field(u64, p99_ns)
		__field(u64, wait_ns)
		__field(u64, qfull)
		__field(u32, from)
		__field(u32, to)
	),
	TP_fast_assign(
		LUNQ_TP_DEV_ASSIGN(q);
		__entry->ns = s->ns;
		__entry->ios = s->ios;
		__entry->iops = s->iops;
		__entry->svc_mean_ns = s->svc_mean_ns;
		__entry->p99_ns = s->svc_p99_ns;
		__entry->wait_ns = s->wait_ns;
		__entry->qfull = s->qfull;
		__entry->from = from;
		__entry->to = to;
	),
	TP_printk(LUNQ_TP_DEV_FMT " window %llu ns: %llu ios (%llu/s) svc mean %llu p99 %llu ns, waiting %llu ns, qfull %llu; depth %u -> %u",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  __entry->name, __entry->ns, __entry->ios, __entry->iops,
		  __entry->svc_mean_ns, __entry->p99_ns, __entry->wait_ns,
		  __entry->qfull, __entry->from, __entry->to)
);

/*
 * Every answer of the throttle policy in force (a built-in or one from
 * outside): the hook that asked, the depth in force, the policy's own
 * answer and the depth after clamping; a window's answer with the
 * window's figures (0 for the other hooks).
 */
TRACE_EVENT(lunq_pol_answer,
	TP_PROTO(const struct lunq_evq *q, const char *policy, u8 hook,
		 u32 depth, u32 answer, u32 clamped,
		 const struct lunq_pol_window *w),
	TP_ARGS(q, policy, hook, depth, answer, clamped, w),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__array(char, name, LUNQ_TRACE_NAME)
		__array(char, policy, LUNQ_POL_NAME)
		__field(u8, hook)
		__field(u32, depth)
		__field(u32, answer)
		__field(u32, clamped)
		__field(u64, ios)
		__field(u64, iops)
		__field(u64, svc_min_ns)
		__field(u64, svc_p50_ns)
		__field(u64, svc_p99_ns)
		__field(u64, inflight_x1000)
		__field(u64, wait_p99_ns)
		__field(u64, qfull)
		__field(u32, pool_depth)
		__field(u32, pool_busy)
		__field(u32, pool_share)
		__field(u64, run_ios)
		__field(u64, run_p99_ns)
		__field(u64, wait_ns)
		__field(u64, oldest_ns)
	),
	TP_fast_assign(
		LUNQ_TP_DEV_ASSIGN(q);
		strscpy(__entry->policy, policy, LUNQ_POL_NAME);
		__entry->hook = hook;
		__entry->depth = depth;
		__entry->answer = answer;
		__entry->clamped = clamped;
		__entry->ios = w ? w->ios : 0;
		__entry->iops = w ? w->iops : 0;
		__entry->svc_min_ns = w ? w->svc_min_ns : 0;
		__entry->svc_p50_ns = w ? w->svc_p50_ns : 0;
		__entry->svc_p99_ns = w ? w->svc_p99_ns : 0;
		__entry->inflight_x1000 = w ? w->inflight_x1000 : 0;
		__entry->wait_p99_ns = w ? w->lunq_wait_p99_ns : 0;
		__entry->qfull = w ? w->qfull : 0;
		__entry->pool_depth = w ? w->pool_depth : 0;
		__entry->pool_busy = w ? w->pool_busy : 0;
		__entry->pool_share = w ? w->pool_share : 0;
		__entry->run_ios = w ? w->run_ios : 0;
		__entry->run_p99_ns = w ? w->run_svc_p99_ns : 0;
		__entry->wait_ns = w ? w->wait_ns : 0;
		__entry->oldest_ns = w ? w->lunq_wait_oldest_ns : 0;
	),
	TP_printk(LUNQ_TP_DEV_FMT " policy=%s hook=%s depth=%u answer=%u clamped=%u ios=%llu iops=%llu svc_min=%llu svc_p50=%llu svc_p99=%llu inflight=%llu wait_p99=%llu qfull=%llu pool=%u busy=%u share=%u run_ios=%llu run_p99=%llu wait=%llu oldest=%llu",
		  MAJOR(__entry->dev), MINOR(__entry->dev), __entry->name,
		  __entry->policy,
		  __print_symbolic(__entry->hook,
				 { LUNQ_PH_START, "start" },
				 { LUNQ_PH_WINDOW, "window" },
				 { LUNQ_PH_QFULL, "qfull" },
				 { LUNQ_PH_GOOD, "good" },
				 { LUNQ_PH_TICK, "tick" },
				 { LUNQ_PH_IDLE, "idle" },
				 { LUNQ_PH_SHARE, "share" },
				 { LUNQ_PH_STARVED, "starved" }),
		  __entry->depth, __entry->answer, __entry->clamped,
		  __entry->ios, __entry->iops, __entry->svc_min_ns,
		  __entry->svc_p50_ns, __entry->svc_p99_ns,
		  __entry->inflight_x1000, __entry->wait_p99_ns,
		  __entry->qfull, __entry->pool_depth, __entry->pool_busy,
		  __entry->pool_share, __entry->run_ios, __entry->run_p99_ns,
		  __entry->wait_ns, __entry->oldest_ns)
);

/*
 * A policy from outside ejected by the watchdog (lunq_wd.h) or by hand:
 * the rule, the callback that ran too long (rule "callback"), what broke
 * the rule and its bound (ns).
 */
TRACE_EVENT(lunq_pol_eject,
	TP_PROTO(const struct lunq_evq *q, const char *policy,
		 const char *rule, u8 hook, u64 ns, u64 bound_ns),
	TP_ARGS(q, policy, rule, hook, ns, bound_ns),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__array(char, name, LUNQ_TRACE_NAME)
		__array(char, policy, LUNQ_POL_NAME)
		__array(char, rule, 12)
		__field(u8, hook)
		__field(u64, ns)
		__field(u64, bound_ns)
	),
	TP_fast_assign(
		LUNQ_TP_DEV_ASSIGN(q);
		strscpy(__entry->policy, policy, LUNQ_POL_NAME);
		strscpy(__entry->rule, rule, 12);
		__entry->hook = hook;
		__entry->ns = ns;
		__entry->bound_ns = bound_ns;
	),
	TP_printk(LUNQ_TP_DEV_FMT " policy=%s rule=%s hook=%s ns=%llu bound_ns=%llu",
		  MAJOR(__entry->dev), MINOR(__entry->dev), __entry->name,
		  __entry->policy, __entry->rule,
		  __print_symbolic(__entry->hook,
				 { LUNQ_PH_START, "start" },
				 { LUNQ_PH_WINDOW, "window" },
				 { LUNQ_PH_QFULL, "qfull" }),
		  __entry->ns, __entry->bound_ns)
);

#endif /* _LUNQ_TRACE_H */

/* This part must be outside protection */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE lunq_trace
#include <trace/define_trace.h>
