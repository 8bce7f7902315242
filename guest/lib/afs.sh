# shellcheck shell=sh
# shellcheck disable=SC2034 # the variables are for the tests that source it
# The system the AFS tests (guest/tests/afs) run against, brought up once a
# boot by afs_up:
#   /dev/vda   the cache disk (ext4), mounted at $CACHE, cachefilesd's cache
#   /dev/vdb   the file server's partition (ext4), mounted at $VICEPA
#   network namespaces "server" ($AFS_SERVER), "client" ($AFS_CLIENT) and
#   "writer" ($AFS_WRITER), the server's joined to each of the others by a
#   veth; only the client's has an address on the server's side, so that
#   the server has one address: a file server registers every address it
#   has, and kAFS drops a callback from an address it was not told of
#   OpenAFS 1.8.9 (Debian's packages) in the server's namespace, its host
#   name "server": bosserver without Kerberos (-noauth), running the
#   protection and volume location servers and the demand-attach file
#   server; the cell $CELL with root.afs and root.cell.  Each of the other
#   two machines' addresses is in system:administrators, which the default
#   ACL gives every right: kAFS's calls, with no key, are anonymous, and a
#   file server adds the rights of the calling host's groups
#   kAFS in the client's namespace with root.cell mounted at $AFS, cached
#   through cachefilesd; and in the writer's, the other client, at
#   $AFS_OTHER, uncached (the cache's volume key, afs,CELL,VOLUME-ID, is
#   the client's, which mounted first)
# Everything stays in one mount namespace; each mount belongs to the
# network namespace it was made from.
# shellcheck source=guest/lib/ktap.sh
. /lib/guest/ktap.sh
# shellcheck source=guest/lib/cache.sh
. /lib/guest/cache.sh
# shellcheck source=guest/lib/counters.sh
. /lib/guest/counters.sh
# shellcheck source=guest/lib/kernel-log.sh
. /lib/guest/kernel-log.sh
# shellcheck source=guest/lib/knobs.sh
. /lib/guest/knobs.sh

CELL=credrec.test
AFS_SERVER=10.99.0.1
AFS_CLIENT=10.99.0.2
AFS_WRITER=10.99.1.2
AFS=/mnt/afs
AFS_OTHER=/mnt/afs-writer
CACHE=/var/cache/fscache
CACHE_DISK=/dev/vda
CACHE_UID=900
VICEPA=/vicepa
# OpenAFS's servers log here, each to its own file (BosLog, VLLog, ...).
AFS_LOGS=/var/log/openafs
LOG=/tmp/afs.log
BAIL_LOG=$LOG
# iproute2's ip: busybox's shell would run its own ip applet for "ip".
IP=/sbin/ip

in_server() { nsenter --net=/run/netns/server "$@"; }
in_client() { nsenter --net=/run/netns/client "$@"; }
in_writer() { nsenter --net=/run/netns/writer "$@"; }

afs_network() {
	mkdir -p /run/netns
	for ns in server client writer; do
		$IP netns add "$ns" && $IP -n "$ns" link set lo up || return 1
	done
	$IP link add veth-sc type veth peer name veth-c &&
		$IP link add veth-sw type veth peer name veth-w &&
		$IP link set veth-sc netns server && $IP link set veth-sw netns server &&
		$IP link set veth-c netns client && $IP link set veth-w netns writer &&
		$IP -n server addr add "$AFS_SERVER/24" dev veth-sc &&
		$IP -n client addr add "$AFS_CLIENT/24" dev veth-c &&
		$IP -n writer addr add "$AFS_WRITER/32" dev veth-w &&
		for link in server:veth-sc server:veth-sw client:veth-c writer:veth-w; do
			$IP -n "${link%:*}" link set "${link#*:}" up || return 1
		done &&
		$IP -n server route add "$AFS_WRITER/32" dev veth-sw &&
		$IP -n writer route add "$AFS_SERVER/32" dev veth-w
}

# An admin command (bos, vos, pts) run on the server's machine, without
# authentication (the servers run with NoAuth).
afs_admin() { # COMMAND ARGS...
	in_server "$@" -noauth
}
# The server's processes, as bosserver reports them.
bos_status() { afs_admin bos status server -long; }
afs_vldb_up() { afs_admin vos listvldb >/dev/null; }
# The file server has registered its address (with its UUID) in the VLDB.
afs_registered() { afs_admin vos listaddrs -printuuid | grep -q UUID; }
afs_partition_up() { afs_admin vos partinfo server | grep -q "/vicepa"; }

# The cell's configuration, its servers and their first volumes.  The file
# server starts once the databases answer: before, its registration fails
# and is retried only five minutes later.
afs_server() {
	mkdir -p /etc/openafs/server /var/lib/openafs/local /var/lib/openafs/db \
		"$AFS_LOGS" "$VICEPA" &&
		chmod 0700 /etc/openafs/server /var/lib/openafs/db &&
		mount -t ext4 /dev/vdb "$VICEPA" &&
		echo "$CELL" >/etc/openafs/server/ThisCell &&
		printf '>%s\t#credrec test cell\n%s\t#server\n' "$CELL" "$AFS_SERVER" \
			>/etc/openafs/server/CellServDB &&
		cp /etc/openafs/server/ThisCell /etc/openafs/server/CellServDB /etc/openafs/ &&
		in_server unshare -u sh -c 'hostname server && exec bosserver -noauth' &&
		wait_for 60 bos_status &&
		afs_admin bos create server ptserver simple /usr/lib/openafs/ptserver &&
		afs_admin bos create server vlserver simple /usr/lib/openafs/vlserver &&
		wait_for 180 afs_vldb_up &&
		for host in "$AFS_CLIENT" "$AFS_WRITER"; do
			afs_admin pts createuser -name "$host" &&
				afs_admin pts adduser -user "$host" -group system:administrators ||
				return 1
		done &&
		afs_admin bos create server dafs dafs \
			-cmd /usr/lib/openafs/dafileserver -cmd /usr/lib/openafs/davolserver \
			-cmd /usr/lib/openafs/salvageserver -cmd /usr/lib/openafs/dasalvager &&
		wait_for 180 afs_registered &&
		wait_for 180 afs_partition_up &&
		afs_admin vos create server a root.afs &&
		afs_admin vos create server a root.cell -maxquota 0
}

# kAFS in a network namespace: told where the cell's volume location server
# is (no DNS), and root.cell mounted read-write at DIR.
afs_mount() { # NAMESPACE DIR
	mkdir -p "$2" &&
		nsenter --net="/run/netns/$1" timeout 60 \
			mount -t afs "%$CELL:root.cell." "$2"
}
afs_cell_add() { # NAMESPACE
	nsenter --net="/run/netns/$1" sh -c "echo 'add $CELL $AFS_SERVER' >/proc/fs/afs/cells"
}

# kAFS's calls to the file server, traced (afs_make_fs_call): FetchData
# counted for a file.
afs_trace_on() {
	tracefs_mount &&
		echo 1 >"$TRACING/events/afs/afs_make_fs_call/enable"
}
# The file's FID, "VOLUME:VNODE:UNIQUE" in hex, as kAFS's afs.fid xattr
# gives it.
afs_fid() { # FILE
	getfattr --absolute-names --only-values -n afs.fid "$1"
}
# The FetchData calls (FS.FetchData and FS.FetchData64) traced for a FID
# since the trace was last cleared: the trace prints each part zero-padded.
fetches_of() { # FID
	awk -v fid="$1" '
		BEGIN { n = split(fid, want, ":") }
		$NF ~ /^FS\.FetchData(64)?$/ {
			split($(NF - 1), got, ":")
			same = 1
			for (i = 1; i <= n; i++) {
				sub(/^0+/, "", got[i]); w = want[i]; sub(/^0+/, "", w)
				if (got[i] != w) same = 0
			}
			c += same
		}
		END { print c + 0 }' "$TRACING/trace"
}
afs_trace_clear() { : >"$TRACING/trace"; }

# Read FILE, its bytes' SHA-256 in $got, the FetchData calls the read made
# for it in $fetches, and the reads from the cache (fscache's "IO rd") in
# $cache_reads; none of them when FILE has no FID.
afs_read() { # FILE
	got="(no FID)" fetches=-1 cache_reads=-1
	ar_fid=$(afs_fid "$1") || return 1
	afs_trace_clear
	ar_before=$(or_0 fscache_stat IO rd)
	got=$(sum "$1")
	fetches=$(fetches_of "$ar_fid")
	cache_reads=$(($(or_0 fscache_stat IO rd) - ar_before))
}

# FILE read (afs_read) from the cache: the bytes of WANT-SUM, no FetchData,
# a read of the cache at least; WHAT names the read in what is said.
expect_from_cache() { # FILE WANT-SUM WHAT
	afs_read "$1"
	diag "$3: $fetches FetchData, $cache_reads cache reads"
	expect_eq "$3: bytes" "$2" "$got" &&
		expect_eq "$3: FetchData" 0 "$fetches" &&
		expect_ge "$3: cache reads" 1 "$cache_reads"
}

# Writes to the cache started: fscache's "IO wr"; wait_for the count to
# pass a count taken before.
cache_writes() { or_0 fscache_stat IO wr; }
# shellcheck disable=SC2317 # called through wait_for
cache_written_since() { [ "$(cache_writes)" -gt "$1" ]; } # WRITES-BEFORE
# Whether the cache has nothing left to do for what was read: no cookie or
# volume being made (cache_settled), and every copy to the cache the netfs
# library started ended, written or failed (its RdHelp counters, which
# 6.1 shows in /proc/fs/fscache/stats: WR = ws + wf).  A page still being copied cannot be dropped from the page
# cache, so a read after drop_caches would not come from the cache: wait
# for this first.
# shellcheck disable=SC2317 # called through wait_for
cache_idle() {
	cache_settled &&
		awk '$1 == "RdHelp" && $3 ~ /^WR=/ {
			split($3, a, "="); split($4, b, "="); split($5, c, "=")
			idle = (a[2] == b[2] + c[2])
		}
		END { exit !idle }' /proc/fs/fscache/stats
}

# Before power-off: unmount kAFS, so that the cache's files are committed,
# stop cachefilesd, and stop the servers cleanly (an unclean stop marks
# the volumes for salvage).
afs_down() {
	[ -e /run/netns/server ] || return 0
	timeout 60 umount "$AFS" "$AFS_OTHER"
	cache_stop
	in_server timeout 60 bos shutdown server -wait -noauth
	killall -q bosserver
	sync
}
# Bring the system up once a boot; a test after a failed bring-up bails
# with that, rather than trying again over what the first attempt left.
afs_up() {
	[ -e /tmp/afs-up ] && return 0
	[ ! -e /tmp/afs-failed ] || bail "the AFS system failed to come up in an earlier test"
	touch /tmp/afs-failed
	ln -sf /proc/mounts /etc/mtab
	mkdir -p /run /var && ln -sfn /run /var/run
	afs_network >>"$LOG" 2>&1 || bail "network namespaces"
	if ! afs_server >>"$LOG" 2>&1; then
		bos_status >>"$LOG" 2>&1
		tail -n 20 "$AFS_LOGS"/* >>"$LOG" 2>&1
		bail "the OpenAFS server"
	fi
	afs_trace_on >>"$LOG" 2>&1 || bail "tracing kAFS's calls"
	cache_start >>"$LOG" 2>&1 || bail "cachefilesd"
	afs_cell_add client >>"$LOG" 2>&1 || bail "the cell, in the client's kAFS"
	afs_mount client "$AFS" >>"$LOG" 2>&1 || bail "kAFS mount, the client's"
	afs_cell_add writer >>"$LOG" 2>&1 || bail "the cell, in the writer's kAFS"
	afs_mount writer "$AFS_OTHER" >>"$LOG" 2>&1 || bail "kAFS mount, the writer's"
	rm /tmp/afs-failed
	touch /tmp/afs-up
}
