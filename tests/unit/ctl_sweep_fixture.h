/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The synthetic sweep of tests/unit/ctl_sweep_test.c and ctl_svg_test.c
 * (golden files sweep.txt, sweep.csv, sweep.json, sweep.svg): a flash-like
 * LUN of 4 channels at 2 ms per IO.
 *
 *   fifo closed, qdepth 1..32: IOPS doubles up to qdepth 4, then
 *     flattens near 2000 while p99 doubles with every step: the knee
 *     (greatest IOPS / p99) is qdepth 4 (1950 / 2.9 ms = 672414/s; qdepth
 *     2: 985 / 2.4 ms = 410417/s; qdepth 8: 1990 / 5.1 ms = 390196/s).
 *   disksort closed, qdepth 1, 4, 16: the knee is qdepth 4.
 *   fifo qdepth=8 open (--loop both), vdbench-style: 10, 50, 70, 90,
 *     100 % of the 1990 IOPS the closed-loop point at qdepth 8 measured;
 *     the knee is 70 % (1393 / 2.9 ms = 480345/s; 50 %: 995 / 2.3 ms =
 *     432609/s); the 100 % point is saturated.
 * The device name has XML and JSON specials in it on purpose.
 */
#ifndef CTL_SWEEP_FIXTURE_H
#define CTL_SWEEP_FIXTURE_H

#include "sweep.h"

/* @p, a point that ran: @sched, @qd, open loop at @pct % or closed, a probe */
static void fx_point(struct lq_point *p, const char *sched, u32 qd, bool open,
		     u32 pct, bool probe)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->sched, sizeof(p->sched), "%s", sched);
	p->qdepth = qd;
	p->open = open;
	p->rate_pct = pct;
	p->probe = probe;
	p->ran = true;
}

static void fx_add(struct lq_sweep *s, const char *sched, u32 qd, bool open,
		   u32 pct, bool probe, double iops, double p99_ms, double qfs)
{
	struct lq_point p;

	fx_point(&p, sched, qd, open, pct, probe);
	p.target_iops = open ? 1990.0 * pct / 100 : 0;
	p.r.elapsed_s = 3;
	p.r.iops = iops;
	p.r.ios = (u64)(iops * 3 + 0.5);
	p.r.reads = p.r.ios;
	p.r.mbps = iops * 4096 / 1e6;
	p.r.resp_p50_ns = (u64)(p99_ms * 1e6 * 0.8);
	p.r.resp_p90_ns = (u64)(p99_ms * 1e6 * 0.9);
	p.r.resp_p99_ns = (u64)(p99_ms * 1e6);
	p.r.resp_p999_ns = (u64)(p99_ms * 1e6 * 1.2);
	p.r.resp_max_ns = (u64)(p99_ms * 1e6 * 1.5);
	p.r.svc_p50_ns = 2000000;
	p.r.svc_p99_ns = 2100000;
	p.r.lag_p99_ns = 20000;
	p.r.open = open;
	p.r.qd = 64;
	p.r.saturated = open && pct == 100;
	p.qfull = qfs >= 0 ? (u64)(qfs * 3) : 0;
	p.qfull_s = qfs;
	lq_sweep_add(s, &p);
}

static void fixture(struct lq_sweep *s)
{
	lq_sweep_init(s, "lq<&>", "/dev/mapper/lq<&>",
		      "--elapsed 3 --iodepth 64 --bs 4k --rdpct 100 --seekpct 100");
	fx_add(s, "fifo", 1, false, 0, false, 495, 2.3, 0);
	fx_add(s, "fifo", 2, false, 0, false, 985, 2.4, 0);
	fx_add(s, "fifo", 4, false, 0, false, 1950, 2.9, 0);
	fx_add(s, "fifo", 8, false, 0, false, 1990, 5.1, 0);
	fx_add(s, "fifo", 16, false, 0, false, 2000, 9.8, 12.5);
	fx_add(s, "fifo", 32, false, 0, false, 2000, 19.6, 250.3);
	fx_add(s, "disksort", 1, false, 0, false, 500, 2.2, -1);
	fx_add(s, "disksort", 4, false, 0, false, 2010, 3.1, -1);
	fx_add(s, "disksort", 16, false, 0, false, 2040, 12.4, -1);
	fx_add(s, "fifo", 8, true, 10, false, 199, 2.1, 0);
	fx_add(s, "fifo", 8, true, 50, false, 995, 2.3, 0);
	fx_add(s, "fifo", 8, true, 70, false, 1393, 2.9, 0);
	fx_add(s, "fifo", 8, true, 90, false, 1791, 5.5, 0);
	fx_add(s, "fifo", 8, true, 100, false, 1985, 40, 0);
	lq_sweep_curves(s);
}

#endif
