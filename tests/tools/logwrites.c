// SPDX-License-Identifier: GPL-2.0
/* Reading and replaying a dm-log-writes log (logwrites.h). */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include "logwrites.h"

#define LW_IO_MAX	(1U << 20)	/* bytes copied at a time */

static int lw_fail(struct lw_log *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int lw_fail(struct lw_log *log, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(log->err, sizeof(log->err), fmt, ap);
	va_end(ap);
	return -1;
}

/* exactly @len bytes at @off, or -1 (short: errno 0) */
static int lw_pread(int fd, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done,
				  (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				errno = 0;
			return -1;
		}
		done += (size_t)n;
	}
	return 0;
}

static int lw_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pwrite(fd, (const char *)buf + done, len - done,
				   (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

static uint64_t lw_size(int fd)
{
	struct stat st;
	uint64_t sz = 0;

	if (fstat(fd, &st))
		return 0;
	if (S_ISBLK(st.st_mode))
		return ioctl(fd, BLKGETSIZE64, &sz) ? 0 : sz;
	return (uint64_t)st.st_size;
}

int lw_open(struct lw_log *log, int fd)
{
	unsigned char b[28];
	uint64_t magic, version;

	memset(log, 0, sizeof(*log));
	log->fd = fd;
	log->size = lw_size(fd);
	if (lw_pread(fd, b, sizeof(b), 0))
		return lw_fail(log, "cannot read the super: %s",
			       errno ? strerror(errno) : "the log is shorter than 28 bytes");
	memcpy(&magic, b, 8);
	memcpy(&version, b + 8, 8);
	memcpy(&log->nr_entries, b + 16, 8);
	memcpy(&log->sectorsize, b + 24, 4);
	magic = le64toh(magic);
	version = le64toh(version);
	log->nr_entries = le64toh(log->nr_entries);
	log->sectorsize = le32toh(log->sectorsize);
	if (magic != LW_MAGIC)
		return lw_fail(log, "not a dm-log-writes log (magic %#llx, want %#llx)",
			       (unsigned long long)magic, LW_MAGIC);
	if (version != LW_VERSION)
		return lw_fail(log, "log version %llu (this tool reads %llu)",
			       (unsigned long long)version, LW_VERSION);
	if (log->sectorsize < 512 || log->sectorsize > 65536 ||
	    (log->sectorsize & (log->sectorsize - 1)))
		return lw_fail(log, "bad sectorsize %u in the super (a power of 2 from 512 to 65536)",
			       log->sectorsize);
	log->off = log->sectorsize;
	return 0;
}

int lw_next(struct lw_log *log, struct lw_entry *e)
{
	unsigned char b[32];
	uint64_t v[4], need;
	int i;

	if (log->next >= log->nr_entries)
		return 0;
	memset(e, 0, sizeof(*e));
	e->index = log->next;
	if (log->size && log->off + log->sectorsize > log->size)
		return lw_fail(log, "entry %llu: truncated log (the super says %llu entries, the log ends at byte %llu)",
			       (unsigned long long)e->index,
			       (unsigned long long)log->nr_entries,
			       (unsigned long long)log->size);
	if (lw_pread(log->fd, b, sizeof(b), log->off))
		return lw_fail(log, "entry %llu: cannot read it at byte %llu: %s",
			       (unsigned long long)e->index,
			       (unsigned long long)log->off,
			       errno ? strerror(errno) : "truncated log");
	for (i = 0; i < 4; i++) {
		memcpy(&v[i], b + 8 * i, 8);
		v[i] = le64toh(v[i]);
	}
	e->sector = v[0];
	e->nr_sectors = v[1];
	e->flags = v[2];
	e->data_len = v[3];
	if (e->flags & ~(uint64_t)(LW_FLUSH | LW_FUA | LW_DISCARD | LW_MARK | LW_METADATA))
		return lw_fail(log, "entry %llu: unknown flags %#llx (damaged log?)",
			       (unsigned long long)e->index,
			       (unsigned long long)e->flags);
	if (e->flags & LW_MARK) {
		if (e->data_len >= LW_MARK_MAX ||
		    e->data_len > log->sectorsize - sizeof(b))
			return lw_fail(log, "entry %llu: mark of %llu bytes (at most %zu)",
				       (unsigned long long)e->index,
				       (unsigned long long)e->data_len,
				       (size_t)LW_MARK_MAX - 1);
		if (e->nr_sectors)
			return lw_fail(log, "entry %llu: a mark with %llu sectors of data (damaged log?)",
				       (unsigned long long)e->index,
				       (unsigned long long)e->nr_sectors);
		if (e->data_len &&
		    lw_pread(log->fd, e->mark, e->data_len, log->off + sizeof(b)))
			return lw_fail(log, "entry %llu: cannot read the mark",
				       (unsigned long long)e->index);
		e->mark[e->data_len] = '\0';
	} else if (e->data_len) {
		return lw_fail(log, "entry %llu: inline data of %llu bytes outside a mark (not written by dm-log-writes)",
			       (unsigned long long)e->index,
			       (unsigned long long)e->data_len);
	}
	if ((e->flags & LW_DISCARD) && (e->flags & (LW_FLUSH | LW_FUA)))
		return lw_fail(log, "entry %llu: a discard with a flush or FUA (damaged log?)",
			       (unsigned long long)e->index);
	/* data follows the entry's block, except for discards */
	e->data_off = log->off + log->sectorsize;
	need = (e->flags & LW_DISCARD) ? 0 : e->nr_sectors;
	if (need > (UINT64_MAX - e->data_off) / log->sectorsize - 1)
		return lw_fail(log, "entry %llu: %llu sectors overflow the log (damaged log?)",
			       (unsigned long long)e->index,
			       (unsigned long long)e->nr_sectors);
	if (log->size && e->data_off + need * log->sectorsize > log->size)
		return lw_fail(log, "entry %llu: truncated log (its %llu sectors of data end past byte %llu)",
			       (unsigned long long)e->index,
			       (unsigned long long)need,
			       (unsigned long long)log->size);
	log->off = e->data_off + need * log->sectorsize;
	log->next++;
	return 1;
}

static int lw_zero(struct lw_log *log, int dst, uint64_t off, uint64_t len)
{
	struct stat st;
	uint64_t range[2] = { off, len };
	static char zeros[65536];

	if (!fstat(dst, &st) && S_ISBLK(st.st_mode)) {
		if (!ioctl(dst, BLKZEROOUT, range))
			return 0;
		return lw_fail(log, "BLKZEROOUT at byte %llu: %s",
			       (unsigned long long)off, strerror(errno));
	}
	while (len) {
		size_t n = len < sizeof(zeros) ? (size_t)len : sizeof(zeros);

		if (lw_pwrite(dst, zeros, n, off))
			return lw_fail(log, "zeroing at byte %llu: %s",
				       (unsigned long long)off, strerror(errno));
		off += n;
		len -= n;
	}
	return 0;
}

int lw_apply(struct lw_log *log, const struct lw_entry *e, int dst)
{
	uint64_t ss = log->sectorsize, left = e->nr_sectors * ss;
	uint64_t src = e->data_off, to = e->sector * ss;
	char *buf;

	if (!e->nr_sectors || (e->flags & LW_MARK))
		return 0;
	if (e->sector > UINT64_MAX / ss || to > UINT64_MAX - left)
		return lw_fail(log, "entry %llu: sector %llu out of range",
			       (unsigned long long)e->index,
			       (unsigned long long)e->sector);
	if (e->flags & LW_DISCARD)
		return lw_zero(log, dst, to, left);
	buf = malloc(LW_IO_MAX);
	if (!buf)
		return lw_fail(log, "out of memory");
	while (left) {
		size_t n = left < LW_IO_MAX ? (size_t)left : LW_IO_MAX;

		if (lw_pread(log->fd, buf, n, src)) {
			free(buf);
			return lw_fail(log, "entry %llu: reading its data: %s",
				       (unsigned long long)e->index,
				       errno ? strerror(errno) : "truncated log");
		}
		if (lw_pwrite(dst, buf, n, to)) {
			free(buf);
			return lw_fail(log, "entry %llu: writing sector %llu: %s",
				       (unsigned long long)e->index,
				       (unsigned long long)(to / ss),
				       strerror(errno));
		}
		src += n;
		to += n;
		left -= n;
	}
	free(buf);
	return 0;
}

void lw_flag_names(uint64_t flags, char *buf, size_t len)
{
	static const struct { uint64_t f; const char *n; } names[] = {
		{ LW_FLUSH, "FLUSH" }, { LW_FUA, "FUA" },
		{ LW_DISCARD, "DISCARD" }, { LW_MARK, "MARK" },
		{ LW_METADATA, "META" },
	};
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(flags & names[i].f))
			continue;
		at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "%s%s",
				       at ? "|" : "", names[i].n);
	}
	if (!at)
		snprintf(buf, len, "-");
}
