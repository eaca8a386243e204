/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqctl: create and remove lunq devices through libdevmapper (dmops.c).
 *
 * Every function returns an enum lq_exit code (exit.h) and, on failure,
 * writes a one-line message without a trailing newline into @err (at most
 * @errlen bytes).  libdevmapper's own error output is captured, never
 * printed.
 */
#ifndef LUNQCTL_DMOPS_H
#define LUNQCTL_DMOPS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Create lunq device @name over block device @dev (a path such as /dev/sdb
 * or /dev/mapper/x, or a bare kernel name "sdb" meaning /dev/sdb).  The
 * table is "0 <size of dev in sectors> lunq <MAJ:MIN of dev> 0 <n> words",
 * loaded and resumed; /dev/mapper/@name exists on return.  @words are
 * normalized "key:value" words, checked here before the kernel sees them.
 * On failure nothing is left behind (a half-created device is removed).
 */
int lq_dm_create(const char *name, const char *dev, char *const *words,
		 int nwords, char *err, size_t errlen);

/*
 * Remove lunq device @name (or /dev/mapper/@name, /dev/dm-N).  A device
 * that is not lunq is refused (LQ_ENOTFOUND "NAME is not a lunq device"),
 * an open one too after a short retry (LQ_EBUSY "NAME is in use (mounted
 * or open)"); a missing one is LQ_ENOTFOUND.  /dev/mapper/@name is gone
 * on success.
 */
int lq_dm_remove(const char *name, char *err, size_t errlen);

/*
 * Send dm message @msg to the lunq target at @sector of dm device @name;
 * its answer (may be empty) into @out.
 */
int lq_dm_message(const char *name, unsigned long long sector,
		  const char *msg, char *out, size_t outlen, char *err,
		  size_t errlen);

/* First line of a small (sysfs) file @path, without its newline. */
bool lq_read_line(const char *path, char *buf, size_t len);

#endif /* LUNQCTL_DMOPS_H */
