#!/bin/sh
# Readahead reads each run of cached pages inside a readahead window with
# one cache read and the rest from the server, and pages fetched from the
# server are stored in batches, asynchronously.  Checked with exact counts:
# pages read from the cache (fsc: field 1), bytes read from the server
# (bytes: field 5), cache reads started (fscache "IO rd"), at full and
# partial coverage, at EOF, and with a cache read that fails after it was
# done (cachefiles error injection, bit 4), and with the cache invalidated
# while a READ was on the wire.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 20
nfs_up

page=4096
mib=1048576
# The readahead window of the fsc mount, by its backing device's name.
bdi=/sys/class/bdi/$(awk -v mp="$FSC" '$5 == mp { print $3 }' /proc/self/mountinfo)
ra_kb=$(cat "$bdi/read_ahead_kb")
# A sequential read goes in readahead windows of this many pages, each at a
# multiple of it; netfs reads each run of cached pages inside a window with
# one cache read.
window=$((ra_kb / 4))
# The windows a run of pages touches.
windows() { # FIRST-PAGE PAGES
	echo $((($1 + $2 - 1) / window - $1 / window + 1))
}
on_exit "echo $ra_kb >$bdi/read_ahead_kb"
on_exit "echo 0 >$INJECT"

# A cold read that leaves the whole file in the cache, then a warm one.
cache_whole() { # NAME BYTES
	s0=$(stored)
	read_right "$FSC" "$1" &&
		wait_for 30 stored_since "$s0" "$(pages_of "$2")" &&
		drop_caches
}

# Full coverage: the warm read takes every page from the cache, with one
# cache read a readahead window, not one a page.
size=$((4 * mib + 12345))
new_file "$EXPORT/full" "$size"
cache_whole full "$size"
ok $? full_cold_read_stored
read_right "$FSC" full
ok $? full_warm_read_right
pages=$(pages_of "$size")
[ "$reads" -eq 0 ] && [ "$from_cache" -eq "$pages" ] && [ "$missed" -eq 0 ]
ok $? full_warm_read_all_from_cache
expect_eq "cache reads, one a window of $window pages" "$(windows 0 "$pages")" "$cache_reads"
ok $? full_warm_read_batched

# Partial coverage: with readahead off, reading pages caches exactly those
# pages; a full read then takes those from the cache and only the others,
# byte for byte, from the server.  Runs of 16, 2, 128 and 1 pages (the last
# page of the file), holes of 1 to 184 pages between them.
new_file "$EXPORT/partial" $((2 * mib))
drop_caches
echo 0 >"$bdi/read_ahead_kb"
s0=$(stored)
for run in 0:16 100:2 200:128 511:1; do
	as_reader dd if="$FSC/partial" of=/dev/null bs=$page skip="${run%:*}" count="${run#*:}" 2>/dev/null
done
cached=$((16 + 2 + 128 + 1))
wait_for 30 stored_since "$s0" "$cached"
ok $? partial_pages_stored
echo "$ra_kb" >"$bdi/read_ahead_kb"
drop_caches
read_right "$FSC" partial
ok $? partial_read_right
[ "$from_cache" -eq "$cached" ] && [ "$missed" -eq 0 ]
ok $? partial_cached_pages_from_cache
[ "$server_bytes" -eq $(((512 - cached) * page)) ]
ok $? partial_rest_from_server
expect_eq "cache reads, one a run in each window of $window pages" \
	$(($(windows 0 16) + $(windows 100 2) + $(windows 200 128) + $(windows 511 1))) "$cache_reads"
ok $? partial_one_read_per_run

# EOF: short files and files that end inside a page, whole in the cache.
for size in 1 4095 4096 4097 12345; do
	new_file "$EXPORT/eof-$size" "$size"
	cache_whole "eof-$size" "$size" && read_right "$FSC" "eof-$size" &&
		[ "$reads" -eq 0 ] && [ "$from_cache" -eq "$(pages_of "$size")" ]
	ok $? "eof_$size"
done

# A cache read that fails after it was done: the pages come from the
# server instead, the reader sees the right bytes, and the counters say so.
# The cache still holds the pages: they are not stored again, and the next
# read takes them from the cache.
size=$((mib + 1))
pages=$(pages_of "$size")
new_file "$EXPORT/failing" "$size"
cache_whole failing "$size"
s0=$(stored)
echo 4 >"$INJECT"
read_right "$FSC" failing
rc=$?
echo 0 >"$INJECT"
ok $rc failed_cache_read_right
[ "$from_cache" -eq 0 ] && [ "$missed" -ge "$pages" ] && [ "$reads" -gt 0 ] &&
	[ "$server_bytes" -eq $((pages * page - page + 1)) ]
ok $? failed_cache_read_from_server
drop_caches && read_right "$FSC" failing && [ "$reads" -eq 0 ] &&
	[ "$from_cache" -eq "$pages" ] && [ "$(stored)" -eq "$s0" ]
ok $? failed_cache_read_cache_kept

# Data asked of the server before the cache was invalidated is never stored
# after it.  nfsd's READ of the file is held at the server: a reader on the
# server, throttled by an I/O limit on the export disk (cgroup v2 io.max),
# has the file's pages locked, and nfsd waits for them.  Meanwhile the file
# grows on the server, and the client sees the change (the new size, once its
# attributes expire) and invalidates the cookie.  Then the limit is lifted:
# the READ's reply must not be stored, and the file is cached again later.
slow=$CGROUP/slow-export
# shellcheck disable=SC2317 # called through wait_for
client_invalidated_since() { # INVALS SIZE
	[ "$(stat -c %s "$FSC/stale")" -gt "$2" ] &&
		[ "$(fscache_stat Invals n)" -gt "$1" ]
}
size=$((16 * page))
new_file "$EXPORT/stale" "$size"
drop_caches
throttle_reads slow-export vda 1024 >>"$LOG" 2>&1
inval0=$(fscache_stat Invals n) ok0=$(fsc 3) fail0=$(fsc 4)
throttled slow-export "dd if=$EXPORT/stale of=/dev/null bs=$size" 2>/dev/null
holder=$!
wait_for 30 waits_in "$holder" filemap_get_pages readahead
rc=$?
dd if="$FSC/stale" of=/tmp/stale.out bs="$size" count=1 2>/dev/null &
reader=$!
[ "$rc" -eq 0 ] && wait_for 30 waits_in "$reader" filemap_get_pages readahead
rc=$?
echo grown >>"$EXPORT/stale" &
grower=$!
[ "$rc" -eq 0 ] && wait_for 30 client_invalidated_since "$inval0" "$size"
rc=$?
diag "stale: READ held, cookie invalidated: $([ "$rc" -eq 0 ] && echo yes || echo no)"
throttle_reads slow-export vda max
wait "$holder" && wait "$reader" && wait "$grower" && [ "$rc" -eq 0 ]
rc=$?
rmdir "$slow"
[ "$rc" -eq 0 ] && cmp -s -n "$size" "$EXPORT/stale" /tmp/stale.out
ok $? stale_read_right
wait_for 30 stored_since $((ok0 + fail0)) "$(pages_of "$size")"
expect_eq "stale: pages stored" 0 $(($(fsc 3) - ok0))
expect_eq "stale: pages not stored" "$(pages_of "$size")" $(($(fsc 4) - fail0))
ok $? stale_reply_not_stored
size=$((size + 6))
drop_caches
cache_whole stale "$size" && read_right "$FSC" stale &&
	expect_eq "READs sent" 0 "$reads" &&
	expect_eq "pages from the cache" "$(pages_of "$size")" "$from_cache"
ok $? stale_file_cached_again
finish
