// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl: a block device's identity (vendor, model, serial, WWN) from
 * sysfs, for matching policy file sections (ident.h, lunq.conf(5)).
 *
 * Where the kernel puts them (6.1):
 *   SCSI    drivers/scsi/scsi_sysfs.c: the scsi_device (DISK/device) has
 *           vendor "%.8s\n", model "%.16s\n" (INQUIRY, blank padded), wwid
 *           (scsi_vpd_lun_id(): "naa.…", "eui.…", "t10.…") and the binary
 *           VPD pages vpd_pg80 (Unit Serial Number) and vpd_pg83.
 *   NVMe    drivers/nvme/host/core.c: the controller or, with multipath,
 *           the subsystem (DISK/device) has model and serial; the
 *           namespace's disk has wwid ("uuid.…", "eui.…", "nvme.…").
 *   virtio  drivers/block/virtio_blk.c: DISK/serial.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ident.h"

/* dm on dm on a partition is two levels; leave room, but never loop. */
#define LQ_IDENT_DEPTH	4

static bool lq_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Up to @len bytes of DIR/FILE into @buf; bytes read, or -1. */
static ssize_t lq_read_raw(const char *dir, const char *file,
			   unsigned char *buf, size_t len)
{
	char path[PATH_MAX];
	size_t got = 0;
	int fd;

	if (snprintf(path, sizeof(path), "%s/%s", dir, file) >=
	    (int)sizeof(path))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (got < len) {
		ssize_t r = read(fd, buf + got, len - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {	/* e.g. wwid of a LUN without VPD page 0x83 */
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		got += r;
	}
	close(fd);
	return got;
}

/* Copy @n bytes of @s to @out (@len bytes), without outer blanks. */
static void lq_trim_copy(char *out, size_t len, const unsigned char *s,
			 size_t n)
{
	size_t i = 0;

	while (i < n && s[i] && lq_blank(s[i]))
		i++;
	s += i;
	n -= i;
	n = strnlen((const char *)s, n);
	while (n && lq_blank(s[n - 1]))
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

/* DIR/FILE as a trimmed string in @out; "" when absent or unreadable. */
static void lq_read_str(const char *dir, const char *file, char *out,
			size_t len)
{
	unsigned char buf[1024];
	ssize_t n = lq_read_raw(dir, file, buf, sizeof(buf));

	out[0] = '\0';
	if (n > 0)
		lq_trim_copy(out, len, buf, n);
}

/*
 * The serial number in a Unit Serial Number VPD page (SPC-4 7.8.16):
 * byte 1 the page code 0x80, bytes 2..3 the page length, the serial from
 * byte 4, ASCII, possibly blank padded on either side.
 */
static void lq_read_pg80(const char *dir, char *out, size_t len)
{
	unsigned char buf[1024];	/* serials are at most a few dozen */
	ssize_t n = lq_read_raw(dir, "device/vpd_pg80", buf, sizeof(buf));
	size_t plen;

	out[0] = '\0';
	if (n < 4 || buf[1] != 0x80)
		return;
	plen = (size_t)buf[2] << 8 | buf[3];
	if (plen > (size_t)n - 4)
		plen = n - 4;
	lq_trim_copy(out, len, buf + 4, plen);
}

static bool lq_ident_empty(const struct lq_ident *id)
{
	return !id->vendor[0] && !id->model[0] && !id->serial[0] &&
	       !id->wwn[0];
}

static bool lq_ident_same(const struct lq_ident *a, const struct lq_ident *b)
{
	return !strcmp(a->vendor, b->vendor) && !strcmp(a->model, b->model) &&
	       !strcmp(a->serial, b->serial) && !strcmp(a->wwn, b->wwn);
}

static void lq_ident_dir(char *dir, struct lq_ident *id, int depth);

/* The common identity of the devices in DISK/slaves/, if they agree. */
static void lq_ident_slaves(const char *disk, struct lq_ident *id, int depth)
{
	struct lq_ident first, cur;
	char path[PATH_MAX];
	struct dirent *e;
	int n = 0;
	DIR *d;

	if (snprintf(path, sizeof(path), "%s/slaves", disk) >=
	    (int)sizeof(path))
		return;
	d = opendir(path);
	if (!d)
		return;
	memset(&first, 0, sizeof(first));
	while ((e = readdir(d))) {
		char *real;

		if (e->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof(path), "%s/slaves/%s", disk,
			     e->d_name) >= (int)sizeof(path)) {
			n = -1;
			break;
		}
		real = realpath(path, NULL);
		if (!real) {
			n = -1;
			break;
		}
		memset(&cur, 0, sizeof(cur));
		lq_ident_dir(real, &cur, depth + 1);
		free(real);
		if (!n)
			first = cur;
		else if (!lq_ident_same(&first, &cur)) {
			n = -1;
			break;
		}
		n++;
	}
	closedir(d);
	if (n > 0) {
		strcpy(id->vendor, first.vendor);
		strcpy(id->model, first.model);
		strcpy(id->serial, first.serial);
		strcpy(id->wwn, first.wwn);
	}
}

/*
 * Identity of the block device whose sysfs directory is @dir (resolved,
 * writable: a partition's is cut to its disk's).
 */
static void lq_ident_dir(char *dir, struct lq_ident *id, int depth)
{
	char path[PATH_MAX];
	char *slash;

	if (snprintf(path, sizeof(path), "%s/partition", dir) <
	    (int)sizeof(path) && !access(path, F_OK)) {
		slash = strrchr(dir, '/');
		if (slash && slash != dir)
			*slash = '\0';
	}
	slash = strrchr(dir, '/');
	snprintf(id->lower, sizeof(id->lower), "%s", slash ? slash + 1 : dir);

	lq_read_str(dir, "device/vendor", id->vendor, sizeof(id->vendor));
	lq_read_str(dir, "device/model", id->model, sizeof(id->model));
	lq_read_str(dir, "device/serial", id->serial, sizeof(id->serial));
	if (!id->serial[0])
		lq_read_str(dir, "serial", id->serial, sizeof(id->serial));
	if (!id->serial[0])
		lq_read_pg80(dir, id->serial, sizeof(id->serial));
	lq_read_str(dir, "wwid", id->wwn, sizeof(id->wwn));
	if (!id->wwn[0])
		lq_read_str(dir, "device/wwid", id->wwn, sizeof(id->wwn));

	if (lq_ident_empty(id) && depth < LQ_IDENT_DEPTH)
		lq_ident_slaves(dir, id, depth);
}

static bool lq_majmin_ok(const char *s)
{
	size_t maj = strspn(s, "0123456789");

	if (!maj || s[maj] != ':')
		return false;
	s += maj + 1;
	return *s && s[strspn(s, "0123456789")] == '\0';
}

int lq_ident_read(const char *sysroot, const char *majmin, struct lq_ident *id)
{
	char path[PATH_MAX];
	char *real;

	id->lower[0] = id->vendor[0] = id->model[0] = '\0';
	id->serial[0] = id->wwn[0] = '\0';
	if (!lq_majmin_ok(majmin))
		return -EINVAL;
	if (snprintf(path, sizeof(path), "%s/sys/dev/block/%s",
		     sysroot ? sysroot : "", majmin) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	real = realpath(path, NULL);
	if (!real)
		return errno ? -errno : -ENOENT;
	lq_ident_dir(real, id, 0);
	free(real);
	return 0;
}
