#!/bin/sh
# The fsc mount option given wrong, or twice: each mount fails with a
# message naming the problem, or falls back as nfs-client.rst says, and
# reads through it are right.  (An unknown option beside fsc, and fsc with
# no cache bound, are nfs-daemon's cases.)
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 8
nfs_up

f=options
size=1048576
new_file "$EXPORT/$f" "$size"
want=$(sum "$EXPORT/$f")
mnt=/mnt/options
mkdir -p "$mnt"
# The export is mounted on $mnt with nfs_mount_logged: the options given
# after NFS_OPTS, the kernel's messages since in $MOUNT_KERNEL_LOG.
mounted() { grep -q " $mnt nfs" /proc/mounts; }
# The keys of the fscache volumes, from /proc/fs/fscache/volumes (an NFSv4
# mount has two: the server's root's and the export's).
volume_key() {
	in_client cat /proc/fs/fscache/volumes | awk 'NR > 2 { print $NF }'
}
# Read the file through $mnt twice; the second read from the cache.
reads_from_cache() {
	stored0=$(stored "$mnt")
	read_counts "$mnt" "$f" >/dev/null
	wait_for 30 stored_since "$stored0" "$(pages_of "$size")" "$mnt"
	drop_caches
	read -r ops pages bytes <<EOF
$(read_counts "$mnt" "$f")
EOF
	expect_eq "READs sent" 0 "$ops"
	expect_eq "pages from the cache" "$(pages_of "$size")" "$pages"
	expect_eq checksum "$want" "$bytes"
}

# A uniquifier too long for the cache's volume key: the mount fails, and
# the kernel says why.
long=$(head -c 300 /dev/zero | tr '\0' u)
nfs_mount_logged "$mnt" ",fsc=$long"
rc=$?
expect_ne "mount.nfs's exit status" 0 "$rc"
expect_eq "mounted" "" "$(mounted && echo yes)"
ok $? uniquifier_too_long_fails
grep -q "NFS: fsc uniquifier of 300 bytes too long" "$MOUNT_KERNEL_LOG"
ok $? uniquifier_too_long_named
umount "$mnt" 2>/dev/null

# One that fits: cached, under a volume key that ends with it.
nfs_mount_logged "$mnt" ",fsc=short-uniq"
ok $? uniquifier_mounts
expect_ge "volume keys ending in short-uniq" 1 "$(volume_key | grep -c 'short-uniq$')"
reads_from_cache
ok $? uniquifier_caches
umount "$mnt"

# fsc given twice: the last one counts, as for any NFS option.
nfs_mount_logged "$mnt" ",fsc=first,fsc=second"
ok $? fsc_twice_mounts
expect_eq "volume keys ending in first" "" "$(volume_key | grep 'first$')"
expect_ge "volume keys ending in second" 1 "$(volume_key | grep -c 'second$')"
reads_from_cache
ok $? fsc_twice_last_counts
umount "$mnt"

# Junk glued to fsc is an unknown option: the mount fails, naming it.
nfs_mount_logged "$mnt" ",fscjunk"
rc=$?
expect_ne "mount.nfs's exit status" 0 "$rc"
expect_eq "mounted" "" "$(mounted && echo yes)"
ok $? junk_after_fsc_fails
grep -q "nfs4\{0,1\}: Unknown parameter 'fscjunk'" "$MOUNT_KERNEL_LOG"
ok $? junk_after_fsc_named
finish
