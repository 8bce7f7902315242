#!/bin/bash
# Install, with apt-get, the Debian packages the host scripts need, and the
# PACKAGEs named (make bench's); a no-op when all are present.
#   deps.sh [PACKAGE...]
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

packages=(
	bc bison cpio flex gcc make libc6-dev libelf-dev libssl-dev python3 perl
	xz-utils git ccache busybox-static qemu-system-x86
	python3-ply python3-git # checkpatch.pl's SPDX check (make check)
	shellcheck pyflakes3 # make lint
	checkpolicy # compiles the guest's SELinux test policy (guest/selinux/)
	# make deb (the kernel's bindeb-pkg), and the Debian system made from
	# Debian's archive with it (scripts/debian-image.sh).
	dpkg-dev fakeroot kmod rsync mmdebstrap
	# semodule (unpacked from POLICY_PACKAGES) builds Debian's policy with
	# libsemanage; semodule_package packages a local module for it.
	libsemanage2 semodule-utils
	# Copied into the guest: iproute2 and the libraries and files of
	# GUEST_PACKAGES (below) that a Debian host may lack.
	iproute2 e2fsprogs netbase libtirpc-common libtirpc3 libwrap0
	libgssapi-krb5-2 libkrb5-3 libkeyutils1 libevent-core-2.1-7 libsqlite3-0
	"$@"
)

updated=
apt_install() {
	[ -n "$updated" ] || apt-get update -q
	updated=yes
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends --allow-downgrades "$@"
}

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
	say "installing ${missing[*]}"
	apt_install "${missing[@]}"
fi

# The kernel source is pinned to the version the series was rebased on.  When
# the mirror no longer has it, use what it offers and say so loudly.
installed=$(dpkg-query -W -f='${Version}' "$LINUX_SOURCE_PACKAGE" 2>/dev/null || true)
if [ "$installed" != "$LINUX_SOURCE_VERSION" ]; then
	[ -n "$updated" ] || apt-get update -q
	updated=yes
	if apt-cache madison "$LINUX_SOURCE_PACKAGE" |
		awk '{print $3}' | grep -qxF "$LINUX_SOURCE_VERSION"; then
		apt_install "$LINUX_SOURCE_PACKAGE=$LINUX_SOURCE_VERSION"
	else
		cat >&2 <<-MSG
		***
		*** $LINUX_SOURCE_PACKAGE $LINUX_SOURCE_VERSION, which patches/ is made
		*** against, is no longer offered by apt: using the version it offers.
		*** If the series then fails to apply, rebase it and update
		*** LINUX_SOURCE_VERSION in scripts/common.sh.
		***
		MSG
		apt_install "$LINUX_SOURCE_PACKAGE"
	fi
fi

if [ -n "$updated" ]; then
	candidate=$(apt-cache policy "$LINUX_SOURCE_PACKAGE" | awk '/Candidate:/ {print $2}')
	[ "$candidate" = "$LINUX_SOURCE_VERSION" ] ||
		say "note: apt offers $LINUX_SOURCE_PACKAGE $candidate; patches/ is made against $LINUX_SOURCE_VERSION"
fi

# The NFS server, client and cache daemons run in the guest only: their
# packages are downloaded and unpacked (scripts/initramfs.sh), never
# installed, so that nothing starts, or loads a module, on this machine.
# So is Debian's SELinux policy, with its tools (scripts/debian-policy.sh).
mkdir -p "$GUEST_DEBS"
for p in "${GUEST_PACKAGES[@]}" "${POLICY_PACKAGES[@]}"; do
	compgen -G "$GUEST_DEBS/${p}_*.deb" >/dev/null && continue
	[ -n "$updated" ] || apt-get update -q
	updated=yes
	say "downloading $p for the guest"
	(cd "$GUEST_DEBS" && apt-get download -q -o APT::Sandbox::User=root "$p")
done
