# shellcheck shell=sh
# shellcheck disable=SC2034 # the variables are for nfs.sh and the tests
# The cluster (scripts/cluster.sh): three machines, each its own kernel.
#   server     nfsd exporting its disk (/dev/vda, $EXPORT) to both clients,
#              and the tests (guest/tests/cluster), which drive the clients
#   client-a,  each with cachefilesd caching on its disk (/dev/vda, $CACHE)
#   client-b   and the export mounted with fsc on $FSC; each runs an agent
#              that runs the server's commands (on_client)
# Each client has a link of its own to the server.  A NIC's MAC gives its
# address (scripts/qemu.sh): 52:54:00:98:0L:0H is 10.98.L.H/24, L the link
# (1 client-a's, 2 client-b's), H the host (1 the server, 2 the client).
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
# shellcheck source=guest/lib/boots.sh
. /lib/guest/boots.sh

# Each machine is one network: no namespaces.
in_server() { "$@"; }
in_client() { "$@"; }
CACHE_DISK=/dev/vda
CLUSTER_CLIENTS="client-a client-b"
AGENT_PORT=7000
AGENT_LOG=/tmp/agent.log

# The machine's role: its boot's name in guest/boots, less "cluster-".
cluster_role() {
	this_boot | sed -n 's/^cluster-//p'
}

# A client's link, and its address on it.
client_link() { # CLIENT
	case $1 in
	client-a) echo 1 ;;
	client-b) echo 2 ;;
	*) return 1 ;;
	esac
}
client_address() { # CLIENT
	link=$(client_link "$1") && echo "10.98.$link.2"
}
# On a client, the server's address on its link.
if link=$(client_link "$(cluster_role)"); then
	SERVER=10.98.$link.1
fi

# The machine's name (NFSv4 names each client by it: two clients of one
# name would take each other's state) and its NICs' addresses.
cluster_network() {
	hostname "$(cluster_role)" &&
		$IP link set lo up || return 1
	for dev in /sys/class/net/*; do
		mac=$(cat "$dev/address")
		case $mac in
		52:54:00:98:*) ;;
		*) continue ;;
		esac
		link=$((0x$(echo "$mac" | cut -d: -f5)))
		host=$((0x$(echo "$mac" | cut -d: -f6)))
		$IP addr add "10.98.$link.$host/24" dev "${dev##*/}" &&
			$IP link set "${dev##*/}" up || return 1
	done
}

# On the server: run a shell command line on a client by its agent, which
# has this library's functions; print what it printed (stdout and stderr)
# and return its exit status, or 255 when the client did not answer.  A
# client that once did not answer is lost: the later calls fail at once.
on_client() { # CLIENT COMMAND-LINE
	if [ -e "/tmp/lost-$1" ]; then
		echo "on_client $1: lost, it did not answer '$(cat "/tmp/lost-$1")'"
		return 255
	fi
	agent_call "$1" "$2" && return 0
	status=$?
	[ "$status" -ne 255 ] || echo "$2" >"/tmp/lost-$1"
	return "$status"
}
# The same, a client not lost for not answering (cluster_up waits for it).
agent_call() { # CLIENT COMMAND-LINE
	address=$(client_address "$1") || return 255
	echo "$2" | timeout 600 nc -w 5 "$address" "$AGENT_PORT" >/tmp/on-client.out 2>&1
	last=$(tail -n 1 /tmp/on-client.out)
	case $last in
	"agent: exit "*) ;;
	*)
		echo "on_client $1: no answer to '$2'"
		cat /tmp/on-client.out
		return 255
		;;
	esac
	sed '$d' /tmp/on-client.out
	return "${last#agent: exit }"
}

# On the server: nfsd, and each client's cache and fsc mount, each once a
# boot (the demo, then each test, calls it).
cluster_up() {
	ln -sf /proc/mounts /etc/mtab
	NFS_CLIENTS=$(for client in $CLUSTER_CLIENTS; do client_address "$client"; done)
	[ -e /tmp/nfsd-up ] || {
		nfs_server >>"$LOG" 2>&1 && touch /tmp/nfsd-up
	} || bail "nfsd"
	for client in $CLUSTER_CLIENTS; do
		[ ! -e "/tmp/$client-up" ] || continue
		wait_for 120 agent_call "$client" true >>"$LOG" ||
			bail "$client: its agent never answered"
		on_client "$client" client_up >>"$LOG" 2>&1 ||
			bail "$client: cachefilesd and the fsc mount"
		touch "/tmp/$client-up"
	done
}

# On the server, before it powers off: each client unmounts and stops its
# cache, then its agent (the client's test) ends.
cluster_down() {
	down=0
	for client in $CLUSTER_CLIENTS; do
		on_client "$client" agent_done || down=1
	done
	return "$down"
}

# On the server: the READ and READ_PLUS operations nfsd has served (their
# numbers, 25 and 68, are their NFSv4 operation codes).
nfsd_reads() {
	awk '$1 == "proc4ops" { print $(2 + 25 + 1) + $(2 + 68 + 1) }' /proc/net/rpc/nfsd
}

# On a client (the agent runs them): the fsc mount, its cache already
# bound (guest/cluster/client.t).
client_up() {
	ln -sf /proc/mounts /etc/mtab
	nfs_mount "$FSC" ,fsc </dev/null >>"$LOG" 2>&1 || {
		cat "$LOG"
		return 1
	}
	record_fsc_mount
	touch /tmp/nfs-up
}
# The agent's last command: the mount and the cache down (their status in
# /tmp/agent-done, for the client's test), then the agent stops listening.
agent_done() {
	umount "$FSC" && rm /tmp/nfs-up && cache_stop && sync
	echo "$?" >/tmp/agent-done
	kill "$(cat /tmp/agent.pid)"
}

# On a client: drop clean pages from the page cache, keeping inodes and
# dentries, and with them the attributes the client knows.
drop_page_cache() {
	sync
	echo 1 >/proc/sys/vm/drop_caches
}

# On a client: wait until PAGES pages have been stored in the cache since
# the count was STORED0 (stored), or say how many were.
wait_stored() { # STORED0 PAGES
	wait_for 60 stored_since "$1" "$2" || {
		echo "only $(($(stored) - $1)) of $2 pages stored"
		return 1
	}
}

# On a client: put a file of the export in the cache alone.  Read it, wait
# until its pages are stored, drop the page cache, read it again (from the
# cache) and drop the page cache again; the inode stays, with the
# attributes the client last saw.  Prints the pages the second read took
# from the cache.
cache_file() { # NAME
	stored0=$(stored)
	size=$(stat -c %s "$FSC/$1") &&
		as_reader "cat $FSC/$1" >/dev/null || return 1
	wait_stored "$stored0" "$(pages_of "$size")" || return 1
	drop_page_cache
	count_reads "$FSC" read_files "$1" || return 1
	echo "$from_cache"
	drop_page_cache
}

# On a client: read files of the export as $READER through the fsc mount,
# and print "READs pages-from-the-cache" the reads took; then, STORED not
# 0, wait until that many pages have been stored in the cache since; then
# drop the page cache.
read_pass() { # STORED NAME...
	want_stored=$1
	shift
	stored0=$(stored)
	count_reads "$FSC" read_files "$@" || return 1
	echo "$reads $from_cache"
	[ "$want_stored" -eq 0 ] || wait_stored "$stored0" "$want_stored" || return 1
	drop_caches
}

# Read files of the fsc mount as $READER, the bytes thrown away.
read_files() { # NAME...
	for name; do
		as_reader "cat $FSC/$name" >/dev/null || return 1
	done
}

# On a client: read a file of the export through the fsc mount, wait until
# the pages it fetched are stored in the cache, drop the caches and read it
# again; print "READs pages-from-the-cache checksum" (read_counts) of each
# read, six words.
read_and_reread() { # NAME
	stored0=$(stored)
	first=$(read_counts "$FSC" "$1") &&
		size=$(stat -c %s "$FSC/$1") &&
		wait_stored "$stored0" "$(pages_of "$size")" || return 1
	drop_caches
	echo "$first $(read_counts "$FSC" "$1")"
}

# On a client: the export mounted where it may read stale bytes, for the
# negative control of the coherency tests: NFSv3 without close-to-open,
# attributes kept for ten minutes, no cache.
STALE=/mnt/stale
stale_mount() {
	mkdir -p "$STALE" &&
		mount.nfs "$SERVER:$EXPORT" "$STALE" </dev/null \
			-o vers=3,nolock,proto=tcp,mountproto=tcp,retry=0,nosharecache,nocto,actimeo=600
}

# On a client: the fsc mount as /proc/mounts shows it and its FSC column,
# kept in /tmp/fsc-mount for the client's test.
FSC_MOUNT=/tmp/fsc-mount
record_fsc_mount() {
	echo "$(grep " $FSC nfs" /proc/mounts) FSC=$(fsc_column "$FSC")" >"$FSC_MOUNT"
}

# A file's bytes one a line, in hex (od), for counting the bytes that differ.
byte_lines() { # FILE
	od -An -v -tx1 -w1 "$1"
}
