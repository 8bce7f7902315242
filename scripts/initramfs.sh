#!/bin/bash
# Pack the guest's initramfs for one kernel variant: busybox-static, guest/
# (init and tests), and what the tests compare against: the built kernel's
# release and version, and the applied series.
set -eu
. "$(dirname "$0")/common.sh"

variant=${1:?usage: initramfs.sh VARIANT}
obj=$(objdir "$variant")
root=$obj/initramfs
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,tests}
# Unprivileged test users must be able to reach and run everything.
chmod 0755 "$root"
chmod 1777 "$root/tmp"

cp /bin/busybox "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
cp "$ROOT/guest/init" "$root/init"
cp "$ROOT/guest/run-tests" "$ROOT"/guest/tests/*.t "$root/tests/"

cat "$obj/include/config/kernel.release" >"$root/etc/kernel-release"
sed -n 's/^#define UTS_VERSION "\(.*\)"$/\1/p' \
	"$obj/include/generated/utsversion.h" >"$root/etc/kernel-version"
git -C "$LINUX" log --reverse --format='%s' pristine..HEAD >"$root/etc/series"
[ -s "$root/etc/series" ] || echo "(none)" >"$root/etc/series"

(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) | gzip -1 >"$obj/initramfs.cpio.gz"
