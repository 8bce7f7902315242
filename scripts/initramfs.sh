#!/bin/bash
# Pack the guest's initramfs for one kernel variant, in stages:
#   guest_files       busybox-static and guest/: init, the tests, their libraries
#   c_programs        the tests and tools written in C, built static
#   kernel_modules    the kernel's modules (suites the tests load)
#   debian_programs   Debian's NFS and cache daemons, OpenAFS's servers, and
#                     host programs, with their libraries
#   selinux_policies  the test policies and Debian's (kernels with SELinux)
#   bench_programs    guest/bench, fio and perf (make bench's kernels)
#   kernel_facts      what the tests compare against: the built kernel's
#                     release, version and .config, and the applied series
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

variant=${1:?usage: initramfs.sh VARIANT}
obj=$(objdir "$variant")
staging=$obj/initramfs

guest_files() {
	mkdir -p "$staging"/{bin,sbin,etc,proc,sys,dev,tmp,tests,lib}
	# Unprivileged test users must be able to reach and run everything.
	chmod 0755 "$staging"
	chmod 1777 "$staging/tmp"
	cp /bin/busybox "$staging/bin/busybox"
	ln -s busybox "$staging/bin/sh"
	cp "$ROOT/guest/init" "$ROOT/guest/demo" "$staging/"
	cp "$ROOT/guest/run-tests" "$ROOT"/guest/tests/*.t "$staging/tests/"
	# The tests of the later boots (scripts/boot.sh), a directory each.
	local dir
	for dir in "$ROOT"/guest/tests/*/; do
		mkdir "$staging/tests/$(basename "$dir")"
		cp "$dir"*.t "$staging/tests/$(basename "$dir")/"
	done
	cp -r "$ROOT/guest/lib" "$staging/lib/guest"
	# A cluster client's test and agent, and the cluster's demo.
	cp -r "$ROOT/guest/cluster" "$staging/cluster"
	cp "$ROOT"/guest/etc/* "$staging/etc/"
	cp "$ROOT/guest/boots" "$staging/etc/boots"
	# The name services rpc.nfsd, rpcbind and libtirpc look up, from files.
	cp /etc/services /etc/protocols /etc/netconfig /etc/rpc "$staging/etc/"
}

# Static, so that the guest needs no libc: the tests (NAME.c -> NAME.t)
# and the tools the tests use (/usr/bin).
c_programs() {
	local src name
	for src in "$ROOT"/guest/tests/*.c; do
		name=${src##*/}
		gcc -static -O2 -Wall -Wextra -Werror -o "$staging/tests/${name%.c}.t" "$src"
	done
	mkdir -p "$staging/usr/bin"
	for src in "$ROOT"/guest/tools/*.c; do
		name=${src##*/}
		gcc -static -O2 -Wall -Wextra -Werror -o "$staging/usr/bin/${name%.c}" "$src"
	done
}

# Flat in /lib/modules: the tests load them by name with insmod.
kernel_modules() {
	local module
	mkdir -p "$staging/lib/modules"
	kernel_has_modules "$obj" || return 0
	while read -r module; do
		cp "$obj/$module" "$staging/lib/modules/"
	done <"$obj/modules.order"
}

# A program and its libraries (ldd: "name => path", and the loader as a
# bare path), at the same paths: this machine's, or those of the packages
# unpacked into GUEST_DEBS_ROOT, found there first and put where the
# package puts them.
debs_libs=$GUEST_DEBS_ROOT/usr/lib/$(gcc -print-multiarch)
add_program() { # FROM TO
	local libs lib to
	install -D -m 0755 "$1" "$staging$2"
	libs=$(LD_LIBRARY_PATH=$debs_libs ldd "$1")
	! grep 'not found' <<<"$libs" || die "$1 needs a library this machine lacks"
	awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' <<<"$libs" |
		while read -r lib; do
			to=$staging${lib#"$GUEST_DEBS_ROOT"}
			[ -e "$to" ] || install -D -m 0755 "$lib" "$to"
		done
}

# The NFS and cache daemons and OpenAFS's servers and tools from their
# Debian packages (scripts/deps.sh downloads them, unpacked into
# GUEST_DEBS_ROOT here), and programs of this machine.
debian_programs() {
	local p deb prog
	rm -rf "$GUEST_DEBS_ROOT"
	mkdir -p "$GUEST_DEBS_ROOT"
	for p in "${GUEST_PACKAGES[@]}"; do
		deb=$(downloaded_deb "$p")
		dpkg-deb -x "$deb" "$GUEST_DEBS_ROOT"
		dpkg-deb -f "$deb" Package Version | paste -sd' ' >>"$staging/etc/guest-packages"
	done
	for prog in /usr/sbin/rpc.nfsd /usr/sbin/rpc.mountd /usr/sbin/exportfs \
		/sbin/mount.nfs /sbin/rpcbind /sbin/cachefilesd \
		/usr/sbin/bosserver /usr/lib/openafs/ptserver /usr/lib/openafs/vlserver \
		/usr/lib/openafs/dafileserver /usr/lib/openafs/davolserver \
		/usr/lib/openafs/salvageserver /usr/lib/openafs/dasalvager \
		/usr/bin/bos /usr/bin/vos /usr/bin/pts \
		/usr/bin/getfattr /usr/bin/setfattr; do
		add_program "$GUEST_DEBS_ROOT$prog" "$prog"
	done
	cp "$GUEST_DEBS_ROOT/etc/cachefilesd.conf" "$staging/etc/"
	add_program "$(command -v ip)" /sbin/ip
	# util-linux setarch: cachefilesd runs under it (guest/lib/nfs.sh); and
	# setpriv, which drops a capability (cachefiles-dev.t).
	add_program "$(command -v setarch)" /usr/bin/setarch
	add_program "$(command -v setpriv)" /usr/bin/setpriv
	# Debian's coreutils, built with SELinux (busybox-static is not): runcon
	# and chcon, and stat (as /usr/bin/stat, after busybox's /bin/stat on
	# PATH) for file contexts (%C).
	for prog in runcon chcon stat; do
		add_program "/usr/bin/$prog" "/usr/bin/$prog"
	done
}

# The SELinux test policies, which init loads; libselinux (runcon, chcon)
# counts SELinux as enabled only where /etc/selinux/config exists.  Debian's
# own policy, for the boot that enforces it (make test's third), with the
# setfiles that labels the guest's files by it, and Debian's
# cachefilesd.conf with its documented "secctx" line uncommented, and with
# it naming the other two service contexts of guest/selinux/debian/.  (The
# benchmark's kernels have no SELinux.)
selinux_policies() {
	local type conf=$staging/etc/cachefilesd-secctx.conf
	grep -q '^CONFIG_SECURITY_SELINUX=y' "$obj/.config" || return 0
	"$ROOT/scripts/selinux-policy.sh" "$obj" "$staging/etc/selinux/credrec"
	printf 'SELINUX=enforcing\nSELINUXTYPE=credrec\n' >"$staging/etc/selinux/config"
	"$ROOT/scripts/debian-policy.sh" "$staging/etc/selinux/debian"
	dpkg-deb -x "$(downloaded_deb policycoreutils)" "$GUEST_DEBS_ROOT"
	add_program "$GUEST_DEBS_ROOT/sbin/setfiles" /sbin/setfiles
	sed 's/^# *\(secctx .*\)$/\1/' "$GUEST_DEBS_ROOT/etc/cachefilesd.conf" >"$conf"
	grep -q '^secctx system_u:system_r:cachefiles_kernel_t:s0$' "$conf" ||
		die "Debian's cachefilesd.conf no longer has the secctx line its README.Debian names"
	for type in other forbidden; do
		sed "s/:cachefiles_kernel_t:/:cachefiles_${type}_kernel_t:/" "$conf" \
			>"$staging/etc/cachefilesd-secctx-$type.conf"
	done
}

bench_programs() {
	case $variant in
	bench-*) ;;
	*) return 0 ;;
	esac
	cp "$ROOT/guest/bench" "$staging/bench"
	add_program "$(command -v fio)" /usr/bin/fio
	add_program "$(command -v perf)" /usr/bin/perf
}

kernel_facts() {
	cat "$obj/include/config/kernel.release" >"$staging/etc/kernel-release"
	cp "$obj/.config" "$staging/etc/kernel-config"
	sed -n 's/^#define UTS_VERSION "\(.*\)"$/\1/p' \
		"$obj/include/generated/utsversion.h" >"$staging/etc/kernel-version"
	# (Debian's 6.12, which make bench builds, is no git repository.)
	if git -C "$LINUX" rev-parse -q --verify pristine >/dev/null 2>&1; then
		git -C "$LINUX" log --reverse --format='%s' pristine..HEAD >"$staging/etc/series"
	fi
	[ -s "$staging/etc/series" ] || echo "(none)" >"$staging/etc/series"
}

rm -rf "$staging"
guest_files
c_programs
kernel_modules
debian_programs
selinux_policies
bench_programs
kernel_facts
(cd "$staging" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) | gzip -1 >"$obj/initramfs.cpio.gz"
