# lunq: top-level build.  See README.md.
#   make deps    install the Debian packages (root)
#   make         dm-lunq.ko (against the kernel the VM boots), lib (liblunq.a), ctl, bench
#   make KDIR=<kernel build tree> kmod   dm-lunq.ko for another kernel
#                (build/kmod/<release>/; a missing CONFIG_ is named)
#   make install   (root) dm-lunq.ko into /lib/modules/KVER/updates, then
#                depmod -a KVER; lunqctl, lunqbench, their man pages,
#                lunqctl's bash completion under PREFIX (/usr/local)
#                (share/bash-completion/completions), the udev rule 60-lunq.rules in
#                /etc/udev/rules.d, /etc/lunq/lunq.conf.example (lunq.conf
#                itself is never written).  KVER=<release> (default:
#                scripts/kver) KDIR=<its build tree> for another kernel;
#                DESTDIR=<staging dir> installs there, without depmod
#   make uninstall removes what make install put there (same KVER,
#                PREFIX, DESTDIR); /etc/lunq/lunq.conf stays
#   make dkms-install  (root) instead of install's module: sources into
#                /usr/src/lunq-<version>, dkms add, build, install for KVER;
#                DKMS rebuilds it for each new kernel (dkms.conf)
#   make dkms-uninstall  dkms remove --all, /usr/src/lunq-<version> gone
#   make test    (root) deps, build, then unit, qemu/run and VM
#                integration tests (Debian's 6.1 kernel; the
#                kernel-dependent groups on 6.12 and 6.1 PREEMPT_RT,
#                scripts/kernels; KUnit's suites and six fault tests on
#                the debug kernel), all in quick mode: what CI runs, within
#                the time plan of tests/budget; the time of each test in
#                build/test-times.tsv
#   make check   sparse (kbuild's C=2) on kmod/ against the VM kernel (6.1)
#                and 6.12 when its headers are installed; fails on any
#                warning and prints them (scripts/sparse-kmod; make test
#                runs it too, tests/lint/sparse.sh)
#   make test-full  make test with LUNQ_FULL=1 (the matrix runs the groups
#                basic, integrity, stats, throttle, trace and bpf, the
#                arena among them; the debug run the fault group and a
#                smoke set; KUnit in UML from 6.1 and 6.12), then make test-debug
#                (the long forms); about two hours on 2 cores
#   make kmod-xflush  TEST ONLY: the crash test's negative control module
#                (build/kmod-xflush/; make tools builds it)
#   make test-debug  the fault group on the debug kernel (KASAN,
#                lockdep, kmemleak; qemu/build-kernel --debug), full length
#   make kernel-debug  build (or find cached) that kernel
#   make demo    deps, build, then in the VM: latency bubbles (fifo,
#                disksort, aging), per-LUN vs global throttle, sweep,
#                alignment scan, scsi_debug TASK SET FULL, lunq tunes
#                itself (auto against static, reactions, oracle); results in
#                results/demo-<timestamp>/
#   make arena   deps, build, then in the VM on the instruction-counting
#                clock: every policy in fixed scenarios (the knee from 1
#                and 64, capacity 16 -> 4 -> 16, the hostile pool) scored
#                against the oracle of the same run; results in
#                results/arena-<timestamp>/ (ARGS="--quick --bpf -o DIR")
#   make bench   every benchmark (overhead + compare), one JSON and a table
#                with the goals (ARGS="-o DIR --rounds N ...")
#   make bench-overhead  lunq vs dm-linear, disksort vs fifo, scale (ARGS="-o DIR ...")
#   make bench-compare   lunqbench vs fio, equal settings (ARGS="-o DIR ...")
#   make fuzz    libFuzzer on the parsers, 10 min per target (FUZZ_TIME=seconds)
#   make bpf-tools  libbpf 1.5 (static) and bpftool from linux-source-6.12,
#                cached in ~/.cache/lunq/bpf-<version>; build/bpf/ links to
#                them, and vmlinux.h of the 6.12 kernel (scripts/bpf-tools)
#   make policies   the BPF throttle policies (policies/*.bpf.c) into
#                build/policies/ (lunqctl policy attach NAME FILE.bpf.o)
#   make kmod-btf   dm-lunq.ko for the 6.12 kernel, then a check of its
#                module BTF against that kernel's (scripts/kmod-btf)
# Derived from the installed kernels, so evaluated when used, not when make
# starts: `make demo` and `make test` install them first (scripts/deps)
# and build in a sub-make, which reads them afresh.
KVER ?= $(shell scripts/kver 2>/dev/null)
# Debian's headers for the VM kernel; KDIR= points kmod at any other tree
DEB_KDIR = /lib/modules/$(KVER)/build
KDIR ?= $(DEB_KDIR)
SUBDIRS_USER := $(wildcard lib/Makefile ctl/Makefile bench/Makefile sim/Makefile)

.PHONY: bpf-tools kmod-btf policies
.PHONY: all build-all check check-kdir kmod kmod-xflush splat user deps test test-full test-unit test-kunit test-vm test-debug kernel-debug demo arena tools bench bench-overhead bench-compare checkpatch clean help fuzz

# the build, one at a time in a checkout: a second make waits for the
# first, and says so (scripts/lock; scripts/build-kmod takes its own lock
# per module directory, for the builds that do not go through here)
all:
	@scripts/lock build $(MAKE) --no-print-directory build-all
build-all: kmod splat user tools policies

check-kdir:
	@test -n "$(KVER)" -a -f "$(DEB_KDIR)/Makefile" || \
	  { echo "make: no kernel headers for the VM kernel ($(DEB_KDIR)); run 'make deps'"; exit 1; }

# build/kmod/<release>/kmod/dm-lunq.ko, after checking KDIR's config
kmod:
	scripts/build-kmod $(KDIR)

# test fixture module (tests/splat): splats on purpose, for qemu/run's
# tests on Debian's kernel
splat: check-kdir
	scripts/lock splat $(MAKE) -C $(DEB_KDIR) M=$(CURDIR)/tests/splat modules

user:
	@for m in $(SUBDIRS_USER); do $(MAKE) -C $$(dirname $$m) || exit 1; done

# test tools for the VM tests (qemu/mkinitramfs puts them on the guest's PATH)
tools: build/tools/nlprobe build/tools/nlfuzz build/tools/fuamix build/tools/zplug build/tools/replaylog build/tools/blknotes build/tools/bpflink kmod-xflush

# one struct_ops map through several links (t-bpf-watchdog), on libbpf 1.5
build/tools/bpflink: tests/tools/bpflink.c build/bpf/include/bpf/libbpf.h
	@mkdir -p $(@D)
	$(CC) -Wall -Wextra -O2 -g -Ibuild/bpf/include -o $@ tests/tools/bpflink.c build/bpf/lib/libbpf.a -lelf -lz

build/tools/nlprobe: tests/tools/nlprobe.c tests/tools/die.h kmod/lunq_names.c kmod/lunq_names.h kmod/lunq_pure.h kmod/uapi/lunq.h
	@mkdir -p $(@D)
	$(CC) -Wall -Wextra -O2 -g -o $@ tests/tools/nlprobe.c kmod/lunq_names.c

build/tools/nlfuzz: tests/tools/nlfuzz.c tests/tools/die.h kmod/uapi/lunq.h
	@mkdir -p $(@D)
	$(CC) -Wall -Wextra -O2 -g -o $@ tests/tools/nlfuzz.c

build/tools/fuamix: tests/tools/fuamix.c
	@mkdir -p $(@D)
	$(CC) -Wall -Wextra -O2 -g -o $@ tests/tools/fuamix.c

build/tools/zplug: tests/tools/zplug.c
	@mkdir -p $(@D)
	$(CC) -Wall -Wextra -O2 -g -o $@ tests/tools/zplug.c

# blkparse 1.2 (Debian 12) drops blktrace notes of cgroup kernels: trace/blknotes.c
build/tools/blknotes: trace/blknotes.c
	@mkdir -p build/tools
	$(CC) -Wall -Wextra -O2 -g -o $@ trace/blknotes.c

build/tools/replaylog: tests/tools/replaylog.c tests/tools/logwrites.c tests/tools/logwrites.h
	@mkdir -p $(@D)
	$(CC) -Wall -Wextra -O2 -g -o $@ tests/tools/replaylog.c tests/tools/logwrites.c

# TEST ONLY: dm-lunq-xflush.ko, the target lunq-xflush, the negative
# control of the crash-consistency test (kmod/lunq_xflush.c: writes
# acknowledged before they reach the device, so they cross the next
# flush), in build/kmod-xflush/<release>/; never installed
kmod-xflush: check-kdir
	LUNQ_TEST_XFLUSH=y scripts/build-kmod $(DEB_KDIR) > /dev/null

deps:
	scripts/deps

# BPF struct_ops groundwork: libbpf/bpftool (cached), and the 6.12
# module's BTF (kbuild writes it from Debian's 6.12 headers' vmlinux;
# 6.1 and RT get none, which is fine)
bpf-tools:
	scripts/bpf-tools

KREL_612 = $(shell scripts/kernels 2>/dev/null | awk '$$1 == "linux-image-6.12-amd64" { print $$2 }')
kmod-btf:
	@[ -n "$(KREL_612)" ] || { echo "make kmod-btf: no 6.12 kernel installed; run 'make deps'" >&2; exit 1; }
	scripts/build-kmod /lib/modules/$(KREL_612)/build > /dev/null
	scripts/kmod-btf $(KREL_612)

# make install / uninstall (see the top).  The module is the one `make`
# built for KDIR (build/kmod/<release>/), rebuilt when kmod/ is newer;
# its release must be KVER.
.PHONY: install uninstall dkms-source dkms-install dkms-uninstall
PREFIX ?= /usr/local
KREL = $(shell sed -n 's/^.define UTS_RELEASE "\(.*\)"$$/\1/p' $(KDIR)/include/generated/utsrelease.h 2>/dev/null)
LUNQ_KO = build/kmod/$(KREL)/kmod/dm-lunq.ko
KMOD_SRCS := $(filter-out %.mod.c,$(wildcard kmod/*.c kmod/*.h)) kmod/Kbuild
MODDIR = $(DESTDIR)/lib/modules/$(KVER)/updates
# depmod on this host's module tree only, not into a DESTDIR
DEPMOD = if [ -z "$(DESTDIR)" ]; then \
	  if d=$$(PATH=$$PATH:/sbin:/usr/sbin command -v depmod); then \
	    echo "depmod -a $(KVER)"; $$d -a $(KVER); \
	  else echo "make: no depmod here; run 'depmod -a $(KVER)' yourself"; fi; fi
SUBMAKE_INSTALL = PREFIX='$(PREFIX)' DESTDIR='$(DESTDIR)'

$(LUNQ_KO): $(KMOD_SRCS) $(wildcard kmod/uapi/*.h)
	scripts/build-kmod $(KDIR) > /dev/null
	@touch $@	# kbuild leaves an up-to-date .ko as it was

TRACE_BT = $(wildcard trace/lunq-*.bt)

# BPF throttle policies (policies/: the examples; tests/bpf/: the tests'
# garbage ones), built with clang -target bpf against libbpf 1.5's headers
POLICY_SRCS = $(wildcard policies/*.bpf.c)
POLICY_OBJS = $(patsubst policies/%.c,build/policies/%.o,$(POLICY_SRCS)) \
	      build/policies/garbage-zero.bpf.o build/policies/garbage-huge.bpf.o \
	      build/policies/garbage-random.bpf.o build/policies/compat-aimd.bpf.o \
	      build/policies/hostile-spin.bpf.o build/policies/hostile-floor.bpf.o \
	      build/policies/hostile-stall.bpf.o build/policies/hostile-bigto.bpf.o
BPF_CFLAGS = -O2 -g -Wall -target bpf -D__TARGET_ARCH_x86 -Ibuild/bpf/include \
	     -Ipolicies -idirafter /usr/include/$(shell gcc -dumpmachine)
policies: $(POLICY_OBJS)
build/bpf/include/bpf/libbpf.h:
	scripts/bpf-tools --quiet
build/policies/%.bpf.o: policies/%.bpf.c policies/lunq_policy.bpf.h build/bpf/include/bpf/libbpf.h
	@mkdir -p $(@D)
	clang $(BPF_CFLAGS) -c $< -o $@
build/policies/garbage-%.bpf.o: tests/bpf/garbage.bpf.c policies/lunq_policy.bpf.h build/bpf/include/bpf/libbpf.h
	@mkdir -p $(@D)
	clang $(BPF_CFLAGS) -DGARBAGE_$(shell echo $* | tr a-z A-Z) -c $< -o $@
build/policies/hostile-%.bpf.o: tests/bpf/hostile.bpf.c policies/lunq_policy.bpf.h build/bpf/include/bpf/libbpf.h
	@mkdir -p $(@D)
	clang $(BPF_CFLAGS) -DHOSTILE_$(shell echo $* | tr a-z A-Z) -c $< -o $@
# aimd built against the policy header's first layout (a first argument
# struct lunq_pol *, char dev[160] in the ops; tests/bpf/compat/): a policy
# built against it must keep loading (t-bpf-policy)
build/policies/compat-aimd.bpf.o: tests/bpf/compat/aimd.bpf.c tests/bpf/compat/lunq_policy.bpf.h build/bpf/include/bpf/libbpf.h
	@mkdir -p $(@D)
	clang $(BPF_CFLAGS) -c $< -o $@

install: $(LUNQ_KO) build/tools/blknotes
	@[ -n "$(KVER)" ] && [ "$(KREL)" = "$(KVER)" ] || \
	  { echo "make install: KDIR=$(KDIR) builds for kernel '$(KREL)', not KVER=$(KVER); give KVER= and KDIR= of one kernel" >&2; exit 1; }
	install -D -m 644 $(LUNQ_KO) $(MODDIR)/dm-lunq.ko
	@$(DEPMOD)
	$(MAKE) -C ctl install $(SUBMAKE_INSTALL)
	$(MAKE) -C bench install $(SUBMAKE_INSTALL)
	install -D -m 644 ctl/lunq.conf.example $(DESTDIR)/etc/lunq/lunq.conf.example
	install -D -m 755 build/tools/blknotes $(DESTDIR)$(PREFIX)/bin/blknotes
	install -d $(DESTDIR)$(PREFIX)/share/lunq/trace
	install -m 755 $(TRACE_BT) $(DESTDIR)$(PREFIX)/share/lunq/trace/
	install -d $(DESTDIR)$(PREFIX)/share/lunq/policies
	install -m 644 policies/*.bpf.c policies/lunq_policy.bpf.h $(DESTDIR)$(PREFIX)/share/lunq/policies/
	@# lunq_policy.bpf.h includes ../kmod/uapi/lunq.h: the same place here
	install -D -m 644 kmod/uapi/lunq.h $(DESTDIR)$(PREFIX)/share/lunq/kmod/uapi/lunq.h

uninstall:
	@[ -n "$(KVER)" ] || { echo "make uninstall: no KVER; give KVER=<release>" >&2; exit 1; }
	rm -f $(MODDIR)/dm-lunq.ko
	@$(DEPMOD)
	$(MAKE) -C ctl uninstall $(SUBMAKE_INSTALL)
	$(MAKE) -C bench uninstall $(SUBMAKE_INSTALL)
	rm -f $(DESTDIR)/etc/lunq/lunq.conf.example
	@rmdir $(DESTDIR)/etc/lunq 2> /dev/null || true
	rm -f $(DESTDIR)$(PREFIX)/bin/blknotes
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/share/lunq/trace/,$(notdir $(TRACE_BT)))
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/share/lunq/policies/,$(notdir $(POLICY_SRCS)) lunq_policy.bpf.h)
	rm -f $(DESTDIR)$(PREFIX)/share/lunq/kmod/uapi/lunq.h
	@rmdir $(DESTDIR)$(PREFIX)/share/lunq/kmod/uapi $(DESTDIR)$(PREFIX)/share/lunq/kmod 2> /dev/null || true
	@rmdir $(DESTDIR)$(PREFIX)/share/lunq/trace $(DESTDIR)$(PREFIX)/share/lunq/policies $(DESTDIR)$(PREFIX)/share/lunq 2> /dev/null || true

# DKMS: dkms.conf's version is the target's (tests/unit/install.sh checks)
LUNQ_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"$$/\1/p' dkms.conf)
DKMS_SRC = $(DESTDIR)/usr/src/lunq-$(LUNQ_VERSION)
DKMS_MV = -m lunq -v $(LUNQ_VERSION)

# what DKMS builds from: dkms.conf and kmod/ without the KUnit suites and
# the test-only lunq_xflush.c
dkms-source:
	@[ -n "$(LUNQ_VERSION)" ] || { echo "make: no PACKAGE_VERSION in dkms.conf" >&2; exit 1; }
	rm -rf $(DKMS_SRC)
	install -d $(DKMS_SRC)/kmod/uapi
	install -m 644 dkms.conf $(DKMS_SRC)/
	install -m 644 $(filter-out %_test.c kmod/lunq_xflush.c,$(KMOD_SRCS)) $(DKMS_SRC)/kmod/
	install -m 644 $(wildcard kmod/uapi/*.h) $(DKMS_SRC)/kmod/uapi/

dkms-install:
	@[ -n "$(KVER)" ] || { echo "make dkms-install: no KVER; give KVER=<release>" >&2; exit 1; }
	@[ ! -e /lib/modules/$(KVER)/updates/dm-lunq.ko ] || \
	  echo "make: warning: make install's /lib/modules/$(KVER)/updates/dm-lunq.ko is there too; make uninstall removes it"
	if [ -n "$$(dkms status $(DKMS_MV))" ]; then dkms remove $(DKMS_MV) --all; fi
	$(MAKE) dkms-source DESTDIR=
	dkms add $(DKMS_MV)
	dkms build $(DKMS_MV) -k $(KVER)
	dkms install $(DKMS_MV) -k $(KVER)

dkms-uninstall:
	if [ -n "$$(dkms status $(DKMS_MV))" ]; then dkms remove $(DKMS_MV) --all; fi
	rm -rf /usr/src/lunq-$(LUNQ_VERSION)

# deps first (a no-op when all is there; root installs what is missing),
# then the build in a sub-make that sees the kernels deps installed
test: deps
	$(MAKE) all
	tests/run

# what CI leaves out (tests/budget): the tests whose header says
# "# set: full", the whole arena, the whole matrix, the debug run's fault
# group, KUnit in UML (LUNQ_FULL=1), then the fault group on the debug
# kernel at full length (make test runs a set in quick mode)
test-full: deps
	$(MAKE) all
	LUNQ_FULL=1 tests/run
	$(MAKE) test-debug

test-unit:
	tests/run --unit

# KUnit suites alone; SUITE=glob picks one (e.g. SUITE=lunq_sched)
test-kunit:
	tests/kunit/run $(SUITE)

test-vm: all
	tests/run --vm

test-debug: all
	tests/run --vm-debug --group fault

# the debug kernel (qemu/build-kernel --debug; cached): .ci/run builds it
# before make test, which would otherwise build it itself
kernel-debug:
	qemu/build-kernel --debug

# the ten demonstrations (tests/demo/demo.sh) in the VM, about 21 minutes;
# results in results/demo-<timestamp>/ (ARGS="--quick", "-o DIR")
demo: deps
	$(MAKE) all
	scripts/demo $(ARGS)

# the arena (tests/demo/arena.sh): every policy in a fixed set of scenarios,
# scored against the oracle of the same run, on the instruction-counting
# clock; about 40 minutes (estimated); results in results/arena-<timestamp>/
# (ARGS="--quick", "--bpf", "-o DIR", "-- --only hostile")
arena: deps
	$(MAKE) all
	scripts/arena $(ARGS)

# benchmark, not a test (no assertions on speed); about 10 minutes under TCG.
# ARGS are bench/overhead.sh's: --rounds N, --runtime S, --part abc, -o DIR
bench-overhead: all
	bench/overhead.sh $(ARGS)

# benchmarks, not tests: bench/bench.sh runs bench-overhead and
# bench-compare and writes results/bench-<time>/{bench.json,summary.txt}.
# ARGS are bench/bench.sh's: --rounds N, --runtime S, -o DIR
bench: all
	bench/bench.sh $(ARGS)

# benchmark, not a test: lunqbench against fio, alternated rounds, ratios.
# ARGS are bench/compare-fio.sh's: --rounds N, --runtime S, --part abc, -o DIR
bench-compare: all
	bench/compare-fio.sh $(ARGS)

# libFuzzer on the parsers (fuzz/README); `make test` runs 20 s of each
FUZZ_TIME ?= 600
fuzz:
	fuzz/run --time $(FUZZ_TIME)

# sparse on kmod/ (6.1, and 6.12 when installed): no warning allowed
check:
	scripts/sparse-kmod

checkpatch:
	perl $$(scripts/linux-src)/scripts/checkpatch.pl --no-tree --strict -f $$(git ls-files 'kmod/*.c' 'kmod/*.h')

clean:
	-$(MAKE) -C $(DEB_KDIR) M=$(CURDIR) clean
	-$(MAKE) -C $(DEB_KDIR) M=$(CURDIR)/tests/splat clean
	@for m in $(SUBDIRS_USER); do $(MAKE) -C $$(dirname $$m) clean; done
	rm -rf build

help:
	@awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' Makefile
