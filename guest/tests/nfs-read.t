#!/bin/sh
# Reading through the fsc mount: the bytes are the server's whatever the
# file's size or holes; a second read after drop_caches comes from the cache,
# not the server; /proc/fs/nfsfs/volumes shows which volume is cached.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 12
nfs_up

# The files, written on the server's disk.
mib=1048576
{
	: >"$EXPORT/size-0"
	for size in 1 4095 4096 $((mib + 1)); do
		new_file "$EXPORT/size-$size" "$size"
	done
	new_file "$EXPORT/size-16M" $((16 * mib))
	# 8 MiB with data at 1 MiB and at 5 MiB + 100, holes elsewhere.
	truncate -s $((8 * mib)) "$EXPORT/sparse"
	head -c 4096 /dev/urandom | dd of="$EXPORT/sparse" bs=4096 seek=256 conv=notrunc
	head -c 5000 /dev/urandom | dd of="$EXPORT/sparse" bs=1 seek=$((5 * mib + 100)) conv=notrunc
	chmod 0644 "$EXPORT"/size-* "$EXPORT/sparse"
	sync
} 2>>"$LOG"


for f in size-0 size-1 size-4095 size-4096 size-$((mib + 1)) size-16M sparse; do
	want=$(sum "$EXPORT/$f")
	expect_eq "$f: checksum" "$want" "$(as_reader sha256sum "$FSC/$f" | cut -d' ' -f1)"
	ok $? "read_through_$f"
done

# A cold read goes to the server; after drop_caches, the same read is served
# from the cache.  On a file not read before, so that both halves are
# measured here.
new_file "$EXPORT/twice" $((mib + 1))
f=$FSC/twice
pages=$(pages_of $((mib + 1)))
drop_caches
reads0=$(nfs_reads "$FSC")
cache_read0=$(mountstat "$FSC" fsc: 1)
stored0=$(mountstat "$FSC" fsc: 3)
ended0=$(stored)
store_failed0=$(($(mountstat "$FSC" fsc: 4) + $(mountstat "$FSC" fsc: 5)))
as_reader cat "$f" >/dev/null
reads1=$(nfs_reads "$FSC")
cache_read1=$(mountstat "$FSC" fsc: 1)
# Stores end after the read.
wait_for 30 stored_since "$ended0" "$pages"
stored=$(($(mountstat "$FSC" fsc: 3) - stored0))
store_failed=$(($(mountstat "$FSC" fsc: 4) + $(mountstat "$FSC" fsc: 5) - store_failed0))
io_rd1=$(fscache_stat IO rd)
drop_caches
as_reader cat "$f" >/dev/null
reads2=$(nfs_reads "$FSC")
cache_read2=$(mountstat "$FSC" fsc: 1)
io_rd2=$(fscache_stat IO rd)
diag "READ+READ_PLUS ops: $reads0 -> $reads1 (cold) -> $reads2 (warm)"
diag "fsc: pages read from the cache: $cache_read0 -> $cache_read1 -> $cache_read2"
diag "fscache IO rd: $io_rd1 -> $io_rd2"
expect_ge "READs sent by the cold read" 1 $((reads1 - reads0))
expect_eq "READs sent by the warm read" 0 $((reads2 - reads1))
expect_eq "pages from the cache" "$pages" $((cache_read2 - cache_read1))
expect_ge "fscache IO rd" 1 $((io_rd2 - io_rd1))
ok $? served_from_cache
# The cold read stored each page in the cache, and the fsc: line says so:
# pages written, none failed or left uncached.
diag "fsc: pages written to the cache on the cold read: $stored, failed or uncached: $store_failed"
expect_eq "pages written" "$pages" "$stored"
expect_eq "pages failed or uncached" 0 "$store_failed"
ok $? stores_counted_as_written

# The FSC column of /proc/fs/nfsfs/volumes for each mount.
in_client cat /proc/fs/nfsfs/volumes | sed 's/^/# /'
[ "$(fsc_column "$FSC")" = yes ]
ok $? volumes_fsc_yes
[ "$(fsc_column "$PLAIN")" = no ]
ok $? volumes_plain_no
[ "$(mountstat "$PLAIN" fsc: 1)" = "" ]
ok $? plain_mount_has_no_fsc_counters
finish
