#!/bin/bash
# Pack the guest's initramfs for one kernel variant: busybox-static, guest/
# (init and tests), the kernel's modules, and what the tests compare against:
# the built kernel's release and version, and the applied series.
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
cp "$ROOT/guest/init" "$ROOT/guest/demo" "$staging/"
cp "$ROOT/guest/run-tests" "$ROOT"/guest/tests/*.t "$staging/tests/"
# The tests of the later boots (scripts/boot.sh), a directory each.
for dir in "$ROOT"/guest/tests/*/; do
	boot=$(basename "$dir")
	mkdir "$staging/tests/$boot"
	cp "$dir"*.t "$staging/tests/$boot/"
done
# Tests written in C: static, so the guest needs no libc.
for src in "$ROOT"/guest/tests/*.c; do
	name=${src##*/}
	gcc -static -O2 -Wall -Wextra -Werror -o "$staging/tests/${name%.c}.t" "$src"
done
# Tools the tests use, in C too.
mkdir -p "$staging/usr/bin"
for src in "$ROOT"/guest/tools/*.c; do
	name=${src##*/}
	gcc -static -O2 -Wall -Wextra -Werror -o "$staging/usr/bin/${name%.c}" "$src"
done

# The kernel's modules (test suites that run once the guest is set up),
# flat in /lib/modules: the tests load them by name with insmod.
mkdir -p "$staging/lib/modules"
if grep -q '^CONFIG_MODULES=y' "$obj/.config"; then
	while read -r module; do
		cp "$obj/$module" "$staging/lib/modules/"
	done <"$obj/modules.order"
fi

# The NFS and cache daemons from their Debian packages (scripts/deps.sh
# downloads them), iproute2 from this machine, each with the libraries it
# loads, at the same paths.
debroot=$BUILD/debs/root
rm -rf "$debroot"
mkdir -p "$debroot"
for p in "${GUEST_PACKAGES[@]}"; do
	deb=$(downloaded_deb "$p")
	dpkg-deb -x "$deb" "$debroot"
	dpkg-deb -f "$deb" Package Version | paste -sd' ' >>"$staging/etc/guest-packages"
done
add_program() { # FROM TO: a program, and its libraries (ldd: "name => path",
	# and the loader as a bare path)
	install -D -m 0755 "$1" "$staging$2"
	libs=$(ldd "$1")
	! grep 'not found' <<<"$libs" || die "$1 needs a library this machine lacks"
	awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' <<<"$libs" |
		while read -r lib; do
			[ -e "$staging$lib" ] || install -D -m 0755 "$lib" "$staging$lib"
		done
}
for prog in /usr/sbin/rpc.nfsd /usr/sbin/rpc.mountd /usr/sbin/exportfs \
	/sbin/mount.nfs /sbin/rpcbind /sbin/cachefilesd; do
	add_program "$debroot$prog" "$prog"
done
add_program "$(command -v ip)" /sbin/ip
# util-linux setarch: cachefilesd runs under it (guest/lib/nfs.sh); and
# setpriv, which drops a capability (cachefiles-dev.t).
add_program "$(command -v setarch)" /usr/bin/setarch
add_program "$(command -v setpriv)" /usr/bin/setpriv
# Debian's coreutils, built with SELinux (busybox-static is not): runcon and
# chcon, and stat (as /usr/bin/stat, after busybox's /bin/stat on PATH) for
# file contexts (%C).
for prog in runcon chcon stat; do
	add_program "/usr/bin/$prog" "/usr/bin/$prog"
done
# The SELinux test policies, which init loads; libselinux (runcon, chcon)
# counts SELinux as enabled only where /etc/selinux/config exists.
# (The benchmark's kernels have no SELinux.)
# Debian's own policy, for the boot that enforces it (make test's third),
# with the setfiles that labels the guest's files by it, and Debian's
# cachefilesd.conf with its documented "secctx" line uncommented, and with
# it naming the other two service contexts of guest/selinux/debian/.
if grep -q '^CONFIG_SECURITY_SELINUX=y' "$obj/.config"; then
	"$ROOT/scripts/selinux-policy.sh" "$obj" "$staging/etc/selinux/credrec"
	printf 'SELINUX=enforcing\nSELINUXTYPE=credrec\n' >"$staging/etc/selinux/config"
	"$ROOT/scripts/debian-policy.sh" "$staging/etc/selinux/debian"
	dpkg-deb -x "$(downloaded_deb policycoreutils)" "$debroot"
	add_program "$debroot/sbin/setfiles" /sbin/setfiles
	sed 's/^# *\(secctx .*\)$/\1/' "$debroot/etc/cachefilesd.conf" >"$staging/etc/cachefilesd-secctx.conf"
	grep -q '^secctx system_u:system_r:cachefiles_kernel_t:s0$' "$staging/etc/cachefilesd-secctx.conf" ||
		die "Debian's cachefilesd.conf no longer has the secctx line its README.Debian names"
	for type in other forbidden; do
		sed "s/:cachefiles_kernel_t:/:cachefiles_${type}_kernel_t:/" "$staging/etc/cachefilesd-secctx.conf" \
			>"$staging/etc/cachefilesd-secctx-$type.conf"
	done
fi
# make bench's kernels: the benchmark, and fio and perf, which it runs.
case $variant in
bench-*)
	cp "$ROOT/guest/bench" "$staging/bench"
	add_program "$(command -v fio)" /usr/bin/fio
	add_program "$(command -v perf)" /usr/bin/perf
	;;
esac
cp "$debroot/etc/cachefilesd.conf" "$staging/etc/"
# The name services rpc.nfsd, rpcbind and libtirpc look up, from files.
cp /etc/services /etc/protocols /etc/netconfig /etc/rpc "$staging/etc/"
cp "$ROOT"/guest/etc/* "$staging/etc/"
cp -r "$ROOT/guest/lib" "$staging/lib/guest"

cat "$obj/include/config/kernel.release" >"$staging/etc/kernel-release"
sed -n 's/^#define UTS_VERSION "\(.*\)"$/\1/p' \
	"$obj/include/generated/utsversion.h" >"$staging/etc/kernel-version"
# (Debian's 6.12, which make bench builds, is no git repository.)
if git -C "$LINUX" rev-parse -q --verify pristine >/dev/null 2>&1; then
	git -C "$LINUX" log --reverse --format='%s' pristine..HEAD >"$staging/etc/series"
fi
[ -s "$staging/etc/series" ] || echo "(none)" >"$staging/etc/series"

(cd "$staging" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) | gzip -1 >"$obj/initramfs.cpio.gz"
