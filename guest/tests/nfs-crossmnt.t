#!/bin/sh
# A path that crosses into another filesystem of the server makes a
# submount, which inherits the mount's fsc uniquifier into a cache volume
# key of its own fsid.  With a uniquifier as long as the mount's key allows
# and a nested filesystem whose fsid (a UUID) makes the key longer, the
# crossing must still work: the submount reads right, uncached, and the
# kernel says why; the mount itself stays cached.  Under NFSv4 the
# export's own superblock is a submount of the server's root too: the
# longest uniquifier is the one the kernel's messages allow for both.  The
# server exports a tmpfs (fsid=2, crossmnt) with another tmpfs inside it
# (fsid=UUID).
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 5
nfs_up

cross=/srv/cross
mnt=/mnt/cross
opts=rw,no_root_squash,no_subtree_check
{ mkdir -p "$cross" && mount -t tmpfs cross "$cross" &&
	mkdir "$cross/nested" && mount -t tmpfs nested "$cross/nested" &&
	in_server exportfs -o "$opts,fsid=2,crossmnt" "$NFS_CLIENTS:$cross" &&
	in_server exportfs -o "$opts,fsid=7d1b1f0c-2e4a-4c3b-9a8f-6e5d4c3b2a19" \
		"$NFS_CLIENTS:$cross/nested"; } >>"$LOG" 2>&1 || bail "exports of $cross"
# nfsd lets go of the exported files some seconds after their last use (its
# file cache): unmount them once it has.
on_exit "wait_for 15 umount $cross/nested && wait_for 15 umount $cross"
on_exit "in_server exportfs -u $NFS_CLIENTS:$cross/nested $NFS_CLIENTS:$cross && in_server exportfs -f"
head -c 100000 /dev/urandom >"$cross/top"
head -c 100000 /dev/urandom >"$cross/nested/inside"
mkdir -p "$mnt"
on_exit "umount $mnt/nested $mnt 2>/dev/null || true"

# Mount $cross with a uniquifier of LENGTH bytes; the kernel's messages
# since in $MOUNT_KERNEL_LOG.
mount_with_uniquifier() { # LENGTH
	nfs_mount_logged "$mnt" ",fsc=$(head -c "$1" /dev/zero | tr '\0' u)" "$cross"
}
# The largest length the kernel's last message allowed, "at most N".
allowed() { sed -n 's/.*(at most \([0-9]*\).*/\1/p' "$MOUNT_KERNEL_LOG" | tail -n 1; }

# The longest uniquifier the mount's own superblocks take (in NFSv4, the
# server's root and the export): from too long, down to what the kernel's
# last message allowed, until it says nothing.
length=300
while :; do
	mount_with_uniquifier "$length"
	mounted=$?
	grep -q 'NFS: fsc uniquifier.*too long' "$MOUNT_KERNEL_LOG" || break
	[ "$mounted" -ne 0 ] || umount "$mnt"
	next=$(allowed)
	if [ -z "$next" ] || [ "$next" -ge "$length" ]; then
		length=
		break
	fi
	length=$next
done
diag "uniquifier of ${length:-no} bytes"
[ -n "$length" ] && [ "$mounted" -eq 0 ] &&
	expect_eq "the mount's FSC column" yes "$(fsc_column "$mnt")"
ok $? longest_uniquifier_mounts_cached

got=$(sum "$mnt/top")
expect_eq "bytes of a file of the mount" "$(sum "$cross/top")" "$got"
ok $? mount_reads_right

log_mark
got=$(sum "$mnt/nested/inside")
log_since_mark | grep 'NFS: fsc uniquifier' | sed 's/^/# kernel: /'
expect_eq "bytes of a file past the crossing" "$(sum "$cross/nested/inside")" "$got"
ok $? crossing_reads_right
expect_eq "the submount's FSC column" "no" "$(fsc_column "$mnt/nested")"
ok $? submount_uncached
log_since_mark | grep -q "submount of $SERVER, fsid .*: the submount is not cached"
ok $? submount_uncached_said
umount "$mnt/nested" 2>/dev/null
umount "$mnt"
finish
