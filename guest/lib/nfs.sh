# shellcheck shell=sh
# shellcheck disable=SC2034 # the variables are for the tests that source it
# shellcheck source=guest/lib/ktap.sh
. /lib/guest/ktap.sh
# shellcheck source=guest/lib/markers.sh
. /lib/guest/markers.sh
# The helpers of the NFS tests, a file a job: the cache and its daemon,
# the counters a read moves, the kernel log's marks, the kernel's knobs.
# shellcheck source=guest/lib/cache.sh
. /lib/guest/cache.sh
# shellcheck source=guest/lib/counters.sh
. /lib/guest/counters.sh
# shellcheck source=guest/lib/kernel-log.sh
. /lib/guest/kernel-log.sh
# shellcheck source=guest/lib/knobs.sh
. /lib/guest/knobs.sh
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

# The FSC column of /proc/fs/nfsfs/volumes (read in the client's namespace)
# for the volume of a mount, found by its device number.
fsc_column() { # MOUNTPOINT
	dev=$(awk -v mp="$1" '$5 == mp { print $3 }' /proc/self/mountinfo)
	in_client cat /proc/fs/nfsfs/volumes | awk -v dev="$dev" '$4 == dev { print $6 }'
}

# A file of the export changed as the client must notice: its times set
# ahead, so that they differ from the last ones the client saw whatever
# the clock's granularity, and on disk.
times_ahead() { # FILE
	touch -d "@$(($(date +%s) + 5))" "$1" && sync
}
# The same size, new bytes, written in place (the same inode), times ahead.
change_on_server() { # FILE
	new_file "$1.new" "$(stat -c %s "$1")" && cat "$1.new" >"$1" &&
		rm "$1.new" && times_ahead "$1"
}
nfs_mount() { # DIR EXTRA-OPTIONS
	mkdir -p "$1" && in_client timeout 60 mount.nfs "$SERVER:$EXPORT" "$1" -o "$NFS_OPTS$2"
}

# Mount as nfs_mount does, REMOTE-PATH of the server ($EXPORT by
# default), and say what mount.nfs and the kernel said; the kernel's lines
# since the call are kept in $MOUNT_KERNEL_LOG.  Returns mount.nfs's status.
MOUNT_KERNEL_LOG=/tmp/mount.kernel
nfs_mount_logged() { # DIR EXTRA-OPTIONS [REMOTE-PATH]
	log_mark
	mkdir -p "$1" && in_client timeout 60 mount.nfs "$SERVER:${3:-$EXPORT}" "$1" \
		-o "$NFS_OPTS$2" >/tmp/mount.out 2>&1
	mount_status=$?
	log_since_mark >"$MOUNT_KERNEL_LOG"
	sed 's/^/# mount.nfs: /' /tmp/mount.out
	grep -i -e nfs -e FS-Cache "$MOUNT_KERNEL_LOG" | sed 's/^/# kernel: /'
	return "$mount_status"
}

# Before power-off: unmount the client, so that the cache's files are
# committed, and stop cachefilesd; then flush the disks.
nfs_down() {
	[ -e /tmp/nfs-up ] || return 0
	umount "$FSC" "$PLAIN"
	cache_stop
	sync
}
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
