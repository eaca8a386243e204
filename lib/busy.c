// SPDX-License-Identifier: GPL-2.0
/*
 * liblunq: what keeps a block device busy (busy.h): its mounts in
 * mountinfo, its holders in sysfs, a swap area, and the same for each of
 * its partitions.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "busy.h"

struct walk {
	const char *root;
	lq_use_fn *fn;
	void *arg;
	const char *part;	/* the partition walked, NULL: the device */
};

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

static bool use(struct walk *w, enum lq_use_kind kind, const char *name,
		const char *dm)
{
	struct lq_use u = { kind, w->part, name, dm };

	return w->fn(&u, w->arg);
}

/* The mounts of @maj:@min in @root/proc/self/mountinfo.  A line:
 * ID PARENT MAJ:MIN ROOT MOUNTPOINT ... - FSTYPE SOURCE */
static bool mounts(struct walk *w, unsigned int maj, unsigned int min)
{
	char path[4096], line[8192];
	bool stop = false;
	FILE *f = fopen(at(path, sizeof(path), w->root, "/proc/self/mountinfo"), "re");

	if (!f)
		return false;
	while (!stop && fgets(line, sizeof(line), f)) {
		unsigned int ma, mi;
		char point[4096], src[4096];
		const char *dash = strstr(line, " - ");
		struct stat st;
		bool found;

		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &ma, &mi, point) != 3)
			continue;
		found = ma == maj && mi == min;
		/* file systems on an anonymous device (btrfs): by the source */
		if (!found && dash && !*w->root &&
		    sscanf(dash, " - %*s %4095s", src) == 1 && src[0] == '/' &&
		    !stat(src, &st) && S_ISBLK(st.st_mode) &&
		    major(st.st_rdev) == maj && minor(st.st_rdev) == min)
			found = true;
		if (found) {
			unescape(point);
			stop = use(w, LQ_USE_MOUNT, point, NULL);
		}
	}
	fclose(f);
	return stop;
}

/* A swap area on @maj:@min (or on @path, as /proc/swaps names it) */
static bool swap(struct walk *w, unsigned int maj, unsigned int min,
		 const char *path)
{
	char p[4096], line[4096], name[4096];
	bool found = false;
	FILE *f = fopen(at(p, sizeof(p), w->root, "/proc/swaps"), "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		struct stat st;

		if (sscanf(line, "%4095s", name) != 1 || name[0] != '/')
			continue;	/* the heading */
		found = (path && !strcmp(name, path)) ||
			(!*w->root && !stat(name, &st) && S_ISBLK(st.st_mode) &&
			 major(st.st_rdev) == maj && minor(st.st_rdev) == min);
	}
	fclose(f);
	return found && use(w, LQ_USE_SWAP, NULL, NULL);
}

/* The entries of @root/sys/dev/block/MAJ:MIN/holders/, with their dm
 * names when they have one */
static bool holders(struct walk *w, unsigned int maj, unsigned int min)
{
	char p[4096], name[128];
	struct dirent **list;
	bool stop = false;
	int k;

	snprintf(p, sizeof(p), "%s/sys/dev/block/%u:%u/holders", w->root, maj, min);
	k = names(p, &list);
	if (k < 0)
		return false;
	for (int i = 0; i < k && !stop; i++) {
		const char *e = list[i]->d_name;
		FILE *f;

		name[0] = '\0';
		snprintf(p, sizeof(p), "%s/sys/dev/block/%u:%u/holders/%s/dm/name",
			 w->root, maj, min, e);
		f = fopen(p, "re");
		if (f) {
			if (fgets(name, sizeof(name), f))
				name[strcspn(name, "\n")] = '\0';
			fclose(f);
		}
		stop = use(w, LQ_USE_HOLDER, e, name[0] ? name : NULL);
	}
	free_names(list, k);
	return stop;
}

/* The uses of @maj:@min itself */
static bool own(struct walk *w, unsigned int maj, unsigned int min,
		const char *path)
{
	return mounts(w, maj, min) || holders(w, maj, min) ||
	       swap(w, maj, min, path);
}

/* The uses of each partition of the disk @maj:@min.  Partitions are the
 * directories of the disk's sysfs directory with a "partition" file;
 * their "dev" is MAJ:MIN. */
static bool partitions(struct walk *w, unsigned int maj, unsigned int min)
{
	char p[4096];
	bool stop = false;
	struct dirent **list;
	int k;

	snprintf(p, sizeof(p), "%s/sys/dev/block/%u:%u", w->root, maj, min);
	k = names(p, &list);
	if (k < 0)
		return false;
	for (int i = 0; i < k && !stop; i++) {
		const char *e = list[i]->d_name;
		unsigned int pma, pmi;
		struct stat st;
		FILE *f;
		int got;

		snprintf(p, sizeof(p), "%s/sys/dev/block/%u:%u/%s/partition",
			 w->root, maj, min, e);
		if (stat(p, &st))
			continue;
		snprintf(p, sizeof(p), "%s/sys/dev/block/%u:%u/%s/dev", w->root,
			 maj, min, e);
		f = fopen(p, "re");
		if (!f)
			continue;
		got = fscanf(f, "%u:%u", &pma, &pmi);
		fclose(f);
		w->part = e;
		if (got == 2)
			stop = own(w, pma, pmi, NULL);
		w->part = NULL;
	}
	free_names(list, k);
	return stop;
}

bool lq_busy_walk(const char *root, unsigned int maj, unsigned int min,
		  const char *path, lq_use_fn *fn, void *arg)
{
	struct walk w = { root ? root : "", fn, arg, NULL };

	return own(&w, maj, min, path) || partitions(&w, maj, min);
}

struct first {
	char *buf;
	size_t n;
};

/* The first use, as lq_busy_reason() says it */
static bool first_use(const struct lq_use *u, void *arg)
{
	struct first *r = arg;
	char what[4400];

	if (u->kind == LQ_USE_MOUNT)
		snprintf(what, sizeof(what), "mounted on %s", u->name);
	else if (u->kind == LQ_USE_HOLDER && u->dm)
		snprintf(what, sizeof(what), "held by %.255s (%s)", u->name, u->dm);
	else if (u->kind == LQ_USE_HOLDER)
		snprintf(what, sizeof(what), "held by %.255s", u->name);
	else
		snprintf(what, sizeof(what), "a swap area");
	if (u->part)
		snprintf(r->buf, r->n, "partition %s %s", u->part, what);
	else
		snprintf(r->buf, r->n, "%s", what);
	return true;
}

void lq_busy_reason(const char *root, unsigned int maj, unsigned int min,
		    const char *path, char *buf, size_t n)
{
	struct first r = { buf, n };

	if (!lq_busy_walk(root, maj, min, path, first_use, &r))
		snprintf(buf, n, "in use (opened exclusively by another program)");
}
