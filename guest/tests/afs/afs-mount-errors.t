#!/bin/sh
# A kAFS mount that cannot be made fails, soon, and says why in the
# kernel's log (mount(2) has no other): a cell kAFS was never told of (no
# DNS to find it by), a cell whose only volume location server is an
# address nothing answers from, a volume the cell does not have.  The
# mounts that work stay working.
# shellcheck source=guest/lib/afs.sh
. /lib/guest/afs.sh
plan 4
afs_up
# Seconds a failing mount may take: kAFS gives up on a silent server
# after its RxRPC call times out.
MOUNT_LIMIT=60

# Mount SOURCE in the client's namespace, timed: $mount_status, $seconds,
# and what mount and the kernel said in $said.
try_mount() { # SOURCE
	mkdir -p /mnt/afs-bad
	log_mark
	start=$(date +%s)
	in_client timeout $((MOUNT_LIMIT * 3)) mount -t afs "$1" /mnt/afs-bad >/tmp/mount.out 2>&1
	mount_status=$?
	seconds=$(($(date +%s) - start))
	said="$(cat /tmp/mount.out) $(log_since_mark | grep -i -e afs -e rxrpc)"
	diag "mount $1: status $mount_status after ${seconds}s"
	echo "$said" | sed 's/^/# said: /'
	[ "$mount_status" -ne 0 ] || umount /mnt/afs-bad
}

try_mount "%nosuch.test:root.cell."
expect_ne "mount status" 0 "$mount_status" &&
	expect_le "seconds" "$MOUNT_LIMIT" "$seconds" &&
	expect_eq "why" 1 "$(echo "$said" |
		grep -c 'afs: Cell nosuch.test: no volume location server address known')"
ok $? unknown_cell_fails

# An address on the client's own network that takes packets and never
# answers: a neighbour entry for a link address no one has.  The entry and
# the cell stay for the boot's later tests; neither touches the others.
in_client "$IP" neigh add 10.99.0.9 lladdr 02:00:00:00:00:09 dev veth-c nud permanent
in_client sh -c "echo 'add silent.test 10.99.0.9' >/proc/fs/afs/cells"
try_mount "%silent.test:root.cell."
expect_ne "mount status" 0 "$mount_status" &&
	expect_le "seconds" "$MOUNT_LIMIT" "$seconds" &&
	expect_eq "why" 1 "$(echo "$said" |
		grep -c 'afs: Cell silent.test: no volume location server answered')"
ok $? silent_server_fails

try_mount "%$CELL:no.such.volume."
expect_ne "mount status" 0 "$mount_status" &&
	expect_le "seconds" "$MOUNT_LIMIT" "$seconds" &&
	expect_eq "why" 1 "$(echo "$said" |
		grep -c "afs: Cell $CELL: no volume no.such.volume of the type asked for")"
ok $? unknown_volume_fails

expect_eq "the client's mount still reads" "$(printf 'still\n' | sha256sum | cut -d' ' -f1)" \
	"$(printf 'still\n' >"$AFS_OTHER/still" && sync && sum "$AFS/still")"
ok $? good_mount_unharmed
finish
