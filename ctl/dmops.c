// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl: create and remove lunq devices through libdevmapper.
 *
 * Create (lq_dm_create) checks everything it can before the kernel sees
 * the table, in this order, so the first problem found is the one named:
 *
 *  1. the name: not empty, at most 127 characters, no '/', not "." or
 *     "..", and only the characters udev accepts unmangled
 *     (A-Z a-z 0-9 # + - . : = @ _), so /dev/mapper/NAME and
 *     /sys/kernel/lunq/NAME carry the name exactly as given   (LQ_EUSAGE)
 *  2. the policy words, with the module's own parser (lunq_args.c): each
 *     word, then the rules between keys; "qdepth:abc: qdepth: value must
 *     be an integer 0..65535"                                 (LQ_EUSAGE)
 *  3. the lower device: a path (/dev/sdb, /dev/mapper/x) or a bare kernel
 *     name ("sdb" is /dev/sdb); missing: "DEV: no such device"
 *     (LQ_ENOTFOUND); not a block device                      (LQ_EUSAGE)
 *  4. device-mapper itself: /dev/mapper/control opens (which may autoload
 *     dm-mod), or /proc/misc lists device-mapper and libdevmapper will
 *     make the node; else "device-mapper is not available (modprobe
 *     dm-mod)" (LQ_ENOTFOUND); EACCES: "permission denied: run as root"
 *     (LQ_EPERM, as for every EPERM/EACCES from an ioctl or open)
 *  5. the name is not taken by any dm device                  (LQ_EBUSY)
 *  6. the lower device opens with O_EXCL (fails with EBUSY when mounted,
 *     held by another dm or md device, or used as swap): the message names
 *     the holders (/sys/dev/block/MAJ:MIN/holders, also of partitions),
 *     mount points (/proc/self/mountinfo) and swap use it finds, e.g.
 *     "/dev/sdb is in use (held by dm-3 "slow0")", else "(mounted or open
 *     exclusively)" (LQ_EBUSY).  Its size comes from BLKGETSIZE64 on that
 *     descriptor; 0 sectors is refused (LQ_EUSAGE).  The descriptor is
 *     closed before the table load (the kernel opens the device
 *     exclusively itself).
 *
 * Then, as libdevmapper does for "dmsetup create" but in separate steps so
 * each failure is known: CREATE (no table), RELOAD with
 * "0 <sectors> lunq <MAJ:MIN> 0 <n> <words>" (the lower device by number,
 * so nothing depends on path resolution in the kernel), RESUME.  When the
 * RELOAD or RESUME fails the half-made device is removed again.  The
 * kernel's reason for refusing a table (ti->error) reaches only the kernel
 * log: /dev/kmsg is opened (positioned at its end) before the RELOAD and
 * the "device-mapper: table: MAJ:MIN: ..." line of our device read after
 * it, giving "the kernel refused the table (see dmesg: lunq: <reason>
 * (-EINVAL))" (LQ_EFAIL); without a readable kmsg the errno is named
 * instead.  An EINVAL while "lunq" is missing from the kernel's target
 * list (DM_DEVICE_LIST_VERSIONS, i.e. "dmsetup targets") means the module
 * is not loaded (and the kernel could not load it): "dm-lunq is not
 * loaded; run 'modprobe dm-lunq'" (LQ_ENOTFOUND).  EBUSY from the RELOAD
 * (someone took the lower device meanwhile) is reported like step 6.
 *
 * Device nodes: when udev is not running (no /run/udev/control: the test
 * VM's busybox initramfs), udev synchronisation is switched off
 * (dm_udev_set_sync_support(0)) and libdevmapper makes /dev/mapper/NAME
 * itself on RESUME (dm_task_set_add_node(DM_ADD_NODE_ON_RESUME)) and
 * deletes it on REMOVE; its queued node operations run in dm_udev_wait().
 * When udev runs, RESUME and REMOVE carry a udev cookie
 * (dm_task_set_cookie) and dm_udev_wait() waits for the udev rules, as
 * dmsetup does.  Either way create checks that /dev/mapper/NAME exists
 * afterwards (falling back to dm_mknodes()) and remove that it is gone.
 *
 * Remove (lq_dm_remove) accepts NAME, /dev/mapper/NAME or a dm device node
 * (/dev/dm-3), and refuses a missing device ("NAME: no such device-mapper
 * device", LQ_ENOTFOUND) and one whose table has no lunq target ("NAME is
 * not a lunq device", LQ_ENOTFOUND).  An open device is polled for a
 * second before "NAME is in use (mounted or open)" (or the holders or
 * mount points found, LQ_EBUSY); the REMOVE itself is retried on EBUSY
 * (dm_task_retry_remove: a short-lived opener such as blkid).
 *
 * libdevmapper prints its errors to stderr by default; a log function
 * (dm_log_with_errno_init) keeps the last error text instead, used in
 * messages for failures this file has no better words for.  It is
 * installed for the duration of each call only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/fs.h>
#include <libdevmapper.h>

#include "exit.h"
#include "lunq_args.h"
#include "busy.h"	/* liblunq */
#include "dmops.h"

#define LQ_DM_NAME_MAX	127	/* DM_NAME_LEN - 1 */
#define LQ_BUSY_POLLS	10	/* remove: wait for an open device, 100 ms each */

/* libdevmapper's log levels (libdm/misc/dm-logging.h) */
#define LQ_DMLOG_LEVEL	0x7f
#define LQ_DMLOG_ERR	3

static char lq_dm_msg[512];	/* the last error libdevmapper logged */

static void lq_dm_log(int level, const char *file, int line, int dm_errno,
		      const char *f, ...)
	__attribute__((format(printf, 5, 6)));

static void lq_dm_log(int level, const char *file, int line, int dm_errno,
		      const char *f, ...)
{
	va_list ap;

	(void)file;
	(void)line;
	(void)dm_errno;
	if ((level & LQ_DMLOG_LEVEL) > LQ_DMLOG_ERR)
		return;
	va_start(ap, f);
	vsnprintf(lq_dm_msg, sizeof(lq_dm_msg), f, ap);
	va_end(ap);
}

/* The captured libdevmapper error, or strerror(@e) when there is none. */
static const char *lq_dm_why(int e)
{
	return lq_dm_msg[0] ? lq_dm_msg : strerror(e ? e : EIO);
}

static void lq_dm_begin(void)
{
	static bool udev_checked;

	lq_dm_msg[0] = '\0';
	dm_log_with_errno_init(lq_dm_log);
	if (!udev_checked) {
		udev_checked = true;
		if (access("/run/udev/control", F_OK))
			dm_udev_set_sync_support(0);
	}
}

static void lq_dm_end(void)
{
	dm_lib_release();
	dm_log_with_errno_init(NULL);
}

static int lq_fail(char *err, size_t errlen, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int lq_fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}

static int lq_perm(char *err, size_t errlen)
{
	return lq_fail(err, errlen, LQ_EPERM, "permission denied: run as root");
}

/* A growing string in a fixed buffer; silently truncated. */
struct lq_str {
	char *s;
	size_t len, pos;
};

static void lq_add(struct lq_str *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void lq_add(struct lq_str *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!b->len || b->pos >= b->len - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->s + b->pos, b->len - b->pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->pos += (size_t)n < b->len - b->pos ? (size_t)n :
			  b->len - b->pos - 1;
}

bool lq_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* The uses of a busy device as lunqctl lists them: holders, mount points, swap */
struct lq_uses {
	struct lq_str held, mnt;
	bool swap;
};

static bool lq_note_use(const struct lq_use *u, void *arg)
{
	struct lq_uses *l = arg;

	if (u->kind == LQ_USE_HOLDER) {
		lq_add(&l->held, "%s%s", l->held.pos ? ", " : "", u->name);
		if (u->dm)
			lq_add(&l->held, " \"%s\"", u->dm);
	} else if (u->kind == LQ_USE_MOUNT) {
		lq_add(&l->mnt, "%s%s", l->mnt.pos ? ", " : "", u->name);
	} else {
		l->swap = true;
	}
	return false;
}

/*
 * What keeps block device @d busy, as far as sysfs and /proc tell (its
 * partitions' uses too): "held by dm-3 "x", mounted on /mnt, used as
 * swap".  Empty when nothing is found (an O_EXCL opener or a mount in
 * another namespace).
 */
static void lq_busy_list(dev_t d, char *buf, size_t len)
{
	char held[512] = "", mnt[512] = "";
	struct lq_uses l = { { held, sizeof(held), 0 }, { mnt, sizeof(mnt), 0 },
			     false };
	struct lq_str b = { buf, len, 0 };

	if (len)
		buf[0] = '\0';
	lq_busy_walk(NULL, major(d), minor(d), NULL, lq_note_use, &l);
	if (l.held.pos)
		lq_add(&b, "held by %s", held);
	if (l.mnt.pos)
		lq_add(&b, "%smounted on %s", b.pos ? ", " : "", mnt);
	if (l.swap)
		lq_add(&b, "%sused as swap", b.pos ? ", " : "");
}

static int lq_busy(dev_t d, const char *what, const char *unknown, char *err,
		   size_t errlen)
{
	char why[512];

	lq_busy_list(d, why, sizeof(why));
	return lq_fail(err, errlen, LQ_EBUSY, "%s is in use (%s)", what,
		       why[0] ? why : unknown);
}

static bool lq_proc_misc_has_dm(void)
{
	char line[128], name[64];
	bool found = false;
	FILE *f;

	f = fopen("/proc/misc", "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*d %63s", name) == 1 &&
			!strcmp(name, "device-mapper");
	fclose(f);
	return found;
}

/*
 * Can we talk to device-mapper?  Opening the control node autoloads dm-mod
 * where it is a module; a missing node is made by libdevmapper when the
 * kernel has the driver (/proc/misc).
 */
static int lq_dm_ready(char *err, size_t errlen)
{
	char ctl[PATH_MAX];
	int fd;

	snprintf(ctl, sizeof(ctl), "%s/control", dm_dir());
	fd = open(ctl, O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return LQ_OK;
	}
	if (errno == EACCES || errno == EPERM)
		return lq_perm(err, errlen);
	if (errno == ENOENT && lq_proc_misc_has_dm())
		return geteuid() ? lq_perm(err, errlen) : LQ_OK;
	if (errno == ENOENT || errno == ENODEV || errno == ENXIO)
		return lq_fail(err, errlen, LQ_ENOTFOUND,
			       "device-mapper is not available (modprobe dm-mod)");
	return lq_fail(err, errlen, LQ_EFAIL, "cannot open %s: %s", ctl,
		       strerror(errno));
}

/* Run @dmt: 0, or the ioctl's errno (EIO when it failed before the ioctl). */
static int lq_run(struct dm_task *dmt)
{
	int e;

	lq_dm_msg[0] = '\0';
	if (dm_task_run(dmt))
		return 0;
	e = dm_task_get_errno(dmt);
	return e ? e : EIO;
}

/* 1 and @info when device @name exists, 0 when not, -errno on error. */
static int lq_dm_info(const char *name, struct dm_info *info)
{
	struct dm_task *dmt = dm_task_create(DM_DEVICE_INFO);
	int e, r;

	memset(info, 0, sizeof(*info));
	if (!dmt)
		return -ENOMEM;
	if (!dm_task_set_name(dmt, name)) {
		dm_task_destroy(dmt);
		return -EINVAL;
	}
	e = lq_run(dmt);
	if (e)
		r = e == ENXIO ? 0 : -e;
	else if (!dm_task_get_info(dmt, info))
		r = -EIO;
	else
		r = info->exists ? 1 : 0;
	dm_task_destroy(dmt);
	return r;
}

/* Does the live table of @name have a lunq target?  1, 0, -errno. */
static int lq_table_lunq(const char *name, char *params, size_t plen)
{
	struct dm_task *dmt = dm_task_create(DM_DEVICE_TABLE);
	struct dm_info info;
	void *next = NULL;
	int e, r = 0;

	if (!dmt)
		return -ENOMEM;
	if (!dm_task_set_name(dmt, name)) {
		dm_task_destroy(dmt);
		return -EINVAL;
	}
	e = lq_run(dmt);
	if (e) {
		dm_task_destroy(dmt);
		return e == ENXIO ? 0 : -e;
	}
	if (dm_task_get_info(dmt, &info) && info.exists) {
		do {
			uint64_t start, length;
			char *type = NULL, *p = NULL;

			next = dm_get_next_target(dmt, next, &start, &length,
						  &type, &p);
			if (type && !strcmp(type, "lunq")) {
				if (params && plen)
					snprintf(params, plen, "%s", p ? p : "");
				r = 1;
				break;
			}
		} while (next);
	}
	dm_task_destroy(dmt);
	return r;
}

/* Is target type @type registered in the kernel ("dmsetup targets")? */
static bool lq_target_loaded(const char *type)
{
	struct dm_task *dmt = dm_task_create(DM_DEVICE_LIST_VERSIONS);
	struct dm_versions *v, *last;
	bool found = false;

	if (!dmt)
		return true;	/* cannot tell: do not claim it is missing */
	if (lq_run(dmt) || !(v = dm_task_get_versions(dmt))) {
		dm_task_destroy(dmt);
		return true;
	}
	do {
		last = v;
		if (!strcmp(v->name, type))
			found = true;
		v = (struct dm_versions *)((char *)v + v->next);
	} while (!found && last != v);
	dm_task_destroy(dmt);
	return found;
}

/*
 * Resolve what the user named into a dm name: NAME as is, /dev/mapper/NAME,
 * or any block device node of device-mapper (/dev/dm-3).  0, or an lq_exit
 * code with @err set.
 */
static int lq_dm_resolve(const char *arg, char *name, size_t len, char *err,
			 size_t errlen)
{
	size_t dl = strlen(dm_dir());
	struct stat st;

	if (!arg || !*arg)
		return lq_fail(err, errlen, LQ_EUSAGE, "no device name given");
	if (arg[0] != '/') {
		if (strlen(arg) > LQ_DM_NAME_MAX)
			return lq_fail(err, errlen, LQ_ENOTFOUND,
				       "%.40s...: no such device-mapper device (names have at most %d characters)",
				       arg, LQ_DM_NAME_MAX);
		snprintf(name, len, "%s", arg);
		return LQ_OK;
	}
	if (!strncmp(arg, dm_dir(), dl) && arg[dl] == '/' && arg[dl + 1] &&
	    !strchr(arg + dl + 1, '/') && strlen(arg + dl + 1) <= LQ_DM_NAME_MAX) {
		snprintf(name, len, "%s", arg + dl + 1);
		return LQ_OK;
	}
	if (stat(arg, &st))
		return lq_fail(err, errlen, LQ_ENOTFOUND, "%s: no such device",
			       arg);
	if (!S_ISBLK(st.st_mode) || !dm_is_dm_major(major(st.st_rdev)) ||
	    !dm_device_get_name(major(st.st_rdev), minor(st.st_rdev), 0, name,
				len))
		return lq_fail(err, errlen, LQ_ENOTFOUND,
			       "%s is not a device-mapper device", arg);
	return LQ_OK;
}

static int lq_check_name(const char *name, char *err, size_t errlen)
{
	static const char ok[] = "#+-.:=@_";
	size_t len = name ? strlen(name) : 0;
	const char *p;

	if (!len)
		return lq_fail(err, errlen, LQ_EUSAGE,
			       "the device name is empty");
	if (len > LQ_DM_NAME_MAX)
		return lq_fail(err, errlen, LQ_EUSAGE,
			       "%.40s...: name too long (%zu characters, at most %d)",
			       name, len, LQ_DM_NAME_MAX);
	if (strchr(name, '/'))
		return lq_fail(err, errlen, LQ_EUSAGE,
			       "%s: a device-mapper name cannot contain '/'",
			       name);
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return lq_fail(err, errlen, LQ_EUSAGE,
			       "'%s' cannot be a device-mapper name", name);
	for (p = name; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || (c && strchr(ok, c))))
			return lq_fail(err, errlen, LQ_EUSAGE,
				       "%s: a device-mapper name may only contain A-Z a-z 0-9 and # + - . : = @ _",
				       name);
	}
	return LQ_OK;
}

/* The words as the kernel will check them: each word, then the rules. */
static int lq_check_words(char *const *words, int nwords, char *err,
			  size_t errlen)
{
	struct lunq_keys p;
	enum lunq_key key;
	const char *msg;
	u64 seen = 0;
	int i;

	if (nwords < 0 || (nwords && !words))
		return lq_fail(err, errlen, LQ_EUSAGE, "invalid policy words");
	lunq_keys_init(&p);
	for (i = 0; i < nwords; i++) {
		enum lunq_arg_err aerr;

		if (!words[i])
			return lq_fail(err, errlen, LQ_EUSAGE,
				       "invalid policy words");
		aerr = lunq_parse_word(&p, words[i], &seen, &key);
		if (aerr)
			return lq_fail(err, errlen, LQ_EUSAGE, "%s: %s",
				       words[i], lunq_arg_error(aerr, key));
	}
	msg = lunq_policy_resolve(&p, seen);
	if (!msg)
		msg = lunq_policy_check(&p);
	if (msg)
		return lq_fail(err, errlen, LQ_EUSAGE, "%s", msg);
	return LQ_OK;
}

/* @dev as a path (a bare "sdb" is /dev/sdb) naming a block device. */
static int lq_resolve_dev(const char *dev, char *path, size_t len,
			  struct stat *st, char *err, size_t errlen)
{
	if (!dev || !*dev)
		return lq_fail(err, errlen, LQ_EUSAGE, "no lower device given");
	if (strchr(dev, '/'))
		snprintf(path, len, "%s", dev);
	else
		snprintf(path, len, "/dev/%s", dev);
	if (stat(path, st)) {
		if (errno == ENOENT || errno == ENOTDIR)
			return lq_fail(err, errlen, LQ_ENOTFOUND,
				       "%s: no such device", dev);
		if (errno == EACCES)
			return lq_perm(err, errlen);
		return lq_fail(err, errlen, LQ_EFAIL, "%s: %s", dev,
			       strerror(errno));
	}
	if (!S_ISBLK(st->st_mode))
		return lq_fail(err, errlen, LQ_EUSAGE,
			       "%s is not a block device", dev);
	return LQ_OK;
}

/* Nobody holds @path (O_EXCL open works); its size in sectors. */
static int lq_claimable(const char *path, const char *dev, dev_t rdev,
			u64 *sectors, char *err, size_t errlen)
{
	u64 bytes = 0;
	int fd;

	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		switch (errno) {
		case EBUSY:
			return lq_busy(rdev, dev, "mounted or open exclusively",
				       err, errlen);
		case EACCES:
		case EPERM:
			return lq_perm(err, errlen);
		case ENXIO:
		case ENODEV:
		case ENOMEDIUM:
			return lq_fail(err, errlen, LQ_ENOTFOUND,
				       "%s: cannot open: %s", dev,
				       strerror(errno));
		default:
			return lq_fail(err, errlen, LQ_EFAIL,
				       "%s: cannot open: %s", dev,
				       strerror(errno));
		}
	}
	if (ioctl(fd, BLKGETSIZE64, &bytes)) {
		int e = errno;

		close(fd);
		return lq_fail(err, errlen, LQ_EFAIL,
			       "%s: cannot get its size: %s", dev, strerror(e));
	}
	close(fd);
	*sectors = bytes >> 9;
	if (!*sectors)
		return lq_fail(err, errlen, LQ_EUSAGE,
			       "%s is empty (0 sectors)", dev);
	return LQ_OK;
}

/* "MAJ:MIN 0 <n> words..." (malloc'ed) */
static char *lq_params(dev_t rdev, char *const *words, int nwords)
{
	size_t len = 64;
	struct lq_str b;
	int i;

	for (i = 0; i < nwords; i++)
		len += strlen(words[i]) + 1;
	b.s = malloc(len);
	if (!b.s)
		return NULL;
	b.len = len;
	b.pos = 0;
	lq_add(&b, "%u:%u 0 %d", major(rdev), minor(rdev), nwords);
	for (i = 0; i < nwords; i++)
		lq_add(&b, " %s", words[i]);
	return b.s;
}

/*
 * Run a RESUME or REMOVE of @name with a udev cookie (no-op cookie when
 * udev is not running) and wait for the node operations.  0 or errno.
 */
static int lq_run_with_nodes(int type, const char *name, bool retry)
{
	struct dm_task *dmt = dm_task_create(type);
	uint32_t cookie = 0;
	int e;

	if (!dmt)
		return ENOMEM;
	if (!dm_task_set_name(dmt, name) ||
	    (type == DM_DEVICE_RESUME &&
	     !dm_task_set_add_node(dmt, DM_ADD_NODE_ON_RESUME)) ||
	    (retry && !dm_task_retry_remove(dmt)) ||
	    !dm_task_set_cookie(dmt, &cookie, 0)) {
		dm_task_destroy(dmt);
		return EIO;
	}
	e = lq_run(dmt);
	(void)dm_udev_wait(cookie);	/* also runs the node operations */
	dm_task_destroy(dmt);
	return e;
}

/* /dev/mapper/@name is a block node of @rdev (following a udev symlink). */
static bool lq_node_ok(const char *name, dev_t rdev)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dm_dir(), name);
	return !stat(path, &st) && S_ISBLK(st.st_mode) && st.st_rdev == rdev;
}

/* After a remove: no /dev/mapper/@name of @rdev is left. */
static void lq_node_gone(const char *name, dev_t rdev)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dm_dir(), name);
	if (!lstat(path, &st) && S_ISBLK(st.st_mode) && st.st_rdev == rdev)
		(void)unlink(path);
}

/*
 * Remove the half-made device @name after a failed load or resume; on
 * failure append a hint to @err.
 */
static void lq_revert(const char *name, dev_t rdev, char *err, size_t errlen)
{
	size_t n = err ? strlen(err) : 0;

	if (!lq_run_with_nodes(DM_DEVICE_REMOVE, name, true)) {
		lq_node_gone(name, rdev);
		return;
	}
	if (err && n < errlen)
		snprintf(err + n, errlen - n,
			 "; removing the half-made %s failed too: run 'dmsetup remove %s'",
			 name, name);
}

static int lq_kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0 && lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * The kernel's reason for refusing a table of dm device @md, from the log
 * since @fd was opened: "device-mapper: table: 253:0: lunq: <ti->error>
 * (-EINVAL)" gives "lunq: <ti->error> (-EINVAL)".
 */
static bool lq_kmsg_reason(int fd, dev_t md, char *buf, size_t len)
{
	static char rec[8192];
	char pfx[64];
	bool found = false;
	ssize_t n;

	if (fd < 0)
		return false;
	snprintf(pfx, sizeof(pfx), "device-mapper: table: %u:%u: ", major(md),
		 minor(md));
	for (;;) {
		char *msg;

		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)	/* overwritten: go on */
			continue;
		if (n <= 0)
			break;
		rec[n] = '\0';
		/* "prio,seq,usec,flags;text\n KEY=value\n..." */
		msg = strchr(rec, ';');
		if (!msg || found)
			continue;
		msg++;
		msg[strcspn(msg, "\n")] = '\0';
		if (strncmp(msg, pfx, strlen(pfx)))
			continue;
		snprintf(buf, len, "%s", msg + strlen(pfx));
		found = true;
	}
	return found;
}

/* Map an errno of CREATE/INFO/REMOVE into an exit code and message. */
static int lq_dm_errno(int e, const char *what, char *err, size_t errlen)
{
	if (e == EPERM || e == EACCES)
		return lq_perm(err, errlen);
	return lq_fail(err, errlen, LQ_EFAIL, "%s: %s", what, lq_dm_why(e));
}

/* CREATE, RELOAD, RESUME, node check; undo on failure. */
static int lq_do_create(const char *name, const char *dev, dev_t lower,
			u64 sectors, const char *params, char *err,
			size_t errlen)
{
	char reason[512], what[LQ_DM_NAME_MAX + 64];
	struct dm_task *dmt;
	struct dm_info info;
	dev_t md;
	int e, kfd, r;

	snprintf(what, sizeof(what), "cannot create %s", name);
	dmt = dm_task_create(DM_DEVICE_CREATE);
	if (!dmt || !dm_task_set_name(dmt, name) ||
	    !dm_task_set_add_node(dmt, DM_ADD_NODE_ON_RESUME)) {
		if (dmt)
			dm_task_destroy(dmt);
		return lq_dm_errno(ENOMEM, what, err, errlen);
	}
	e = lq_run(dmt);
	if (!e && (!dm_task_get_info(dmt, &info) || !info.exists))
		e = EIO;
	dm_task_destroy(dmt);
	if (e == EBUSY)
		return lq_fail(err, errlen, LQ_EBUSY,
			       "device-mapper name %s is already in use", name);
	if (e)
		return lq_dm_errno(e, what, err, errlen);
	md = makedev(info.major, info.minor);

	/* the table */
	kfd = lq_kmsg_open();
	dmt = dm_task_create(DM_DEVICE_RELOAD);
	if (!dmt || !dm_task_set_name(dmt, name) ||
	    !dm_task_add_target(dmt, 0, sectors, "lunq", params)) {
		if (dmt)
			dm_task_destroy(dmt);
		e = ENOMEM;
	} else {
		e = lq_run(dmt);
		dm_task_destroy(dmt);
	}
	if (e) {
		bool have = lq_kmsg_reason(kfd, md, reason, sizeof(reason));

		if (kfd >= 0)
			close(kfd);
		if (e == EBUSY)
			r = lq_busy(lower, dev, "mounted or open exclusively",
				    err, errlen);
		else if (e == EINVAL && (!lq_target_loaded("lunq") ||
					 (have && strstr(reason, "unknown target type"))))
			r = lq_fail(err, errlen, LQ_ENOTFOUND,
				    "dm-lunq is not loaded; run 'modprobe dm-lunq'");
		else if (have)
			r = lq_fail(err, errlen, LQ_EFAIL,
				    "the kernel refused the table (see dmesg: %s)",
				    reason);
		else
			r = lq_fail(err, errlen, LQ_EFAIL,
				    "the kernel refused the table (%s; see dmesg)",
				    strerror(e));
		lq_revert(name, md, err, errlen);
		return r;
	}
	if (kfd >= 0)
		close(kfd);

	/* live */
	e = lq_run_with_nodes(DM_DEVICE_RESUME, name, false);
	if (e) {
		r = lq_dm_errno(e, what, err, errlen);
		lq_revert(name, md, err, errlen);
		return r;
	}
	if (!lq_node_ok(name, md)) {
		lq_dm_msg[0] = '\0';
		(void)dm_mknodes(name);
		if (!lq_node_ok(name, md)) {
			r = lq_fail(err, errlen, LQ_EFAIL,
				    "cannot make %s/%s: %s", dm_dir(), name,
				    lq_dm_why(ENOENT));
			lq_revert(name, md, err, errlen);
			return r;
		}
	}
	return LQ_OK;
}

int lq_dm_create(const char *name, const char *dev, char *const *words,
		 int nwords, char *err, size_t errlen)
{
	char path[PATH_MAX], *params;
	struct dm_info info;
	struct stat st;
	u64 sectors;
	int r;

	if (err && errlen)
		err[0] = '\0';
	r = lq_check_name(name, err, errlen);
	if (!r)
		r = lq_check_words(words, nwords, err, errlen);
	if (!r)
		r = lq_resolve_dev(dev, path, sizeof(path), &st, err, errlen);
	if (r)
		return r;

	lq_dm_begin();
	r = lq_dm_ready(err, errlen);
	if (r)
		goto out;
	r = lq_dm_info(name, &info);
	if (r < 0) {
		r = lq_dm_errno(-r, "device-mapper", err, errlen);
		goto out;
	}
	if (r > 0) {
		r = lq_fail(err, errlen, LQ_EBUSY,
			    "device-mapper name %s is already in use", name);
		goto out;
	}
	r = lq_claimable(path, dev, st.st_rdev, &sectors, err, errlen);
	if (r)
		goto out;
	params = lq_params(st.st_rdev, words, nwords);
	if (!params) {
		r = lq_fail(err, errlen, LQ_EFAIL, "out of memory");
		goto out;
	}
	r = lq_do_create(name, dev, st.st_rdev, sectors, params, err, errlen);
	free(params);
out:
	lq_dm_end();
	return r;
}

int lq_dm_remove(const char *arg, char *err, size_t errlen)
{
	char name[LQ_DM_NAME_MAX + 1];
	struct dm_info info;
	dev_t md;
	int e, i, r;

	if (err && errlen)
		err[0] = '\0';
	if (!arg || !*arg)
		return lq_fail(err, errlen, LQ_EUSAGE, "no device name given");
	lq_dm_begin();
	r = lq_dm_ready(err, errlen);
	if (r)
		goto out;
	r = lq_dm_resolve(arg, name, sizeof(name), err, errlen);
	if (r)
		goto out;
	r = lq_dm_info(name, &info);
	if (r < 0) {
		r = lq_dm_errno(-r, name, err, errlen);
		goto out;
	}
	if (!r) {
		r = lq_fail(err, errlen, LQ_ENOTFOUND,
			    "%s: no such device-mapper device", name);
		goto out;
	}
	md = makedev(info.major, info.minor);
	r = lq_table_lunq(name, NULL, 0);
	if (r < 0) {
		r = lq_dm_errno(-r, name, err, errlen);
		goto out;
	}
	if (!r) {
		r = lq_fail(err, errlen, LQ_ENOTFOUND,
			    "%s is not a lunq device", name);
		goto out;
	}

	/* a short grace period for a closing opener */
	for (i = 0; info.open_count > 0 && i < LQ_BUSY_POLLS; i++) {
		usleep(100000);
		if (lq_dm_info(name, &info) <= 0)
			break;
	}
	if (info.exists && info.open_count > 0) {
		r = lq_busy(md, name, "mounted or open", err, errlen);
		goto out;
	}

	e = lq_run_with_nodes(DM_DEVICE_REMOVE, name, true);
	if (e == EBUSY)
		r = lq_busy(md, name, "mounted or open", err, errlen);
	else if (e == ENXIO)
		r = lq_fail(err, errlen, LQ_ENOTFOUND,
			    "%s: no such device-mapper device", name);
	else if (e)
		r = lq_dm_errno(e, name, err, errlen);
	else
		r = LQ_OK;
	if (!r)
		lq_node_gone(name, md);
out:
	lq_dm_end();
	return r;
}

int lq_dm_message(const char *name, unsigned long long sector,
		  const char *msg, char *out, size_t outlen, char *err,
		  size_t errlen)
{
	struct dm_task *dmt;
	const char *resp;
	int e, rc = LQ_OK;

	lq_dm_begin();
	dmt = dm_task_create(DM_DEVICE_TARGET_MSG);
	if (!dmt || !dm_task_set_name(dmt, name) ||
	    !dm_task_set_sector(dmt, sector) ||
	    !dm_task_set_message(dmt, msg)) {
		rc = geteuid() ? lq_perm(err, errlen) :
			lq_fail(err, errlen, LQ_EFAIL, "%s: cannot prepare the message", name);
		goto out;
	}
	e = lq_run(dmt);
	if (e == EPERM || e == EACCES) {
		rc = lq_perm(err, errlen);
		goto out;
	}
	if (e) {
		rc = lq_fail(err, errlen, e == ENXIO ? LQ_ENOTFOUND : LQ_EFAIL,
			     "%s: message '%s': %s", name, msg, lq_dm_why(e));
		goto out;
	}
	resp = dm_task_get_message_response(dmt);
	if (out && outlen)
		snprintf(out, outlen, "%s", resp ? resp : "");
out:
	if (dmt)
		dm_task_destroy(dmt);
	lq_dm_end();
	return rc;
}
