# shellcheck shell=sh
# shellcheck disable=SC2034 # the variables are for the tests that source it
# shellcheck source=guest/lib/ktap.sh
. /lib/guest/ktap.sh
# The system the NFS tests run against, brought up once a boot by nfs_up:
#   /dev/vda   the export disk (ext4), mounted at $EXPORT on the server
#   /dev/vdb   the cache disk (ext4), mounted at $CACHE, cachefilesd's cache
#              (Debian's /etc/cachefilesd.conf), its root owned by cachefs
#   /dev/vdc   a small cache disk (nfs-full.t)
#   network namespaces "server" ($SERVER) and "client", joined by a veth;
#   nfsd and its daemons (rpcbind, rpc.mountd) in the server's namespace
#   $FSC and $PLAIN: the export mounted by the client with and without fsc
# Everything stays in one mount namespace: the client's mounts and the
# server's nfsd filesystem are reached from anywhere, and they belong to
# the network namespace they were mounted from.

EXPORT=/srv/export
CACHE=/var/cache/fscache
CACHE_DISK=/dev/vdb
SERVER=10.99.0.1
# The clients the export is for.
NFS_CLIENTS=10.99.0.2
FSC=/mnt/fsc
PLAIN=/mnt/plain
CACHE_UID=900
LOG=/tmp/nfs.log
BAIL_LOG=$LOG
# iproute2's ip: busybox's shell would run its own ip applet for "ip".
IP=/sbin/ip
# Short attribute caching, so that the client revalidates within a second.
NFS_OPTS=vers=4.2,retry=0,nosharecache,actimeo=1

in_server() { nsenter --net=/run/netns/server "$@"; }
in_client() { nsenter --net=/run/netns/client "$@"; }

# How an NFS read of a file went: the change in the mount's READ (and
# READ_PLUS) operations, in its fsc: count of pages read from the cache, and
# the bytes' checksum, as "ops pages checksum".  The reader's cat runs
# under $READ_PREFIX (say, runcon CONTEXT) when set.
READ_PREFIX=
read_counts() { # MOUNTPOINT FILE [USER]
	r0=$(nfs_reads "$1")
	p0=$(mountstat "$1" fsc: 1)
	c=$(su "${3:-$READER}" -s /bin/sh -c "$READ_PREFIX cat $1/$2" | sha256sum | cut -d' ' -f1)
	echo "$(($(nfs_reads "$1") - r0)) $(($(mountstat "$1" fsc: 1) - p0)) $c"
}

nfs_network() {
	mkdir -p /run/netns
	$IP netns add server && $IP netns add client &&
		$IP link add veth-server type veth peer name veth-client &&
		$IP link set veth-server netns server &&
		$IP link set veth-client netns client &&
		$IP -n server addr add "$SERVER/24" dev veth-server &&
		$IP -n client addr add 10.99.0.2/24 dev veth-client &&
		$IP -n server link set lo up && $IP -n client link set lo up &&
		$IP -n server link set veth-server up &&
		$IP -n client link set veth-client up
}

nfs_server() {
	mkdir -p "$EXPORT" /var/lib/nfs /run/rpcbind &&
		ln -sfn /run /var/run &&
		chown _rpc /run/rpcbind &&
		mount -t ext4 /dev/vda "$EXPORT" &&
		for client in $NFS_CLIENTS; do
			echo "$EXPORT $client(rw,no_root_squash,no_subtree_check,fsid=1)"
		done >/etc/exports &&
		in_server rpcbind &&
		wait_for 5 pidof rpcbind &&
		in_server mount -t nfsd nfsd /proc/fs/nfsd &&
		echo 10 >/proc/fs/nfsd/nfsv4gracetime &&
		echo 10 >/proc/fs/nfsd/nfsv4leasetime &&
		in_server exportfs -ra &&
		in_server rpc.mountd &&
		in_server rpc.nfsd 8
}

# Debian's cachefilesd (0.10.10).  It aborts at random: decant_cull_table()
# takes any cull-table pointer whose bits 28-31 read 6 for its own poison
# value and calls abort(), and with address-space randomisation some heap
# pointers have them ("Fix random abort()", Hristo Venev, linux-nfs,
# January 2024, not in Debian's package).  Without randomisation its heap
# starts at 0x5555_5555_xxxx and would have to grow by some 170 MiB to reach
# such a pointer.  It runs in its own SELinux domain (guest/selinux/).
# The benchmark's kernels have no SELinux: then it runs unlabelled.
cachefilesd_run() { # ARGS...
	if selinux_on; then
		runcon system_u:system_r:cachefilesd_t setarch "$(uname -m)" -R cachefilesd "$@"
	else
		setarch "$(uname -m)" -R cachefilesd "$@"
	fi
}
selinux_on() { [ -e /sys/fs/selinux/enforce ]; }

# A cache directory on its own disk: mounted, its root owned by cachefs
# (the kernel creates the cache's files as that owner, through
# set_create_files_as()) and labelled for SELinux as the cache, the label
# the kernel gives what it creates in it, by the same call.
cache_dir_prepare() { # DIR DEVICE
	mkdir -p "$1" &&
		{ grep -q " $1 " /proc/mounts || mount -t ext4 "$2" "$1"; } &&
		chown "$CACHE_UID:$CACHE_UID" "$1" && chmod 0700 "$1" &&
		{ ! selinux_on || chcon "$CACHE_CONTEXT" "$1"; }
}
CACHE_CONTEXT=system_u:object_r:cachefiles_cache_t

# cachefilesd on the cache disk (its pid file in /var/run).
cache_start() {
	mkdir -p /run /var && ln -sfn /run /var/run &&
		cache_dir_prepare "$CACHE" "$CACHE_DISK" &&
		cachefilesd_run -s -f /etc/cachefilesd.conf &&
		wait_for 10 cache_active
}

# Stop cachefilesd, and wait for it to leave and its cache to be withdrawn.
# It may have left already: when the kernel stops a cache after an I/O
# error (e.g. a cache file's xattr it may not write), cachefilesd exits.
cache_stop() {
	killall -q cachefilesd
	wait_for 10 not_running cachefilesd && wait_for 10 no_cache
}

# The cache's data files (lost+found is mkfs's, not the kernel's).
cache_files() { find "$CACHE" -path "$CACHE/lost+found" -prune -o -type f -print; }

# The names (tags) of the caches bound and active ("A" in the state
# column of /proc/fs/fscache/caches), one a line.
active_caches() {
	awk 'NR > 2 && $6 == "A" { print $7 }' /proc/fs/fscache/caches
}
cache_active() { [ -n "$(active_caches)" ]; }
no_cache() { ! cache_active; }

# The FSC column of /proc/fs/nfsfs/volumes (read in the client's namespace)
# for the volume of a mount, found by its device number.
fsc_column() { # MOUNTPOINT
	dev=$(awk -v mp="$1" '$5 == mp { print $3 }' /proc/self/mountinfo)
	in_client cat /proc/fs/nfsfs/volumes | awk -v dev="$dev" '$4 == dev { print $6 }'
}

nfs_mount() { # DIR EXTRA-OPTIONS
	mkdir -p "$1" && in_client timeout 60 mount.nfs "$SERVER:$EXPORT" "$1" -o "$NFS_OPTS$2"
}

# Before power-off: unmount the client, so that the cache's files are
# committed, and stop cachefilesd; then flush the disks.
nfs_down() {
	[ -e /tmp/nfs-up ] || return 0
	umount "$FSC" "$PLAIN"
	cache_stop
	sync
}
not_running() { ! pidof "$1" >/dev/null; }

nfs_up() {
	[ -e /tmp/nfs-up ] && return 0
	ln -sf /proc/mounts /etc/mtab
	nfs_network >>"$LOG" 2>&1 || bail "network namespaces"
	nfs_server >>"$LOG" 2>&1 || bail "nfsd"
	cache_start >>"$LOG" 2>&1 || bail "cachefilesd"
	nfs_mount "$FSC" ,fsc >>"$LOG" 2>&1 || bail "mount with fsc"
	nfs_mount "$PLAIN" "" >>"$LOG" 2>&1 || bail "mount without fsc"
	touch /tmp/nfs-up
}

# A field of the fsc: or events: line of a mount's /proc/self/mountstats.
# fsc: counters are only in mountstats of kernels with NFS_FSCACHE.
mountstat() { # MOUNTPOINT LINE-KEY FIELD
	awk -v mp="$1" -v key="$2" -v f="$3" '
		$1 == "device" { this = ($5 == mp) }
		this && $1 == key { print $(f + 1); exit }' /proc/self/mountstats
}

# The count of READ and READ_PLUS operations sent for a mount.
nfs_reads() { # MOUNTPOINT
	awk -v mp="$1" '
		$1 == "device" { this = ($5 == mp) }
		this && ($1 == "READ:" || $1 == "READ_PLUS:") { n += $2 }
		END { print n + 0 }' /proc/self/mountstats
}

# A counter of the fsc mount's fsc: line: 1 pages read from the cache,
# 2 failed, 3 written to it, 4 not written, 5 uncached.
fsc() { mountstat "$FSC" fsc: "$1"; }
# Pages whose store in the cache has ended, written or not, for a mount
# ($FSC by default).
stored() { # [MOUNTPOINT]
	echo $(($(mountstat "${1:-$FSC}" fsc: 3) + $(mountstat "${1:-$FSC}" fsc: 4)))
}
# Stores end after the read that fetched the pages: wait_for this.
# shellcheck disable=SC2317 # called through wait_for
stored_since() { [ $(($(stored "$3") - $1)) -ge "$2" ]; } # STORED-BEFORE PAGES [MOUNTPOINT]
# cachefiles' error injection (cachefiles.rst).
INJECT=/proc/sys/cachefiles/error_injection

# A counter of /proc/fs/fscache/stats, e.g. "IO rd" or "NoSpace cull"; an
# empty answer when there is no such counter.
fscache_stat() { # LINE-NAME KEY
	awk -v p="$1" -v k="$2=" '
		{ sub(/:$/, "", $1) }
		$1 == p { for (i = 2; i <= NF; i++) if (index($i, k) == 1) { print substr($i, length(k) + 1); exit } }' \
		/proc/fs/fscache/stats
}

# A cgroup v2 group, $CGROUP/NAME, whose reads of a disk are limited to BPS
# bytes a second (io.max; "max" lifts the limit): a task moved into it is
# held inside its reads of that disk.
CGROUP=/sys/fs/cgroup
throttle_reads() { # NAME DISK BPS
	{ grep -q " $CGROUP cgroup2 " /proc/mounts || mount -t cgroup2 none "$CGROUP"; } &&
		echo +io >"$CGROUP/cgroup.subtree_control" && mkdir -p "$CGROUP/$1" &&
		echo "$(cat "/sys/block/$2/dev") rbps=$3" >"$CGROUP/$1/io.max"
}

# tracefs, where trace events are turned on and read; 6.1 does not mount
# it by itself.
TRACING=/sys/kernel/tracing
tracefs_mount() {
	grep -q " $TRACING tracefs " /proc/mounts || mount -t tracefs tracefs "$TRACING"
}
drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# The SHA-256 of a file read through a mapping, one page a fault
# (guest/tools/mmap-read.c).
mmap_sum() { # FILE
	mmap-read "$1" | sha256sum | cut -d' ' -f1
}

# The SHA-256 of a file of the export, read by $READER through the fsc
# mount.
client_sum() { # NAME
	as_reader "cat $FSC/$1" | sha256sum | cut -d' ' -f1
}

# Read a file twice through a mount, dropping caches between: "ops pages
# checksum" of the second read (read_counts).
read_twice() { # MOUNTPOINT NAME
	read_counts "$1" "$2" >/dev/null
	drop_caches
	read_counts "$1" "$2"
}

# The kernel log since the test's last mark, which log_mark writes there
# with the test's name.
MARK_NAME=${0##*/}
MARK_NAME=${MARK_NAME%.t}
mark=0
log_mark() {
	mark=$((mark + 1))
	echo "$MARK_NAME: mark $mark" >/dev/kmsg
}
log_since_mark() {
	dmesg | sed -n "/$MARK_NAME: mark $mark\$/,\$p"
}
denials_since_mark() {
	log_since_mark | grep "avc:  denied"
}
logged_since_mark() { # PATTERN
	log_since_mark | grep -q -e "$1"
}
# SELinux denials the test provokes are between these markers in the
# kernel log; any other fails the run (scripts/report.py).  A window the
# test leaves open fails it, and run-tests closes it ($AVC_WINDOW there).
AVC_WINDOW=/tmp/avc-window-open
expect_denials() { # begin|end REASON
	echo "$MARK_NAME: expected AVC denials: $1 ($2)" >/dev/kmsg
	case $1 in
	begin) echo "$2" >"$AVC_WINDOW" ;;
	end) rm -f "$AVC_WINDOW" ;;
	esac
}
