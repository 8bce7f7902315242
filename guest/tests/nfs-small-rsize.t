#!/bin/sh
# Reads with rsize below the page size, through an fsc mount of their own
# (rsize=1024: each page is filled by four READs): every file reads as the
# server's, from the server the first time (one READ a KiB) and from the
# cache after drop_caches (no READ, one cache page per file page).  What
# the cache stores of a page must be the whole page, whichever of its READs
# ends last.  A guard for moving NFS onto netfs (issue 26), whose
# subrequests would be smaller than a page here.  Then a file partly in the
# cache (its head read alone, then the whole): the pages stored come from
# the cache, and every other byte from the server, a KiB a READ.  And a
# file changed on the server after it was cached: read cold again, all
# from the server, then warm with the new bytes from the cache.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 13
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

# Partly cached: the head of the file is read (with what readahead adds)
# and stored; the whole file then reads what was stored from the cache and
# the rest from the server.
size=$((4 * 1048576))
f="rsize-1k-part"
new_file "$EXPORT/$f" "$size"
drop_caches
s0=$(stored "$small")
as_reader "dd if=$small/$f bs=65536 count=1 status=none" >/dev/null
# Readahead's stores end after the read: wait for the head's, then for
# the count to settle.
wait_for 30 stored_since "$s0" 16 "$small"
sleep 2
head_pages=$(($(stored "$small") - s0))
diag "$f: $head_pages pages stored by reading the head"
drop_caches && read_right "$small" "$f" &&
	[ "$from_cache" -eq "$head_pages" ] && [ "$from_cache" -lt "$(pages_of "$size")" ] &&
	[ "$missed" -eq 0 ] && [ "$reads" -eq $(((size - from_cache * 4096) / 1024)) ]
ok $? partly_cached_read_right_and_split

# Changed on the server once cached: same size, new bytes, a new mtime,
# seen after the attribute cache (actimeo=1) expires.  The old cache data
# is never read: the first read goes to the server for every byte, and
# stores the new ones, which the next read takes from the cache.
f="rsize-1k-changed"
size=$((256 * 1024))
new_file "$EXPORT/$f" "$size"
s0=$(stored "$small")
drop_caches && read_right "$small" "$f" && wait_for 30 stored_since "$s0" "$(pages_of "$size")" "$small" &&
	drop_caches && read_right "$small" "$f" && [ "$from_cache" -eq "$(pages_of "$size")" ]
ok $? changed_file_cached_before
change_on_server "$EXPORT/$f"
sleep 2
s0=$(stored "$small")
drop_caches && read_right "$small" "$f" && [ "$from_cache" -eq 0 ] && [ "$reads" -eq $((size / 1024)) ]
ok $? changed_file_read_from_server
wait_for 30 stored_since "$s0" "$(pages_of "$size")" "$small" &&
	drop_caches && read_right "$small" "$f" && [ "$from_cache" -eq "$(pages_of "$size")" ] && [ "$reads" -eq 0 ]
ok $? changed_file_then_from_cache
umount "$small"
finish
