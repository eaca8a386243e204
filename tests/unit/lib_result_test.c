// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of lib/result.c: lunqbench's result record.  The summary
 * line read and written back byte for byte, the fields' table against
 * the struct, and the CSV and JSON forms of a record (a sweep point's).
 * One "ok N name" / "not ok N name" line per check.
 *
 * LINK: lib/result.c
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "result.h"
#include "golden.h"		/* CAPTURE */

#define TAP_PREFIX "result-"
#include "tap.h"

static const char line[] =
	"ios=5994 reads=5990 writes=4 errors=1 verify_errors=2 elapsed_s=3.001 "
	"iops=1997.3 mbps=8.18 resp_p50_ns=2011135 resp_p90_ns=2490367 "
	"resp_p99_ns=2949119 resp_p999_ns=3506175 resp_max_ns=4063231 "
	"svc_p50_ns=1994751 svc_p99_ns=2097151 lag_p99_ns=20479 saturated=1 "
	"loop=open qd=64\n";

int main(void)
{
	struct lq_result r;
	char err[128], *out;

	ok(lq_result_nfields == 19 && !strcmp(lq_result_fields[0].key, "ios") &&
	   lq_result_fields[lq_result_nfields - 1].off == offsetof(struct lq_result, qd),
	   "table");
	ok(!lq_result_parse(line, &r, err, sizeof(err)) && r.ios == 5994 &&
	   r.writes == 4 && r.iops == 1997.3 && r.saturated && r.open && r.qd == 64,
	   "parse");
	CAPTURE(out, lq_result_kv(f, &r));
	ok(!strcmp(out, line), "kv-round-trip");
	free(out);
	CAPTURE(out, lq_result_csv_head(f));
	ok(!strcmp(out, "ios,reads,writes,errors,verify_errors,elapsed_s,iops,"
		   "mbps,resp_p50_ns,resp_p90_ns,resp_p99_ns,resp_p999_ns,"
		   "resp_max_ns,svc_p50_ns,svc_p99_ns,lag_p99_ns,saturated,qd"),
	   "csv-head");
	free(out);
	CAPTURE(out, lq_result_csv(f, &r));
	ok(!strcmp(out, "5994,5990,4,1,2,3.001,1997.300,8.180,2011135,2490367,"
		   "2949119,3506175,4063231,1994751,2097151,20479,1,64"),
	   "csv");
	free(out);
	CAPTURE(out, lq_result_csv(f, NULL));
	ok(!strcmp(out, ",,,,,,,,,,,,,,,,,"), "csv-empty");
	free(out);
	CAPTURE(out, lq_result_json(f, &r));
	ok(!strcmp(out, "\"ios\":5994,\"reads\":5990,\"writes\":4,\"errors\":1,"
		   "\"verify_errors\":2,\"elapsed_s\":3.001,\"iops\":1997.300,"
		   "\"mbps\":8.180,\"resp_p50_ns\":2011135,\"resp_p90_ns\":2490367,"
		   "\"resp_p99_ns\":2949119,\"resp_p999_ns\":3506175,"
		   "\"resp_max_ns\":4063231,\"svc_p50_ns\":1994751,"
		   "\"svc_p99_ns\":2097151,\"lag_p99_ns\":20479,\"saturated\":true,"
		   "\"qd\":64"),
	   "json");
	free(out);
	ok(lq_result_find("x\nios=1 a\nios=2 b\n") &&
	   !strncmp(lq_result_find("x\nios=1 a\nios=2 b\n"), "ios=2", 5), "find");
	return tap_exit();
}
