/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An independent reader of a unit test's output: py_accepts(TEXT, CODE)
 * is 1 when "python3 -c CODE FILE" exits 0 on a file holding TEXT (CODE
 * reads the file named by sys.argv[1]: json.load, xml.dom.minidom.parse).
 */
#ifndef LUNQ_TEST_PY_CHECK_H
#define LUNQ_TEST_PY_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int py_accepts(const char *text, const char *code)
{
	char path[] = "/tmp/lunq_py_check.XXXXXX", cmd[512];
	int fd = mkstemp(path), rc;
	FILE *f;

	if (fd < 0)
		return 0;
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "python3 -c '%s' %s", code, path);
	rc = system(cmd);
	unlink(path);
	return rc == 0;
}

#endif /* LUNQ_TEST_PY_CHECK_H */
