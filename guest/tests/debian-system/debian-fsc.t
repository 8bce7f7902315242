#!/bin/sh
# The fsc mount of /etc/fstab caches: a file of the export read through it
# gets the server's bytes, and read again after the page cache is dropped
# comes from the cache, with no READ sent to the server.  The cache's files
# are labelled as the cache's.  The file stays for the boot after the
# reboot (debian-after-reboot).
# shellcheck source=guest/lib/debian-system.sh
. /lib/guest/debian-system.sh
plan 4

expect_eq "fsc mount" "nfs4 fsc" \
	"$(awk -v mp="$FSC" '$2 == mp { n = split($4, o, ","); for (i = 1; i <= n; i++) if (o[i] == "fsc") print $3, o[i] }' /proc/mounts)"
ok $? fsc_mount_from_fstab

new_file "$EXPORT/$KEPT_FILE" "$KEPT_BYTES"
want=$(sum "$EXPORT/$KEPT_FILE")
before=$(stored)
count_reads "$FSC" sum "$FSC/$KEPT_FILE"
diag "cold: $reads READs, $from_cache pages from the cache"
expect_eq "bytes" "$want" "$got" &&
	expect_ge "READs" 1 "$reads" &&
	wait_for 30 stored_since "$before" "$(pages_of "$KEPT_BYTES")"
ok $? cold_read_stored

drop_caches
count_reads "$FSC" sum "$FSC/$KEPT_FILE"
diag "warm: $reads READs, $from_cache pages from the cache"
expect_eq "bytes" "$want" "$got" &&
	expect_eq "READs" 0 "$reads" &&
	expect_ge "pages from the cache" "$(pages_of "$KEPT_BYTES")" "$from_cache"
ok $? warm_read_from_cache

files=$(find "$CACHE" -type f -newer "$EXPORT/$KEPT_FILE" | wc -l)
labels=$(find "$CACHE" -type f -newer "$EXPORT/$KEPT_FILE" -printf '%Z\n' | sort -u | xargs)
expect_ge "cache files made" 1 "$files" &&
	expect_eq "their labels" system_u:object_r:cachefilesd_cache_t:s0 "$labels"
ok $? cache_files_labelled
finish
