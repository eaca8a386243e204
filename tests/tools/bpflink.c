// SPDX-License-Identifier: GPL-2.0
/*
 * bpflink: one BPF policy's struct_ops map attached through several links,
 * for tests/vm/t-bpf-watchdog.sh (lunqctl policy attach makes one link per
 * map; two links on one map are two attachments of the same kernel ops).
 *
 *   bpflink OBJ NAME DEV:PIN [DEV:PIN ...]
 *   bpflink --pin-map OBJ MAPPIN
 *   bpflink --map MAPPIN NAME DEV:PIN [DEV:PIN ...]
 *
 * loads OBJ (its one struct_ops map, libbpf 1.5) and, for each DEV:PIN,
 * tells dm device DEV to expect the policy NAME ("policy expect NAME";
 * DEV "-": no message, the test sent it), attaches the map (a new link)
 * and pins the link at PIN.  --pin-map loads OBJ and pins its map at
 * MAPPIN, attached to nothing (its one attach refused: nothing expects
 * it); --map attaches that pinned map (a process
 * handed a loaded policy's map: registering needs no capability of the
 * BPF syscall's own, lunq asks CAP_SYS_ADMIN).  Exits 0 when all went, 3
 * when the kernel refused an attach with EPERM, 1 otherwise; says which
 * on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>

/* enum bpf_attach_type's BPF_STRUCT_OPS (Linux 6.4; Debian 12's uapi is 6.1) */
#define LQ_BPF_STRUCT_OPS	44

/* Tell DEV to expect NAME, unless DEV is "-". */
static int expect(const char *dev, const char *name)
{
	char cmd[512];

	if (!strcmp(dev, "-"))
		return 0;
	snprintf(cmd, sizeof(cmd), "dmsetup message %s 0 'policy expect %s'",
		 dev, name);
	if (system(cmd)) {
		fprintf(stderr, "bpflink: %s failed\n", cmd);
		return 1;
	}
	return 0;
}

/* Attaching policy NAME for DEV failed (errno): 3 when not allowed, else 1 */
static int attach_failed(const char *name, const char *dev)
{
	int e = errno;

	fprintf(stderr, "bpflink: attaching %s for %s: %s\n", name, dev,
		strerror(e));
	return e == EPERM ? 3 : 1;
}

/* Pinning a link at PIN failed (errno): 1 */
static int pin_failed(const char *pin)
{
	fprintf(stderr, "bpflink: pinning at %s: %s\n", pin, strerror(errno));
	return 1;
}

/* --map MAPPIN NAME DEV:PIN...: links to a pinned struct_ops map */
static int from_map(int argc, char **argv)
{
	int i, map, fd;

	map = bpf_obj_get(argv[2]);
	if (map < 0) {
		fprintf(stderr, "bpflink: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	for (i = 4; i < argc; i++) {
		char *pin = strchr(argv[i], ':');

		if (!pin)
			return 1;
		*pin++ = '\0';
		if (expect(argv[i], argv[3]))
			return 1;
		fd = bpf_link_create(map, 0, LQ_BPF_STRUCT_OPS, NULL);
		if (fd < 0)
			return attach_failed(argv[3], argv[i]);
		if (bpf_obj_pin(fd, pin))
			return pin_failed(pin);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_map *m, *map = NULL;
	int i;

	if (argc >= 5 && !strcmp(argv[1], "--map"))
		return from_map(argc, argv);
	if (argc == 4 && !strcmp(argv[1], "--pin-map")) {
		argv++;
		argc--;
	} else if (argc < 4) {
		fprintf(stderr, "usage: bpflink OBJ NAME DEV:PIN [DEV:PIN ...] | --pin-map OBJ MAPPIN | --map MAPPIN NAME DEV:PIN...\n");
		return 1;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj || bpf_object__load(obj)) {
		fprintf(stderr, "bpflink: %s: cannot load: %s\n", argv[1],
			strerror(errno));
		return errno == EPERM ? 3 : 1;
	}
	bpf_object__for_each_map(m, obj)
		if (bpf_map__type(m) == BPF_MAP_TYPE_STRUCT_OPS)
			map = m;
	if (!map) {
		fprintf(stderr, "bpflink: %s: no struct_ops map\n", argv[1]);
		return 1;
	}
	if (!strcmp(argv[0], "--pin-map")) {
		/*
		 * The map's value goes in with the attach (libbpf), which
		 * nothing expects yet: refused, the map is ready all the same
		 */
		if (bpf_map__attach_struct_ops(map))
			fprintf(stderr, "bpflink: %s attached to something\n",
				argv[2]);
		if (bpf_map__pin(map, argv[2])) {
			fprintf(stderr, "bpflink: pinning the map at %s: %s\n",
				argv[2], strerror(errno));
			return 1;
		}
		return 0;
	}
	for (i = 3; i < argc; i++) {
		char *pin = strchr(argv[i], ':');
		struct bpf_link *link;

		if (!pin) {
			fprintf(stderr, "bpflink: %s: want DEV:PIN\n", argv[i]);
			return 1;
		}
		*pin++ = '\0';
		if (expect(argv[i], argv[2]))
			return 1;
		link = bpf_map__attach_struct_ops(map);
		if (!link)
			return attach_failed(argv[2], argv[i]);
		if (bpf_link__pin(link, pin))
			return pin_failed(pin);
		bpf_link__disconnect(link);	/* the pin keeps it */
		bpf_link__destroy(link);
	}
	bpf_object__close(obj);
	return 0;
}
