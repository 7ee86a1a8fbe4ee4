# netcost - where does a packet's CPU time go?
#
#   make            tools + the module for every lab kernel
#   make demo       set up, then run the stock-vs-RT comparison in the lab
#   make check      set up, then unit tests (also under ASan+UBSan) and lab tests
#   make oracle     every stage against a replay of an ftrace trace (tests/oracle)
#   make oracle-loads   the same on 1472-byte UDP at full rate and TCP (6.1, 7.3-rt)
#   make oracle-sample  config sample 8 and 64 against the replay (6.1, 7.3-rt)
#   make unit       unit tests and a bounded fuzz run; make unit-san: under ASan+UBSan
#   make fuzz       every fuzz target for >= 1,000,000 runs (FUZZ_RUNS)
#   make module KDIR=/lib/modules/$(uname -r)/build   one module, any kernel
#   make lint       W=1 and sparse (C=2) for every lab kernel and a small-SMP
#                   variant (no CPUMASK_OFFSTACK), -Werror tools,
#                   checkpatch --strict, coccinelle, cppcheck
#   make reliability  the full reliability figures on every lab kernel
#   make bench-overhead   netcost's cost vs ftrace and bpftrace (bench/README.md)
#   make bench-profile    what netcost adds per packet, by kernel function (bench/qprof)
#   make dkms-install   install the module with DKMS for a real box
#   tests/lab/run --kernel 6.1-rt -- 'CMD'   run CMD in a lab kernel
#
# The lab kernels and their headers live in $(NETCOST_CACHE), outside the
# clone, so that every clone on a machine shares one download.

NETCOST_CACHE ?= /var/cache/netcost
export NETCOST_CACHE
LAB_KERNELS ?= 6.1 6.1-rt 6.12 6.12-rt 7.3 7.3-rt
VERSION := $(shell sed -n 's/^\#define NETCOST_VERSION\t*"\(.*\)"/\1/p' include/uapi/netcost.h)
BUILD := $(CURDIR)/build
KERNEL_SRC := Kbuild $(wildcard module/*.c module/*.h include/*.h include/uapi/*.h)

.PHONY: all setup tools modules module check check-threads unit unit-san fuzz lab oracle oracle-loads oracle-sample demo lint lint-small-smp lint-test-params lint-version sparse clean \
	dkms-install deb install bench bench-gen bench-overhead bench-dump bench-profile qprof help reliability

all: tools modules

help:
	@sed -n '2,21s/^# \{0,1\}//p' Makefile

setup:
	@tests/lab/setup $(LAB_KERNELS)

LAB_TOOLS := $(patsubst tests/lab/tools/%.c,$(BUILD)/bin/%,$(wildcard tests/lab/tools/*.c))

tools: $(LAB_TOOLS) $(BUILD)/bin/nc-ubench
	@$(MAKE) --no-print-directory -C userspace BUILD=$(BUILD)

# bench/ubench.c: micro-loops for bench/overhead (in the lab image, as the
# other programs of build/bin)
$(BUILD)/bin/nc-ubench: bench/ubench.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -Wextra -Werror -o $@ $<

# guest-side test tools (tests/lab/tools/), put in the lab image; they
# speak netlink with libmnl, except nc-pty
$(BUILD)/bin/nc-%: tests/lab/tools/nc-%.c tests/lab/tools/nc-mnl.h include/uapi/netcost.h include/netcost_hist.h
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -Wextra -Werror -Iinclude -o $@ $< $$(pkg-config --libs libmnl)

$(BUILD)/bin/nc-pty: tests/lab/tools/nc-pty.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -Wextra -Werror -std=gnu11 -o $@ $< -lutil

# Every lab kernel gets its own object tree, build/module/<kernel>/, made
# of symlinks to the sources, so that the builds live side by side.  A
# kernel whose headers want a newer toolchain than the machine's (7.3:
# gcc-14, glibc >= 2.38) is built inside its build root (setup writes its
# name to $(NETCOST_CACHE)/kernels/<kernel>/root; tests/lab/buildroot).
kdir = $(shell cat $(NETCOST_CACHE)/kernels/$(1)/kdir 2>/dev/null)
kroot = $(filter-out host,$(shell cat $(NETCOST_CACHE)/kernels/$(1)/root 2>/dev/null))

modules: $(addprefix module-,$(LAB_KERNELS))

# lab_kd K: the shell's kd= the headers of lab kernel K, or an error;
# in_kroot K: the command prefix that runs in K's build root, if it has one
lab_kd = kd="$(call kdir,$(1))"; \
	if [ -z "$$kd" ]; then echo "netcost: lab kernel '$(1)' is not set up: run 'make setup'" >&2; exit 1; fi;
in_kroot = $(if $(call kroot,$(1)),tests/lab/buildroot exec $(call kroot,$(1)) --bind $(BUILD) --)

module-%:
	@$(call lab_kd,$*) \
	$(call in_kroot,$*) \
	$(MAKE) --no-print-directory module KDIR="$$kd" MODULE_OUT=$(BUILD)/module/$* NETCOST_TEST=y

# the oracle's stub ftrace_ops (tests/oracle/stub): one module per lab
# kernel, build/oracle-stub/<kernel>/ncstub.ko (tests/oracle/run makes it)
oracle-stub-%:
	@$(call lab_kd,$*) \
	mkdir -p $(BUILD)/oracle-stub/$* && \
	ln -sf $(CURDIR)/tests/oracle/stub/ncstub.c $(CURDIR)/tests/oracle/stub/Kbuild $(BUILD)/oracle-stub/$*/ && \
	$(call in_kroot,$*) \
	$(MAKE) --no-print-directory -C "$$kd" M=$(BUILD)/oracle-stub/$* W=1 $(if $(C),C=$(C)) modules

# make module KDIR=<headers tree> [MODULE_OUT=dir]
MODULE_OUT ?= $(BUILD)/module/$(notdir $(patsubst %/build,%,$(patsubst %/,%,$(KDIR))))
module:
	@test -n "$(KDIR)" || { echo "usage: make module KDIR=/lib/modules/\$$(uname -r)/build" >&2; exit 2; }
	@test -f "$(KDIR)/Makefile" || { echo "netcost: no kernel headers at KDIR=$(KDIR)" >&2; exit 1; }
	@mkdir -p $(MODULE_OUT)
	@cd $(MODULE_OUT) && for f in $(KERNEL_SRC); do mkdir -p $$(dirname $$f); ln -sf $(CURDIR)/$$f $$f; done
	$(MAKE) -C $(KDIR) M=$(MODULE_OUT) W=1 $(if $(C),C=$(C)) $(if $(NETCOST_TEST),NETCOST_TEST=$(NETCOST_TEST)) modules
	@echo "netcost: built $(MODULE_OUT)/netcost.ko"

# make lint also builds once against a copy of this (host-built) lab
# kernel's headers reconfigured as a small custom kernel: no
# CPUMASK_OFFSTACK, no MAXSMP, NR_CPUS=64 (tests/lab/kdir-small-smp)
LINT_SMALL_SMP ?= 6.1-rt

lint: tools
	@tests/lint-docs
	@for k in $(LAB_KERNELS); do \
		{ $(MAKE) --no-print-directory module-$$k C=2; $(MAKE) --no-print-directory oracle-stub-$$k C=2; } 2>&1 | tee $(BUILD)/lint-$$k.log; \
		if grep -E 'warning:|error:|not available or not up to date' $(BUILD)/lint-$$k.log; then echo "lint: $$k not clean" >&2; exit 1; fi; \
	done; echo "lint: W=1 and sparse clean on $(LAB_KERNELS) (the module, the oracle's stub)"
	@k=$(firstword $(LAB_KERNELS)); \
	if $(MAKE) --no-print-directory module KDIR="$(call kdir,$(firstword $(LAB_KERNELS)))" \
		MODULE_OUT=$(BUILD)/module-selftest/$$k NETCOST_PROBE_SELFTEST=y \
		> $(BUILD)/lint-selftest.log 2>&1 || \
	   ! grep -q 'incompatible-pointer-types' $(BUILD)/lint-selftest.log; then \
		echo "lint: a probe of the wrong type built on $$k: probe_types.c checks nothing" >&2; exit 1; \
	fi; echo "lint: a probe of the wrong type fails to build ($$k), as it must"
	@$(MAKE) --no-print-directory lint-small-smp lint-test-params lint-version
	@tests/reliability/lint

# one version everywhere: the UAPI's NETCOST_VERSION (the module's
# MODULE_VERSION, INFO's VERSION and the tools' --version come from it),
# dkms.conf's PACKAGE_VERSION and the man pages' .TH lines
lint-version:
	@v="$(VERSION)"; bad=0; \
	[ -n "$$v" ] || { echo "lint: no NETCOST_VERSION in include/uapi/netcost.h" >&2; exit 1; }; \
	d=$$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf); \
	[ "$$d" = "$$v" ] || { echo "lint: dkms.conf PACKAGE_VERSION $$d, the UAPI $$v" >&2; bad=1; }; \
	for m in Documentation/netcost.8 Documentation/netcost-gen.1; do \
		t=$$(sed -n 's/^\.TH .*"netcost \([^"]*\)".*/\1/p' $$m); \
		[ "$$t" = "$$v" ] || { echo "lint: $$m says netcost $$t, the UAPI $$v" >&2; bad=1; }; \
	done; \
	[ $$bad = 0 ] && echo "lint: one version everywhere: $$v (UAPI, dkms.conf, man pages)"

# the test-only parameters exist in test builds only (issue 21, item 14):
# the lab's module (NETCOST_TEST=y) has them, "make module"'s (the small
# kernel's, just built by lint-small-smp) has none
TEST_PARAMS := fault_attach test_bucket_bias dump_repeat bench_untimed_net bench_empty_hooks test_claim_race test_claim_delay_us test_claim_recheck test_nr_irqs
lint-test-params:
	@k=$(firstword $(LAB_KERNELS)); lab=$(BUILD)/module/$$k/netcost.ko; \
	user=$(BUILD)/module-small-smp/$(LINT_SMALL_SMP)/netcost.ko; bad=0; \
	lp=$$(modinfo -F parm $$lab | sed 's/:.*//' | tr '\n' ' '); \
	up=$$(modinfo -F parm $$user | sed 's/:.*//' | tr '\n' ' '); \
	for p in $(TEST_PARAMS); do \
		echo " $$lp " | grep -q " $$p " || { echo "lint: the lab's module ($$k) has no $$p: $$lp" >&2; bad=1; }; \
		echo " $$up " | grep -q " $$p " && { echo "lint: a user's build ($(LINT_SMALL_SMP)) has test-only $$p: $$up" >&2; bad=1; }; \
	done; \
	[ $$bad = 0 ] && echo "lint: test-only parameters ($(TEST_PARAMS)) in the lab's build only; a user's build has: $$up"

lint-small-smp:
	@kd=$$(tests/lab/kdir-small-smp $(LINT_SMALL_SMP) $(BUILD)/kdir-small-smp) || exit 1; \
	rm -f $(BUILD)/module-small-smp/$(LINT_SMALL_SMP)/netcost.ko; \
	$(MAKE) --no-print-directory module KDIR="$$kd" C=2 \
		MODULE_OUT=$(BUILD)/module-small-smp/$(LINT_SMALL_SMP) > $(BUILD)/lint-small-smp.log 2>&1; \
	rc=$$?; cat $(BUILD)/lint-small-smp.log; \
	if [ $$rc != 0 ] || grep -E 'warning:|error:' $(BUILD)/lint-small-smp.log >/dev/null || \
	   [ ! -f $(BUILD)/module-small-smp/$(LINT_SMALL_SMP)/netcost.ko ]; then \
		echo "lint: the module does not build cleanly without CPUMASK_OFFSTACK/MAXSMP, NR_CPUS=64 ($(LINT_SMALL_SMP))" >&2; exit 1; \
	fi; echo "lint: W=1 and sparse clean on $(LINT_SMALL_SMP) reconfigured: no CPUMASK_OFFSTACK, no MAXSMP, NR_CPUS=64"

# test_lab_tools.sh runs every lab tool and nc-bench-dump (built here)
unit: tools $(BUILD)/bin/nc-bench-dump
	@$(MAKE) --no-print-directory -C tests/unit BUILD=$(BUILD)

# The tools and unit tests a second time, under ASan and UBSan (any report
# fails the test), in build/san; the fuzzers run in "make unit" already.
SAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all
unit-san: tools $(BUILD)/bin/nc-bench-dump
	@$(MAKE) --no-print-directory -C tests/unit BUILD=$(BUILD)/san FUZZ_SECONDS=0 \
		CFLAGS="$(SAN_FLAGS)" LDFLAGS="-fsanitize=address,undefined"

# every fuzz target for at least 1,000,000 runs (FUZZ_RUNS), failing on any
# crash, leak or sanitizer report
FUZZ_RUNS ?= 1000000
fuzz:
	@FUZZ_RUNS=$(FUZZ_RUNS) BUILD=$(BUILD) tests/unit/fuzz-run

lab: setup
	@$(MAKE) --no-print-directory all
	@tests/lab/check $(LAB_KERNELS)

# the trace-replay oracle: one --icount boot per kernel, two at once
oracle: setup
	@$(MAKE) --no-print-directory all
	@tests/oracle/run $(LAB_KERNELS)

# the oracle on the other loads (not in make check: four more boots):
# 1472-byte UDP at the sender's full rate and one TCP stream, on 6.1
# and 7.3-rt, into build/oracle-loads/
ORACLE_LOADS ?= 6.1-udp1472 6.1-tcp 7.3-rt-udp1472 7.3-rt-tcp
oracle-loads: setup
	@$(MAKE) --no-print-directory all
	@ORACLE_OUT=$(BUILD)/oracle-loads ORACLE_CONFIGS="$(ORACLE_LOADS)" ORACLE_SELFTEST=0 \
		tests/oracle/run 6.1 7.3-rt

# netcost config sample 8 and 64 (rx_skb and tx_xmit timed on 1 packet in
# N) against the replay, with the unsampled recordings they are held to
# (issue 23), on 6.1 and 7.3-rt, into build/oracle-sample/
ORACLE_SAMPLE ?= 6.1 6.1-sample8 6.1-sample64 7.3-rt 7.3-rt-sample8 7.3-rt-sample64
oracle-sample: setup
	@$(MAKE) --no-print-directory all
	@ORACLE_OUT=$(BUILD)/oracle-sample ORACLE_CONFIGS="$(ORACLE_SAMPLE)" ORACLE_SELFTEST=0 \
		tests/oracle/run 6.1 7.3-rt

# packet-only kernel threads (NIC IRQ threads, NAPI threads): their time
# on the CPU (a trace of their switches) against the stages of their
# runs, softirq and threaded NAPI, one --icount boot per kernel (make
# check runs it too)
check-threads: setup
	@$(MAKE) --no-print-directory all
	@tests/lab/threads-check $(LAB_KERNELS)

check: setup
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory lint
	@LAB_KERNELS="$(LAB_KERNELS)" tests/run-all

# the full reliability figures (issue 10), one boot per kernel; results
# for Documentation/reliability.md in build/reliability/table.md
reliability: setup
	@$(MAKE) --no-print-directory all
	@tests/reliability/run $(LAB_KERNELS)

# make demo: each version's stock and RT kernel as the tested box of a pair
# (tests/lab/demo), the peer 6.12; DEMO_VERSIONS="6.1 6.12" for fewer
DEMO_VERSIONS ?= 6.1 6.12 7.3
DEMO_KERNELS := $(sort 6.12 $(foreach v,$(DEMO_VERSIONS),$(v) $(v)-rt))
demo:
	@tests/lab/setup $(DEMO_KERNELS)
	@$(MAKE) --no-print-directory tools $(addprefix module-,$(DEMO_KERNELS))
	@tests/lab/demo --versions "$(DEMO_VERSIONS)"

bench: bench-gen
bench-gen: setup tools
	@bench/gen-vs-iperf3

# bench/overhead: icount lab boots, one per kernel; BENCH_ARGS e.g.
# "--rounds 5 --duration 3"; bench-dump: STATS dumps in real -smp 2 and 8 boots
BENCH_KERNELS ?= 6.1 6.1-rt
bench-overhead: setup tools $(BUILD)/bin/nc-bench-dump $(addprefix module-,$(BENCH_KERNELS))
	@bench/overhead --kernels "$(BENCH_KERNELS)" $(BENCH_ARGS)
bench-dump: setup tools $(BUILD)/bin/nc-bench-dump $(addprefix module-,$(BENCH_KERNELS))
	@bench/overhead --kernels "$(firstword $(BENCH_KERNELS))" --smp "2 8" $(BENCH_ARGS)

# bench/qprof: the guest's exact instruction profile by function (a qemu
# TCG plugin, its guest mark and the host report); bench-profile runs it
# for BENCH_KERNELS: what netcost adds per packet, by module and function
qprof: $(BUILD)/qprof/qprof.so $(BUILD)/qprof/qprof-report $(BUILD)/bin/nc-qprof-mark
bench-profile: setup tools qprof $(addprefix module-,$(BENCH_KERNELS))
	@for k in $(BENCH_KERNELS); do bench/qprof/run --kernel $$k || exit 1; done
$(BUILD)/qprof/qprof.so: bench/qprof/plugin.c bench/qprof/api.h bench/qprof/mark.h
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden -o $@ $<
$(BUILD)/qprof/qprof-report: bench/qprof/report.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -Wextra -Werror -o $@ $<
$(BUILD)/bin/nc-qprof-mark: bench/qprof/mark.c bench/qprof/mark.h
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -Wextra -Werror -o $@ $<

$(BUILD)/bin/nc-bench-dump: bench/overhead-dump.c tests/lab/tools/nc-mnl.h include/uapi/netcost.h
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -Wextra -Werror -Iinclude -Itests/lab/tools -o $@ $< $$(pkg-config --libs libmnl)

dkms-install:
	@command -v dkms >/dev/null || { echo "netcost: dkms-install needs dkms (apt-get install dkms)" >&2; exit 1; }
	rm -rf /usr/src/netcost-$(VERSION)
	mkdir -p /usr/src/netcost-$(VERSION)
	cp -r Kbuild dkms.conf module include /usr/src/netcost-$(VERSION)/
	dkms add -m netcost -v $(VERSION) || true
	dkms build -m netcost -v $(VERSION)
	dkms install -m netcost -v $(VERSION)

# make deb: the Debian packages netcost (tools, man pages) and
# netcost-dkms (the module's source, for DKMS), built with debhelper from
# a copy of the sources in build/deb/netcost-$(VERSION)/ (dpkg-buildpackage
# writes to the parent directory), then checked with lintian.
DEB_SRC := Kbuild dkms.conf include module userspace \
	Documentation/netcost.8 Documentation/netcost-gen.1 debian
deb:
	@command -v dpkg-buildpackage >/dev/null && command -v dh_dkms >/dev/null || \
		{ echo "netcost: make deb needs debhelper and dh-dkms (make setup)" >&2; exit 1; }
	rm -rf $(BUILD)/deb
	mkdir -p $(BUILD)/deb/netcost-$(VERSION)
	tar -cf - $(DEB_SRC) | tar -xf - -C $(BUILD)/deb/netcost-$(VERSION)
	cd $(BUILD)/deb/netcost-$(VERSION) && dpkg-buildpackage -b -us -uc
	lintian --fail-on error,warning $(BUILD)/deb/netcost*_$(VERSION)-*.deb
	@ls -1 $(BUILD)/deb/*.deb

install: tools
	install -D -m 0755 build/bin/netcost $(DESTDIR)/usr/local/sbin/netcost
	install -D -m 0755 build/bin/netcost-gen $(DESTDIR)/usr/local/bin/netcost-gen
	install -D -m 0644 Documentation/netcost.8 $(DESTDIR)/usr/local/share/man/man8/netcost.8
	install -D -m 0644 Documentation/netcost-gen.1 $(DESTDIR)/usr/local/share/man/man1/netcost-gen.1

clean:
	rm -rf build
