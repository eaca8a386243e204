// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace unit test of bench/busy.c: the reason lunqbench gives when it
 * refuses to write to a busy block device, from a fixture tree of
 * proc/self/mountinfo, proc/swaps and sys/dev/block/ (a mount by
 * MAJ:MIN, a dm holder with its name, an md holder, a swap area, a
 * partition of a disk mounted or held, and none of these).
 * LINK: bench/busy.c
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../../bench/lb.h"

#define TAP_PREFIX "bench-busy-"
#include "tap.h"

static char root[64];

/* @root/@rel with its directories, holding @text (NULL: a directory) */
static void put(const char *rel, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	if (!text) {
		mkdir(p, 0755);
		return;
	}
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* the reason for @maj:@min (@path) is @want */
static int reason_is(unsigned int maj, unsigned int min, const char *path,
		     const char *want)
{
	char buf[512];

	lb_busy_reason(root, maj, min, path, buf, sizeof(buf));
	diag("  %u:%u: %s", maj, min, buf);
	return !strcmp(buf, want);
}

int main(void)
{
	char cmd[128];

	snprintf(root, sizeof(root), "/tmp/lb-busy.XXXXXX");
	if (!mkdtemp(root)) {
		printf("not ok 1 bench-busy-fixture # mkdtemp\n1..1\n");
		return 1;
	}
	put("proc/self/mountinfo",
	    "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
	    "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
	    "31 27 8:17 / /mnt/data\\040dir rw,relatime - ext4 /dev/sdb1 rw\n"
	    "32 27 8:17 /sub /srv rw,relatime - ext4 /dev/sdb1 rw\n");
	put("proc/swaps",
	    "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
	    "/dev/sdd\t\t\t\tpartition\t1048572\t\t0\t\t-2\n");
	/* sdb (8:16): partitions sdb1 (mounted), sdb2 (held by md0) */
	put("sys/dev/block/8:16/holders", NULL);
	put("sys/dev/block/8:16/queue/rotational", "0\n");
	put("sys/dev/block/8:16/sdb1/partition", "1\n");
	put("sys/dev/block/8:16/sdb1/dev", "8:17\n");
	put("sys/dev/block/8:16/sdb2/partition", "2\n");
	put("sys/dev/block/8:16/sdb2/dev", "8:18\n");
	put("sys/dev/block/8:18/holders/md0", NULL);
	/* sdc (8:32): held by dm-3, whose dm name is lq */
	put("sys/dev/block/8:32/holders/dm-3/dm/name", "lq\n");
	/* sde (8:64): its only partition held by dm-4, no name */
	put("sys/dev/block/8:64/sde1/partition", "1\n");
	put("sys/dev/block/8:64/sde1/dev", "8:65\n");
	put("sys/dev/block/8:80/holders", NULL);
	put("sys/dev/block/8:65/holders/dm-4", NULL);

	ok(reason_is(254, 0, "/dev/vda", "mounted on /"), "mounted-root");
	ok(reason_is(8, 17, "/dev/sdb1", "mounted on /mnt/data dir"),
	   "mounted-first-mount-point");
	ok(reason_is(8, 32, "/dev/sdc", "held by dm-3 (lq)"), "held-by-dm-name");
	ok(reason_is(8, 18, "/dev/sdb2", "held by md0"), "held-by-md");
	ok(reason_is(8, 48, "/dev/sdd", "a swap area"), "swap");
	ok(reason_is(8, 16, "/dev/sdb", "partition sdb1 mounted on /mnt/data dir"),
	   "partition-mounted");
	ok(reason_is(8, 64, "/dev/sde", "partition sde1 held by dm-4"),
	   "partition-held");
	ok(reason_is(8, 80, "/dev/sdf",
			"in use (opened exclusively by another program)"),
	   "none-found");
	ok(reason_is(7, 0, NULL, "in use (opened exclusively by another program)"),
	   "no-sysfs-directory");

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		diag("could not remove %s", root);
	diag("%d checks, %d failed", tap_n, tap_failed);
	return tap_exit();
}
