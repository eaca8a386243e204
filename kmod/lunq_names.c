// SPDX-License-Identifier: GPL-2.0
/*
 * Names of dm-lunq's statistics, histograms and events (lunq_names.h).
 */
#include "lunq_names.h"

const char *const lunq_stat_names[__LUNQ_ST_MAX] = {
	[LUNQ_ST_READS] = "reads",
	[LUNQ_ST_WRITES] = "writes",
	[LUNQ_ST_FLUSHES] = "flushes",
	[LUNQ_ST_DISCARDS] = "discards",
	[LUNQ_ST_OTHER] = "other_ops",
	[LUNQ_ST_READ_SECTORS] = "read_sectors",
	[LUNQ_ST_WRITE_SECTORS] = "write_sectors",
	[LUNQ_ST_DISCARD_SECTORS] = "discard_sectors",
	[LUNQ_ST_ERRORS] = "errors",
	[LUNQ_ST_COMPLETED] = "completed",
	[LUNQ_ST_DISPATCHED] = "dispatched",
	[LUNQ_ST_REQUEUED] = "requeued",
	[LUNQ_ST_RETRIED] = "retried",
	[LUNQ_ST_QFULL] = "qfull",
	[LUNQ_ST_RESETS] = "resets",
	[LUNQ_ST_ABORTED] = "aborted",
	[LUNQ_ST_THROTTLE_CHANGES] = "throttle_changes",
	[LUNQ_ST_MAX_INFLIGHT] = "max_inflight",
	[LUNQ_ST_MAX_WAITING] = "max_waiting",
	[LUNQ_ST_THROTTLE] = "throttle",
	[LUNQ_ST_INFLIGHT] = "inflight",
	[LUNQ_ST_WAITING] = "waiting",
	[LUNQ_ST_RETRYING] = "retrying",
	[LUNQ_ST_LUN_INFLIGHT] = "lun_inflight",
	[LUNQ_ST_POOL_INFLIGHT] = "pool_inflight",
	[LUNQ_ST_OLDEST_WAIT_NS] = "oldest_wait_ns",
	[LUNQ_ST_MISALIGNED_4K] = "misaligned_4k",
	[LUNQ_ST_SIZE_NOT_4K] = "size_not_4k",
	[LUNQ_ST_BUBBLES] = "bubbles",
	[LUNQ_ST_EVENTS_DROPPED] = "events_dropped",
	[LUNQ_ST_SNAPTIME_NS] = "snaptime_ns",
	[LUNQ_ST_WLENTIME_NS] = "wlentime_ns",
	[LUNQ_ST_RLENTIME_NS] = "rlentime_ns",
	[LUNQ_ST_WTIME_NS] = "wtime_ns",
	[LUNQ_ST_RTIME_NS] = "rtime_ns",
	[LUNQ_ST_CRTIME_NS] = "crtime_ns",
	[LUNQ_ST_AUTO_PHASE] = "auto_phase",
	[LUNQ_ST_AUTO_PEAK_IOPS] = "auto_peak_iops",
	[LUNQ_ST_AUTO_SVC_MIN_NS] = "auto_svc_min_ns",
	[LUNQ_ST_AUTO_KNEE] = "auto_knee",
	[LUNQ_ST_AUTO_P99_NS] = "auto_p99_ns",
	[LUNQ_ST_AUTO_WINDOWS] = "auto_windows",
	[LUNQ_ST_AUTO_MOVES] = "auto_moves",
	[LUNQ_ST_AUTO_SVC_NS] = "auto_svc_ns",
	[LUNQ_ST_READ_WAIT_NS] = "read_wait_ns",
	[LUNQ_ST_READ_SVC_NS] = "read_svc_ns",
	[LUNQ_ST_WRITE_WAIT_NS] = "write_wait_ns",
	[LUNQ_ST_WRITE_SVC_NS] = "write_svc_ns",
	[LUNQ_ST_WRITE_MISALIGNED_4K] = "write_misaligned_4k",
	[LUNQ_ST_WRITE_SIZE_NOT_4K] = "write_size_not_4k",
	[LUNQ_ST_POL_ZERO] = "pol_zero",
	[LUNQ_ST_POL_BELOW] = "pol_below",
	[LUNQ_ST_POL_ABOVE] = "pol_above",
};

const char *const lunq_auto_phase_names[LUNQ_NR_AUTO_PHASES] = {
	"off", "down", "up", "hold", "probe", "track"
};

const char *const lunq_hist_names[LUNQ_NR_HISTS] = {
	[LUNQ_HIST_WAIT_READ] = "wait_read",
	[LUNQ_HIST_WAIT_WRITE] = "wait_write",
	[LUNQ_HIST_SVC_READ] = "service_read",
	[LUNQ_HIST_SVC_WRITE] = "service_write",
	[LUNQ_HIST_TOTAL_READ] = "total_read",
	[LUNQ_HIST_TOTAL_WRITE] = "total_write",
	[LUNQ_HIST_SIZE] = "size",
	[LUNQ_HIST_ALIGN] = "align",
	[LUNQ_HIST_SIZE_WRITE] = "size_write",
	[LUNQ_HIST_ALIGN_WRITE] = "align_write",
};

const char *const lunq_event_names[LUNQ_NR_EVENTS] = {
	[LUNQ_EV_QFULL] = "qfull",
	[LUNQ_EV_THROTTLE] = "throttle",
	[LUNQ_EV_RESET] = "reset",
	[LUNQ_EV_BUBBLE] = "bubble",
	[LUNQ_EV_EJECT] = "eject",
};
