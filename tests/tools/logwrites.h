/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A dm-log-writes log, read and replayed (the format of the kernel's
 * drivers/md/dm-log-writes.c and
 * Documentation/admin-guide/device-mapper/log-writes.rst):
 *
 *   block 0            the super: magic, version, nr_entries, sectorsize
 *   then nr_entries times:
 *     1 block          struct lw_entry (sector, nr_sectors, flags,
 *                      data_len); a mark's name follows it in that block
 *     nr_sectors blocks  the data written (none for discards, flushes
 *                      without data and marks)
 *
 * "Block" is the log's sectorsize (the logical block size of the device
 * logged); sector and nr_sectors count in it too.  All little-endian.
 * The log lists writes in the order they completed; a flush entry comes
 * after every write that completed before it.
 */
#ifndef LUNQ_LOGWRITES_H
#define LUNQ_LOGWRITES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LW_MAGIC	0x6a736677736872ULL
#define LW_VERSION	1ULL

#define LW_FLUSH	(1 << 0)
#define LW_FUA		(1 << 1)
#define LW_DISCARD	(1 << 2)
#define LW_MARK		(1 << 3)
#define LW_METADATA	(1 << 4)

#define LW_MARK_MAX	256

struct lw_entry {
	uint64_t index;		/* 0-based position in the log */
	uint64_t sector;	/* in blocks of the log's sectorsize */
	uint64_t nr_sectors;
	uint64_t flags;		/* LW_* */
	uint64_t data_len;	/* a mark's name length */
	uint64_t data_off;	/* byte offset of the data in the log */
	char mark[LW_MARK_MAX];	/* a mark's name, NUL-terminated */
};

struct lw_log {
	int fd;
	uint64_t size;		/* bytes of the log device or file */
	uint64_t nr_entries;
	uint32_t sectorsize;
	uint64_t next;		/* index of the entry lw_next() reads */
	uint64_t off;		/* its byte offset */
	char err[256];		/* what went wrong, for people */
};

/* Read the super of the log open on @fd.  0, or -1 with @log->err set. */
int lw_open(struct lw_log *log, int fd);

/*
 * The next entry into @e.  1 when one was read, 0 after the last one,
 * -1 on a damaged or truncated log (@log->err names the entry and why).
 */
int lw_next(struct lw_log *log, struct lw_entry *e);

/* A flush point: an entry that carries a flush or FUA. */
static inline bool lw_is_flush_point(const struct lw_entry *e)
{
	return e->flags & (LW_FLUSH | LW_FUA);
}

/*
 * Apply @e to the device or file open on @dst: write its data, or zero a
 * discarded range (BLKZEROOUT on a block device, zeros on a file).
 * Flushes and marks change nothing.  0, or -1 with @log->err set.
 */
int lw_apply(struct lw_log *log, const struct lw_entry *e, int dst);

/* "FLUSH|FUA|META" for @flags into @buf ("-" when none). */
void lw_flag_names(uint64_t flags, char *buf, size_t len);

#endif /* LUNQ_LOGWRITES_H */
