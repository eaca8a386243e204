// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of ctl/svg.c: the throughput vs p99 plot of lunqctl sweep.
 * The synthetic sweep of tests/unit/ctl_sweep_fixture.h against the
 * golden file tests/unit/golden/sweep.svg (checked by eye in a browser:
 * three curves, knees at fifo qdepth 4, disksort qdepth 4 and 70 % of
 * the open curve; decades 1 ms .. 100 ms); well-formed XML by a small
 * checker here (tags balance, attribute values quoted, no raw < or & in
 * text, one root) and, when python3 is there, by xml.dom.minidom;
 * escaping; the axis helpers; deterministic output.  One "ok N name" /
 * "not ok N name" line per check.
 *
 * LINK: ctl/svg.c ctl/sweep.c ctl/sweep_write.c lib/result.c lib/units.c lib/json.c
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "svg.h"
#include "sweep_write.h"
#include "golden.h"
#include "ctl_sweep_fixture.h"
#include "py_check.h"

#define TAP_PREFIX "svg-"
#include "tap.h"

/*
 * A small XML well-formedness checker, enough for what svg.c writes: an
 * optional <?xml ...?> declaration, then one element; tags balance, names
 * are [A-Za-z_:][A-Za-z0-9_:.-]*, attribute values are quoted and hold no
 * '<', every '&' starts an entity (&amp; &lt; &gt; &quot; &apos;), text
 * has no '<' or '&' but as such.  Returns NULL or what is wrong.
 */
static const char *entity(const char *p)
{
	static const char *const e[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };
	size_t i;

	for (i = 0; i < sizeof(e) / sizeof(e[0]); i++)
		if (!strncmp(p, e[i], strlen(e[i])))
			return p + strlen(e[i]);
	return NULL;
}

static const char *name_end(const char *p)
{
	if (!isalpha((unsigned char)*p) && *p != '_' && *p != ':')
		return NULL;
	while (isalnum((unsigned char)*p) || strchr("_:.-", *p))
		p++;
	return p;
}

static const char *xml_check(const char *s)
{
	const char *stack[64], *p = s, *e;
	size_t len[64];
	int depth = 0, roots = 0;

	if (!strncmp(p, "<?xml ", 6)) {
		p = strstr(p, "?>");
		if (!p)
			return "unterminated declaration";
		p += 2;
	}
	while (*p) {
		if (*p == '&') {
			p = entity(p);
			if (!p)
				return "raw & in text";
			continue;
		}
		if (*p != '<') {
			if (!depth && !isspace((unsigned char)*p))
				return "text outside the root";
			p++;
			continue;
		}
		if (p[1] == '/') {		/* end tag */
			e = name_end(p + 2);
			if (!e || *e != '>' || !depth)
				return "bad end tag";
			depth--;
			if ((size_t)(e - p - 2) != len[depth] ||
			    strncmp(p + 2, stack[depth], len[depth]))
				return "end tag does not match";
			p = e + 1;
			continue;
		}
		e = name_end(p + 1);		/* start tag */
		if (!e)
			return "bad tag name";
		if (!depth && roots++)
			return "more than one root";
		if (depth == 64)
			return "too deep";
		stack[depth] = p + 1;
		len[depth] = (size_t)(e - p - 1);
		p = e;
		for (;;) {
			while (isspace((unsigned char)*p))
				p++;
			if (*p == '>') {
				depth++;
				p++;
				break;
			}
			if (p[0] == '/' && p[1] == '>') {
				p += 2;
				break;
			}
			e = name_end(p);
			if (!e || e == p)
				return "bad attribute name";
			p = e;
			if (*p++ != '=')
				return "attribute without =";
			if (*p != '"' && *p != '\'')
				return "unquoted attribute value";
			{
				char q = *p++;

				while (*p && *p != q) {
					if (*p == '<')
						return "< in attribute value";
					if (*p == '&') {
						p = entity(p);
						if (!p)
							return "raw & in attribute value";
						continue;
					}
					p++;
				}
				if (!*p)
					return "unterminated attribute value";
				p++;
			}
		}
	}
	if (depth)
		return "unclosed element";
	return roots == 1 ? NULL : "no root element";
}

static int python_parses(const char *svg)
{
	return py_accepts(svg, "import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])");
}

static int count(const char *s, const char *what)
{
	int k = 0;

	while ((s = strstr(s, what))) {
		k++;
		s += strlen(what);
	}
	return k;
}

static void test_checker(void)
{
	ok(!xml_check("<a x=\"1\"><b/>t &amp; u</a>"), "checker-accepts");
	ok(xml_check("<a><b></a></b>") != NULL, "checker-crossed-tags");
	ok(xml_check("<a x=1/>") != NULL, "checker-unquoted-attribute");
	ok(xml_check("<a>x & y</a>") != NULL, "checker-raw-ampersand");
	ok(xml_check("<a>x < y</a>") != NULL, "checker-raw-lt");
	ok(xml_check("<a/><b/>") != NULL, "checker-two-roots");
	ok(xml_check("<a>") != NULL, "checker-unclosed");
}

static void test_helpers(void)
{
	char *out = NULL;
	double l;

	CAPTURE(out, lq_svg_escape(f, "a<b>&\"c'\x01"));
	ok(!strcmp(out, "a&lt;b&gt;&amp;&quot;c&apos;?"), "escape");
	free(out);
	ok(lq_svg_nice_step(2100, 8) == 500 && lq_svg_nice_step(1000, 8) == 200 &&
	   lq_svg_nice_step(80, 8) == 10 && lq_svg_nice_step(7, 8) == 1 &&
	   lq_svg_nice_step(0.5, 8) == 0.1 && lq_svg_nice_step(0, 8) == 1,
	   "nice-step");
	l = lq_svg_log10(1000);
	ok(l > 2.999999999 && l < 3.000000001, "log10-1000");
	l = lq_svg_log10(2);
	ok(l > 0.30102999 && l < 0.30103001, "log10-2");
	l = lq_svg_log10(0.001);
	ok(l > -3.000000001 && l < -2.999999999, "log10-below-1");
	l = lq_svg_log10(4.5e9);
	ok(l > 9.6532124 && l < 9.6532126, "log10-large");
}

static void test_plot(void)
{
	struct lq_sweep s;
	char *out = NULL, *again = NULL;
	const char *why;

	fixture(&s);
	CAPTURE(out, lq_sweep_svg(f, &s));
	ok(golden("sweep.svg", out), "golden");
	why = xml_check(out);
	if (why)
		diag("%s", why);
	ok(!why, "well-formed");
	if (system("command -v python3 > /dev/null 2>&1"))
		skip("python-minidom-parses", "no python3");
	else
		ok(python_parses(out), "python-minidom-parses");
	ok(strstr(out, "lq&lt;&amp;&gt;: throughput vs p99 response time") != NULL &&
	   !strstr(out, "lq<&>"), "title-escaped");
	ok(count(out, "<polyline") == 3 && count(out, "r=\"7\"") == 4,
	   "three-curves-three-knees-and-legend-ring");
	ok(strstr(out, ">fifo closed<") && strstr(out, ">disksort closed<") &&
	   strstr(out, ">fifo qdepth=8 open<"), "legend-labels");
	ok(strstr(out, ">1 ms<") && strstr(out, ">10 ms<") && strstr(out, ">100 ms<") &&
	   strstr(out, ">2 ms<") && strstr(out, ">throughput (IOPS)<") &&
	   strstr(out, ">p99 response time (log scale)<"), "axes-ticks-labels");
	ok(strstr(out, LQ_KNEE_DEF) != NULL, "knee-definition-shipped");
	CAPTURE(again, lq_sweep_svg(f, &s));
	ok(!strcmp(out, again), "deterministic");
	free(again);
	free(out);
	lq_sweep_free(&s);
}

static void test_edges(void)
{
	const double x[] = { 100, 200, -1, 300 }, y[] = { 5e4, 0, 1e6, 2e9 };
	const char *const marks[] = { "1", "<2>", "3", "&4" };
	const char *const tips[] = { "a\"b", "c", "d", "e'f" };
	struct lq_svg_curve c[12];
	char *out = NULL, lab[12][16];
	const char *why;
	int k;

	CAPTURE(out, lq_svg_plot(f, "empty & <nothing>", NULL, 0, NULL));
	ok(!xml_check(out) && strstr(out, ">no data<") &&
	   strstr(out, "empty &amp; &lt;nothing&gt;"), "no-data-well-formed");
	free(out);

	for (k = 0; k < 12; k++) {
		snprintf(lab[k], sizeof(lab[k]), "c%d <&>", k);
		c[k].label = lab[k];
		c[k].n = 4;
		c[k].x = x;
		c[k].y = y;
		c[k].knee = k % 2 ? 3 : 1;	/* index 1 is not drawable */
		c[k].mark = marks;
		c[k].tip = k ? NULL : tips;
	}
	CAPTURE(out, lq_svg_plot(f, "many", c, 12, "note \"q\""));
	why = xml_check(out);
	if (why)
		diag("%s", why);
	ok(!why, "many-curves-escapes-well-formed");
	ok(count(out, "stroke-dasharray") == 4, "curves-past-the-palette-dashed");
	ok(count(out, "r=\"7\"") == 6 + 1, "knee-on-undrawable-point-skipped");
	ok(strstr(out, ">10 us<") && strstr(out, ">10 s<") && !strstr(out, ">2 ms<"),
	   "five-decades-only-decades-labelled");
	ok(strstr(out, "<title>a&quot;b</title>") && strstr(out, ">&lt;2&gt;<") == NULL &&
	   strstr(out, ">&amp;4<"), "tips-and-marks-escaped");
	ok(strstr(out, "height=\"520\"") != NULL, "height");
	free(out);
}

int main(void)
{
	test_checker();
	test_helpers();
	test_plot();
	test_edges();
	return tap_exit();
}
