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
# Stores end after the read that fetched their pages, in the order the
# reads were made: a later cold read of another file, whose store is
# waited for, is the barrier.  Had any page of the first read been stored
# again, the count would pass that file's pages.
control=16
new_file "$EXPORT/after-reboot-control" $((control * 4096))
read_counts "$FSC" after-reboot-control >/dev/null
wait_for 30 stored_since "$stored0" "$control"
expect_eq "the control file's pages stored" 0 "$?"
stored=$(($(stored) - stored0 - control))
diag "first read after the reboot: $ops READs, $from_cache pages from the cache," \
	"$stored stored beside the control file's $control"
expect_eq "READs sent" 0 "$ops"
expect_eq "pages from the cache" "$pages" "$from_cache"
expect_eq "pages stored again" 0 "$stored"
ok $? reads_from_cache ||
	grep -E '^(Cookies|Acquire|LRU|Invals|Updates|Relinqs|IO)' \
		/proc/fs/fscache/stats | sed 's/^/# /'
expect_eq "checksum" "$want" "$bytes"
ok $? reads_right_bytes
finish
