/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqctl's exit codes (lunqctl(8), EXIT STATUS): what every subcommand
 * and helper returns.
 */
#ifndef LUNQCTL_EXIT_H
#define LUNQCTL_EXIT_H

enum lq_exit {
	LQ_OK = 0,
	LQ_EUSAGE = 1,		/* bad arguments, bad value, policy file syntax */
	LQ_ENOTFOUND = 2,	/* no such device, not lunq, module not loaded */
	LQ_EPERM = 3,		/* needs root / CAP_NET_ADMIN / CAP_SYS_ADMIN */
	LQ_EBUSY = 4,		/* device in use or name taken */
	LQ_EVERSION = 5,	/* kernel module speaks another netlink version */
	LQ_EFAIL = 6,		/* any other failure (kernel refused, IO error) */
};

#endif /* LUNQCTL_EXIT_H */
