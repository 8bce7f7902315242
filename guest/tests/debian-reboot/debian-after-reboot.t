#!/bin/sh
# The Debian system of debian-system booted again from its disk: it comes
# up whole again, and the file debian-fsc read before the reboot is read
# from the cache, every byte the server's, with no READ sent.
# needs: debian-fsc
# shellcheck source=guest/lib/debian-system.sh
. /lib/guest/debian-system.sh
plan 3

system_whole

want=$(sum "$EXPORT/$KEPT_FILE")
count_reads "$FSC" sum "$FSC/$KEPT_FILE"
diag "after the reboot: $reads READs, $from_cache pages from the cache"
expect_eq "bytes" "$want" "$got" &&
	expect_eq "READs" 0 "$reads" &&
	expect_ge "pages from the cache" "$(pages_of "$KEPT_BYTES")" "$from_cache"
ok $? read_from_cache_after_reboot
finish
