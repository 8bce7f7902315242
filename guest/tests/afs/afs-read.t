#!/bin/sh
# kAFS reading a real OpenAFS server through the cache: files the other
# client wrote are read with the server's bytes, fetched once; read again
# after the page cache is dropped they come from the cache, with no
# FetchData sent; the cache keeps them across an unmount and a new mount;
# the cache's files are the cache's, owned and labelled as for NFS.
# shellcheck source=guest/lib/afs.sh
. /lib/guest/afs.sh
plan 7
afs_up

# The files, written through the writer's kAFS, and read back by it from
# the server: the writer has no cache (the cache's volume key is the
# client's), so that what it reads after the page cache is dropped is
# what the server sends.
mib=1048576
sizes="1 4096 $((mib + 1)) $((8 * mib))"
mkdir -p /tmp/afs-files "$AFS_OTHER/read"
for size in $sizes; do
	new_file "/tmp/afs-files/$size" "$size"
	cp "/tmp/afs-files/$size" "$AFS_OTHER/read/$size" || bail "writing $size through the writer"
done
drop_caches
for size in $sizes; do
	afs_read "$AFS_OTHER/read/$size"
	expect_eq "size-$size: the server's bytes, read by the writer" \
		"$(sum "/tmp/afs-files/$size")" "$got" &&
		expect_ge "size-$size: the writer's FetchData" 1 "$fetches" &&
		expect_eq "size-$size: the writer's cache reads" 0 "$cache_reads"
done
ok $? server_has_the_bytes

volume=$(awk 'NR > 2 && $NF ~ /^afs,/ { print $NF }' /proc/fs/fscache/volumes)
diag "cache volume: ${volume:-none}"
expect_eq "cache volume of root.cell" "afs,$CELL,$(printf '%x' \
	"$(afs_admin vos examine root.cell | awk '$1 == "root.cell" { print $2; exit }')")" "$volume"
ok $? cache_volume

drop_caches
writes_before=$(cache_writes)
for size in $sizes; do
	afs_read "$AFS/read/$size"
	diag "cold $size: $fetches FetchData, $cache_reads cache reads"
	expect_eq "size-$size: bytes" "$(sum "/tmp/afs-files/$size")" "$got" &&
		expect_ge "size-$size: FetchData" 1 "$fetches"
done
wait_for 30 cache_written_since "$writes_before"
ok $? cold_read_fetched_and_stored

# Each file from the cache: no FetchData.  Wait for the cache's writes to
# end first.
wait_for 30 cache_idle
drop_caches
for size in $sizes; do
	expect_from_cache "$AFS/read/$size" "$(sum "/tmp/afs-files/$size")" "warm $size"
done
ok 0 warm_read_from_cache

# The cache outlives the mount: unmounted and mounted again, the files
# still come from it.
umount "$AFS" || bail "kAFS unmount"
afs_mount client "$AFS" >>"$LOG" 2>&1 || bail "kAFS mount again"
for size in $sizes; do
	expect_from_cache "$AFS/read/$size" "$(sum "/tmp/afs-files/$size")" \
		"after the remount, $size"
done
ok 0 cache_survives_remount

# Cache files: one for each file read, in the volume's directory.
files=$(cache_files | wc -l)
owners=$(cache_files | xargs stat -c %u | sort -u | xargs)
labels=$(cache_files | xargs /usr/bin/stat -c %C | sort -u | xargs)
diag "$files cache files"
expect_ge "cache files" 4 "$files" &&
	expect_eq "their owner" "$CACHE_UID" "$owners" &&
	expect_eq "their label" "system_u:object_r:cachefiles_cache_t" "$labels"
ok $? cache_files_the_caches

# Nothing the cache's daemon or the kernel's cache work did was denied.
expect_eq "denials" "" "$(dmesg | grep 'avc: *denied')"
ok $? nothing_denied
finish
