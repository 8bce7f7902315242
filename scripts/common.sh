# shellcheck shell=bash
# Facts shared by every host script; source it, never run it.
# shellcheck disable=SC2034 # the variables are for the scripts that source it

# The Debian package the series is made against, and the version it was last
# rebased on.  Change it here only, together with a rebase of patches/.
LINUX_SOURCE_PACKAGE=linux-source-6.1
LINUX_SOURCE_VERSION=6.1.192-3
LINUX_SOURCE_TARBALL=/usr/src/linux-source-6.1.tar.xz
# make bench also boots Debian's 6.12 (its NFS reads the cache through the
# netfs library), unpatched.
BENCH_SOURCE_PACKAGE=linux-source-6.12
BENCH_SOURCE_TARBALL=/usr/src/linux-source-6.12.tar.xz

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$ROOT/build
# The kernel tree: build/linux, or another checkout of it (make check).
LINUX=${KERNEL_TREE:-$BUILD/linux}
PATCHES=$ROOT/patches

# Debian packages whose programs run in the guest (the NFS server and client
# tools, rpcbind, cachefilesd), downloaded into GUEST_DEBS, never installed.
GUEST_PACKAGES=(nfs-kernel-server nfs-common rpcbind cachefilesd)
GUEST_DEBS=$BUILD/debs
# Debian's SELinux reference policy, and the tools that build it (semodule)
# and label files with it (setfiles, which runs in the guest too): downloaded
# into GUEST_DEBS and unpacked, never installed, so that the host's SELinux
# configuration stays as it is (policycoreutils' postinst would write
# /etc/selinux/config).  scripts/debian-policy.sh.
POLICY_PACKAGES=(selinux-policy-default policycoreutils)

# The path of a package downloaded into GUEST_DEBS (the last, should there
# be more than one).
downloaded_deb() { # PACKAGE
	local debs
	debs=$(compgen -G "$GUEST_DEBS/${1}_*.deb") ||
		die "no $1 package in ${GUEST_DEBS#"$ROOT"/}: run scripts/deps.sh"
	echo "${debs##*$'\n'}"
}

# Every git operation on the kernel tree uses one fixed identity, so that
# `git am` works on a machine with no git configuration.
export GIT_AUTHOR_NAME="credrec build" GIT_AUTHOR_EMAIL="build@localhost"
export GIT_COMMITTER_NAME="credrec build" GIT_COMMITTER_EMAIL="build@localhost"

die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

say() {
	printf '==> %s\n' "$*"
}

# The patches listed in patches/series, one a line, comments dropped.
series_patches() {
	[ -f "$PATCHES/series" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$PATCHES/series"
}

# A digest of patches/ as the tree script applies it.
series_digest() {
	{
		series_patches
		series_patches | while read -r p; do cat "$PATCHES/$p"; done
	} | sha256sum | cut -d' ' -f1
}

# The kernels the harness builds: tinyconfig plus these fragments of configs/.
#   test   the kernel `make test` and `make run` boot
#   debug  the same with the debugging options: the suite must run clean on it
#   step   the test kernel's options, built at each patch by make check
#   bench-* the kernels make bench compares (scripts/bench.sh), all alike
kernel_fragments() {
	case "$1" in
	test | step) echo base kunit afs selinux nfs ;;
	debug) echo base kunit afs selinux nfs debug ;;
	bench-*) echo base nfs bench ;;
	*) die "unknown kernel variant '$1' (test, debug, step, bench-*)" ;;
	esac
}

# Where a variant's objects, images and logs go.  make check's tree is
# $STEP_TREE: its objects sit beside it, as build/obj-test sits beside
# build/linux, so that the path from objects to source, which ccache hashes,
# is the test kernel's and the builds share objects.
STEP_TREE=$BUILD/step/linux
objdir() {
	case "$1" in
	step) echo "$BUILD/step/obj" ;;
	*) echo "$BUILD/obj-$1" ;;
	esac
}
