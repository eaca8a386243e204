# lunq: top-level build.  See README.md.
#   make deps    install the Debian packages (root)
#   make         dm-lunq.ko (against the kernel the VM boots), ctl, bench
#   make KDIR=<kernel build tree> kmod   dm-lunq.ko for another kernel
#                (build/kmod/<release>/; a missing CONFIG_ is named)
#   make test    unit, KUnit, qemu/run and VM integration tests (Debian's
#                kernel; the debug kernel in quick mode)
#   make test-debug  the fault group on the debug kernel (KASAN,
#                lockdep, kmemleak; qemu/build-kernel --debug), full length
#   make kernel-debug  build (or find cached) that kernel
#   make demo    boot the VM and show a lunq device passing fio traffic
#   make bench-overhead  lunq vs dm-linear, disksort vs fifo (ARGS="-o DIR ...")
#   make bench-compare   lunqbench vs fio, equal settings (ARGS="-o DIR ...")
#   make fuzz    libFuzzer on the parsers, 10 min per target (FUZZ_TIME=seconds)
KVER ?= $(shell scripts/kver 2>/dev/null)
# Debian's headers for the VM kernel; KDIR= points kmod at any other tree
DEB_KDIR := /lib/modules/$(KVER)/build
KDIR ?= $(DEB_KDIR)
SUBDIRS_USER := $(wildcard ctl/Makefile bench/Makefile)

.PHONY: all check-kdir kmod splat user deps test test-unit test-kunit test-vm test-debug kernel-debug demo tools bench-overhead bench-compare checkpatch clean help fuzz

all: kmod splat user tools

check-kdir:
	@test -n "$(KVER)" -a -f "$(DEB_KDIR)/Makefile" || \
	  { echo "make: no kernel headers for the VM kernel ($(DEB_KDIR)); run 'make deps'"; exit 1; }

# build/kmod/<release>/kmod/dm-lunq.ko, after checking KDIR's config
kmod:
	scripts/build-kmod $(KDIR)

# test fixture module (tests/splat): splats on purpose, for qemu/run's
# tests on Debian's kernel
splat: check-kdir
	$(MAKE) -C $(DEB_KDIR) M=$(CURDIR)/tests/splat modules

user:
	@for m in $(SUBDIRS_USER); do $(MAKE) -C $$(dirname $$m) || exit 1; done

# test tools for the VM tests (qemu/mkinitramfs puts them on the guest's PATH)
tools: build/tools/nlprobe build/tools/nlfuzz

build/tools/nlprobe: tests/tools/nlprobe.c kmod/lunq_names.c kmod/lunq_names.h kmod/lunq_pure.h kmod/uapi/lunq.h
	@mkdir -p $(@D)
	$(CC) -Wall -Wextra -O2 -g -o $@ tests/tools/nlprobe.c kmod/lunq_names.c

build/tools/nlfuzz: tests/tools/nlfuzz.c kmod/uapi/lunq.h
	@mkdir -p $(@D)
	$(CC) -Wall -Wextra -O2 -g -o $@ tests/tools/nlfuzz.c

deps:
	scripts/deps

test: all
	tests/run

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

demo: deps all
	qemu/run tests/demo/passthrough.sh

# benchmark, not a test (no assertions on speed); about 5 minutes under TCG.
# ARGS are bench/overhead.sh's: --rounds N, --runtime S, --part a|b, -o DIR
bench-overhead: all
	bench/overhead.sh $(ARGS)

# benchmark, not a test: lunqbench against fio, alternated rounds, ratios.
# ARGS are bench/compare-fio.sh's: --rounds N, --runtime S, --part a|b, -o DIR
bench-compare: all
	bench/compare-fio.sh $(ARGS)

# libFuzzer on the parsers (fuzz/README); `make test` runs 20 s of each
FUZZ_TIME ?= 600
fuzz:
	fuzz/run --time $(FUZZ_TIME)

checkpatch:
	perl $$(scripts/linux-src)/scripts/checkpatch.pl --no-tree --strict -f $$(git ls-files 'kmod/*.c' 'kmod/*.h')

clean:
	-$(MAKE) -C $(DEB_KDIR) M=$(CURDIR) clean
	-$(MAKE) -C $(DEB_KDIR) M=$(CURDIR)/tests/splat clean
	@for m in $(SUBDIRS_USER); do $(MAKE) -C $$(dirname $$m) clean; done
	rm -rf build

help:
	@awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' Makefile
