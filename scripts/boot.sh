#!/bin/bash
# The whole test run of one kernel variant: the patched tree, its kernel,
# the initramfs, a boot, and the report that ends in "N passed, N failed".
#   boot.sh VARIANT           boot, run every test, power off, report
#   boot.sh VARIANT --shell   the same with a shell in the guest at the end
#   TESTS="NAME..."           only these guest tests (names of guest/tests,
#                             after-reboot/ and debian-policy/ included; a
#                             name may repeat), and only the boots they need
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

variant=${1:?usage: boot.sh VARIANT [--shell]}
obj=$(objdir "$variant")
suites=$ROOT/tests/suites
# The boots after the first, in this order, each with its tests in
# guest/tests/BOOT: after-reboot (the first boot's disks again: what must
# survive a reboot) and debian-policy (new disks, Debian's own SELinux
# policy).
boots="after-reboot debian-policy"
needed=$boots
if [ -n "${TESTS:-}" ]; then
	# The report expects the KUnit suites and the guest tests named.
	suites=$obj/suites
	mkdir -p "${suites%/*}"
	grep '^kernel:' "$ROOT/tests/suites" >"$suites"
	needed=
	for name in $TESTS; do
		found=
		[ ! -e "$ROOT/guest/tests/$name.t" ] && [ ! -e "$ROOT/guest/tests/$name.c" ] || found=yes
		for boot in $boots; do
			[ ! -e "$ROOT/guest/tests/$boot/$name.t" ] || found=yes needed="$needed $boot"
		done
		[ -n "$found" ] || die "TESTS: no guest test '$name' in guest/tests"
		echo "guest:$name" >>"$suites"
	done
fi
[ "${2:-}" != --shell ] || needed=
"$ROOT/scripts/tree.sh"
"$ROOT/scripts/build.sh" "$variant"
"$ROOT/scripts/initramfs.sh" "$variant"
rm -f "$obj"/*-after-reboot.log "$obj"/*-debian-policy.log
"$ROOT/scripts/qemu.sh" "$@"
for boot in $boots; do
	case " $needed " in
	*" $boot "*) "$ROOT/scripts/qemu.sh" "$variant" "--$boot" ;;
	esac
done
say "results of the $variant kernel"
"$ROOT/scripts/report.py" "$obj" "$suites"
