#!/bin/bash
# The whole test run of one kernel variant: the patched tree, its kernel,
# the initramfs, a boot, and the report that ends in "N passed, N failed".
#   boot.sh VARIANT           boot, run every test, power off, report
#   boot.sh VARIANT --shell   the same with a shell in the guest at the end
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

variant=${1:?usage: boot.sh VARIANT [--shell]}
"$ROOT/scripts/tree.sh"
"$ROOT/scripts/build.sh" "$variant"
"$ROOT/scripts/initramfs.sh" "$variant"
"$ROOT/scripts/qemu.sh" "$@"
# What must survive a reboot (the cache) is checked by booting again.
[ "${2:-}" = --shell ] || "$ROOT/scripts/qemu.sh" "$variant" --after-reboot
say "results of the $variant kernel"
"$ROOT/scripts/report.py" "$(objdir "$variant")" "$ROOT/tests/suites"
