#!/bin/sh
# After a reboot with the same cache disk, the file nfs-persist.t left
# cached is read from the cache, with no READ sent to the server, and with
# the server's bytes.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
echo "KTAP version 1"
echo "1..3"
nfs_up
[ -f "$EXPORT/reboot.sha256" ]
ok $? cached_before_reboot
read -r ops pages bytes <<EOF
$(read_counts "$FSC" reboot)
EOF
diag "after the reboot: $ops READs, $pages pages from the cache"
[ "$ops" -eq 0 ] && [ "$pages" -ge 512 ]
ok $? reads_from_cache
[ "$bytes" = "$(cat "$EXPORT/reboot.sha256")" ]
ok $? reads_right_bytes
exit "$failed"
