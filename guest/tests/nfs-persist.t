#!/bin/sh
# The cache outlives the mount: a file read once, then the fsc mount
# unmounted and mounted again, is read from the cache, with no READ sent to
# the server.  It also leaves a file cached for after-reboot/nfs-after-reboot.t
# (the host boots again with the same disks), with its checksum beside it on
# the export.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 4
nfs_up

size=2097152
for f in persist reboot; do
	new_file "$EXPORT/$f" "$size"
	sum "$EXPORT/$f" >"$EXPORT/$f.sha256"
done
sync

stored0=$(stored)
read -r ops pages bytes <<EOF
$(read_counts "$FSC" persist)
EOF
diag "first read: $ops READs, $pages pages from the cache"
expect_ge "READs sent" 1 "$ops"
expect_eq checksum "$(cat "$EXPORT/persist.sha256")" "$bytes"
ok $? first_read_from_server
read_counts "$FSC" reboot >/dev/null
# Both files' pages stored before the unmount.
wait_for 30 stored_since "$stored0" $((2 * $(pages_of "$size"))) ||
	diag "stored before the unmount: $(($(stored) - stored0)) pages"

umount "$FSC"
ok $? unmount
nfs_mount "$FSC" ,fsc >>"$LOG" 2>&1 || bail "mount with fsc again"
read -r ops pages bytes <<EOF
$(read_counts "$FSC" persist)
EOF
diag "after remounting: $ops READs, $pages pages from the cache"
expect_eq "READs sent" 0 "$ops"
expect_eq "pages from the cache" "$(pages_of "$size")" "$pages"
ok $? remount_reads_from_cache
expect_eq checksum "$(cat "$EXPORT/persist.sha256")" "$bytes"
ok $? remount_reads_right_bytes
finish
