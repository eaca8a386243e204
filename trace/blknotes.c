// SPDX-License-Identifier: GPL-2.0
/*
 * blknotes: blktrace's binary stream, stdin to stdout, with the notes a
 * kernel with CONFIG_BLK_CGROUP writes made readable by blkparse 1.2.
 *
 * Since Linux 5.8 every blktrace message (blk_add_trace_msg(), lunq's
 * "lunq: ..." notes, bfq's) carries the __BLK_TN_CGROUP flag and an 8-byte
 * cgroup id before its text.  blkparse learned this in blktrace 1.3.0;
 * Debian 12 ships 1.2.0, which drops every such message unseen.  This
 * filter removes the flag and the id from messages and passes everything
 * else through unchanged:
 *
 *   blktrace -d /dev/mapper/lq -o - | blknotes | blkparse -i -
 *
 * Native byte order only (a trace taken on this machine).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/blktrace_api.h>

static const char usage[] =
	"usage: blktrace -d DEV -o - | blknotes | blkparse -i -\n"
	"Passes blktrace's binary stream through, with each message's cgroup\n"
	"flag and id removed, so that blkparse 1.2 prints notes such as lunq's.\n";

/* Read exactly @n bytes; 0 at a clean end of input, -1 on a short read. */
static int read_full(void *buf, size_t n)
{
	size_t got = fread(buf, 1, n, stdin);

	if (got == n)
		return 1;
	return got == 0 && feof(stdin) ? 0 : -1;
}

int main(int argc, char **argv)
{
	static char pdu[65536];
	struct blk_io_trace t;
	int r;

	if (argc > 1) {
		fputs(usage, strcmp(argv[1], "-h") && strcmp(argv[1], "--help") ?
		      stderr : stdout);
		return strcmp(argv[1], "-h") && strcmp(argv[1], "--help") ? 2 : 0;
	}
	while ((r = read_full(&t, sizeof(t))) > 0) {
		if ((t.magic & 0xffffff00) != BLK_IO_TRACE_MAGIC) {
			fprintf(stderr, "blknotes: not a native blktrace stream (magic %#x)\n",
				t.magic);
			return 1;
		}
		if (t.pdu_len && read_full(pdu, t.pdu_len) <= 0) {
			fprintf(stderr, "blknotes: input ends inside a record\n");
			return 1;
		}
		if ((t.action & ~__BLK_TN_CGROUP) == BLK_TN_MESSAGE &&
		    (t.action & __BLK_TN_CGROUP) && t.pdu_len >= sizeof(uint64_t)) {
			t.action &= ~__BLK_TN_CGROUP;
			t.pdu_len -= sizeof(uint64_t);
			memmove(pdu, pdu + sizeof(uint64_t), t.pdu_len);
		}
		if (fwrite(&t, sizeof(t), 1, stdout) != 1 ||
		    (t.pdu_len && fwrite(pdu, t.pdu_len, 1, stdout) != 1)) {
			fprintf(stderr, "blknotes: write: %s\n", strerror(errno));
			return 1;
		}
	}
	if (r < 0) {
		fprintf(stderr, "blknotes: input ends inside a record\n");
		return 1;
	}
	if (fflush(stdout)) {
		fprintf(stderr, "blknotes: write: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
