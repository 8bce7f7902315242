#!/bin/bash
# The QEMU accelerator of the boots: KVM only where a boot under it really
# reaches init, else TCG.  Probed once, with VARIANT's kernel and
# initramfs; the verdict is kept in build/accel (delete it to probe again).
# SHOW=1 does not probe: without a verdict, it says tcg.
#   accel.sh VARIANT
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

variant=${1:?usage: accel.sh VARIANT}
verdict=$BUILD/accel
if [ ! -f "$verdict" ]; then
	if [ -n "${SHOW:-}" ]; then
		echo tcg
		exit 0
	fi
	mkdir -p "$BUILD"
	echo tcg >"$verdict"
	qemu_command kvm 1G "$(objdir "$variant")"
	if [ -r /dev/kvm ] && [ -w /dev/kvm ] &&
		timeout -k 5 30 "${qemu[@]}" -append "$QEMU_APPEND guest.probe" \
			-serial stdio 2>/dev/null | grep -q "$PROBE_OK"; then
		echo kvm >"$verdict"
	fi
	say "QEMU accelerator: $(cat "$verdict") (probed; delete $verdict to probe again)" >&2
fi
cat "$verdict"
