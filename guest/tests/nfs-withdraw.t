#!/bin/sh
# The cache withdrawn under many readers: cachefilesd killed, and so the
# cache unbound, while three readers of cached files are held inside their
# cache reads (an I/O throttle on the cache disk) and three readers of
# files not cached yet wait for READs that the server holds (a reader on
# the server, throttled on the export disk, has the pages locked, as in
# nfs-batched.t).  Every reader ends, within a minute of the throttles'
# lift (the debug kernel's hung-task detection watches the wait), with the
# server's bytes or an error, never other bytes.  A restarted cachefilesd
# then caches again, and every file reads right through it.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 5
nfs_up

mib=1048576
warm="withdraw-warm-1 withdraw-warm-2 withdraw-warm-3"
cold="withdraw-cold-1 withdraw-cold-2 withdraw-cold-3"
for f in $warm $cold; do
	new_file "$EXPORT/$f" $((8 * mib)) || bail "files on the export"
done
s0=$(stored)
for f in $warm; do
	read_sum "$FSC/$f" >/dev/null
done
wait_for 60 stored_since "$s0" $((3 * 8 * mib / 4096))
ok $? warm_files_cached
drop_caches

if ! throttle_reads slow-withdraw-cache vdb 262144 >>"$LOG" 2>&1 ||
	! throttle_reads slow-withdraw-export vda 1024 >>"$LOG" 2>&1; then
	bail "io throttles"
fi
unthrottle() {
	throttle_reads slow-withdraw-cache vdb max
	throttle_reads slow-withdraw-export vda max
}
on_exit unthrottle
# Whether a task has ended (a child not reaped yet is a zombie).
# shellcheck disable=SC2317 # called through wait_for
ended() { [ ! -e "/proc/$1" ] || [ "$(awk '{ print $3 }' "/proc/$1/stat")" = Z ]; } # PID

holders=
held=0
for f in $cold; do
	throttled slow-withdraw-export "dd if=$EXPORT/$f of=/dev/null bs=1M" >/dev/null 2>&1
	holders="$holders $!"
	! wait_for 30 waits_in "$!" filemap_get_pages readahead || held=$((held + 1))
done
# Each reader is a shell that joins its group, or none, and execs
# sha256sum: $! is the reader; its output in /tmp/NAME.out.
readers=
start_reader() { # NAME [GROUP]
	if [ -n "${2:-}" ]; then
		throttled "$2" "sha256sum $FSC/$1 >/tmp/$1.out 2>&1" >/dev/null 2>&1
	else
		sha256sum "$FSC/$1" >"/tmp/$1.out" 2>&1 &
	fi
	readers="$readers $1:$!"
}
from_cache0=$(fsc 1)
for f in $warm; do
	start_reader "$f" slow-withdraw-cache
done
for f in $cold; do
	start_reader "$f"
done
# shellcheck disable=SC2317 # called through wait_for
from_cache_since() { [ "$(fsc 1)" -gt "$1" ]; } # COUNT-BEFORE
wait_for 30 from_cache_since "$from_cache0"
moving=$?
sleep 1
running=0
for r in $readers; do
	ended "${r#*:}" || running=$((running + 1))
done
diag "at the kill: $held of 3 server reads held, $(($(fsc 1) - from_cache0)) pages read from the cache, $running of 6 readers running"
killall -KILL cachefilesd
unthrottle
[ "$held" -eq 3 ] && [ "$moving" -eq 0 ] && [ "$running" -eq 6 ]
ok $? readers_inside_netfs_at_the_kill

# Each reader ends (a reader that hangs fails here, after a minute), and
# with the server's bytes or an error.
ended=0 wrong=0 errors=0
for r in $readers; do
	f=${r%%:*} pid=${r#*:}
	if ! wait_for 60 ended "$pid"; then
		diag "$f: still reading a minute after the cache was withdrawn"
		continue
	fi
	ended=$((ended + 1))
	wait "$pid"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		errors=$((errors + 1))
		diag "$f: error (exit $rc): $(cat "/tmp/$f.out")"
	elif [ "$(cut -d' ' -f1 "/tmp/$f.out")" != "$(sum "$EXPORT/$f")" ]; then
		wrong=$((wrong + 1))
		diag "$f: wrong bytes"
	fi
done
for pid in $holders; do
	wait "$pid"
done
diag "$ended readers ended, $errors with an error, $wrong with wrong bytes"
[ "$ended" -eq 6 ]
ok $? every_reader_ends
[ "$wrong" -eq 0 ]
ok $? no_reader_gets_wrong_bytes

# Caching comes back with the daemon, and what the cache held before and
# after is right.
if ! wait_for 10 no_cache || ! cache_start >>"$LOG" 2>&1; then
	bail "cachefilesd restart"
fi
bad=0
for f in $warm $cold; do
	drop_caches
	[ "$(read_sum "$FSC/$f")" = "$(sum "$EXPORT/$f")" ] || { bad=$((bad + 1)); diag "$f: wrong after the restart"; }
done
f=withdraw-after
new_file "$EXPORT/$f" "$mib"
s0=$(stored)
read_sum "$FSC/$f" >/dev/null
wait_for 30 stored_since "$s0" 256 && drop_caches &&
	count_reads "$FSC" read_sum "$FSC/$f"
[ "$bad" -eq 0 ] && [ "$got" = "$(sum "$EXPORT/$f")" ] && [ "$from_cache" -eq 256 ] && [ "$reads" -eq 0 ]
ok $? caching_back_after_restart
finish
