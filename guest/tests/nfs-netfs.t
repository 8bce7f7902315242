#!/bin/sh
# Reads of a cached file through the netfs library beyond readahead: pages
# read one at a time by ->read_folio() (faults of a mapping with
# MADV_RANDOM: mmap-read), from the server cold (one READ a page) and from
# the cache warm (no READ); the same with every cache read failing after it
# was done (cachefiles error injection, bit 4: each page from the server);
# and reads that reach or cross EOF.  Every byte mmap-read got is compared
# with the server's file.  A file of a synchronous fsc mount (sync, as noac
# makes it) is never read from the cache, as in 6.1.  A reader killed
# while ->read_folio() waits for a READ the server holds goes at once, as
# in 6.1, and the page is read right later.  (Bit 2 of the injection
# is not used: a failed write withdraws the cache, for every later test.)
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 9
nfs_up

page=4096
# Run a reader of a file of the fsc mount; remember what moved (count_reads).
counted() { # COMMAND...
	count_reads "$FSC" "$@"
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

sync_mnt=/mnt/fsc-sync
nfs_mount "$sync_mnt" ,fsc,sync >>"$LOG" 2>&1 || bail "mount with fsc,sync"
on_exit "umount $sync_mnt"
read -r ops from_cache bytes <<END
$(read_twice "$sync_mnt" folio)
END
diag "sync mount, second read: $ops READs, $from_cache pages from the cache"
expect_eq "bytes" "$want" "$bytes" && expect_ge "READs" 1 "$ops" &&
	expect_eq "pages from the cache" 0 "$from_cache"
ok $? sync_mount_reads_from_server

# The server's READ is held as in nfs-batched.t: a reader on the server,
# throttled by an I/O limit on the export disk, has the file's pages
# locked, and nfsd waits for them.
# shellcheck disable=SC2317 # called through wait_for
gone() { # PID
	[ ! -e "/proc/$1" ] || grep -q '^[0-9]* (.*) Z ' "/proc/$1/stat"
}
slow=$CGROUP/slow-export
new_file "$EXPORT/killed" "$((16 * page))"
drop_caches
throttle_reads slow-export vda 1024 >>"$LOG" 2>&1 || bail "cgroup io.max"
on_exit "throttle_reads slow-export vda max; rmdir $slow"
throttled slow-export "dd if=$EXPORT/killed of=/dev/null bs=$((16 * page))" 2>/dev/null
holder=$!
wait_for 30 waits_in "$holder" filemap_get_pages || diag "the server's reader is not held"
mmap-read "$FSC/killed" >/dev/null 2>&1 &
reader=$!
wait_for 30 waits_in "$reader" netfs_begin_read
held=$?
[ "$held" -eq 0 ] || diag "reader's stack: $(tr '\n' ' ' <"/proc/$reader/stack")"
kill -KILL "$reader"
wait_for 10 gone "$reader"
went=$?
diag "reader held in netfs_begin_read: $([ "$held" -eq 0 ] && echo yes || echo no), gone within 10 s of SIGKILL: $([ "$went" -eq 0 ] && echo yes || echo no)"
throttle_reads slow-export vda max >>"$LOG" 2>&1
wait "$holder"
wait "$reader"
[ "$held" -eq 0 ] && [ "$went" -eq 0 ] &&
	expect_eq "bytes read after" "$(sum "$EXPORT/killed")" "$(mmap_sum "$FSC/killed")"
ok $? killed_reader_goes
finish
