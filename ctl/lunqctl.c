// SPDX-License-Identifier: GPL-2.0
/*
 * lunqctl: the userspace controller of dm-lunq.  Entry point and the
 * table that runs the subcommands; their synopses and summaries, options
 * and --help text are options.c's, the helpers they share common.c's.
 * Reference: ctl/lunqctl.8.
 */
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "bench.h"

#ifndef LUNQ_VERSION
#define LUNQ_VERSION "0.5.0"
#endif

const char *lq_prog = "lunqctl";

/* in the order of options.c's lq_cmd_docs[], which main's help lists */
static const struct lq_cmd lq_cmds[] = {
	{ "create", cmd_create },
	{ "remove", cmd_remove },
	{ "list", cmd_list },
	{ "show", cmd_show },
	{ "policy", cmd_policy },
	{ "set", cmd_set },
	{ "reset", cmd_reset },
	{ "stat", cmd_stat },
	{ "hist", cmd_hist },
	{ "align", cmd_align },
	{ "events", cmd_events },
	{ "apply", cmd_apply },
	{ "sweep", cmd_sweep },
	{ "tune", cmd_tune },
	{ NULL, NULL }
};

static void main_usage(FILE *f)
{
	const struct lq_cmd_doc *c;

	fprintf(f, "usage: %s COMMAND [ARGS]\n\n"
		"The controller of dm-lunq, the block-IO throttling and scheduling lab.\n\n"
		"Commands:\n", lq_prog);
	for (c = lq_cmd_docs; c->name; c++)
		fprintf(f, "  %-8s %s\n", c->name, c->summary);
	fprintf(f, "\n"
		"'%s COMMAND --help' shows a command's options; lunqctl(8) has it all.\n"
		"Exit status: 0 ok, 1 usage or bad value, 2 no such device or module not\n"
		"loaded, 3 permission denied, 4 busy, 5 module version mismatch, 6 other.\n"
		"  -h, --help      this help\n"
		"  -V, --version   version of lunqctl and of its netlink protocol\n",
		lq_prog);
}

static const struct lq_cmd *find_cmd(const char *name)
{
	const struct lq_cmd *c;

	for (c = lq_cmds; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/*
 * --list-options (hidden, like lunqbench's): every option of every
 * command, the lunqbench options sweep and tune pass on with them
 * (options.h); what tests/unit/ctl-options.sh holds lunqctl(8) and
 * lunqctl.bash to.
 */
static void list_options(void)
{
	const struct lq_bench *b = lq_bench();
	const struct lq_cmd_doc *c;

	for (c = lq_cmd_docs; c->name; c++)
		lq_opts_list(stdout, c->name, b->opt,
			     !strcmp(c->name, "sweep") || !strcmp(c->name, "tune") ? b->n : 0);
}

int main(int argc, char **argv)
{
	const struct lq_cmd *c;
	int i;

	lq_nomem_status = LQ_EFAIL;
	if (argc < 2) {
		main_usage(stderr);
		return LQ_EUSAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		if (argc > 2 && strcmp(argv[1], "help") == 0) {
			if (lq_cmd_help(argv[2]))
				return lq_error(LQ_EUSAGE, "no command '%s'", argv[2]);
			return LQ_OK;
		}
		main_usage(stdout);
		return LQ_OK;
	}
	if (!strcmp(argv[1], "--list-options")) {
		list_options();
		return LQ_OK;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("lunqctl %s (netlink family \"%s\" version %d)\n",
		       LUNQ_VERSION, LUNQ_GENL_NAME, LUNQ_GENL_VERSION);
		return LQ_OK;
	}
	c = find_cmd(argv[1]);
	if (!c) {
		fprintf(stderr, "%s: unknown command '%s'\n", lq_prog, argv[1]);
		main_usage(stderr);
		return LQ_EUSAGE;
	}
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return lq_cmd_help(c->name);
	}
	return c->fn(argc - 1, argv + 1);
}
