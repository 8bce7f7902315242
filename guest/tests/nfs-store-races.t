#!/bin/sh
# A store to the cache held while the file's mount or pages go under it.
# The cache filesystem is frozen (fsfreeze) before a cold read: the reader
# gets its bytes from the server, and netfs's store of them to the cache
# blocks in cachefiles' write until the thaw.  Meanwhile the mount is
# unmounted, or drop_caches runs.  Each must wait for the store (it runs in
# the background); after the thaw it ends, and the file then reads as the
# server has it, after drop_caches, whatever the cache took, and again once
# that read's own store is done.
#
# The same with the file changed (on the server, truncated, or written by
# the client) waits for a kernel fix: the cookie's invalidation makes a
# new cache file on the frozen filesystem without taking write access to
# it (cachefiles_create_tmpfile(); ext4 warns in
# ext4_journal_check_start()).  notes/store-races.md.
# shellcheck disable=SC2317 # functions called through wait_for and race_case
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 2
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

# NAME ACTION: the file read cold with its store held, ACTION in the
# background, the thaw; then ACTION's end, and the reads.
race_case() {
	f=store-race-$1
	new_file "$EXPORT/$f" "$size" && chmod 0666 "$EXPORT/$f"
	drop_caches
	# Open once first, so that the cookie's cache file is made now and
	# not under the freeze (its lookup is asynchronous: a moment for it).
	: <"$race/$f"
	sleep 1
	want=$(sum "$EXPORT/$f")
	inval0=$(fscache_stat Invals n)
	fsfreeze --freeze "$CACHE" || bail "fsfreeze $CACHE"
	got=$(read_sum "$race/$f")
	wait_for 20 store_held
	held=$?
	"$2" >>"$LOG" 2>&1 &
	action=$!
	sleep 2
	fsfreeze --unfreeze "$CACHE"
	wait_for 60 store_not_held
	wait "$action"
	acted=$?
	[ -n "$(awk -v mp="$race" '$2 == mp' /proc/mounts)" ] || race_mount ||
		bail "mount with fsc=store-race again"
	diag "$1: read $([ "$got" = "$want" ] && echo right || echo wrong), store held: $([ "$held" -eq 0 ] && echo yes || echo no), action's status $acted, cookie invalidations $(($(fscache_stat Invals n) - inval0))"
	now=$(sum "$EXPORT/$f")
	s0=$(stored "$race")
	drop_caches
	count_reads "$race" read_sum "$race/$f"
	first=$got
	diag "$1: after: $reads READs, $from_cache pages from the cache"
	wait_for 30 stored_since "$s0" 1 "$race"
	drop_caches
	count_reads "$race" read_sum "$race/$f"
	diag "$1: again: $reads READs, $from_cache pages from the cache"
	[ "$held" -eq 0 ] && [ "$acted" -eq 0 ] && [ "$first" = "$now" ] && [ "$got" = "$now" ]
	ok $? "$1"
}

race_case unmounted unmounted
race_case caches-dropped caches_dropped
umount "$race"
finish
