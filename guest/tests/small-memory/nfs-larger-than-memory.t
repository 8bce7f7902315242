#!/bin/sh
# A file larger than the guest's memory (this boot has little: guest/boots),
# read twice through the fsc mount.  The first pass reads every byte from
# the server, and the page cache is reclaimed under it while netfs's stores
# to the cache are in flight: every page must still reach the cache, none
# counted as not written.  The second pass, after drop_caches, takes every
# page from the cache and sends no READ.  Both passes get the server's
# bytes.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 3
nfs_up

# The memory the kernel manages, and a file 64 MiB larger, in whole MiB.
mib=1048576
memory=$(($(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo) * 1024))
size=$(((memory / mib + 64) * mib))
pages=$(pages_of "$size")
f=larger-than-memory
new_file "$EXPORT/$f" "$size" || bail "a file of $size bytes on the export"
want=$(sum "$EXPORT/$f")
drop_caches
diag "memory $((memory / mib)) MiB, the file $((size / mib)) MiB ($pages pages)"
[ "$size" -gt "$memory" ]
ok $? file_larger_than_memory

not_written=$(fsc 4)
s0=$(stored)
count_reads "$FSC" read_sum "$FSC/$f"
diag "first pass: $reads READs, $((server_bytes / mib)) MiB from the server, $from_cache pages from the cache"
[ "$got" = "$want" ] || diag "first pass: wrong bytes"
wait_for 300 stored_since "$s0" "$pages"
all_stored=$?
diag "stored: $(($(stored) - s0)) pages, $(($(fsc 4) - not_written)) of them not written"
[ "$got" = "$want" ] && [ "$from_cache" -eq 0 ] && [ "$server_bytes" -eq "$size" ] &&
	[ "$all_stored" -eq 0 ] && [ "$(fsc 4)" -eq "$not_written" ]
ok $? first_pass_from_server_every_page_stored

drop_caches
count_reads "$FSC" read_sum "$FSC/$f"
diag "second pass: $reads READs, $from_cache pages from the cache, $missed failed"
[ "$got" = "$want" ] || diag "second pass: wrong bytes"
[ "$got" = "$want" ] && [ "$reads" -eq 0 ] && [ "$from_cache" -eq "$pages" ]
ok $? second_pass_every_page_from_cache
finish
