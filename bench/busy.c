// SPDX-License-Identifier: GPL-2.0
/*
 * lunqbench: why a block device is busy.  lunqbench refuses to write to
 * a block device that the kernel will not open exclusively (O_EXCL:
 * EBUSY when it is mounted, held by dm or md, a swap area, or opened
 * exclusively by another program; lunqbench.c) and names the reason it
 * finds here: a mount in mountinfo, a holder in sysfs, a swap area, or
 * the same for one of the disk's partitions.  libc only; every path is
 * read under a root directory, so a test can hand it a fixture tree.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "lb.h"

static int no_dots(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* @root@rel into @buf */
static const char *at(char *buf, size_t n, const char *root, const char *rel)
{
	snprintf(buf, n, "%s%s", root, rel);
	return buf;
}

/* mountinfo's octal escapes (\040 a space) undone, in place */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++, d++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*d = *s;
		}
	}
	*d = '\0';
}

/* The entries of directory @p, sorted, without dot files; free with
 * free_names(). */
static int names(const char *p, struct dirent ***list)
{
	return scandir(p, list, no_dots, alphasort);
}

static void free_names(struct dirent **list, int n)
{
	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

/* The first mount of @dev in @root/proc/self/mountinfo: its mount point
 * into @mnt.  A line: ID PARENT MAJ:MIN ROOT MOUNTPOINT ... - FSTYPE SOURCE */
static bool mounted_on(const char *root, unsigned int maj, unsigned int min,
		       char *mnt, size_t n)
{
	char path[4096], line[8192];
	bool found = false;
	FILE *f = fopen(at(path, sizeof(path), root, "/proc/self/mountinfo"), "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned int ma, mi;
		char point[4096], src[4096];
		const char *dash = strstr(line, " - ");
		struct stat st;

		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &ma, &mi, point) != 3)
			continue;
		found = ma == maj && mi == min;
		/* file systems on an anonymous device (btrfs): by the source */
		if (!found && dash && !*root &&
		    sscanf(dash, " - %*s %4095s", src) == 1 && src[0] == '/' &&
		    !stat(src, &st) && S_ISBLK(st.st_mode) &&
		    major(st.st_rdev) == maj && minor(st.st_rdev) == min)
			found = true;
		if (found) {
			unescape(point);
			snprintf(mnt, n, "%s", point);
		}
	}
	fclose(f);
	return found;
}

/* A swap area on @dev (or on @path, as /proc/swaps names it)? */
static bool swap_on(const char *root, unsigned int maj, unsigned int min,
		    const char *path)
{
	char p[4096], line[4096], name[4096];
	bool found = false;
	FILE *f = fopen(at(p, sizeof(p), root, "/proc/swaps"), "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		struct stat st;

		if (sscanf(line, "%4095s", name) != 1 || name[0] != '/')
			continue;	/* the heading */
		found = (path && !strcmp(name, path)) ||
			(!*root && !stat(name, &st) && S_ISBLK(st.st_mode) &&
			 major(st.st_rdev) == maj && minor(st.st_rdev) == min);
	}
	fclose(f);
	return found;
}

/* The first entry of @root/sys/dev/block/MAJ:MIN/holders/, with its dm
 * name when it has one: "dm-0 (lq)". */
static bool held_by(const char *root, unsigned int maj, unsigned int min,
		    char *who, size_t n)
{
	char p[4096], ent[256], name[128] = "";
	struct dirent **list;
	int k;
	FILE *f;

	snprintf(p, sizeof(p), "%s/sys/dev/block/%u:%u/holders", root, maj, min);
	k = names(p, &list);
	if (k <= 0) {
		if (k == 0)
			free(list);
		return false;
	}
	snprintf(ent, sizeof(ent), "%s", list[0]->d_name);
	free_names(list, k);
	snprintf(p, sizeof(p), "%s/sys/dev/block/%u:%u/holders/%s/dm/name", root,
		 maj, min, ent);
	f = fopen(p, "r");
	if (f) {
		if (fgets(name, sizeof(name), f))
			name[strcspn(name, "\n")] = '\0';
		fclose(f);
	}
	if (name[0])
		snprintf(who, n, "%s (%s)", ent, name);
	else
		snprintf(who, n, "%s", ent);
	return true;
}

/* The reason @dev itself is busy, or false. */
static bool own_reason(const char *root, unsigned int maj, unsigned int min,
		       const char *path, char *buf, size_t n)
{
	char s[4096];

	if (mounted_on(root, maj, min, s, sizeof(s))) {
		snprintf(buf, n, "mounted on %s", s);
		return true;
	}
	if (held_by(root, maj, min, s, 300)) {
		snprintf(buf, n, "held by %s", s);
		return true;
	}
	if (swap_on(root, maj, min, path)) {
		snprintf(buf, n, "a swap area");
		return true;
	}
	return false;
}

/* A partition of the disk @maj:@min that is busy: "partition sdb1
 * mounted on /mnt".  Partitions are the directories of the disk's sysfs
 * directory with a "partition" file; their "dev" is MAJ:MIN. */
static bool partition_reason(const char *root, unsigned int maj,
			     unsigned int min, char *buf, size_t n)
{
	char p[4096], why[4400];
	bool found = false;
	struct dirent **list;
	int k;

	snprintf(p, sizeof(p), "%s/sys/dev/block/%u:%u", root, maj, min);
	k = names(p, &list);
	if (k < 0)
		return false;
	for (int i = 0; i < k && !found; i++) {
		const char *e = list[i]->d_name;
		unsigned int pma, pmi;
		struct stat st;
		FILE *f;
		int got;

		snprintf(p, sizeof(p), "%s/sys/dev/block/%u:%u/%s/partition", root,
			 maj, min, e);
		if (stat(p, &st))
			continue;
		snprintf(p, sizeof(p), "%s/sys/dev/block/%u:%u/%s/dev", root, maj,
			 min, e);
		f = fopen(p, "r");
		if (!f)
			continue;
		got = fscanf(f, "%u:%u", &pma, &pmi);
		fclose(f);
		if (got == 2 && own_reason(root, pma, pmi, NULL, why, sizeof(why))) {
			snprintf(buf, n, "partition %s %s", e, why);
			found = true;
		}
	}
	free_names(list, k);
	return found;
}

void lb_busy_reason(const char *root, unsigned int maj, unsigned int min,
		    const char *path, char *buf, size_t n)
{
	if (!root)
		root = "";
	if (own_reason(root, maj, min, path, buf, n) ||
	    partition_reason(root, maj, min, buf, n))
		return;
	snprintf(buf, n, "in use (opened exclusively by another program)");
}
