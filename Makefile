# Entry points.  Each is a script of scripts/; see README.md.
.PHONY: run deb cluster test test-debug fstests bench check lint list tree export deps selftest clean

# Build the patched kernel and boot it: a shell in the guest when run from a
# terminal, a report and a clean power-off when not.  GUEST=debian-system:
# the Debian system installed from the kernel package instead, booted to a
# login prompt on this terminal (root, password root).
run: deps
	@if [ -n "$(GUEST)" ]; then \
		scripts/tree.sh && scripts/build.sh test && scripts/initramfs.sh test && \
		GUEST_CMDLINE=guest.login scripts/qemu.sh test "$(GUEST)" --shell; \
	elif [ -t 0 ] && [ -t 1 ]; then \
		GUEST_CMDLINE=guest.demo scripts/boot.sh test --shell; \
	else \
		GUEST_CMDLINE=guest.demo scripts/boot.sh test; \
	fi

# The cluster alone (scripts/cluster.sh): three machines, an NFS server and
# two caching clients; its server shows a file read by both, then runs the
# cluster's tests.
cluster: deps
	GUEST_CMDLINE=guest.demo TESTS="$(basename $(notdir $(wildcard guest/tests/cluster/*.t)))" \
		scripts/boot.sh test

# The patched kernel as Debian packages (linux-image, linux-headers), made
# by the kernel's bindeb-pkg, in build/obj-test/debs/.
deb: deps
	scripts/deb.sh test

# Every test: the harness's own, then the test kernel's suites.
test: deps selftest
	scripts/boot.sh test

# The same suites on the debug kernel (KASAN, lockdep, PROVE_RCU, ...).
test-debug: deps
	scripts/boot.sh debug

# fstests' generic tests (guest/fstests/tests) on NFS 4.2 and 3, with and
# without fsc, in the Debian system on the patched kernel and on Debian's
# own 6.1: a table in build/fstests-table.md, and the patched kernel
# judged (scripts/fstests.sh; FSTESTS.md).  FSTESTS_LIST=smoke: a short list.
fstests: deps
	scripts/fstests.sh

# Stock 6.1, patched 6.1 and stock 6.12 side by side: NFS reads with and
# without FS-Cache, and the local disk (BENCHMARKS.md).
bench: deps
	scripts/bench.sh

# checkpatch --strict on every patch, and every patch building on its own.
check: deps
	scripts/check.sh

# shellcheck on the shell scripts, pyflakes on the Python, and
# patches/README's table against the series.
lint: deps
	scripts/lint.sh

# The guest tests by boot, each with its header (what it checks).
list:
	scripts/list-tests.sh

# Unpack build/linux and apply patches/; export its commits to patches/.
tree: deps
	scripts/tree.sh
export:
	scripts/export.sh

deps:
	scripts/deps.sh

# The report script against recorded console logs.
selftest: tree
	tests/report/run.sh

clean:
	rm -rf build/obj-* build/step
