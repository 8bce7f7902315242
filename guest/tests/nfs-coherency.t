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
echo "KTAP version 1"
echo "1..8"
nfs_up

f=coherency
as_reader() { su "$READER" -s /bin/sh -c "$*"; }
client_sum() { as_reader sha256sum "$FSC/$f" | cut -d' ' -f1; }
# Read through the client, once as cached and once after drop_caches, and
# compare both with the server's bytes.
check_fresh() { # NAME
	sleep 2
	want=$(sum "$EXPORT/$f")
	got=$(client_sum)
	drop_caches
	got_cold=$(client_sum)
	[ "$got" = "$want" ] && [ "$got_cold" = "$want" ]
	fresh=$?
	ok "$fresh" "$1"
	[ "$fresh" -eq 0 ] || diag "$1: server $want, client $got, after drop_caches $got_cold"
}

head -c 1048576 /dev/urandom >"$EXPORT/$f"
chmod 0666 "$EXPORT/$f"
sync
client_sum >/dev/null
drop_caches
client_sum >/dev/null # now in the cache

# Same size, new bytes, a new mtime.
head -c 1048576 /dev/urandom >"$EXPORT/$f.new"
cat "$EXPORT/$f.new" >"$EXPORT/$f"
rm "$EXPORT/$f.new"
touch -d "@$(($(date +%s) + 5))" "$EXPORT/$f"
sync
check_fresh changed_same_size

truncate -s 1000 "$EXPORT/$f"
sync
check_fresh truncated

head -c 3000000 /dev/urandom >>"$EXPORT/$f"
sync
check_fresh extended

# Opening for writing invalidates the cached file.
client_sum >/dev/null
invals0=$(fscache_stat Invals n)
head -c 8192 /dev/urandom >/tmp/written
as_reader "dd if=/tmp/written of=$FSC/$f bs=4096 seek=10 conv=notrunc" 2>/dev/null
ok $? client_write
invals1=$(fscache_stat Invals n)
diag "fscache invalidations: $invals0 -> $invals1"
[ "$invals1" -gt "$invals0" ]
ok $? write_open_invalidates

readback() { # FILE: the 8 KiB written at 40 KiB, read by the reader
	as_reader "dd if=$1 bs=4096 skip=10 count=2" 2>/dev/null | sha256sum | cut -d' ' -f1
}
want=$(sum /tmp/written)
[ "$(readback "$FSC/$f")" = "$want" ]
ok $? read_back_written
drop_caches
[ "$(readback "$FSC/$f")" = "$want" ]
ok $? read_back_written_after_drop_caches
[ "$(readback "$EXPORT/$f")" = "$want" ]
ok $? server_has_written
exit "$failed"
