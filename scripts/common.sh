# shellcheck shell=bash
# Facts shared by every host script; source it, never run it.
# shellcheck disable=SC2034 # the variables are for the scripts that source it

# The Debian package the series is made against, and the version it was last
# rebased on.  Change it here only, together with a rebase of patches/.
LINUX_SOURCE_PACKAGE=linux-source-6.1
LINUX_SOURCE_VERSION=6.1.192-3
LINUX_SOURCE_TARBALL=/usr/src/linux-source-6.1.tar.xz
# make bench's kernels (scripts/bench.sh), in the order of its table; it
# also boots Debian's 6.12 (its NFS reads the cache through the netfs
# library), unpatched.
BENCH_KERNEL_NAMES="stock-6.1 patched-6.1 stock-6.12"
BENCH_SOURCE_PACKAGE=linux-source-6.12
BENCH_SOURCE_TARBALL=/usr/src/linux-source-6.12.tar.xz

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$ROOT/build
# The lines the guest writes that the host looks for.
# shellcheck source=guest/lib/markers.sh
. "$ROOT/guest/lib/markers.sh"
# The table of boots, and boot_field and boot_names that read it.
BOOTS=$ROOT/guest/boots
# shellcheck source=guest/lib/boots.sh
. "$ROOT/guest/lib/boots.sh"
# The kernel tree: build/linux, or another checkout of it (make check).
LINUX=${KERNEL_TREE:-$BUILD/linux}
PATCHES=$ROOT/patches
# The series' cover letter, written by scripts/export.sh from
# patches/cover-letter; never applied.
COVER_LETTER=0000-cover-letter.patch

# Debian packages whose programs run in the guest (the NFS server and client
# tools, rpcbind, cachefilesd; OpenAFS's servers and admin tools, with the
# Heimdal libraries they link, and attr's xattr tools for kAFS's afs.*
# xattrs), downloaded into GUEST_DEBS, never installed.
GUEST_PACKAGES=(nfs-kernel-server nfs-common rpcbind cachefilesd
	openafs-fileserver openafs-dbserver openafs-client attr
	libroken19-heimdal libhcrypto5-heimdal libasn1-8-heimdal libheimbase1-heimdal
	libkrb5-26-heimdal libhx509-5-heimdal libwind0-heimdal)
GUEST_DEBS=$BUILD/debs
# Where scripts/initramfs.sh unpacks them.
GUEST_DEBS_ROOT=$GUEST_DEBS/root
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

# A boot's progress for progress_start: the guest test running (guest/
# run-tests says so on the console), and the last one's time (its KTAP).
guest_status() { # CONSOLE-LOG KTAP-LOG
	local running last
	running=$(tr -d '\r' 2>/dev/null <"$1" | sed -n "s/^$RUNNING_TEST//p" | tail -n 1)
	last=$(tr -d '\r' 2>/dev/null <"$2" |
		sed -n 's/^ *# \([^ ]*\) took \([0-9]*\) s$/\1 took \2 s/p' | tail -n 1)
	echo "${running:+running }${running:-booting}${last:+ (last: $last)}"
}

# Progress of a long step while it runs, from STATUS-FUNCTION (a few words
# on where it is): on a terminal one line rewritten every two seconds,
# otherwise a line a minute.  progress_stop ends it; so does the script's
# exit.
progress_start() { # STATUS-FUNCTION
	local start
	start=$(date +%s)
	(
		last=0
		while sleep 2; do
			elapsed=$(($(date +%s) - start))
			if [ -t 1 ]; then
				printf '\r\033[K    %s, %d:%02d elapsed' "$("$1")" \
					$((elapsed / 60)) $((elapsed % 60))
			elif [ $((elapsed - last)) -ge 60 ]; then
				last=$elapsed
				printf '    %s, %d min elapsed\n' "$("$1")" $((elapsed / 60))
			fi
		done
	) &
	PROGRESS_PID=$!
	trap progress_stop EXIT
}
progress_stop() {
	[ -n "${PROGRESS_PID:-}" ] || return 0
	kill "$PROGRESS_PID" 2>/dev/null || true
	wait "$PROGRESS_PID" 2>/dev/null || true
	PROGRESS_PID=
	[ ! -t 1 ] || printf '\r\033[K'
}

# The patches listed in patches/series, one a line, comments dropped.
series_patches() {
	[ -f "$PATCHES/series" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$PATCHES/series"
}

# A digest of patches/ as the tree script applies it, and where the tree
# keeps the digest of the series it holds (tree.sh, export.sh).
APPLIED_DIGEST_FILE=$LINUX/.git/series-digest
series_digest() {
	{
		series_patches
		series_patches | while read -r p; do cat "$PATCHES/$p"; done
	} | sha256sum | cut -d' ' -f1
}

# Changes to tracked files of the kernel tree that no commit holds.
uncommitted_changes() {
	git -C "$LINUX" status --porcelain --untracked-files=no
}

# Files in the kernel tree that no commit holds: Debian's top-level
# .gitignore ignores every new file, so git status does not show them.
untracked_files() {
	git -C "$LINUX" ls-files --others -x '.checkpatch-camelcase.*'
}

# The kernels the harness builds: tinyconfig plus these fragments of configs/.
#   test   the kernel `make test` and `make run` boot
#   debug  the same with the debugging options: the suite must run clean on it
#   step   the test kernel's options, built at each patch by make check
#   nofsc  the test kernel without NFS's FS-Cache support, built and
#          booted by make check: the series must work, and cost nothing,
#          there
#   bench-* the kernels make bench compares (scripts/bench.sh), all alike
kernel_fragments() {
	case "$1" in
	test | step) echo base system kunit afs selinux nfs trace ;;
	nofsc) echo base system kunit afs selinux nfs trace nofsc ;;
	debug) echo base system kunit afs selinux nfs trace debug ;;
	bench-*) echo base nfs bench ;;
	*) die "unknown kernel variant '$1' (test, debug, step, nofsc, bench-*)" ;;
	esac
}

# make in the kernel tree, for the kernel in OBJDIR (scripts/build.sh,
# scripts/deb.sh).  ccache hashes the paths under the checkout relative to
# the object directory, so a clone elsewhere (CI's) reuses this one's
# objects.  The compiler then sees "../linux/..." paths: the prefix map keeps
# __FILE__ in WARN(), BUG() and KUnit messages the kernel's own
# "fs/nfs/...".  An empty LOCALVERSION keeps the "+" of a git tree out of
# the release: it is the version and CONFIG_LOCALVERSION.
kernel_make() { # OBJDIR MAKE-ARGUMENT...
	local obj=$1 src_from_obj
	shift
	src_from_obj=$(realpath --relative-to="$obj" "$LINUX")
	CCACHE_BASEDIR="$ROOT" make -C "$LINUX" O="$obj" ARCH=x86_64 \
		CC="ccache gcc" HOSTCC="ccache gcc" LOCALVERSION= \
		KCPPFLAGS="-fmacro-prefix-map=$src_from_obj/=" "$@"
}

# The version of make deb's packages (scripts/deb.sh): Debian's source
# version and the series on it, as 6.1.192-3+credrec.30 (30 patches).  Its
# revision, after the last "-", is the build version of the kernels that
# are packaged (uname -v's "#3+credrec.30"), so that packaging them does
# not relink them.
# (tree.sh keeps the source version in the tree's git directory, which a
# worktree of it, make check's, shares.)
package_version() {
	local git_dir
	git_dir=$(git -C "$LINUX" rev-parse --path-format=absolute --git-common-dir)
	echo "$(cat "$git_dir/debian-version")+credrec.$(series_patches | wc -l)"
}

# Whether the kernel built in OBJDIR has loadable modules.
kernel_has_modules() { # OBJDIR
	grep -q '^CONFIG_MODULES=y' "$1/.config"
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

# The QEMU command line every machine starts from, in the array "qemu":
# scripts/qemu.sh adds its disks, NICs, consoles and kernel command line
# (which starts with QEMU_APPEND), scripts/accel.sh probes KVM with it.
# The kernel built in OBJDIR and its initramfs, or a KERNEL and INITRD (a
# Debian system's own).  No AVC message lost for want of room in the audit
# queue.
QEMU_APPEND="console=ttyS0 panic=-1 audit_backlog_limit=8192"
qemu_command() { # ACCEL MEMORY OBJDIR [KERNEL INITRD]
	qemu=(qemu-system-x86_64 -machine q35 -accel "$1" -cpu max -smp 2 -m "$2"
		-nodefaults -no-reboot -display none
		-kernel "${4:-$3/arch/x86/boot/bzImage}" -initrd "${5:-$3/initramfs.cpio.gz}")
}

# A log of a boot of guest/boots, in OBJDIR: KIND console (the kernel's
# console), ktap (what the guest ran) or failure (why the boot ended
# early); the first boot's names have no "-BOOT".
boot_log() { # OBJDIR KIND BOOT
	if [ "$3" = "$(first_boot)" ]; then
		echo "$1/$2.log"
	else
		echo "$1/$2-$3.log"
	fi
}

# Say why a boot ended early, in its failure log, which scripts/report.py
# reports.
boot_failed() { # OBJDIR BOOT WHY
	echo "$3" >"$(boot_log "$1" failure "$2")"
}
