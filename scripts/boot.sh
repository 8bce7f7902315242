#!/bin/bash
# The whole test run of one kernel variant: the patched tree, its kernel,
# the initramfs, the boots (guest/boots), and the report that ends in "N
# passed, N failed", whatever happened to the boots (and is written as
# JUnit XML to build/obj-VARIANT/results.xml).
#   boot.sh VARIANT           boot, run every test, power off, report
#   boot.sh VARIANT --shell   the first boot only, with a shell in the guest
#                             at the end
#   TESTS="NAME..."           only these guest tests (names of guest/tests,
#                             its after-reboot/, debian-policy/ and cluster/
#                             included; a name may repeat), the tests they
#                             need, and only the boots they need (the KUnit
#                             suites run in the first)
#   SKIP_BOOTS="STEP..."      make every step of the run but these (a
#                             boot's step in guest/boots), and expect none of
#                             their suites: CI skips the debug kernel's
#                             longest boot (.ci/run)
#   SHOW=1                    print the QEMU command line of each boot, and
#                             build and boot nothing
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

variant=${1:?usage: boot.sh VARIANT [--shell]}
obj=$(objdir "$variant")
# The steps of the run (guest/boots), in order: a boot each, but the
# cluster's, whose machines boot together; not make bench's and make
# fstests' own.
steps=$(boot_names | while read -r boot; do boot_field "$boot" step; done |
	awk '$1 != "bench" && $1 != "fstests" && !seen[$1]++')

# The file of a guest test: guest/tests/NAME.t or .c (the first boot), or
# guest/tests/DIR/NAME.t (a later boot's).
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

# The boot a guest test runs in: the one whose tests are its directory.
boot_of() { # NAME
	local file dir boot
	file=$(test_file "$1") || exit 1
	dir=$(dirname "${file#"$ROOT/guest/"}")
	for boot in $(boot_names); do
		[ "$(boot_field "$boot" runs)" != "$dir" ] || {
			echo "$boot"
			return
		}
	done
	die "no boot in guest/boots runs the tests of guest/$dir"
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
needed= # the steps the run makes
placed= # "BOOT:NAME" for each test
for name in $tests; do
	boot=$(boot_of "$name") || exit 1
	needed="$needed $(boot_field "$boot" step)"
	placed="$placed $boot:$name"
done
[ "${2:-}" != --shell ] || needed=$(echo "$steps" | head -n 1)
for skipped in ${SKIP_BOOTS:-}; do
	echo "$steps" | grep -qx "$skipped" || die "SKIP_BOOTS: no step '$skipped' in guest/boots"
done
kept=
for step in $needed; do
	case " ${SKIP_BOOTS:-} " in
	*" $step "*) ;;
	*) kept="$kept $step" ;;
	esac
done
needed=$kept
# Whether the run makes STEP.
makes() { # STEP
	case " $needed " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# What the report expects, of each boot the run makes: the guest tests
# placed in it, and the other suites it reports (tests/suites): the KUnit
# suites, a cluster client's own.
suites=$obj/suites
mkdir -p "$obj"
: >"$suites"
for boot in $(boot_names); do
	makes "$(boot_field "$boot" step)" || continue
	for origin in $(boot_field "$boot" reports | tr , ' '); do
		case "$origin" in
		-) ;;
		guest)
			for test in $placed; do
				[ "${test%%:*}" != "$boot" ] || echo "guest:${test#*:}"
			done
			;;
		*) grep "^$origin:" "$ROOT/tests/suites" ;;
		esac
	done
done >>"$suites"

# A step: scripts/cluster.sh for the cluster, else scripts/qemu.sh.
make_step() { # STEP [--shell]
	case "$1" in
	cluster) "$ROOT/scripts/cluster.sh" "$variant" ;;
	*) "$ROOT/scripts/qemu.sh" "$variant" "$1" ${2:+"$2"} ;;
	esac
}
shell=${2:-}

if [ -n "${SHOW:-}" ]; then
	for step in $steps; do
		! makes "$step" || make_step "$step" "$shell"
	done
	exit 0
fi

"$ROOT/scripts/tree.sh"
"$ROOT/scripts/build.sh" "$variant"
"$ROOT/scripts/initramfs.sh" "$variant"
rm -f "$obj"/console*.log "$obj"/ktap*.log "$obj"/failure*.log
# A boot that hangs or fails is reported with the rest; the steps after it
# are not made.
status=0
for step in $steps; do
	if makes "$step"; then
		make_step "$step" "$shell" || {
			status=1
			break
		}
	fi
done
say "results of the $variant kernel"
"$ROOT/scripts/report.py" "$obj" "$suites" --junit "$obj/results.xml" || status=1
say "the same as JUnit XML: ${obj#"$ROOT"/}/results.xml"
exit "$status"
