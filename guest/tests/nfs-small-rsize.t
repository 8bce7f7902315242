#!/bin/sh
# Reads with rsize below the page size, through an fsc mount of their own
# (rsize=1024: each page is filled by four READs): every file reads as the
# server's, from the server the first time (one READ a KiB) and from the
# cache after drop_caches (no READ, one cache page per file page).  What
# the cache stores of a page must be the whole page, whichever of its READs
# ends last.  A guard for moving NFS onto netfs (issue 26), whose
# subrequests would be smaller than a page here.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 9
nfs_up

small=/mnt/rsize-1k
nfs_mount "$small" ,fsc,rsize=1024 >>"$LOG" 2>&1 || bail "mount with rsize=1024"
rsize=$(awk -v mp="$small" '$2 == mp' /proc/mounts | grep -o 'rsize=[0-9]*')
diag "mounted with ${rsize:-no rsize}"
[ "$rsize" = rsize=1024 ]
ok $? mounted_with_rsize_1024

for size in 3000 4096 $((4 * 4096 + 1000)) $((1048576 + 1)); do
	f=rsize-1k-$size
	want_pages=$(((size + 4095) / 4096))
	want_reads=$(((size + 1023) / 1024))
	new_file "$EXPORT/$f" "$size"
	want=$(sum "$EXPORT/$f")
	drop_caches
	read -r ops pages bytes <<END
$(read_counts "$small" "$f")
END
	diag "$f cold: $ops READs (of 1 KiB: $want_reads), $pages pages from the cache"
	[ "$ops" -eq "$want_reads" ] && [ "$pages" -eq 0 ] && [ "$bytes" = "$want" ]
	ok $? "cold_read_${size}_from_server"
	drop_caches
	read -r ops pages bytes <<END
$(read_counts "$small" "$f")
END
	diag "$f warm: $ops READs, $pages pages from the cache (file: $want_pages pages)"
	[ "$bytes" = "$want" ] || diag "$f warm: read $bytes, server has $want"
	[ "$ops" -eq 0 ] && [ "$pages" -eq "$want_pages" ] && [ "$bytes" = "$want" ]
	ok $? "warm_read_${size}_from_cache"
done
umount "$small"
finish
