#!/bin/bash
# The whole test run of one kernel variant: the patched tree, its kernel,
# the initramfs, a boot, and the report that ends in "N passed, N failed".
#   boot.sh VARIANT           boot, run every test, power off, report
#   boot.sh VARIANT --shell   the same with a shell in the guest at the end
#   TESTS="NAME..."           only these guest tests (names of guest/tests,
#                             after-reboot/ included; a name may repeat)
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

variant=${1:?usage: boot.sh VARIANT [--shell]}
suites=$ROOT/tests/suites
second_boot=yes
if [ -n "${TESTS:-}" ]; then
	# The report expects the KUnit suites and the guest tests named.
	suites=$(objdir "$variant")/suites
	mkdir -p "${suites%/*}"
	grep '^kernel:' "$ROOT/tests/suites" >"$suites"
	second_boot=
	for name in $TESTS; do
		if [ -e "$ROOT/guest/tests/after-reboot/$name.t" ]; then
			second_boot=yes
		elif [ ! -e "$ROOT/guest/tests/$name.t" ] && [ ! -e "$ROOT/guest/tests/$name.c" ]; then
			die "TESTS: no guest test '$name' in guest/tests"
		fi
		echo "guest:$name" >>"$suites"
	done
fi
"$ROOT/scripts/tree.sh"
"$ROOT/scripts/build.sh" "$variant"
"$ROOT/scripts/initramfs.sh" "$variant"
"$ROOT/scripts/qemu.sh" "$@"
# What must survive a reboot (the cache) is checked by booting again.
if [ "${2:-}" != --shell ] && [ -n "$second_boot" ]; then
	"$ROOT/scripts/qemu.sh" "$variant" --after-reboot
else
	rm -f "$(objdir "$variant")"/*-after-reboot.log
fi
say "results of the $variant kernel"
"$ROOT/scripts/report.py" "$(objdir "$variant")" "$suites"
