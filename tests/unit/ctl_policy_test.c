// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace unit test of ctl/policyfile.c (policy files: parser, matching,
 * what changes) and ctl/ident.c (a disk's identity from sysfs, read from
 * the fixture trees in tests/unit/fixtures/sys/).
 * LINK: ctl/policyfile.c ctl/kv.c ctl/ident.c kmod/lunq_args.c
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "policyfile.h"
#include "ident.h"

#define TAP_PREFIX "policy-"
#include "tap.h"

/* tests/unit/ (fixtures are found from this file's own path) */
static char here[4096];

/* Identities of the tests: as lq_ident_read() gives them, or raw. */
static const struct lq_ident netapp = {
	.name = "lq0", .dm = "lq0", .lower = "dm-0", .vendor = "NETAPP",
	.model = "LUN C-Mode", .serial = "80SEtF0ErzkQ",
	.wwn = "naa.600a098038303053453f463045727a6b",
};
/* the same LUN with INQUIRY padding and other case left in */
static const struct lq_ident netapp_raw = {
	.name = "lq1", .dm = "lq1", .lower = "sdb", .vendor = "NetApp  ",
	.model = "  LUN   C-Mode    ", .serial = "80SEtF0ErzkQ",
	.wwn = "naa.600a098038303053453f463045727a6b",
};
static const struct lq_ident sata = {
	.name = "slow1", .dm = "data-slow1", .lower = "sda", .vendor = "ATA",
	.model = "ST4000NM0035-1V4", .serial = "ZC1ABCDE",
	.wwn = "naa.5000c500a1b2c3d4",
};
static const struct lq_ident nvme = {
	.name = "fast0", .dm = "fast0", .lower = "nvme0n1",
	.model = "QEMU NVMe Ctrl", .serial = "deadbeef",
	.wwn = "nvme.1b36-6465616462656566-51454d55204e564d65204374726c-00000001",
};
static const struct lq_ident nullb = {
	.name = "lq9@2048", .dm = "lq9", .lower = "nullb0",
};

static int parse_str(struct lq_pf *pf, const char *text, char **errs)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	if (!f) {
		perror("fmemopen");
		exit(2);
	}
	rc = lq_pf_parse(pf, "t.conf", f, errs);
	fclose(f);
	return rc;
}

/* The resolved words for @id as one "key:value ..." string. */
static const char *resolve(const struct lq_pf *pf, const struct lq_ident *id)
{
	static char buf[1024];
	struct lq_pf_word w[LUNQ_NR_KEYS];
	int i, k = lq_pf_resolve(pf, id, w, LUNQ_NR_KEYS);

	buf[0] = '\0';
	for (i = 0; i < k; i++) {
		if (i)
			strcat(buf, " ");
		strcat(buf, w[i].word);
	}
	return buf;
}

struct good_case {
	const char *name;
	const char *text;
	const struct lq_ident *id;
	const char *want;	/* resolved words */
};

static const struct good_case good[] = {
	{ "vendor", "[vendor=NETAPP]\nqdepth = 16\n", &netapp, "qdepth:16" },
	{ "vendor-other", "[vendor=NETAPP]\nqdepth = 16\n", &sata, "" },
	{ "vendor-model-and", "[vendor=NETAPP model=\"LUN C-Mode\"]\nqdepth=16\n",
	  &netapp, "qdepth:16" },
	{ "and-one-fails", "[vendor=NETAPP model=FAS*]\nqdepth=16\n", &netapp, "" },
	{ "vendor-model-fold", "[vendor=netapp model=\"lun c-mode\"]\nqdepth=16\n",
	  &netapp_raw, "qdepth:16" },
	{ "pattern-blanks-fold", "[vendor=\" NETAPP \" model=\"LUN   C-Mode \"]\nqdepth=16\n",
	  &netapp_raw, "qdepth:16" },
	{ "model-glob", "[model=ST4000*]\nqdepth=4\n", &sata, "qdepth:4" },
	{ "model-glob-folded", "[model=\"lun c*\"]\nqdepth=4\n", &netapp_raw,
	  "qdepth:4" },
	{ "serial-exact", "[serial=80SEtF0ErzkQ]\nqdepth=2\n", &netapp, "qdepth:2" },
	{ "serial-case-sensitive", "[serial=80setf0erzkq]\nqdepth=2\n", &netapp, "" },
	{ "serial-bracket-quoted", "[serial=\"80SEtF0Erzk[A-Z]\"]\nqdepth=2\n",
	  &netapp, "qdepth:2" },
	{ "wwn-glob", "[wwn=naa.600a0980*]\nqdepth=8\n", &netapp_raw, "qdepth:8" },
	{ "wwn-no", "[wwn=naa.600a0980*]\nqdepth=8\n", &sata, "" },
	{ "wwn-nvme", "[wwn=nvme.1b36-*]\nqdepth=64\n", &nvme, "qdepth:64" },
	{ "name-glob", "[name=slow*]\nqdepth:4\n", &sata, "qdepth:4" },
	{ "name-glob-no", "[name=slow*]\nqdepth:4\n", &netapp, "" },
	{ "name-at-begin", "[name=lq9@*]\nqdepth:4\n", &nullb, "qdepth:4" },
	{ "dm", "[dm=data-*]\nqdepth=3\n", &sata, "qdepth:3" },
	{ "dm-no", "[dm=data-*]\nqdepth=3\n", &netapp, "" },
	{ "lower", "[lower=nvme*]\nqdepth=64\n", &nvme, "qdepth:64" },
	{ "lower-exact", "[lower=sd]\nqdepth=64\n", &sata, "" },
	{ "star", "[*]\nbubble_ms = 100\n", &nullb, "bubble_ms:100" },
	{ "star-blanks", "[ * ]\nbubble_ms = 100\n", &nvme, "bubble_ms:100" },
	{ "field-case", "[VENDOR=NETAPP]\nqdepth=16\n", &netapp, "qdepth:16" },
	{ "empty-vendor", "[vendor=\"\"]\nqdepth=1\n", &nullb, "qdepth:1" },
	{ "empty-vendor-no", "[vendor=\"\"]\nqdepth=1\n", &netapp, "" },
	{ "star-glob-empty", "[vendor=*]\nqdepth=1\n", &nullb, "qdepth:1" },
	{ "needs-one-char", "[vendor=?*]\nqdepth=1\n", &nullb, "" },
	{ "override-later-wins",
	  "[*]\nqdepth=32\nsched=disksort\n[vendor=NETAPP]\nqdepth=16\n",
	  &netapp, "qdepth:16 sched:disksort" },
	{ "override-default-only",
	  "[*]\nqdepth=32\nsched=disksort\n[vendor=NETAPP]\nqdepth=16\n",
	  &sata, "qdepth:32 sched:disksort" },
	{ "override-star-last",
	  "[vendor=NETAPP]\nqdepth=16\n[*]\nqdepth=32\n", &netapp, "qdepth:32" },
	{ "key-order", "[*]\nbubble_ms=100\nmax_wait_ms=500\nqdepth=4\nsched=disksort\n",
	  &sata, "qdepth:4 sched:disksort max_wait_ms:500 bubble_ms:100" },
	{ "separators",
	  "[*]\nqdepth:4\n  sched = disksort  \nmax_wait_ms=5\nbubble_ms :7\nreaction: sd\n",
	  &sata, "qdepth:4 sched:disksort max_wait_ms:5 reaction:sd bubble_ms:7" },
	{ "comments-blanks",
	  "# head\n\n   \n[name=slow1]   # the slow one\n\tqdepth = 4 # four\n# end\n",
	  &sata, "qdepth:4" },
	{ "quoted-hash-bracket",
	  "[model=\"A#B]C\"]\nqdepth=1\n[model=\"LUN C-Mode\"] # x\nqdepth=2\n",
	  &netapp, "qdepth:2" },
	{ "quoted-key-value", "[*]\nsched = \"disksort\"\n", &sata, "sched:disksort" },
	{ "canonical-value", "[*]\nqdepth = 016\n", &sata, "qdepth:16" },
	{ "crlf", "[vendor=NETAPP]\r\nqdepth = 16\r\n", &netapp, "qdepth:16" },
	{ "no-final-newline", "[*]\nqdepth=5", &sata, "qdepth:5" },
	{ "empty-section", "[vendor=NETAPP]\n[*]\nqdepth=1\n", &netapp, "qdepth:1" },
	{ "same-key-two-sections", "[*]\nqdepth=1\n[*]\nqdepth=2\n", &sata,
	  "qdepth:2" },
	{ "empty-file", "\n", &sata, "" },
	{ "comment-only", "# nothing\n", &sata, "" },
	/* words only: the rules between keys (auto needs reaction:none) are
	 * checked per device when applying (changes-auto-* below)
	 */
	{ "every-live-key",
	  "[*]\nqdepth=8\nsched=disksort\nmax_wait_ms=1\nlun_depth=4\n"
	  "qfull_delay_us=10\nreaction=sd-fc\nmodel=hdd\nsvc_us=1\nchannels=2\n"
	  "mbps=3\nseek_ms=4\nrpm=7200\nbubble_ms=5\nforeign=1\n"
	  "foreign_period_ms=6\nreset_after=7\nreset_ms=8\nramp_up_ms=9\n"
	  "restore_ms=10\nstep_ms=11\nmin_throttle=12\nrmw_x=13\n"
	  "auto=knee\ntarget_us=5000\nauto_min=2\nauto_max=64\n", &sata,
	  "qdepth:8 sched:disksort max_wait_ms:1 lun_depth:4 qfull_delay_us:10 "
	  "reaction:sd-fc model:hdd svc_us:1 channels:2 mbps:3 seek_ms:4 "
	  "rpm:7200 bubble_ms:5 foreign:1 foreign_period_ms:6 reset_after:7 "
	  "reset_ms:8 ramp_up_ms:9 restore_ms:10 step_ms:11 min_throttle:12 "
	  "rmw_x:13 auto:knee target_us:5000 auto_min:2 auto_max:64" },
	{ "auto-target", "[vendor=NETAPP]\nauto = target\ntarget_us = 2000\n",
	  &netapp, "auto:target target_us:2000" },
	{ "auto-share", "[*]\nauto = knee\nshare = 2\n", &sata,
	  "auto:knee share:2" },
};

struct bad_case {
	const char *name;
	const char *text;
	const char *want;	/* the whole error text */
};

#define FIELDS "(fields: name, dm, lower, vendor, model, serial, wwn)"

static const struct bad_case bad[] = {
	{ "unknown-field", "[vendour=NETAPP]\nqdepth=1\n",
	  "t.conf:1: unknown field 'vendour' " FIELDS "\n" },
	{ "unterminated-quote-header", "# c\n[model=\"LUN C-Mode]\nqdepth=1\n",
	  "t.conf:2: model: unterminated quote (a value cannot hold '\"')\n" },
	{ "unterminated-quote-value", "[*]\n\nsched = \"fifo\n",
	  "t.conf:3: sched: unterminated quote (a value cannot hold '\"')\n" },
	{ "text-after-quote", "[model=\"LUN\"x]\n",
	  "t.conf:1: model: text right after the closing quote\n" },
	{ "quote-inside", "[*]\nqdepth = 1\"6\"\n",
	  "t.conf:2: qdepth: a quote inside a value (quote the whole value)\n" },
	{ "missing-bracket", "[vendor=NETAPP\nqdepth=1\n",
	  "t.conf:1: missing ']' at the end of the section header\n" },
	{ "missing-bracket-hash", "[model=A#B]\n",
	  "t.conf:1: missing ']' at the end of the section header\n" },
	{ "outside-section", "qdepth = 4\n[*]\nqdepth = 4\n",
	  "t.conf:1: qdepth: outside a section (put a [header] above it)\n" },
	{ "empty-header", "[*]\n[]\nqdepth=1\n",
	  "t.conf:2: empty section header (use [*] for every device)\n" },
	{ "empty-header-blanks", "[   ] # x\n",
	  "t.conf:1: empty section header (use [*] for every device)\n" },
	{ "star-not-alone", "[* vendor=NETAPP]\n",
	  "t.conf:1: '*' must be alone in a section header ([*] matches every device)\n" },
	{ "text-after-header", "[*] qdepth=1\n",
	  "t.conf:1: unexpected text after ']': 'qdepth=1'\n" },
	{ "term-without-eq", "[vendor NETAPP]\n",
	  "t.conf:1: vendor: expected '=' and a pattern after the field name\n" },
	{ "term-not-field", "[=NETAPP]\n",
	  "t.conf:1: expected FIELD=GLOB in the section header, found '=NETAPP]'\n" },
	{ "empty-pattern", "[vendor=]\n",
	  "t.conf:1: vendor: empty pattern (vendor=\"\" matches an empty value)\n" },
	{ "field-twice", "[vendor=A vendor=B]\n",
	  "t.conf:1: vendor: given twice in one section header\n" },
	{ "bracket-unquoted", "[serial=AB[0-9]*]\n",
	  "t.conf:1: serial: a pattern with '[' must be quoted: serial=\"AB[0-9...\"\n" },
	{ "bad-value", "[*]\n\nqdepth = 70000\n",
	  "t.conf:3: qdepth: value must be an integer 0..65535\n" },
	{ "bad-enum", "[*]\nsched = elevator\n",
	  "t.conf:2: sched: value must be one of fifo, disksort\n" },
	{ "empty-value", "[*]\nqdepth =\n",
	  "t.conf:2: qdepth: value must be an integer 0..65535\n" },
	{ "unknown-key", "[*]\nmax-wait-ms = 5\n",
	  "t.conf:2: max-wait-ms: unknown key\n" },
	{ "table-only-pool", "[*]\npool = tgt0\n",
	  "t.conf:2: pool: can only be set on the table line (reload the table to change it)\n" },
	{ "table-only-pblk", "[*]\npblk:4096\n",
	  "t.conf:2: pblk: can only be set on the table line (reload the table to change it)\n" },
	{ "table-only-twice", "[*]\npool = a\npool = b\n",
	  "t.conf:2: pool: can only be set on the table line (reload the table to change it)\n"
	  "t.conf:3: pool: given more than once in this section (first on line 2)\n" },
	{ "duplicate", "[*]\nqdepth = 1\nsched = fifo\nqdepth:2\n",
	  "t.conf:4: qdepth: given more than once in this section (first on line 2)\n" },
	{ "no-separator", "[*]\nqdepth 4\n",
	  "t.conf:2: qdepth: expected '=' or ':' and a value after the key\n" },
	{ "two-words", "[*]\nqdepth = 4 sched:fifo\n",
	  "t.conf:2: qdepth: unexpected 'sched:fifo' after the value (one key per line)\n" },
	{ "garbage-line", "[*]\n]\n",
	  "t.conf:2: expected KEY = VALUE or a [section] header, found ']'\n" },
	{ "several-errors",
	  "[*]\nqdepth = x\n[vendor=NETAPP]\nsched = up\n[foo=1]\nqdepth = 99999999\n"
	  "[*]\nqdepth = 4\n",
	  "t.conf:2: qdepth: value must be an integer 0..65535\n"
	  "t.conf:4: sched: value must be one of fifo, disksort\n"
	  "t.conf:5: unknown field 'foo' " FIELDS "\n"
	  "t.conf:6: qdepth: value must be an integer 0..65535\n" },
	{ "bad-header-keys-checked", "[foo=1]\nqdepth = 4\nqdepth = 5\n",
	  "t.conf:1: unknown field 'foo' " FIELDS "\n"
	  "t.conf:3: qdepth: given more than once in this section (first on line 2)\n" },
	{ "nul-byte", "[*]\nqdepth\0 = 1\n",
	  "t.conf:2: a NUL byte: not a text file\n" },
};

static void test_good(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		const struct good_case *c = &good[i];
		char name[80], *errs = NULL;
		struct lq_pf pf;
		const char *got;
		int rc;

		rc = parse_str(&pf, c->text, &errs);
		got = rc ? "(parse error)" : resolve(&pf, c->id);
		snprintf(name, sizeof(name), "good-%s", c->name);
		if (rc || strcmp(got, c->want))
			printf("# got \"%s\" want \"%s\"%s%s", got, c->want,
			       errs ? "; errors:\n# " : "\n", errs ? errs : "");
		ok(!rc && !errs && !strcmp(got, c->want), name);
		lq_pf_free(&pf);
		free(errs);
	}
}

static void test_bad(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		const struct bad_case *c = &bad[i];
		const char *text = c->text;
		char name[80], *errs = NULL;
		struct lq_pf pf;
		size_t len = strlen(text);
		FILE *f;
		int rc;

		if (!strcmp(c->name, "nul-byte"))
			len = sizeof("[*]\nqdepth\0 = 1\n") - 1;
		f = fmemopen((void *)text, len, "r");
		rc = lq_pf_parse(&pf, "t.conf", f, &errs);
		fclose(f);
		snprintf(name, sizeof(name), "bad-%s", c->name);
		if (!errs || strcmp(errs, c->want))
			printf("# got:\n%s# want:\n%s", errs ? errs : "(none)\n",
			       c->want);
		ok(rc == -1 && errs && !strcmp(errs, c->want) &&
		   pf.nsec == 0 && !resolve(&pf, &netapp)[0] &&
		   !resolve(&pf, &sata)[0], name);
		lq_pf_free(&pf);
		free(errs);
	}
}

static void test_many_errors(void)
{
	char text[4096] = "[*]\n", *errs = NULL, want[128];
	struct lq_pf pf;
	int i, lines = 0;
	char *p;

	for (i = 0; i < 30; i++)
		strcat(text, "qdepth = x\n");
	ok(parse_str(&pf, text, &errs) == -1 && errs, "too-many-errors-fails");
	for (p = errs; p && *p; p++)
		lines += *p == '\n';
	snprintf(want, sizeof(want), "t.conf:%d: too many errors, stopped here\n",
		 LQ_PF_MAX_ERRORS + 2);
	ok(lines == LQ_PF_MAX_ERRORS + 1 && errs &&
	   strstr(errs, "t.conf:2: qdepth: value must") == errs &&
	   !strcmp(errs + strlen(errs) - strlen(want), want),
	   "too-many-errors-capped");
	lq_pf_free(&pf);
	free(errs);
}

/* Words, their line and section header, from resolve. */
static void test_sources(void)
{
	const char *text = "[*]\nqdepth = 32\nsched = disksort\n"
			   "[vendor=NETAPP  model=\"LUN C-Mode\"]   # na\n"
			   "qdepth = 16\n";
	struct lq_pf_word w[LUNQ_NR_KEYS];
	struct lq_pf pf;
	char *errs;
	int k;

	if (parse_str(&pf, text, &errs)) {
		ok(0, "sources-parse");
		free(errs);
		return;
	}
	k = lq_pf_resolve(&pf, &netapp, w, LUNQ_NR_KEYS);
	ok(k == 2 && w[0].key == LUNQ_QDEPTH && w[0].line == 5 &&
	   !strcmp(w[0].section, "[vendor=NETAPP  model=\"LUN C-Mode\"]") &&
	   w[1].key == LUNQ_SCHED && w[1].line == 3 &&
	   !strcmp(w[1].section, "[*]"), "sources-line-section");
	ok(lq_pf_resolve(&pf, &netapp, w, 1) == 1 &&
	   w[0].key == LUNQ_QDEPTH, "resolve-max");
	/* the SATA disk matches [*] only: both of its words come from there */
	k = lq_pf_resolve(&pf, &sata, w, LUNQ_NR_KEYS);
	ok(pf.nsec == 2 && k == 2 && w[0].line == 2 && w[1].line == 3 &&
	   !strcmp(w[0].section, "[*]") && !strcmp(w[1].section, "[*]"),
	   "section-matches");
	lq_pf_free(&pf);
	ok(pf.nsec == 0 && !pf.sec, "free-empties");
}

static void test_example(void)
{
	char path[4200], *errs = NULL;
	struct lq_pf pf;
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/../../ctl/lunq.conf.example", here);
	f = fopen(path, "r");
	if (!f) {
		perror(path);
		ok(0, "example-parses");
		return;
	}
	rc = lq_pf_parse(&pf, path, f, &errs);
	fclose(f);
	if (rc)
		printf("# %s", errs);
	ok(!rc, "example-parses");
	ok(!strcmp(resolve(&pf, &netapp), "qdepth:8 reaction:sd bubble_ms:100 restore_ms:60000"),
	   "example-netapp-wwn");
	ok(!strcmp(resolve(&pf, &sata),
		   "qdepth:4 sched:disksort max_wait_ms:500 bubble_ms:100"),
	   "example-sata");
	ok(!strcmp(resolve(&pf, &nullb), "bubble_ms:100"), "example-default");
	lq_pf_free(&pf);
	free(errs);
}

static void test_ident(void)
{
	char root[4200];
	struct lq_ident id;
	int rc;

	snprintf(root, sizeof(root), "%s/fixtures", here);

	memset(&id, 0, sizeof(id));
	strcpy(id.name, "keep");
	strcpy(id.dm, "keep-dm");
	rc = lq_ident_read(root, "8:0", &id);
	ok(!rc && !strcmp(id.lower, "sda") && !strcmp(id.vendor, "ATA") &&
	   !strcmp(id.model, "ST4000NM0035-1V4") &&
	   !strcmp(id.serial, "ZC1ABCDE") &&
	   !strcmp(id.wwn, "naa.5000c500a1b2c3d4"), "ident-scsi-disk");
	ok(!strcmp(id.name, "keep") && !strcmp(id.dm, "keep-dm"),
	   "ident-keeps-name-dm");

	memset(&id, 'x', sizeof(id));
	rc = lq_ident_read(root, "8:1", &id);
	ok(!rc && !strcmp(id.lower, "sda") && !strcmp(id.vendor, "ATA") &&
	   !strcmp(id.serial, "ZC1ABCDE") &&
	   !strcmp(id.wwn, "naa.5000c500a1b2c3d4"), "ident-scsi-partition");

	rc = lq_ident_read(root, "8:16", &id);
	ok(!rc && !strcmp(id.lower, "sdb") && !strcmp(id.vendor, "NETAPP") &&
	   !strcmp(id.model, "LUN C-Mode") &&
	   !strcmp(id.serial, "80SEtF0ErzkQ") &&
	   !strcmp(id.wwn, "naa.600a098038303053453f463045727a6b"),
	   "ident-scsi-netapp");

	rc = lq_ident_read(root, "259:0", &id);
	ok(!rc && !strcmp(id.lower, "nvme0n1") && !id.vendor[0] &&
	   !strcmp(id.model, "QEMU NVMe Ctrl") &&
	   !strcmp(id.serial, "deadbeef") && !strcmp(id.wwn, nvme.wwn),
	   "ident-nvme");

	rc = lq_ident_read(root, "252:0", &id);
	ok(!rc && !strcmp(id.lower, "nullb0") && !id.vendor[0] &&
	   !id.model[0] && !id.serial[0] && !id.wwn[0], "ident-null-blk");

	rc = lq_ident_read(root, "253:0", &id);
	ok(!rc && !strcmp(id.lower, "dm-0") && !strcmp(id.vendor, "NETAPP") &&
	   !strcmp(id.model, "LUN C-Mode") &&
	   !strcmp(id.serial, "80SEtF0ErzkQ") &&
	   !strcmp(id.wwn, netapp.wwn), "ident-multipath-slaves-agree");

	rc = lq_ident_read(root, "253:1", &id);
	ok(!rc && !strcmp(id.lower, "dm-1") && !id.vendor[0] &&
	   !id.model[0] && !id.serial[0] && !id.wwn[0],
	   "ident-slaves-disagree");

	ok(lq_ident_read(root, "9:9", &id) == -ENOENT && !id.lower[0],
	   "ident-no-such-device");
	ok(lq_ident_read(root, "sda", &id) == -EINVAL &&
	   lq_ident_read(root, "8:", &id) == -EINVAL &&
	   lq_ident_read(root, ":1", &id) == -EINVAL &&
	   lq_ident_read(root, "8:0/../../x", &id) == -EINVAL,
	   "ident-bad-majmin");

	/* end to end: a fixture disk against a section */
	{
		const char *text = "[vendor=NETAPP model=\"LUN C-Mode\"]\nqdepth = 16\n";
		struct lq_pf pf;
		char *errs;

		memset(&id, 0, sizeof(id));
		strcpy(id.name, "lq0");
		rc = lq_ident_read(root, "8:32", &id);
		ok(!rc && !parse_str(&pf, text, &errs) &&
		   !strcmp(resolve(&pf, &id), "qdepth:16"),
		   "ident-then-match");
		lq_pf_free(&pf);
	}
}

/* One lq_pf_word from a word (line 7, section "[s]"). */
static struct lq_pf_word W(const char *word)
{
	struct lq_pf_word w = { .line = 7, .section = "[s]" };
	struct lunq_keys p;
	u64 seen = 0;

	lunq_keys_init(&p);
	lunq_parse_word(&p, word, &seen, &w.key);
	snprintf(w.word, sizeof(w.word), "%s", word);
	return w;
}

/*
 * lq_pf_changes(@cur, @w, @n) returns @want and its refusal starts with
 * @why (a "\n" at its end: is @why); @why NULL: no refusal.  The changes
 * in @ch.
 */
static int changes_are(const char *cur, const struct lq_pf_word *w, int n,
		       int want, const char *why, struct lq_pf_change *ch)
{
	const char *got;
	size_t len = why ? strcspn(why, "\n") : 0;

	if (lq_pf_changes(cur, w, n, ch, &got) != want)
		return 0;
	if (!why)
		return !got;
	return got && !strncmp(got, why, len) && (why[len] != '\n' || !got[len]);
}

/*
 * The rules between keys and the words a table can only give: the file's
 * WORDS over the current policy CUR give WANT changes (or -EINVAL) and
 * the refusal WHY (changes_are); OLD and NEW those of the last change.
 */
static const struct {
	const char *cur, *words;
	int want;
	const char *why, *old, *new, *name;
} rules[] = {
	{ "", "reaction:sd", 1, "reaction: needs qdepth:1 or more", NULL, NULL,
	  "changes-rule-broken" },
	{ "", "reaction:sd qdepth:8", 2, NULL, NULL, NULL, "changes-rule-kept" },
	{ "qdepth:8", "reaction:sd", 1, NULL, NULL, NULL, "changes-rule-current" },
	/* auto: no reaction with it; target needs target_us; min <= max */
	{ "qdepth:8 reaction:sd", "auto:knee", 1,
	  "auto: reacts to QUEUE FULL itself", NULL, NULL, "changes-auto-reaction" },
	{ "qdepth:8 reaction:sd", "auto:knee reaction:none", 2, NULL, NULL, NULL,
	  "changes-auto-reaction-none" },
	{ "qdepth:8", "auto:target", 1, "auto: target needs target_us", NULL, NULL,
	  "changes-auto-target-needs-target_us" },
	{ "qdepth:8", "auto:target target_us:5000", 2, NULL, "0", "5000",
	  "changes-auto-target" },
	{ "auto_max:16", "auto_min:32", 1, "auto_min: must not exceed auto_max\n",
	  NULL, NULL, "changes-auto-min-max" },
	{ "newkey:1 qdepth:8", "qdepth:4", 1, NULL, NULL, NULL,
	  "changes-skip-unknown-current-key" },
	{ "qdepth:x", "qdepth:4", -EINVAL,
	  "qdepth: value must be an integer 0..65535\n", NULL, NULL,
	  "changes-bad-current" },
	{ "", "pblk:4096", -EINVAL, "pblk: can only be set", NULL, NULL,
	  "changes-table-only-word" },
};

static void test_changes(void)
{
	struct lq_pf_change ch[LUNQ_NR_KEYS];
	struct lq_pf_word w[4];
	const char *why;
	int c;

	w[0] = W("sched:fifo");
	w[1] = W("qdepth:0");
	w[2] = W("rmw_x:5");
	c = lq_pf_changes("", w, 3, ch, &why);
	ok(c == 0 && !why, "changes-defaults-are-no-change");

	w[0] = W("qdepth:16");
	w[1] = W("sched:disksort");
	w[2] = W("max_wait_ms:500");
	c = lq_pf_changes("qdepth:8 sched:disksort", w, 3, ch, &why);
	ok(c == 2 && !why &&
	   ch[0].key == LUNQ_QDEPTH && !strcmp(ch[0].word, "qdepth:16") &&
	   !strcmp(ch[0].old, "8") && !strcmp(ch[0].new, "16") &&
	   ch[0].line == 7 && !strcmp(ch[0].section, "[s]") &&
	   ch[1].key == LUNQ_MAX_WAIT_MS &&
	   !strcmp(ch[1].word, "max_wait_ms:500") &&
	   !strcmp(ch[1].old, "0") && !strcmp(ch[1].new, "500"),
	   "changes-old-new");

	w[0] = W("sched:fifo");
	c = lq_pf_changes("qdepth:8 sched:disksort", w, 1, ch, &why);
	ok(c == 1 && !strcmp(ch[0].old, "disksort") &&
	   !strcmp(ch[0].new, "fifo") && !strcmp(ch[0].word, "sched:fifo"),
	   "changes-back-to-default");

	w[0] = W("qdepth:08");
	c = lq_pf_changes("qdepth:8", w, 1, ch, &why);
	ok(c == 0 && !why, "changes-compare-values-not-text");

	w[0] = W("qdepth:4");
	c = lq_pf_changes("qdepth:8 sched:disksort pool:tgt0 pool_depth:16 lun_depth:4 pblk:4096",
			  w, 1, ch, &why);
	ok(c == 1 && !why && !strcmp(ch[0].old, "8"),
	   "changes-table-only-in-current");

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		char words[128], *save = NULL, *t;
		int n = 0;

		snprintf(words, sizeof(words), "%s", rules[i].words);
		for (t = strtok_r(words, " ", &save); t && n < 4; t = strtok_r(NULL, " ", &save))
			w[n++] = W(t);
		ok(changes_are(rules[i].cur, w, n, rules[i].want, rules[i].why, ch) &&
		   (!rules[i].old || (!strcmp(ch[n - 1].old, rules[i].old) &&
				      !strcmp(ch[n - 1].new, rules[i].new))),
		   rules[i].name);
	}
	w[0] = W("qdepth:4");
	w[1] = W("qdepth:5");
	c = lq_pf_changes("", w, 2, ch, &why);
	ok(c == -EINVAL && why, "changes-duplicate-word");
}

int main(void)
{
	const char *slash;

	snprintf(here, sizeof(here), "%s", __FILE__);
	slash = strrchr(here, '/');
	if (slash)
		here[slash - here] = '\0';
	else
		strcpy(here, ".");

	test_good();
	test_bad();
	test_many_errors();
	test_sources();
	test_example();
	test_ident();
	test_changes();
	return tap_exit();
}
