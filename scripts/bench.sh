#!/bin/bash
# make bench: build three kernels with the same configs/ fragments (bench-*
# in common.sh), boot each the same way with the same disks and files, run
# guest/bench in it, and put the results side by side:
#   stock-6.1    Debian's 6.1, unpatched (build/linux at its tag pristine)
#   patched-6.1  the same with patches/
#   stock-6.12   Debian's 6.12, unpatched (its NFS reads the cache with netfs)
# Output: build/bench/results.md (the table), results.png (the plot), and
# each kernel's raw lines in build/obj-bench-KERNEL/ktap-bench.log.
#   BENCH_KERNELS="patched-6.1"   only these kernels (the table keeps the
#                                 last results of the others)
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

kernels=${BENCH_KERNELS:-$BENCH_KERNEL_NAMES}
out=$BUILD/bench
mkdir -p "$out"

"$ROOT/scripts/deps.sh" fio linux-perf gnuplot-nox "$BENCH_SOURCE_PACKAGE"
"$ROOT/scripts/tree.sh"

# The tree each kernel is built from.
tree_of() { # KERNEL
	case "$1" in
	stock-6.1)
		local tree=$BUILD/linux-stock
		[ -d "$tree" ] || git -C "$LINUX" worktree add -q --detach "$tree" pristine
		git -C "$tree" checkout -q --detach pristine
		echo "$tree"
		;;
	patched-6.1) echo "$LINUX" ;;
	stock-6.12)
		local tree=$BUILD/linux-6.12 version
		version=$(dpkg-query -W -f='${Version}' "$BENCH_SOURCE_PACKAGE")
		if [ "$(cat "$tree/.debian-version" 2>/dev/null)" != "$version" ]; then
			say "unpacking $BENCH_SOURCE_TARBALL ($version)" >&2
			rm -rf "$tree"
			mkdir -p "$tree"
			tar -xJf "$BENCH_SOURCE_TARBALL" -C "$tree" --strip-components=1
			echo "$version" >"$tree/.debian-version"
		fi
		echo "$tree"
		;;
	*) die "unknown kernel '$1' (one of $BENCH_KERNEL_NAMES)" ;;
	esac
}

for k in $kernels; do
	tree=$(tree_of "$k")
	KERNEL_TREE=$tree "$ROOT/scripts/build.sh" "bench-$k"
	KERNEL_TREE=$tree "$ROOT/scripts/initramfs.sh" "bench-$k"
	"$ROOT/scripts/qemu.sh" "bench-$k" bench
	log=$(boot_log "$(objdir "bench-$k")" ktap bench)
	grep -q '^bench done, 0 failed' "$log" ||
		die "the benchmark failed or did not finish on $k (${log#"$ROOT"/})"
done

logs=()
for k in $BENCH_KERNEL_NAMES; do
	log=$(boot_log "$(objdir "bench-$k")" ktap bench)
	[ ! -f "$log" ] || logs+=("$k=$log")
done
/usr/bin/python3 "$ROOT/scripts/bench-report.py" "$out" "${logs[@]}"
say "results: ${out#"$ROOT"/}/results.md and results.png"
