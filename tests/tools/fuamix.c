// SPDX-License-Identifier: GPL-2.0
/*
 * fuamix: plain and FUA writes to a block device from one task, for the
 * VM test of lunq's ordering barriers (tests/vm/t-dispatch-order.sh).
 *
 *   fuamix DEV SECONDS DEPTH
 *
 * Keeps DEPTH 4 KiB O_DIRECT writes to random positions in the first half
 * of DEV and one RWF_DSYNC write (REQ_FUA on a block device) to a random
 * position in the second half outstanding, for SECONDS.  Every position
 * is written at most once (a stride permutation), so a sector names one
 * IO in a blktrace.
 *
 * Why not fio: fio submits FUA and plain writes from two jobs, two tasks,
 * and a task can be rescheduled between blktrace's Q event and the dm
 * target's map (dm allocates its clone with GFP_NOIO: a might_sleep point
 * that reschedules under voluntary preemption), so Q order would not be
 * the order in which lunq received the bios.  io_uring would not do either:
 * a REQ_NOWAIT bio lunq must queue gets EAGAIN and io_uring reissues it
 * from io-wq worker threads.  Linux AIO submits every bio inline in
 * io_submit, from this task alone, pinned to the CPU it starts on.
 *
 * Prints "plain N fua N"; exit 0, or 1 on usage errors, 2 on failed
 * syscalls or IOs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <linux/fs.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define BS 4096

static void die(const char *what)
{
	fprintf(stderr, "fuamix: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* a stride coprime to @n: i * stride mod n visits every block once */
static uint64_t stride_for(uint64_t n)
{
	uint64_t s = n * 618 / 1000 | 1, a, b, t;

	for (;; s += 2) {
		for (a = s, b = n; b; t = a % b, a = b, b = t)
			;
		if (a == 1)
			return s;
	}
}

struct region {
	uint64_t base, n, stride, next;
};

static int region_pos(struct region *r, uint64_t *off)
{
	if (r->next >= r->n)
		return 0;
	*off = (r->base + r->next++ * r->stride % r->n) * BS;
	return 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* (re)submit slot @s (0: the FUA write) unless time or positions ran out */
static int submit(aio_context_t ctx, struct iocb *c, int s, int fd,
		  char *bufs, struct region *r, double end)
{
	struct iocb *list[1] = { c };
	uint64_t off;

	if (now_s() >= end || !region_pos(r, &off))
		return 0;
	memset(c, 0, sizeof(*c));
	c->aio_data = s;
	c->aio_lio_opcode = IOCB_CMD_PWRITE;
	c->aio_fildes = fd;
	c->aio_buf = (uintptr_t)(bufs + (size_t)s * BS);
	c->aio_nbytes = BS;
	c->aio_offset = off;
	c->aio_rw_flags = s ? 0 : RWF_DSYNC;
	if (syscall(SYS_io_submit, ctx, 1, list) != 1)
		die("io_submit");
	return 1;
}

int main(int argc, char **argv)
{
	struct region plain, fua;
	unsigned long long size;
	unsigned long count[2] = { 0, 0 };
	aio_context_t ctx = 0;
	struct io_event *ev;
	struct iocb *cb;
	double secs, end;
	int depth, fd, i, busy = 0;
	cpu_set_t cpus;
	char *bufs;

	if (argc != 4 || (secs = atof(argv[2])) <= 0 ||
	    (depth = atoi(argv[3])) < 1 || depth > 256) {
		fprintf(stderr, "usage: fuamix DEV SECONDS DEPTH (1..256)\n");
		return 1;
	}
	CPU_ZERO(&cpus);
	CPU_SET(sched_getcpu(), &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		die("sched_setaffinity");
	fd = open(argv[1], O_WRONLY | O_DIRECT);
	if (fd < 0)
		die(argv[1]);
	if (ioctl(fd, BLKGETSIZE64, &size))
		die("BLKGETSIZE64");
	if (size < 4 * BS) {
		fprintf(stderr, "fuamix: %s: too small\n", argv[1]);
		return 1;
	}
	plain.n = size / BS / 2;
	plain.base = 0;
	fua.n = plain.n;
	fua.base = plain.n;
	plain.stride = fua.stride = stride_for(plain.n);
	plain.next = fua.next = 0;

	/* slot 0: the FUA write; slots 1..depth: plain writes */
	if (posix_memalign((void **)&bufs, BS, (size_t)(depth + 1) * BS))
		die("posix_memalign");
	memset(bufs, 0x5a, (size_t)(depth + 1) * BS);
	cb = calloc(depth + 1, sizeof(*cb));
	ev = calloc(depth + 1, sizeof(*ev));
	if (!cb || !ev)
		die("calloc");
	if (syscall(SYS_io_setup, depth + 1, &ctx))
		die("io_setup");

	end = now_s() + secs;
	for (i = 0; i <= depth; i++)
		busy += submit(ctx, &cb[i], i, fd, bufs, i ? &plain : &fua, end);
	while (busy) {
		int n = syscall(SYS_io_getevents, ctx, 1, depth + 1, ev, NULL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("io_getevents");
		}
		for (i = 0; i < n; i++) {
			int s = ev[i].data;

			if (ev[i].res != BS) {
				fprintf(stderr, "fuamix: write at %llu: %s\n",
					(unsigned long long)cb[s].aio_offset,
					(long long)ev[i].res < 0 ?
					strerror(-(long long)ev[i].res) :
					"short write");
				return 2;
			}
			busy--;
			count[s == 0]++;
			busy += submit(ctx, &cb[s], s, fd, bufs,
				       s ? &plain : &fua, end);
		}
	}
	syscall(SYS_io_destroy, ctx);
	close(fd);
	printf("plain %lu fua %lu\n", count[0], count[1]);
	return 0;
}
