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
# Mount the export on $mnt with the options given after NFS_OPTS; mount.nfs's
# messages are in /tmp/options.out, the kernel's since the mark in
# /tmp/options.kernel.
try_mount() { # OPTIONS
	log_mark
	in_client timeout 60 mount.nfs "$SERVER:$EXPORT" "$mnt" -o "$NFS_OPTS$1" \
		>/tmp/options.out 2>&1
	rc=$?
	log_since_mark >/tmp/options.kernel
	sed 's/^/# mount.nfs: /' /tmp/options.out
	grep -i -e 'nfs' -e 'FS-Cache' /tmp/options.kernel | sed 's/^/# kernel: /'
	return "$rc"
}
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
try_mount ",fsc=$long"
rc=$?
expect_ne "mount.nfs's exit status" 0 "$rc"
expect_eq "mounted" "" "$(mounted && echo yes)"
ok $? uniquifier_too_long_fails
grep -q "NFS: fsc uniquifier of 300 bytes too long" /tmp/options.kernel
ok $? uniquifier_too_long_named
umount "$mnt" 2>/dev/null

# One that fits: cached, under a volume key that ends with it.
try_mount ",fsc=short-uniq"
ok $? uniquifier_mounts
expect_ge "volume keys ending in short-uniq" 1 "$(volume_key | grep -c 'short-uniq$')"
reads_from_cache
ok $? uniquifier_caches
umount "$mnt"

# fsc given twice: the last one counts, as for any NFS option.
try_mount ",fsc=first,fsc=second"
ok $? fsc_twice_mounts
expect_eq "volume keys ending in first" "" "$(volume_key | grep 'first$')"
expect_ge "volume keys ending in second" 1 "$(volume_key | grep -c 'second$')"
reads_from_cache
ok $? fsc_twice_last_counts
umount "$mnt"

# Junk glued to fsc is an unknown option: the mount fails, naming it.
try_mount ",fscjunk"
rc=$?
expect_ne "mount.nfs's exit status" 0 "$rc"
expect_eq "mounted" "" "$(mounted && echo yes)"
ok $? junk_after_fsc_fails
grep -q "nfs4\{0,1\}: Unknown parameter 'fscjunk'" /tmp/options.kernel
ok $? junk_after_fsc_named
finish
