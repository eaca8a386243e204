// SPDX-License-Identifier: GPL-2.0
/*
 * replaylog: list and replay a dm-log-writes log (logwrites.h), for the
 * crash-consistency tests (tests/vm/t-crash-*.sh on tests/vm/crash-lib.sh):
 * replay a log up to a flush point onto a fresh device, as if the power
 * had failed right after that flush completed.
 *
 *   replaylog list LOG
 *       one line per entry: INDEX FLAGS SECTOR NR_SECTORS [MARK]
 *       (sectors in the log's sectorsize; FLAGS "FLUSH|FUA|META" or "-")
 *   replaylog info LOG
 *       entries=N sectorsize=S flush_points=F marks=M writes=W
 *   replaylog replay LOG DEV [--from N] [--to-entry N | --to-flush K |
 *                    --to-mark NAME]
 *       apply the entries from index N (default 0) up to and including
 *       entry N, the K-th flush point (1-based) or the mark NAME (default:
 *       the whole log) onto DEV (a block device or a file): writes are
 *       written, discards zeroed; entries before --from are read, not
 *       applied (replay in steps: --from the last stop + 1).
 * Exit: 0 done, 1 bad arguments, 2 a damaged or truncated log or an IO
 * error (the message names the entry), 3 the stop point is not in the log.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "logwrites.h"

static void usage(FILE *f)
{
	fputs("usage: replaylog list LOG\n"
	      "       replaylog info LOG\n"
	      "       replaylog replay LOG DEV [--from N] [--to-entry N | --to-flush K | --to-mark NAME]\n"
	      "List or replay a dm-log-writes log (exit 2: damaged log, 3: stop point not in the log).\n",
	      f);
}

static int bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "replaylog: ");
	fprintf(stderr, fmt, arg);
	fputs(" (replaylog --help)\n", stderr);
	return 1;
}

static int parse_u64(const char *s, unsigned long long *v)
{
	char *end;

	if (s[0] < '0' || s[0] > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

static int open_log(const char *path, struct lw_log *log)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		fprintf(stderr, "replaylog: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (lw_open(log, fd)) {
		fprintf(stderr, "replaylog: %s: %s\n", path, log->err);
		close(fd);
		return -1;
	}
	return 0;
}

static int cmd_list(const char *path, bool info)
{
	struct lw_log log;
	struct lw_entry e;
	unsigned long long points = 0, marks = 0, writes = 0;
	char fl[64];
	int r;

	if (open_log(path, &log))
		return 2;
	while ((r = lw_next(&log, &e)) > 0) {
		points += lw_is_flush_point(&e);
		marks += !!(e.flags & LW_MARK);
		writes += e.nr_sectors && !(e.flags & (LW_DISCARD | LW_MARK));
		if (info)
			continue;
		lw_flag_names(e.flags, fl, sizeof(fl));
		printf("%llu %s %llu %llu%s%s\n", (unsigned long long)e.index, fl,
		       (unsigned long long)e.sector,
		       (unsigned long long)e.nr_sectors,
		       e.flags & LW_MARK ? " " : "", e.flags & LW_MARK ? e.mark : "");
	}
	if (r < 0) {
		fprintf(stderr, "replaylog: %s: %s\n", path, log.err);
		return 2;
	}
	if (info)
		printf("entries=%llu sectorsize=%u flush_points=%llu marks=%llu writes=%llu\n",
		       (unsigned long long)log.nr_entries, log.sectorsize,
		       points, marks, writes);
	return 0;
}

static int cmd_replay(int argc, char **argv)
{
	const char *path = argv[0], *dev = argv[1], *mark = NULL;
	unsigned long long from = 0, to_entry = 0, to_flush = 0, n, points = 0;
	unsigned long long applied = 0;
	bool have_entry = false, have_flush = false, stopped = false;
	struct lw_log log;
	struct lw_entry e;
	int i, fd, r, stops = 0;

	for (i = 2; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			return bad("%s needs a value", o);
		if (!strcmp(o, "--from")) {
			if (parse_u64(v, &from))
				return bad("--from: '%s' is not an entry index", v);
		} else if (!strcmp(o, "--to-entry")) {
			if (parse_u64(v, &to_entry))
				return bad("--to-entry: '%s' is not an entry index", v);
			have_entry = true;
			stops++;
		} else if (!strcmp(o, "--to-flush")) {
			if (parse_u64(v, &n) || !n)
				return bad("--to-flush: '%s' is not a flush point (1, 2, ...)", v);
			to_flush = n;
			have_flush = true;
			stops++;
		} else if (!strcmp(o, "--to-mark")) {
			if (!v[0] || strlen(v) >= LW_MARK_MAX)
				return bad("--to-mark: '%s' is not a mark name", v);
			mark = v;
			stops++;
		} else {
			return bad("unknown option '%s'", o);
		}
		i++;
	}
	if (stops > 1)
		return bad("%s: give one of --to-entry, --to-flush, --to-mark", "replay");
	if (have_entry && to_entry < from)
		return bad("--to-entry is before --from%s", "");
	if (open_log(path, &log))
		return 2;
	fd = open(dev, O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "replaylog: %s: %s\n", dev, strerror(errno));
		close(log.fd);
		return 2;
	}
	while (!stopped && (r = lw_next(&log, &e)) > 0) {
		points += lw_is_flush_point(&e);
		if (e.index >= from) {
			if (lw_apply(&log, &e, fd)) {
				fprintf(stderr, "replaylog: %s\n", log.err);
				r = -1;
				break;
			}
			applied++;
		}
		stopped = (have_entry && e.index == to_entry) ||
			  (have_flush && lw_is_flush_point(&e) && points == to_flush) ||
			  (mark && (e.flags & LW_MARK) && !strcmp(e.mark, mark));
	}
	if (r >= 0 && fsync(fd) && errno != EINVAL) {
		fprintf(stderr, "replaylog: %s: fsync: %s\n", dev, strerror(errno));
		r = -1;
	}
	close(fd);
	close(log.fd);
	if (r < 0) {
		if (log.err[0])
			fprintf(stderr, "replaylog: %s: %s\n", path, log.err);
		return 2;
	}
	if (stops && !stopped) {
		fprintf(stderr, "replaylog: %s: the log (%llu entries, %llu flush points) has no %s\n",
			path, (unsigned long long)log.nr_entries, points,
			have_entry ? "such entry" : have_flush ? "such flush point" : "such mark");
		return 3;
	}
	fprintf(stderr, "replaylog: applied %llu entries (%llu..%llu)\n", applied,
		from, (unsigned long long)(log.next ? log.next - 1 : 0));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "list"))
		return cmd_list(argv[2], false);
	if (argc == 3 && !strcmp(argv[1], "info"))
		return cmd_list(argv[2], true);
	if (argc >= 4 && !strcmp(argv[1], "replay"))
		return cmd_replay(argc - 2, argv + 2);
	usage(stderr);
	return 1;
}
