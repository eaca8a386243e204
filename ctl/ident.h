/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqctl: the identity of a lunq device and of its lower device, the
 * fields a policy file's section headers match (lunq.conf(5)).
 *
 * Pure code (libc and sysfs files under a root given by the caller, so the
 * unit tests run it on tests/unit/fixtures/sys/).
 */
#ifndef LUNQCTL_IDENT_H
#define LUNQCTL_IDENT_H

#include "lq.h"		/* liblunq: types */

/* Every field is a string, "" when unknown. */
struct lq_ident {
	char name[LUNQ_NAME_MAX];	/* lunq device: /sys/kernel/lunq/<name> */
	char dm[LUNQ_NAME_MAX];		/* its device-mapper name */
	char lower[32];			/* kernel name of the lower disk: "sdb" */
	char vendor[64];		/* SCSI INQUIRY vendor, as sysfs has it */
	char model[64];			/* SCSI INQUIRY product, NVMe model */
	char serial[256];		/* unit serial number */
	char wwn[256];			/* the kernel's wwid: "naa.5000c5…" */
};

/*
 * Fill @id->lower, vendor, model, serial and wwn for the block device
 * @majmin ("8:17") from sysfs under @sysroot ("" for the running system;
 * a directory holding a "sys" tree in tests).  @id->name and dm are left
 * as they are (the caller knows them).
 *
 *   lower   basename of the /sys/dev/block/MAJ:MIN link target; for a
 *           partition (it has a "partition" file) the disk holding it
 *   vendor  DISK/device/vendor
 *   model   DISK/device/model
 *   serial  DISK/device/serial (NVMe), DISK/serial (virtio-blk), else the
 *           Unit Serial Number VPD page DISK/device/vpd_pg80 (SCSI)
 *   wwn     DISK/wwid (NVMe), else DISK/device/wwid (SCSI, from VPD 0x83)
 *
 * Values have leading and trailing blanks and newlines removed (inner
 * blanks, e.g. of "LUN C-Mode", stay).  A device without them (null_blk,
 * brd, loop) gets empty strings.  A device-mapper disk (multipath, LVM)
 * with no identity of its own takes the identity of the devices below it
 * (DISK/slaves/) when they all have the same one, as the paths of one
 * multipath LUN do; "lower" stays its own name ("dm-3").
 *
 * Returns 0, -EINVAL when @majmin is not "MAJ:MIN", or -errno (-ENOENT)
 * when sysfs has no such block device.
 */
int lq_ident_read(const char *sysroot, const char *majmin, struct lq_ident *id);

#endif /* LUNQCTL_IDENT_H */
