#!/bin/sh
# After a reboot with the same cache disk, the file nfs-persist.t left
# cached is read from the cache, every page of it, with no READ sent to the
# server and nothing stored again, and with the server's bytes.
# needs: nfs-persist
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 3
nfs_up
[ -f "$EXPORT/reboot.sha256" ]
ok $? cached_before_reboot
want=$(cat "$EXPORT/reboot.sha256")
pages=$(pages_of "$(stat -c %s "$EXPORT/reboot")")

stored0=$(stored)
read -r ops from_cache bytes <<EOF
$(read_counts "$FSC" reboot)
EOF
# Stores end after the read: had any page gone to the server, its store
# would be counted within the wait.
wait_for 5 stored_since "$stored0" 1
diag "first read after the reboot: $ops READs, $from_cache pages from the cache," \
	"$(($(stored) - stored0)) stored"
expect_eq "READs sent" 0 "$ops"
expect_eq "pages from the cache" "$pages" "$from_cache"
expect_eq "pages stored again" 0 "$(($(stored) - stored0))"
ok $? reads_from_cache ||
	grep -E '^(Cookies|Acquire|LRU|Invals|Updates|Relinqs|IO)' \
		/proc/fs/fscache/stats | sed 's/^/# /'
expect_eq "checksum" "$want" "$bytes"
ok $? reads_right_bytes
exit "$failed"
