#!/bin/bash
# The whole test run of one kernel variant: the patched tree, its kernel,
# the initramfs, the boots, and the report that ends in "N passed, N
# failed", whatever happened to the boots.
#   boot.sh VARIANT           boot, run every test, power off, report
#   boot.sh VARIANT --shell   the first boot only, with a shell in the guest
#                             at the end
#   TESTS="NAME..."           only these guest tests (names of guest/tests,
#                             its after-reboot/, debian-policy/ and cluster/
#                             included; a name may repeat), the tests they
#                             need, and only the boots they need (the KUnit
#                             suites run in the first)
#   SHOW=1                    print the QEMU command line of each boot, and
#                             build and boot nothing
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

variant=${1:?usage: boot.sh VARIANT [--shell]}
obj=$(objdir "$variant")
# The boots after the first, in this order, each with its tests in
# guest/tests/BOOT: after-reboot (the first boot's disks again: what must
# survive a reboot), debian-policy (new disks, Debian's own SELinux policy)
# and cluster (three machines: an NFS server, which runs the tests, and two
# caching clients; scripts/cluster.sh).
boots="after-reboot debian-policy cluster"

# The file of a guest test: guest/tests/NAME.t or .c (the first boot), or
# guest/tests/BOOT/NAME.t.
test_file() { # NAME
	local file
	for file in "$ROOT/guest/tests/$1.t" "$ROOT/guest/tests/$1.c" \
		"$ROOT"/guest/tests/*/"$1.t"; do
		[ ! -e "$file" ] || {
			echo "$file"
			return
		}
	done
	die "TESTS: no guest test '$1' in guest/tests"
}

# The boot a guest test runs in: "first", or one of $boots.
boot_of() { # NAME
	local file dir
	file=$(test_file "$1") || exit 1
	dir=$(dirname "$file")
	case "$dir" in
	"$ROOT/guest/tests") echo first ;;
	*) basename "$dir" ;;
	esac
}

# The guest tests of the run, and the boots they need.  A test that needs
# others to have run before it names them in a line "# needs: NAME..." of
# its file; TESTS gets those it lacks, before the test.
if [ -n "${TESTS:-}" ]; then
	tests=
	for name in $TESTS; do
		file=$(test_file "$name") || exit 1
		needs=$(sed -n 's/^# needs: //p' "$file")
		for need in $needs; do
			case " $tests $TESTS " in
			*" $need "*) ;;
			*) tests="$tests $need" ;;
			esac
		done
		tests="$tests $name"
	done
	export TESTS=$tests
else
	tests=$(sed -n 's/^guest:\([^ #]*\).*/\1/p' "$ROOT/tests/suites")
fi
needed=
placed= # "BOOT:NAME" for each test
for name in $tests; do
	boot=$(boot_of "$name")
	needed="$needed $boot"
	placed="$placed $boot:$name"
done
[ "${2:-}" != --shell ] || needed=first
# Whether the run makes BOOT ("first", or one of $boots).
makes() { # BOOT
	case " $needed " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# What the report expects: the KUnit suites when the first boot is made,
# the guest tests of the boots made, and the cluster's clients' own when
# the cluster boots.
suites=$obj/suites
mkdir -p "$obj"
: >"$suites"
! makes first || grep '^kernel:' "$ROOT/tests/suites" >>"$suites"
for test in $placed; do
	! makes "${test%%:*}" || echo "guest:${test#*:}" >>"$suites"
done
! makes cluster || grep '^client-' "$ROOT/tests/suites" >>"$suites"

# A later boot: scripts/qemu.sh, or scripts/cluster.sh for the cluster.
later_boot() { # BOOT
	case "$1" in
	cluster) "$ROOT/scripts/cluster.sh" "$variant" ;;
	*) "$ROOT/scripts/qemu.sh" "$variant" "--$1" ;;
	esac
}

if [ -n "${SHOW:-}" ]; then
	! makes first || "$ROOT/scripts/qemu.sh" "$@"
	for boot in $boots; do
		! makes "$boot" || later_boot "$boot"
	done
	exit 0
fi

"$ROOT/scripts/tree.sh"
"$ROOT/scripts/build.sh" "$variant"
"$ROOT/scripts/initramfs.sh" "$variant"
rm -f "$obj"/console*.log "$obj"/ktap*.log "$obj"/failure*.log
# A boot that hangs or fails is reported with the rest; the boots after it
# are not made.
status=0
if makes first; then
	"$ROOT/scripts/qemu.sh" "$@" || status=1
fi
for boot in $boots; do
	[ "$status" -eq 0 ] || break
	if makes "$boot"; then
		later_boot "$boot" || status=1
	fi
done
say "results of the $variant kernel"
"$ROOT/scripts/report.py" "$obj" "$suites" || status=1
exit "$status"
