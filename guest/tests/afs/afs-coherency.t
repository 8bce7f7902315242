#!/bin/sh
# A file the client holds in its cache, changed by the other client: the
# server breaks the client's callback, and the client's next read gets the
# new bytes from the server, not the cache's old ones; the cache is filled
# again with them, so that the read after that comes from the cache.  A
# file grown and one shrunk the same way.
# shellcheck source=guest/lib/afs.sh
. /lib/guest/afs.sh
plan 4
afs_up

# A file read twice by the client: the second read came from the cache.
cached_file() { # NAME BYTES
	new_file "/tmp/coherency-$1" "$2" &&
		cp "/tmp/coherency-$1" "$AFS_OTHER/$1" && sync &&
		afs_read "$AFS/$1" && wait_for 30 cache_idle && drop_caches &&
		expect_from_cache "$AFS/$1" "$(sum "/tmp/coherency-$1")" "$1 cached"
}
# The writer's change: BYTES new bytes written over NAME, in place.
change() { # NAME BYTES
	new_file "/tmp/coherency-$1" "$2" &&
		cat "/tmp/coherency-$1" >"$AFS_OTHER/$1" && sync
}
# After the change: the client reads the new bytes from the server; the
# cache takes them; read again after the page cache is dropped, they come
# from the cache.
reads_new_bytes() { # NAME
	want=$(sum "/tmp/coherency-$1")
	afs_read "$AFS/$1"
	diag "$1 changed: $fetches FetchData, $cache_reads cache reads"
	expect_eq "$1: bytes after the change" "$want" "$got" &&
		expect_ge "$1: FetchData after the change" 1 "$fetches" || return 1
	wait_for 30 cache_idle
	drop_caches
	expect_from_cache "$AFS/$1" "$want" "$1 read again"
}
# Callbacks the server broke for a FID, as kAFS traces them (afs_cb_break).
callback_breaks_for() { grep -c " afs_cb_break: $1 " "$TRACING/trace"; } # FID
# shellcheck disable=SC2317 # called through wait_for
callback_broken_for() { [ "$(callback_breaks_for "$1")" -ge 1 ]; } # FID
echo 1 >"$TRACING/events/afs/afs_cb_break/enable"
on_exit "echo 0 >$TRACING/events/afs/afs_cb_break/enable"

mib=1048576
cached_file same $((2 * mib)) || bail "a file the client reads from the cache"
change same $((2 * mib))
reads_new_bytes same
ok $? same_size_new_bytes

cached_file grown 4096 || bail "a file the client reads from the cache"
change grown $((3 * mib + 5))
reads_new_bytes grown
ok $? grown

cached_file shrunk $((3 * mib)) || bail "a file the client reads from the cache"
change shrunk 100
reads_new_bytes shrunk
ok $? shrunk

# The server told the client: a callback break for the changed file,
# before the client looked (kAFS validates on open after a break).  The
# trace prints the FID as the afs.fid xattr does.
afs_trace_clear
fid=$(afs_fid "$AFS/same")
change same 8192
wait_for 30 callback_broken_for "$fid"
expect_ge "callback breaks traced for $fid" 1 "$(callback_breaks_for "$fid")"
grep ' afs_cb_break: ' "$TRACING/trace" | head -n 3 | sed 's/^/# /'
ok $? callback_broken
finish
