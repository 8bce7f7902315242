#!/bin/bash
# The patched kernel as Debian packages, made by the kernel's own
# `make bindeb-pkg`: linux-image and linux-headers of one kernel variant
# (the test kernel by default), in build/obj-VARIANT/debs/.  Its release is
# 6.1.192-credrec (configs/system.config), its package version Debian's
# source version plus the series, as 6.1.192-3+credrec.30: 30 patches of
# patches/.  Prints the linux-image package's path last.
#   deb.sh [VARIANT]
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

variant=${1:-test}
obj=$(objdir "$variant")
debs=$obj/debs

"$ROOT/scripts/tree.sh" >&2
"$ROOT/scripts/build.sh" "$variant" >&2
kernel_has_modules "$obj" ||
	die "the $variant kernel has no modules: Debian's cachefilesd script modprobes"
release=$(cat "$obj/include/config/kernel.release")
version=$(package_version)
image=$debs/linux-image-${release}_${version}_amd64.deb
# A digest of the kernel and modules packaged: while they are the same,
# the packages are too, and are not made again (their bytes would differ,
# and the Debian system made with them would be made again).
built_digest() {
	(cd "$obj" && xargs cat arch/x86/boot/bzImage .config <modules.order) |
		sha256sum | cut -d' ' -f1
}
if [ -f "$image" ] && [ "$(cat "$debs/built" 2>/dev/null)" = "$(built_digest)" ]; then
	echo "$image"
	exit 0
fi

# dpkg-buildpackage writes the packages beside the object directory: in
# build/, which other variants share.  One build at a time (build.sh's
# lock); each variant's packages are moved into its own directory.
exec 9>"$BUILD/.build.lock"
flock 9
say "packaging the $variant kernel $release as $version" >&2
rm -rf "$debs"
rm -f "$BUILD"/linux-*.deb "$BUILD"/linux-upstream_*
if ! kernel_make "$obj" -j"$(($(nproc) + 1))" KDEB_PKGVERSION="$version" KDEB_COMPRESS=gzip \
	bindeb-pkg >"$obj/deb.log" 2>&1; then
	tail -n 20 "$obj/deb.log" >&2
	rm -f "$BUILD"/linux-*.deb "$BUILD"/linux-upstream_*
	die "make bindeb-pkg failed (log: ${obj#"$ROOT"/}/deb.log)"
fi
mkdir -p "$debs"
mv "$BUILD"/linux-*.deb "$BUILD"/linux-upstream_* "$debs/"
[ -f "$image" ] || die "make bindeb-pkg made no ${image#"$debs"/}"
built_digest >"$debs/built"
say "made $(cd "$debs" && echo *.deb)" >&2
echo "$image"
