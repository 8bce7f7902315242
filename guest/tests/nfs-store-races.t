#!/bin/sh
# A store to the cache held while the file, its mount or its pages change
# under it.  The cache filesystem is frozen (fsfreeze) before a cold read:
# the reader gets its bytes from the server, and netfs's store of them to
# the cache blocks in cachefiles' write until the thaw.  Meanwhile, in the
# background, the mount is unmounted, drop_caches runs, or the file
# changes: on the server (new bytes, or truncated), truncated through the
# mount, or written through it.  A change invalidates the cookie, and
# cachefiles makes the new cache file under the freeze: it must wait for
# the thaw too (before write access was taken for it, ext4 warned in
# ext4_journal_check_start(), which fails the run).  After the thaw every
# read gets the server's bytes as they are now: the first from the server,
# the next from the cache, so that old bytes stored by the held write would
# show.  notes/store-races.md.
# shellcheck disable=SC2317 # functions called through wait_for and race_case
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 6
nfs_up

race=/mnt/store-race
race_mount() { nfs_mount "$race" ,fsc=store-race >>"$LOG" 2>&1; }
race_mount || bail "mount with fsc=store-race"
on_exit "fsfreeze --unfreeze $CACHE 2>/dev/null || true"
size=$((256 * 4096))

# Whether a task is inside cachefiles' write, held by the freeze.
store_held() { grep -l __cachefiles_write /proc/[0-9]*/stack >/dev/null 2>&1; }
store_not_held() { ! store_held; }

unmounted() { umount "$race"; }
caches_dropped() { echo 3 >/proc/sys/vm/drop_caches; }
# A change on the server shows when the client next looks at the file's
# attributes, once its attribute cache has expired.
seen() { sleep 2 && stat "$race/$f" >/dev/null; }
changed_on_server() { change_on_server "$EXPORT/$f" && seen; }
# Not truncate(1): it opens with O_NONBLOCK, and knfsd's read delegation
# to the client makes that open fail with EAGAIN instead of waiting for
# the delegation's return.
truncated_on_server() {
	dd if=/dev/null of="$EXPORT/$f" bs=$((size / 2 + 100)) seek=1 count=0 &&
		times_ahead "$EXPORT/$f" && seen
}
truncated_on_client() { truncate -s $((size / 2 + 100)) "$race/$f"; }
written_by_client() {
	dd if=/dev/urandom of="$race/$f" bs=1 count=21 seek=5000 conv=notrunc
}

# NAME ACTION [changes]: the file read cold with its store held, ACTION
# in the background, the thaw; then ACTION's end, and the reads.  An
# ACTION that "changes" the file must have invalidated the cookie.
race_case() {
	f=store-race-$1
	new_file "$EXPORT/$f" "$size" && chmod 0666 "$EXPORT/$f"
	drop_caches
	# Open once first, so that the cookie's cache file is made now and
	# not under the freeze: its lookup, and the volume's creation after a
	# mount, are asynchronous, and the held read would wait for them, and
	# they for the thaw (seen on the debug kernel under load: the test
	# hung in its first case, kworker blocked in fscache_create_volume_work).
	: <"$race/$f"
	wait_for 60 cache_settled || bail "the cache never settled"
	want=$(sum "$EXPORT/$f")
	inval0=$(fscache_stat Invals n)
	fsfreeze --freeze "$CACHE" || bail "fsfreeze $CACHE"
	held_read=$(read_sum "$race/$f")
	wait_for 20 store_held
	held=$?
	"$2" >/tmp/store-race-action.out 2>&1 &
	action=$!
	sleep 2
	fsfreeze --unfreeze "$CACHE"
	wait_for 60 store_not_held
	wait "$action"
	acted=$?
	[ "$acted" -eq 0 ] || diag "$1: the action failed: $(cat /tmp/store-race-action.out)"
	[ -n "$(awk -v mp="$race" '$2 == mp' /proc/mounts)" ] || race_mount ||
		bail "mount with fsc=store-race again"
	invals=$(($(fscache_stat Invals n) - inval0))
	diag "$1: read under the held store $([ "$held_read" = "$want" ] && echo right || echo wrong), store held: $([ "$held" -eq 0 ] && echo yes || echo no), action's status $acted, cookie invalidations $invals"
	now=$(sum "$EXPORT/$f")
	s0=$(stored "$race")
	drop_caches
	count_reads "$race" read_sum "$race/$f"
	after=$got
	diag "$1: after: $reads READs, $from_cache pages from the cache, bytes $([ "$after" = "$now" ] && echo right || echo wrong)"
	wait_for 30 stored_since "$s0" 1 "$race"
	drop_caches
	count_reads "$race" read_sum "$race/$f"
	diag "$1: again: $reads READs, $from_cache pages from the cache, bytes $([ "$got" = "$now" ] && echo right || echo wrong)"
	[ "$held" -eq 0 ] && [ "$acted" -eq 0 ] && [ "$held_read" = "$want" ] &&
		[ "$after" = "$now" ] && [ "$got" = "$now" ] &&
		[ "$from_cache" -gt 0 ] && { [ "$3" != changes ] || [ "$invals" -gt 0 ]; }
	ok $? "$1"
}

race_case unmounted unmounted
race_case caches-dropped caches_dropped
race_case changed-on-server changed_on_server changes
race_case truncated-on-server truncated_on_server changes
race_case truncated-on-client truncated_on_client changes
race_case written-by-client written_by_client changes
umount "$race"
finish
