#!/bin/bash
# make fstests: fstests' generic tests on NFS with and without fsc, in the
# Debian system (scripts/debian-image.sh), on the patched kernel and on
# stock 6.1 (Debian's own kernel of the same version): the boot "fstests"
# of guest/boots, whose test (guest/tests/fstests/fstests.t) runs fstests'
# check in each section of guest/fstests/local.config.  Each kernel's
# results (fstests' check.log, result.xml and each test's output) are
# taken out of its image into build/obj-VARIANT/fstests-results/; then
# scripts/fstests-report.py tables them (build/fstests-table.md) and judges
# the patched kernel: no test may fail with fsc that passes without, but
# those guest/fstests/expected-failures lists with a reason.
#   fstests.sh [VARIANT...]   the kernels (default: test stock)
#   FSTESTS_LIST=NAME         a list of guest/fstests/ instead of "tests"
#   FSTESTS_SECTIONS="A B"    only these sections of local.config
#   FSTESTS_TARBALL=PATH      fstests' source (scripts/fstests-build.sh)
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

[ "$#" -gt 0 ] || set -- test stock
list=${FSTESTS_LIST:-tests}
[ -f "$ROOT/guest/fstests/$list" ] || die "FSTESTS_LIST: no list '$list' in guest/fstests"
cmdline="guest.fstests=$list"
for section in ${FSTESTS_SECTIONS:-}; do
	grep -qxF "[$section]" "$ROOT/guest/fstests/local.config" ||
		die "FSTESTS_SECTIONS: no section '$section' in guest/fstests/local.config"
done
sections=$(echo "${FSTESTS_SECTIONS:-}" | xargs | tr ' ' ,)
[ -z "$sections" ] || cmdline="$cmdline guest.fstests_sections=$sections"
[ -n "$sections" ] ||
	sections=$(sed -n 's/^\[\(.*\)\]$/\1/p' "$ROOT/guest/fstests/local.config" | paste -sd ,)
# The test kernel and its initramfs, which accel.sh probes KVM with, also
# for a run of stock 6.1 alone.
"$ROOT/scripts/tree.sh"
"$ROOT/scripts/build.sh" test
"$ROOT/scripts/initramfs.sh" test
"$ROOT/scripts/accel.sh" test >/dev/null
status=0
results=()
for variant in "$@"; do
	obj=$(objdir "$variant")
	run=$obj/fstests-run
	image=$obj/system-fstests.img
	rm -rf "$run" "$obj/fstests-results" "$image"
	mkdir -p "$run"
	GUEST_CMDLINE=$cmdline "$ROOT/scripts/qemu.sh" "$variant" fstests || status=1
	# fstests' own results, out of the system's image (none when the boot
	# made none: the report then fails each test of the patched kernel).
	[ ! -f "$image" ] || debugfs -R "rdump /var/lib/fstests-results $obj" "$image" 2>/dev/null || true
	results+=("$variant=$obj/fstests-results")
	# The boot's own report, of its logs alone.
	for kind in console ktap failure; do
		log=$(boot_log "$obj" "$kind" fstests)
		[ ! -f "$log" ] || cp "$log" "$run/"
	done
	echo guest:fstests >"$run/suites"
	say "the fstests boot of the $variant kernel"
	"$ROOT/scripts/report.py" "$run" "$run/suites" || status=1
done
say "fstests, by section and kernel (build/fstests-table.md)"
"$ROOT/scripts/fstests-report.py" "$ROOT/guest/fstests/expected-failures" \
	"$ROOT/guest/fstests/$list" "$sections" "$BUILD/fstests-table.md" "${results[@]}" || status=1
exit "$status"
