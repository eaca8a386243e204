// SPDX-License-Identifier: GPL-2.0
/*
 * Random scenarios for lunqsim --random (random.h).  Every draw comes
 * from a splitmix64 stream seeded by (seed, index), so scenario @index of
 * a seed does not depend on how many are drawn.  The ranges, each a
 * named constant with its reason, are those of doc/lunqsim.md's table;
 * what lunqsim does not simulate yet (pools, other initiators, QUEUE
 * FULL, lunq's sorting queue) is not drawn.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "random.h"

/* flash and fixed: the range of channels and of service times */
#define R_CHAN_MAX	64
#define R_SVC_MIN_US	100		/* 0.1 ms */
#define R_SVC_MAX_US	50000		/* 50 ms */
/*
 * the most IOs a second a device may reach (channels / svc): lunqsim's
 * CPU time grows with the IOs, and 640k a second (64 channels of 0.1 ms)
 * would cost 64 times a scenario at this cap, more than the VM arena
 * under TCG can issue too; the channels are drawn under it for short
 * service times
 */
#define R_KNEE_MAX_IOPS	10000
/* disks: the usual spindle speeds and their average seeks (datasheets) */
static const struct { unsigned int rpm, seek_lo_ms, seek_hi_ms; } disks[] = {
	{ 5400, 11, 14 }, { 7200, 8, 10 }, { 10000, 4, 6 }, { 15000, 3, 4 },
};
#define R_HDD_SVC_LO_US	100		/* the drive's own overhead per command */
#define R_HDD_SVC_HI_US	1000
#define R_LUN_DEPTH	256		/* the drive's queue with lun_order=sptf: above any load's depth */
#define R_CACHE_MB	64		/* the write cache's size (wcache's) */
/* closed loops: lunqbench's --iodepth */
#define R_QD_MAX	256
/* open loops: a rate of R_RATE_LO..R_RATE_HI % of the knee */
#define R_RATE_LO	10
#define R_RATE_HI	150
#define R_GOAL_LAT_PCT	90	/* open loops all under it: goal latency (the IOPS are the load's) */
/* phases */
#define R_PH_RATE_MIN	3		/* a rate scenario's steps */
#define R_PH_RATE_MAX	7
#define R_PH_CAP_MAX	4		/* channels that change: up to 4 phases */
/* the bound of a bounded disk: 1.5..4 x a random read's seek + rotation */
#define R_BOUND_LO_X10	15
#define R_BOUND_HI_X10	40

const char *const scn_random_kinds[] = {
	"flash", "capacity", "fixed", "disk", "disk-sptf", "rate-steps",
	"rate-jumps", "bounded", "wcache", NULL,
};

struct rng {
	unsigned long long x;
};

static unsigned long long next(struct rng *r)
{
	unsigned long long z = (r->x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* lo..hi, uniform */
static unsigned int uni(struct rng *r, unsigned int lo, unsigned int hi)
{
	return lo + next(r) % (hi - lo + 1);
}

/* lo..hi, uniform in the logarithm (as many 1..2 as 32..64) */
static unsigned int logu(struct rng *r, unsigned int lo, unsigned int hi)
{
	double u = (next(r) >> 11) * (1.0 / 9007199254740992.0);
	unsigned int v = (unsigned int)lround(exp(log(lo) + u * (log(hi + 0.999) - log(lo)) - 0.4999));

	return v < lo ? lo : v > hi ? hi : v;
}

/* a read/write mix: --rdpct, reads in 100 IOs */
static unsigned int rdpct(struct rng *r)
{
	static const unsigned int p[] = { 100, 100, 100, 90, 70, 50, 30, 0 };

	return p[next(r) % (sizeof(p) / sizeof(p[0]))];
}

/* a flash device: channels and service time under R_KNEE_MAX_IOPS */
static double flash(struct rng *r, unsigned int *chan, unsigned int *svc)
{
	unsigned long long cmax;

	*svc = logu(r, R_SVC_MIN_US, R_SVC_MAX_US);
	cmax = (unsigned long long)R_KNEE_MAX_IOPS * *svc / 1000000;
	if (cmax > R_CHAN_MAX)
		cmax = R_CHAN_MAX;
	*chan = logu(r, 1, cmax ? cmax : 1);
	return *chan * 1e6 / *svc;
}

/* a disk: its words into @lun; returns a random read's IOs a second at depth 1 */
static double disk(struct rng *r, char *lun, size_t n, bool sptf, bool cache)
{
	unsigned int d = next(r) % (sizeof(disks) / sizeof(disks[0]));
	unsigned int seek = uni(r, disks[d].seek_lo_ms, disks[d].seek_hi_ms);
	unsigned int svc = uni(r, R_HDD_SVC_LO_US, R_HDD_SVC_HI_US);
	char c[32] = "", q[64] = "";

	if (cache)
		snprintf(c, sizeof(c), " cache_mb=%d", R_CACHE_MB);
	if (sptf)
		snprintf(q, sizeof(q), " lun_depth=%d", R_LUN_DEPTH);
	snprintf(lun, n, "model=hdd seek_ms=%u rpm=%u svc_us=%u%s%s", seek,
		 disks[d].rpm, svc, c, q);
	return 1e3 / (seek + 30000.0 / disks[d].rpm + svc / 1000.0);
}

static void common(struct scenario *s, unsigned long long seed, unsigned int index)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "r%llu-%04u", seed, index);
	snprintf(s->lower, sizeof(s->lower), "nb2");
	s->luns = 1;
	s->changes = SCN_SET;
	s->goal = SCN_IOPS;
	snprintf(s->objective, sizeof(s->objective), "most IOPS");
	snprintf(s->lat, sizeof(s->lat), "resp:p99");
	snprintf(s->lat_name, sizeof(s->lat_name), "resp p99");
}

/* @n rates of R_RATE_LO..R_RATE_HI % of @knee: steps up and down, or jumps */
static const char *rates(struct rng *r, struct scenario *s, double knee)
{
	unsigned int n = uni(r, R_PH_RATE_MIN, R_PH_RATE_MAX), i, pct[R_PH_RATE_MAX];
	bool steps = next(r) & 1;

	if (steps) {
		/* a ramp: from lo up to hi at the middle step, back down */
		unsigned int lo = uni(r, R_RATE_LO, 50), hi = uni(r, 60, R_RATE_HI);

		for (i = 0; i < n; i++) {
			unsigned int up = i <= n / 2 ? i : n - 1 - i;

			pct[i] = lo + (hi - lo) * up / (n / 2);
		}
	} else {
		for (i = 0; i < n; i++)
			pct[i] = uni(r, R_RATE_LO, R_RATE_HI);
	}
	s->nph = n;
	for (i = 0; i < n; i++) {
		unsigned int rate = (unsigned int)(knee * pct[i] / 100 + 0.5);

		snprintf(s->phase[i], SCN_LINE, "rate=%u", rate ? rate : 1);
	}
	return steps ? "rate-steps" : "rate-jumps";
}

void scn_random(struct scenario *s, unsigned long long seed,
		unsigned int index, const char **kind)
{
	static const unsigned int starts[] = { 1, 4, 16, 32, 64 };
	struct rng r = { seed * 0x2545f4914f6cdd1dULL ^ (index + 1ULL) * 0x9e3779b97f4a7c15ULL };
	unsigned int k = next(&r) % 7, chan, svc, i, rd = rdpct(&r), qd;
	bool sptf = next(&r) & 1;
	const char *order = sptf ? "sptf" : "fifo";
	double knee;

	common(s, seed, index);
	s->start = starts[next(&r) % 5];
	s->phase_s = 2 * uni(&r, 4, 8);		/* 8..16 s */
	qd = logu(&r, 1, R_QD_MAX);
	switch (k) {
	case 0:	/* flash, a closed loop */
	case 1:	/* flash, its channels changing (capacity) */
		knee = flash(&r, &chan, &svc);
		snprintf(s->lun, SCN_LINE, "model=flash svc_us=%u", svc);
		snprintf(s->load, SCN_LINE, "--iodepth %u --rdpct %u", qd, rd);
		s->nph = k ? uni(&r, 2, R_PH_CAP_MAX) : 1;
		/* the channels drop and come back (capacity) */
		for (i = 0; i < s->nph; i++)
			snprintf(s->phase[i], SCN_LINE, "channels=%u",
				 i && (next(&r) & 1) ? logu(&r, 1, chan) : chan);
		*kind = k ? "capacity" : "flash";
		break;
	case 2:	/* fixed: a pure latency, no knee */
		svc = logu(&r, R_SVC_MIN_US, R_SVC_MAX_US);
		snprintf(s->lun, SCN_LINE, "model=fixed svc_us=%u", svc);
		snprintf(s->load, SCN_LINE, "--iodepth %u --rdpct %u", qd, rd);
		s->nph = 1;
		snprintf(s->phase[0], SCN_LINE, "wce=0");
		*kind = "fixed";
		break;
	case 3:	/* a disk, a closed loop, its own sort or not, a write cache */
		disk(&r, s->lun, SCN_LINE, sptf, rd < 100);
		snprintf(s->load, SCN_LINE, "--iodepth %u --rdpct %u", qd, rd);
		s->nph = 1;
		snprintf(s->phase[0], SCN_LINE, "lun_order=%s wce=%u", order,
			 rd < 100 ? (unsigned int)(next(&r) & 1) : 0);
		*kind = sptf ? "disk-sptf" : "disk";
		break;
	case 4:	/* an open loop whose rate moves: flash or a disk */
		if (next(&r) & 1) {
			knee = flash(&r, &chan, &svc);
			snprintf(s->lun, SCN_LINE, "model=flash svc_us=%u channels=%u", svc, chan);
		} else {
			char w[SCN_LINE / 2];

			knee = disk(&r, w, sizeof(w), sptf, false);
			snprintf(s->lun, SCN_LINE, "%s%s", w, sptf ? " lun_order=sptf" : "");
		}
		snprintf(s->load, SCN_LINE, "--rdpct %u", rd);
		s->changes = SCN_RATE;
		*kind = rates(&r, s, knee);
		for (i = 0; i < s->nph; i++)
			if (strtoul(s->phase[i] + 5, NULL, 10) > knee * R_GOAL_LAT_PCT / 100)
				break;
		if (i == s->nph) {
			s->goal = SCN_LATENCY;
			snprintf(s->objective, SCN_LINE, "the lowest resp p99, the worst step (open loop: the IOPS are the load's)");
		}
		break;
	case 5:	/* a disk sorting its queue, lunq's service p99 bounded (target) */
		knee = disk(&r, s->lun, SCN_LINE, true, false);
		snprintf(s->load, SCN_LINE, "--iodepth %u", logu(&r, 8, R_QD_MAX));
		s->nph = 1;
		snprintf(s->phase[0], SCN_LINE, "lun_order=sptf");
		s->bound_ms = (unsigned int)(1e3 / knee * uni(&r, R_BOUND_LO_X10, R_BOUND_HI_X10) / 10);
		s->target_ms = s->bound_ms;
		snprintf(s->lat, sizeof(s->lat), "service_read:p99");
		snprintf(s->lat_name, sizeof(s->lat_name), "service p99");
		snprintf(s->blat, sizeof(s->blat), "service_read:p99");
		snprintf(s->blat_name, sizeof(s->blat_name), "service p99");
		snprintf(s->objective, SCN_LINE, "most IOPS with service p99 <= %u ms", s->bound_ms);
		*kind = "bounded";
		break;
	default:	/* writes behind reads: a disk's write cache, an open loop */
		knee = disk(&r, s->lun, SCN_LINE, false, true);
		rd = uni(&r, 20, 80);
		snprintf(s->load, SCN_LINE, "--iorate %u --rdpct %u",
			 (unsigned int)(knee * uni(&r, R_RATE_LO, R_GOAL_LAT_PCT) / 100) ?: 1, rd);
		s->nph = 1;
		snprintf(s->phase[0], SCN_LINE, "wce=1");
		s->goal = SCN_LATENCY;
		snprintf(s->objective, SCN_LINE, "the lowest write p99 (open loop: the IOPS are the load's)");
		snprintf(s->lat, sizeof(s->lat), "total_write:p99");
		snprintf(s->lat_name, sizeof(s->lat_name), "write p99");
		*kind = "wcache";
		break;
	}
	if (!s->blat[0]) {
		snprintf(s->blat, sizeof(s->blat), "%s", s->lat);
		snprintf(s->blat_name, sizeof(s->blat_name), "%s", s->lat_name);
	}
	snprintf(s->about, SCN_LINE, "lunqsim --random, seed %llu, scenario %u: %.200s", seed, index, *kind);
}
