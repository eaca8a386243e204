// SPDX-License-Identifier: GPL-2.0
/*
 * zplug: writes beyond a zone's write pointer, for the VM test of lunq's
 * zone write plug (tests/vm/t-zoned-plug.sh).  Linux AIO submits every
 * bio inline in io_submit, from this task alone, so lunq receives the
 * writes in the order they are submitted.  DEV is opened O_DIRECT; ZONE
 * is the first sector of an empty sequential zone of DEV.
 *
 *   zplug reset DEV ZONE
 *     Write A (4 KiB) at ZONE + 8 sectors, beyond the pointer: it must
 *     still be pending 100 ms later (held).  Reset the zone
 *     (BLKRESETZONE): A must complete with EIO within 2 s.  Then write B
 *     at ZONE and C at ZONE + 8 sectors (pwrite): both must succeed, and
 *     the 8 KiB read back must be B then C.
 *     Prints "reset: a=ERR a_ms=N b=ERR c=ERR data=ok|bad", where ERR is
 *     ok, pending (not completed) or the error's name.
 *
 *   zplug reverse DEV ZONE N BS
 *     N writes of BS bytes (BS a multiple of 512), the whole range
 *     ZONE .. ZONE + N * BS, submitted in reverse order (the last block
 *     first) in batches of 1024.  Those lunq refuses fail with EIO
 *     (they must be a run of blocks, below those it holds); those it
 *     holds stay pending.  Then the refused blocks are written again,
 *     in order (pwrite, up to 1 MiB each): the last of them releases the
 *     held writes, which must all succeed.  Every block carries its
 *     index and a seed; the range read back must be intact.
 *     Prints "reverse: n=N bs=BS first_ok=F refused=R held=H eio=E
 *     err=X submit_ms=S submit_max_ms=M fill_ms=T last_ms=L data=ok|bad"
 *     (first_ok: blocks that succeeded at once, e.g. the block at the
 *     pointer; submit_max_ms: the slowest io_submit call; last_ms: the
 *     pwrite that released the held writes).
 *
 * Exit 0 when every check holds, 1 when one fails, 2 on usage or setup
 * errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <linux/blkzoned.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define SEED	0x7a706c7567ULL		/* "zplug" */
#define BATCH	1024

static void die(const char *what)
{
	fprintf(stderr, "zplug: %s: %s\n", what, strerror(errno));
	exit(2);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static const char *err_name(long res, long want)
{
	if (res == want)
		return "ok";
	if (res >= 0)
		return "short";
	return strerror((int)-res);
}

static void *xalign(size_t n)
{
	void *p;

	if (posix_memalign(&p, 4096, n))
		die("posix_memalign");
	return p;
}

/* Fill @n bytes at @p (block @idx of @bs bytes onwards) with its tag. */
static void tag(char *p, uint64_t idx, size_t bs, size_t n)
{
	size_t off;

	for (off = 0; off < n; off += bs, idx++) {
		uint64_t v[2] = { idx, SEED ^ idx };
		size_t i;

		for (i = 0; i + sizeof(v) <= bs; i += sizeof(v))
			memcpy(p + off + i, v, sizeof(v));
	}
}

static int cmd_reset(int fd, uint64_t zone)
{
	char *a = xalign(4096), *b = xalign(4096), *c = xalign(4096);
	char *rd = xalign(8192);
	struct iocb cb = { 0 }, *cbs[1] = { &cb };
	struct io_event ev;
	struct timespec ts = { 0, 0 };
	aio_context_t ctx = 0;
	const char *ae = "pending", *be, *ce;
	struct blk_zone_range zr;
	uint32_t zsz;
	double t;
	int bad = 0, data;
	long r;

	memset(a, 'A', 4096);
	memset(b, 'B', 4096);
	memset(c, 'C', 4096);
	if (ioctl(fd, BLKGETZONESZ, &zsz) || !zsz)
		die("BLKGETZONESZ");
	if (syscall(SYS_io_setup, 4, &ctx))
		die("io_setup");
	cb.aio_fildes = fd;
	cb.aio_lio_opcode = IOCB_CMD_PWRITE;
	cb.aio_buf = (uintptr_t)a;
	cb.aio_nbytes = 4096;
	cb.aio_offset = (zone + 8) * 512;
	if (syscall(SYS_io_submit, ctx, 1, cbs) != 1)
		die("io_submit");
	usleep(100000);
	if (syscall(SYS_io_getevents, ctx, 0, 1, &ev, &ts) != 0) {
		printf("reset: A completed before the reset (res %lld): not held\n",
		       (long long)ev.res);
		return 1;
	}
	zr.sector = zone;
	zr.nr_sectors = zsz;
	t = now_ms();
	if (ioctl(fd, BLKRESETZONE, &zr))
		die("BLKRESETZONE");
	ts.tv_sec = 2;
	r = syscall(SYS_io_getevents, ctx, 1, 1, &ev, &ts);
	t = now_ms() - t;
	if (r == 1)
		ae = err_name(ev.res, 4096);
	be = err_name(pwrite(fd, b, 4096, zone * 512) == 4096 ? 4096 : -errno,
		      4096);
	if (r != 1) {	/* still held: what became of it after B */
		ts.tv_sec = 0;
		ts.tv_nsec = 200000000;
		if (syscall(SYS_io_getevents, ctx, 1, 1, &ev, &ts) == 1)
			ae = ev.res == 4096 ? "ok-after-B" : "failed-after-B";
	}
	ce = err_name(pwrite(fd, c, 4096, (zone + 8) * 512) == 4096 ? 4096 :
		      -errno, 4096);
	data = pread(fd, rd, 8192, zone * 512) == 8192 &&
	       !memcmp(rd, b, 4096) && !memcmp(rd + 4096, c, 4096);
	printf("reset: a=%s a_ms=%.0f b=%s c=%s data=%s\n", ae, t, be, ce,
	       data ? "ok" : "bad");
	bad = strcmp(ae, strerror(EIO)) || strcmp(be, "ok") ||
	      strcmp(ce, "ok") || !data;
	return bad;
}

static int cmd_reverse(int fd, uint64_t zone, uint64_t n, size_t bs)
{
	char *buf = xalign(n * bs), *rd = xalign(n * bs);
	struct iocb *cb = calloc(n, sizeof(*cb));
	struct iocb **cbs = calloc(BATCH, sizeof(*cbs));
	long *res = calloc(n, sizeof(*res));
	struct io_event *ev = calloc(BATCH, sizeof(*ev));
	uint64_t i, done = 0, first_ok = 0, eio = 0, err = 0, held = 0;
	uint64_t lo = n, hi = 0, refused = 0, base = zone * 512, bad_held = 0;
	double t, t_sub, sub_max = 0, fill = 0, last = 0;
	aio_context_t ctx = 0;
	struct timespec ts;
	int data, bad = 0;

	if (!cb || !cbs || !res || !ev)
		die("calloc");
	if (syscall(SYS_io_setup, n, &ctx))
		die("io_setup (raise /proc/sys/fs/aio-max-nr)");
	tag(buf, 0, bs, n * bs);
	for (i = 0; i < n; i++) {
		cb[i].aio_fildes = fd;
		cb[i].aio_lio_opcode = IOCB_CMD_PWRITE;
		cb[i].aio_buf = (uintptr_t)(buf + i * bs);
		cb[i].aio_nbytes = bs;
		cb[i].aio_offset = base + i * bs;
		cb[i].aio_data = i;
		res[i] = 1;	/* pending */
	}
	t_sub = now_ms();
	for (i = n; i > 0;) {
		uint64_t k = 0;
		double t1 = now_ms();

		while (k < BATCH && i > 0)
			cbs[k++] = &cb[--i];
		if (syscall(SYS_io_submit, ctx, k, cbs) != (long)k)
			die("io_submit");
		t1 = now_ms() - t1;
		if (t1 > sub_max)
			sub_max = t1;
	}
	t_sub = now_ms() - t_sub;
	/* what completes at once: refused (EIO) or at the pointer; 1 s quiet ends it */
	for (;;) {
		long r, j;

		ts.tv_sec = 1;
		ts.tv_nsec = 0;
		r = syscall(SYS_io_getevents, ctx, 1, BATCH, ev, &ts);
		if (r < 0)
			die("io_getevents");
		if (r == 0)
			break;
		for (j = 0; j < r; j++)
			res[ev[j].data] = ev[j].res;
		done += r;
	}
	for (i = 0; i < n; i++) {
		if (res[i] == 1) {
			held++;
		} else if (res[i] == (long)bs) {
			first_ok++;
		} else {
			if (res[i] == -EIO)
				eio++;
			else
				err++;
			refused++;
			lo = i < lo ? i : lo;
			hi = i;
		}
	}
	/* the refused blocks: one run, right below the held ones */
	if (refused && (hi - lo + 1 != refused || (held && hi + 1 != n - held))) {
		printf("reverse: refused blocks %llu..%llu (%llu) not one run below the %llu held\n",
		       (unsigned long long)lo, (unsigned long long)hi,
		       (unsigned long long)refused, (unsigned long long)held);
		bad = 1;
	}
	t = now_ms();
	for (i = lo; refused && !bad && i <= hi;) {
		uint64_t k = (1 << 20) / bs;
		double t1 = now_ms();

		if (k > hi + 1 - i)
			k = hi + 1 - i;
		if (pwrite(fd, buf + i * bs, k * bs, base + i * bs) != (ssize_t)(k * bs)) {
			printf("reverse: refill of block %llu: %s\n",
			       (unsigned long long)i, strerror(errno));
			bad = 1;
			break;
		}
		last = now_ms() - t1;
		i += k;
	}
	fill = now_ms() - t;
	/* the held ones: all released by the refill, all succeed */
	while (done < n) {
		long r, j;

		ts.tv_sec = 10;
		ts.tv_nsec = 0;
		r = syscall(SYS_io_getevents, ctx, 1, BATCH, ev, &ts);
		if (r <= 0)
			break;
		for (j = 0; j < r; j++) {
			if (ev[j].res != (long)bs && bad_held++ < 5)
				printf("reverse: held block %llu: %s\n",
				       (unsigned long long)ev[j].data,
				       err_name(ev[j].res, bs));
		}
		done += r;
	}
	if (bad_held) {
		printf("reverse: %llu held writes failed\n",
		       (unsigned long long)bad_held);
		bad = 1;
	}
	if (done < n) {
		printf("reverse: %llu writes never completed\n",
		       (unsigned long long)(n - done));
		bad = 1;
	}
	data = pread(fd, rd, n * bs, base) == (ssize_t)(n * bs) &&
	       !memcmp(rd, buf, n * bs);
	printf("reverse: n=%llu bs=%zu first_ok=%llu refused=%llu held=%llu eio=%llu err=%llu submit_ms=%.0f submit_max_ms=%.1f fill_ms=%.0f last_ms=%.1f data=%s\n",
	       (unsigned long long)n, bs, (unsigned long long)first_ok,
	       (unsigned long long)refused, (unsigned long long)held,
	       (unsigned long long)eio, (unsigned long long)err, t_sub,
	       sub_max, fill, last, data ? "ok" : "bad");
	return bad || err || !data;
}

int main(int argc, char **argv)
{
	int fd;

	if (argc < 4 || (strcmp(argv[1], "reset") && strcmp(argv[1], "reverse")) ||
	    (!strcmp(argv[1], "reverse") && argc < 6)) {
		fprintf(stderr, "usage: zplug reset DEV ZONE | zplug reverse DEV ZONE N BS\n");
		return 2;
	}
	fd = open(argv[2], O_RDWR | O_DIRECT);
	if (fd < 0)
		die(argv[2]);
	if (!strcmp(argv[1], "reset"))
		return cmd_reset(fd, strtoull(argv[3], NULL, 0));
	return cmd_reverse(fd, strtoull(argv[3], NULL, 0),
			   strtoull(argv[4], NULL, 0),
			   strtoul(argv[5], NULL, 0));
}
