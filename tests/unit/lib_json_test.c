// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of lib/json.c: JSON string escaping and numbers, as every
 * JSON output of lunqctl and lunqbench writes them.  One "ok N name" /
 * "not ok N name" line per check.
 *
 * LINK: lib/json.c
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json.h"
#include "golden.h"		/* CAPTURE */

#define TAP_PREFIX "json-"
#include "tap.h"

static void test_numbers(void)
{
	char *out;

	/* JSON numbers: 3 decimals at most, no -0, no NaN/inf */
	CAPTURE(out, lq_json_num(f, 0.1234); fputc(' ', f);
		lq_json_num(f, 2.0004); fputc(' ', f);
		lq_json_num(f, -0.0001); fputc(' ', f);
		lq_json_num(f, 0.0 / 0.0); fputc(' ', f);
		lq_json_num(f, 1.0 / 0.0); fputc(' ', f);
		lq_json_num(f, 1e6));
	ok(!strcmp(out, "0.123 2 0 0 0 1000000"), "numbers");
	free(out);

	/* rounding to 3 decimals, large and negative values */
	CAPTURE(out, lq_json_num(f, 0.0005); fputc(' ', f);
		lq_json_num(f, -2.5); fputc(' ', f);
		lq_json_num(f, 1e15); fputc(' ', f);
		lq_json_num(f, -1.0 / 0.0); fputc(' ', f);
		lq_json_num(f, 10.100));
	ok(!strcmp(out, "0.001 -2.5 1000000000000000 0 10.1"),
	   "numbers-round-sign-large");
	free(out);
}

static void test_strings(void)
{
	char *out;

	CAPTURE(out, lq_json_str(f, "a\"b\\c\nd\te\x01\x1f/\xc3\xa9"));
	ok(!strcmp(out, "\"a\\\"b\\\\c\\nd\\te\\u0001\\u001f/\xc3\xa9\""),
	   "escape");
	free(out);
	CAPTURE(out, lq_json_str(f, ""));
	ok(!strcmp(out, "\"\""), "empty-string");
	free(out);

	/* every control character escaped, DEL too; '/' and UTF-8 as they are */
	CAPTURE(out, lq_json_str(f, "\r\f\b\x7f"));
	ok(!strcmp(out, "\"\\r\\f\\b\\u007f\""), "escape-rest");
	free(out);
}

int main(void)
{
	test_numbers();
	test_strings();
	return tap_exit();
}
