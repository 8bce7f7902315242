#!/bin/sh
# Reads of a cached file through the netfs library beyond readahead: pages
# read one at a time by ->read_folio() (faults of a mapping with
# MADV_RANDOM: mmap-read), from the server cold (one READ a page) and from
# the cache warm (no READ); the same with every cache read failing after it
# was done (cachefiles error injection, bit 4: each page from the server);
# and reads that reach or cross EOF.  Every byte mmap-read got is compared
# with the server's file.  (Bit 2 of the injection
# is not used: a failed write withdraws the cache, for every later test.)
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 7
nfs_up

page=4096
# Run a reader of a file of the fsc mount; remember what moved.
counted() { # COMMAND...
	r0=$(nfs_reads "$FSC") ok0=$(fsc 1) fail0=$(fsc 2)
	got=$("$@")
	reads=$(($(nfs_reads "$FSC") - r0))
	from_cache=$(($(fsc 1) - ok0))
	missed=$(($(fsc 2) - fail0))
	diag "$*: READ ops $reads, pages from the cache $from_cache, failed $missed"
}

size=$((64 * page + 100))
pages=$(pages_of "$size")
new_file "$EXPORT/folio" "$size"
want=$(sum "$EXPORT/folio")
drop_caches
s0=$(stored)
counted mmap_sum "$FSC/folio"
[ "$got" = "$want" ] && [ "$reads" -eq "$pages" ] && [ "$from_cache" -eq 0 ]
ok $? read_folio_cold_from_server
wait_for 30 stored_since "$s0" "$pages"
ok $? read_folio_pages_stored
drop_caches
counted mmap_sum "$FSC/folio"
[ "$got" = "$want" ] && [ "$reads" -eq 0 ] && [ "$from_cache" -eq "$pages" ]
ok $? read_folio_warm_from_cache

# Every cache read fails after it was done: each page is read again from
# the server, and the cache keeps its copy for the next read.
drop_caches
on_exit "echo 0 >$INJECT"
echo 4 >"$INJECT"
counted mmap_sum "$FSC/folio"
echo 0 >"$INJECT"
[ "$got" = "$want" ] && [ "$reads" -eq "$pages" ] && [ "$from_cache" -eq 0 ] &&
	[ "$missed" -eq "$pages" ]
ok $? read_folio_failed_cache_read_from_server
drop_caches
counted mmap_sum "$FSC/folio"
[ "$got" = "$want" ] && [ "$reads" -eq 0 ] && [ "$from_cache" -eq "$pages" ]
ok $? read_folio_cache_kept

# At and across EOF, from the server and then from the cache: nothing past
# the end, the last bytes right.
new_file "$EXPORT/eof" "$size"
tail_want=$(tail -c 300 "$EXPORT/eof" | sha256sum)
s0=$(stored)
for state in cold warm; do
	drop_caches
	past=$(dd if="$FSC/eof" bs=$page skip=$((pages + 2)) count=1 2>/dev/null | wc -c)
	counted sh -c "tail -c 300 $FSC/eof | sha256sum"
	diag "$state: $past bytes past EOF"
	[ "$past" -eq 0 ] && [ "$got" = "$tail_want" ] &&
		if [ "$state" = cold ]; then
			[ "$from_cache" -eq 0 ] && wait_for 30 stored_since "$s0" 1
		else
			[ "$reads" -eq 0 ] && [ "$from_cache" -gt 0 ]
		fi
	ok $? "read_at_eof_$state"
done
finish
