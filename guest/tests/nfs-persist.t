#!/bin/sh
# The cache outlives the mount: a file read once, then the fsc mount
# unmounted and mounted again, is read from the cache, with no READ sent to
# the server.  It also leaves a file cached for after-reboot/nfs-after-reboot.t
# (the host boots again with the same disks), with its checksum beside it on
# the export.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
echo "KTAP version 1"
echo "1..4"
nfs_up

for f in persist reboot; do
	head -c 2097152 /dev/urandom >"$EXPORT/$f"
	chmod 0644 "$EXPORT/$f"
	sum "$EXPORT/$f" >"$EXPORT/$f.sha256"
done
sync

read -r ops pages bytes <<EOF
$(read_counts "$FSC" persist)
EOF
diag "first read: $ops READs, $pages pages from the cache"
[ "$ops" -gt 0 ] && [ "$bytes" = "$(cat "$EXPORT/persist.sha256")" ]
ok $? first_read_from_server
read_counts "$FSC" reboot >/dev/null

umount "$FSC"
ok $? unmount
nfs_mount "$FSC" ,fsc >>"$LOG" 2>&1 || bail "mount with fsc again"
read -r ops pages bytes <<EOF
$(read_counts "$FSC" persist)
EOF
diag "after remounting: $ops READs, $pages pages from the cache"
[ "$ops" -eq 0 ] && [ "$pages" -ge 512 ]
ok $? remount_reads_from_cache
[ "$bytes" = "$(cat "$EXPORT/persist.sha256")" ]
ok $? remount_reads_right_bytes
exit "$failed"
