// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of lib/busy.c: what keeps a block device busy, from a
 * fixture tree of proc/self/mountinfo, proc/swaps and sys/dev/block/ (a
 * mount by MAJ:MIN, a dm holder with its name, an md holder, a swap area,
 * a partition of a disk mounted or held, and none of these): the reason
 * lunqbench gives when it refuses to write (lq_busy_reason), and every
 * use in the walk's order, as lunqctl lists them (lq_busy_walk).
 * LINK: lib/busy.c
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "busy.h"

#define TAP_PREFIX "lib-busy-"
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

	lq_busy_reason(root, maj, min, path, buf, sizeof(buf));
	diag("  %u:%u: %s", maj, min, buf);
	return !strcmp(buf, want);
}

struct list {
	char s[512];
	size_t pos;
};

/* "KIND[@PART] NAME[ (DM)]; " for each use */
static bool note(const struct lq_use *u, void *arg)
{
	static const char *const kinds[] = { "mount", "holder", "swap" };
	struct list *l = arg;

	l->pos += (size_t)snprintf(l->s + l->pos, sizeof(l->s) - l->pos,
				   "%s%s%s %s%s%s%s; ", kinds[u->kind],
				   u->part ? "@" : "", u->part ? u->part : "",
				   u->name ? u->name : "-", u->dm ? " (" : "",
				   u->dm ? u->dm : "", u->dm ? ")" : "");
	return l->pos >= sizeof(l->s);
}

/* every use of @maj:@min, in order, is @want */
static int uses_are(unsigned int maj, unsigned int min, const char *path,
		    const char *want)
{
	struct list l = { "", 0 };

	lq_busy_walk(root, maj, min, path, note, &l);
	diag("  %u:%u: %s", maj, min, l.s);
	return !strcmp(l.s, want);
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
	    "32 27 8:17 /sub /srv rw,relatime - ext4 /dev/sdb1 rw\n"
	    "33 27 8:96 / /g rw,relatime - ext4 /dev/sdg rw\n");
	put("proc/swaps",
	    "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
	    "/dev/sdd\t\t\t\tpartition\t1048572\t\t0\t\t-2\n"
	    "/dev/sdg\t\t\t\tpartition\t1048572\t\t0\t\t-3\n");
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
	/* sdg (8:96): held by dm-6 and dm-5 (lq5), mounted, a swap area */
	put("sys/dev/block/8:96/holders/dm-6", NULL);
	put("sys/dev/block/8:96/holders/dm-5/dm/name", "lq5\n");

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
	ok(uses_are(8, 96, "/dev/sdg",
		    "mount /g; holder dm-5 (lq5); holder dm-6; swap -; "),
	   "walk-all-uses-in-order");
	ok(uses_are(8, 16, "/dev/sdb",
		    "mount@sdb1 /mnt/data dir; mount@sdb1 /srv; holder@sdb2 md0; "),
	   "walk-partitions");
	ok(uses_are(8, 80, "/dev/sdf", ""), "walk-none");

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		diag("could not remove %s", root);
	diag("%d checks, %d failed", tap_n, tap_failed);
	return tap_exit();
}
