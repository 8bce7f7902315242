#!/bin/sh
# The cache never serves stale data.  A file changed on the server (same
# size with new bytes and mtime, then truncated, then extended) reads as the
# server's once the client revalidates: attributes are cached for at most a
# second (actimeo=1, guest/lib/nfs.sh), and each read here comes after
# waiting longer than that, from the page cache and again after
# drop_caches (so from the cache disk, or the server).  Opening a cached
# file for writing invalidates its cache, and what the client wrote is what
# it reads back, before and after drop_caches, and what the server has.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 9
nfs_up

f=coherency
# Read through the client, once as cached and once after drop_caches, and
# compare both with the server's bytes.
check_fresh() { # NAME
	sleep 2
	want=$(sum "$EXPORT/$f")
	expect_eq "$1: client's checksum" "$want" "$(client_sum "$f")"
	drop_caches
	expect_eq "$1: client's checksum after drop_caches" "$want" "$(client_sum "$f")"
	ok $? "$1"
}

# Writable by the reader, for the write at the end.  In the cache before
# any change: stored whole, then read back from it alone.
new_file "$EXPORT/$f" 1048576 && chmod 0666 "$EXPORT/$f"
s0=$(stored)
client_sum "$f" >/dev/null
wait_for 30 stored_since "$s0" "$(pages_of 1048576)"
expect_eq "pages stored" 0 "$?"
drop_caches
read -r ops pages bytes <<EOF
$(read_counts "$FSC" "$f")
EOF
expect_eq "READs sent" 0 "$ops"
expect_eq "pages from the cache" "$(pages_of 1048576)" "$pages"
expect_eq checksum "$(sum "$EXPORT/$f")" "$bytes"
ok 0 cached_before_change

# Same size, new bytes, a new mtime.
change_on_server "$EXPORT/$f"
check_fresh changed_same_size

truncate -s 1000 "$EXPORT/$f"
sync
check_fresh truncated

head -c 3000000 /dev/urandom >>"$EXPORT/$f"
sync
check_fresh extended

# Opening for writing invalidates the cached file.
client_sum "$f" >/dev/null
invals0=$(fscache_stat Invals n)
new_file /tmp/written 8192
as_reader "dd if=/tmp/written of=$FSC/$f bs=4096 seek=10 conv=notrunc" 2>/dev/null
ok $? client_write
invals1=$(fscache_stat Invals n)
expect_ge "fscache invalidations" $((invals0 + 1)) "$invals1"
ok $? write_open_invalidates

readback() { # FILE: the 8 KiB written at 40 KiB, read by the reader
	as_reader "dd if=$1 bs=4096 skip=10 count=2" 2>/dev/null | sha256sum | cut -d' ' -f1
}
want=$(sum /tmp/written)
expect_eq "checksum read back" "$want" "$(readback "$FSC/$f")"
ok $? read_back_written
drop_caches
expect_eq "checksum read back" "$want" "$(readback "$FSC/$f")"
ok $? read_back_written_after_drop_caches
expect_eq "checksum on the server" "$want" "$(readback "$EXPORT/$f")"
ok $? server_has_written
finish
