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
stored0=$(mountstat "$FSC" fsc: 3)
ended0=$(stored)
store_failed0=$(($(mountstat "$FSC" fsc: 4) + $(mountstat "$FSC" fsc: 5)))
count_reads "$FSC" read_sum "$f"
cold_reads=$reads
# Stores end after the read.
wait_for 30 stored_since "$ended0" "$pages"
stored=$(($(mountstat "$FSC" fsc: 3) - stored0))
store_failed=$(($(mountstat "$FSC" fsc: 4) + $(mountstat "$FSC" fsc: 5) - store_failed0))
drop_caches
count_reads "$FSC" read_sum "$f"
diag "READ+READ_PLUS ops: $cold_reads cold, $reads warm"
diag "warm: pages read from the cache $from_cache, fscache IO rd $cache_reads"
expect_ge "READs sent by the cold read" 1 "$cold_reads"
expect_eq "READs sent by the warm read" 0 "$reads"
expect_eq "pages from the cache" "$pages" "$from_cache"
expect_ge "fscache IO rd" 1 "$cache_reads"
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
