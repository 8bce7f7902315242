#!/bin/bash
# Pack the guest's initramfs for one kernel variant: busybox-static, guest/
# (init and tests), and what the tests compare against: the built kernel's
# release and version, and the applied series.
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

variant=${1:?usage: initramfs.sh VARIANT}
obj=$(objdir "$variant")
staging=$obj/initramfs
rm -rf "$staging"
mkdir -p "$staging"/{bin,sbin,etc,proc,sys,dev,tmp,tests}
# Unprivileged test users must be able to reach and run everything.
chmod 0755 "$staging"
chmod 1777 "$staging/tmp"

cp /bin/busybox "$staging/bin/busybox"
ln -s busybox "$staging/bin/sh"
cp "$ROOT/guest/init" "$staging/init"
cp "$ROOT/guest/run-tests" "$ROOT"/guest/tests/*.t "$staging/tests/"

cat "$obj/include/config/kernel.release" >"$staging/etc/kernel-release"
sed -n 's/^#define UTS_VERSION "\(.*\)"$/\1/p' \
	"$obj/include/generated/utsversion.h" >"$staging/etc/kernel-version"
git -C "$LINUX" log --reverse --format='%s' pristine..HEAD >"$staging/etc/series"
[ -s "$staging/etc/series" ] || echo "(none)" >"$staging/etc/series"

(cd "$staging" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) | gzip -1 >"$obj/initramfs.cpio.gz"
