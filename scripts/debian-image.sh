#!/bin/bash
# A Debian 12 system with the series installed as an admin would: its root
# filesystem made by mmdebstrap from Debian's archive (the host's apt
# sources), the kernel package of scripts/deb.sh installed with dpkg, its
# initrd made by initramfs-tools; systemd, Debian's SELinux policy
# enforcing (with the two local modules of guest/selinux/debian/), an NFS
# server exporting /srv/nfs to itself, an fsc mount of it in /etc/fstab,
# cachefilesd (guest/debian/cachefilesd.service, and sysctl-cachefilesd.conf
# for it), fstests (scripts/fstests-build.sh) in /var/lib/xfstests with
# what it needs to run and its users, and the tests of the debian-system
# boots run by guest/debian/guest-tests.service.
#   debian-image.sh VARIANT IMAGE SIZE [BOOT]
# writes IMAGE, for BOOT of guest/boots (fstests only where BOOT's tests
# use it), an ext4 disk of SIZE (its label "root", the files labelled for
# SELinux).  The system itself is made once and kept in
# build/obj-VARIANT/debian-system/ until its inputs change (the kernel
# package, this script, guest/debian/, the local modules, apt's sources);
# the harness's files (guest/lib, the tests, fstests) are copied into
# each IMAGE.
#   APT_SOURCES=FILE  the archive to make it from (apt's sources, one-line
#                     or deb822), instead of the host's
#   KERNEL_DEB=PATH   another kernel package instead (its kernel may have
#                     the disk's drivers as modules: they go into the
#                     initrd)
# The variant "stock" is the same system with Debian's own kernel of the
# version the series is made against, downloaded with apt: stock 6.1 as
# Debian ships it, for a baseline.
set -eu -o pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

variant=${1:?usage: debian-image.sh VARIANT IMAGE SIZE}
image=${2:?usage: debian-image.sh VARIANT IMAGE SIZE}
size=${3:?usage: debian-image.sh VARIANT IMAGE SIZE}
obj=$(objdir "$variant")
kept=$obj/debian-system
tree=$kept/tree
sources=${APT_SOURCES:-/etc/apt/sources.list.d/debian.sources}
[ -f "$sources" ] || sources=/etc/apt/sources.list
[ -f "$sources" ] || die "no apt sources on this machine to make the system from"
packages=(
	systemd-sysv udev kmod procps mawk initramfs-tools linux-base e2fsprogs iproute2
	nfs-kernel-server nfs-common cachefilesd
	selinux-basics selinux-policy-default auditd
	# What fstests runs, and the libraries its programs are built with.
	gawk bc xfsprogs acl attr psmisc file xz-utils uuid-runtime libcap2-bin
	libaio1 liburing2 libgdbm6 libgdbm-compat4
)
modules=(cachefilesd_dir_watch cachefilesd_sigio)

# Debian's kernel package of LINUX_SOURCE_VERSION (linux-image-6.1.0-N-
# amd64), downloaded into GUEST_DEBS once.
debian_kernel_deb() {
	local glob="$GUEST_DEBS/linux-image-*-amd64_${LINUX_SOURCE_VERSION}_amd64.deb" package
	if ! compgen -G "$glob" >/dev/null; then
		package=$(apt-cache search --names-only '^linux-image-[0-9.]+-[0-9]+-amd64$' |
			while read -r name _; do
				apt-cache madison "$name" |
					awk -v v="$LINUX_SOURCE_VERSION" '$3 == v { print $1; exit }'
			done | tail -n 1)
		[ -n "$package" ] || die "apt offers no Debian kernel of $LINUX_SOURCE_VERSION for the stock system"
		mkdir -p "$GUEST_DEBS"
		(cd "$GUEST_DEBS" &&
			apt-get download -q -o APT::Sandbox::User=root "$package=$LINUX_SOURCE_VERSION") >&2
	fi
	compgen -G "$glob" | tail -n 1
}
if [ -n "${KERNEL_DEB:-}" ]; then
	kernel_deb=$KERNEL_DEB
elif [ "$variant" = stock ]; then
	kernel_deb=$(debian_kernel_deb)
else
	kernel_deb=$("$ROOT/scripts/deb.sh" "$variant" | tail -n 1)
fi
package=$(dpkg-deb -f "$kernel_deb" Package) || die "$kernel_deb: not a package"
release=${package#linux-image-}
te_files=()
for m in "${modules[@]}"; do
	te_files+=("$ROOT/guest/selinux/debian/$m.te")
done
key=$(cat "$ROOT/scripts/debian-image.sh" "$kernel_deb" "$sources" "$ROOT"/guest/debian/* \
	"${te_files[@]}" | sha256sum | cut -d' ' -f1)

make_system() {
	local work=$kept.making
	rm -rf "$work"
	mkdir -p "$work/in"
	cp "$kernel_deb" "$ROOT"/guest/debian/* "$work/in/"
	for m in "${modules[@]}"; do
		checkmodule -M -m -o "$work/$m.mod" "$ROOT/guest/selinux/debian/$m.te" >/dev/null
		semodule_package -o "$work/in/$m.pp" -m "$work/$m.mod"
	done
	say "making the Debian system with $(basename "$kernel_deb") (mmdebstrap)"
	# Each hook runs as the machine is made; "$1" is the system's root.
	# Debian's packages, then the system's configuration, then the kernel
	# package (its postinst makes the initrd: the kernel has its disk and
	# filesystem built in, gzip is what it unpacks), then the units.
	# shellcheck disable=SC2016 # the hooks' "$1", for the hooks' shell
	if ! mmdebstrap --variant=apt --include="$(
		IFS=,
		echo "${packages[*]}"
	)" \
		--customize-hook='echo debian-system >"$1/etc/hostname"' \
		--customize-hook='printf "127.0.0.1\tlocalhost\n127.0.1.1\tdebian-system\n" >"$1/etc/hosts"' \
		--customize-hook='echo root:root | chroot "$1" chpasswd' \
		--customize-hook='for u in fsgqa fsgqa2 123456-fsgqa; do chroot "$1" useradd -m "$u"; done' \
		--customize-hook='printf "LABEL=root\t/\text4\tdefaults\t0 1\nlocalhost:/srv/nfs\t/mnt/nfs\tnfs\tfsc\t0 0\n" >"$1/etc/fstab"' \
		--customize-hook='mkdir -p "$1/srv/nfs" "$1/mnt/nfs" && echo "/srv/nfs localhost(ro,no_subtree_check)" >"$1/etc/exports"' \
		--customize-hook='sed -i "s/^#RUN=yes/RUN=yes/" "$1/etc/default/cachefilesd"' \
		--customize-hook='chroot "$1" selinux-config-enforcing' \
		--customize-hook='printf "MODULES=list\nCOMPRESS=gzip\n" >"$1/etc/initramfs-tools/conf.d/credrec"' \
		--customize-hook='printf "virtio_pci\nvirtio_blk\next4\n" >>"$1/etc/initramfs-tools/modules"' \
		--customize-hook="copy-in $work/in /tmp" \
		--customize-hook='chroot "$1" sh -c "dpkg -i /tmp/in/linux-image-*.deb"' \
		--customize-hook='chroot "$1" sh -c "semodule -n -X 400 -i /tmp/in/*.pp"' \
		--customize-hook='cp "$1"/tmp/in/*.service "$1/etc/systemd/system/"' \
		--customize-hook='install -D -m 0755 "$1/tmp/in/guest-tests" "$1/usr/local/sbin/guest-tests"' \
		--customize-hook='install -D -m 0644 "$1/tmp/in/sysctl-cachefilesd.conf" "$1/etc/sysctl.d/60-cachefilesd.conf"' \
		--customize-hook='install -D -m 0644 "$1/tmp/in/known-denials" "$1/etc/credrec/known-denials"' \
		--customize-hook='chroot "$1" systemctl enable cachefilesd.service guest-tests.service' \
		--customize-hook='rm -rf "$1/tmp/in"' \
		bookworm "$work/tree" "$sources" >"$work.log" 2>&1; then
		tail -n 30 "$work.log" >&2
		rm -rf "$work"
		die "mmdebstrap could not make the Debian system: $(grep -m 1 '^E: ' "$work.log")" \
			"(log: ${work#"$ROOT"/}.log)"
	fi
	[ -f "$work/tree/boot/initrd.img-$release" ] || {
		rm -rf "$work"
		die "the kernel package made no initrd (log: ${work#"$ROOT"/}.log)"
	}
	rm -rf "$work/in" "$work"/*.mod
	echo "$key" >"$work/key"
	echo "$release" >"$work/release"
	rm -rf "$kept"
	mv "$work" "$kept"
}

[ "$(cat "$kept/key" 2>/dev/null)" = "$key" ] || make_system

# The harness's files, new in each image: guest/lib, the boots, run-tests
# and the tests of the boots that run the system; fstests, its
# configuration and lists of tests (guest/fstests/).
rm -rf "$tree/lib/guest" "$tree/tests" "$tree/etc/boots" "$tree/var/lib/xfstests" \
	"$tree/etc/credrec/fstests"
boot=${4:-}
if [ -n "$boot" ] &&
	grep -qs 'lib/guest/fstests.sh' "$ROOT/guest/$(boot_field "$boot" runs)"/*.t; then
	fstests=$("$ROOT/scripts/fstests-build.sh")
	cp -a "$fstests" "$tree/var/lib/xfstests"
	cp "$ROOT/guest/fstests/local.config" "$tree/var/lib/xfstests/"
	cp -r "$ROOT/guest/fstests" "$tree/etc/credrec/fstests"
fi
cp -r "$ROOT/guest/lib" "$tree/lib/guest"
cp "$ROOT/guest/boots" "$tree/etc/boots"
mkdir -p "$tree/tests"
cp "$ROOT/guest/run-tests" "$tree/tests/"
for boot in $(boot_names); do
	[ "$(boot_field "$boot" selinux)" = system ] || continue
	runs=$(boot_field "$boot" runs)
	mkdir -p "$tree/$runs"
	cp "$ROOT/guest/$runs"/*.t "$tree/$runs/"
done
# Labelled last, as Debian's autorelabel would on its first boot: the
# system's own setfiles, which needs /proc, mounted in a mount namespace of
# its own so that nothing stays mounted in the tree.
# shellcheck disable=SC2016 # "$1", for that shell
unshare --mount --propagation private sh -c 'mount -t proc proc "$1/proc" &&
	chroot "$1" setfiles -e /proc -F /etc/selinux/default/contexts/files/file_contexts /' \
	sh "$tree" || die "setfiles could not label the Debian system"
rm -f "$image"
truncate -s "$size" "$image"
mkfs.ext4 -q -F -L root -E lazy_itable_init=0,lazy_journal_init=0 -d "$tree" "$image"
