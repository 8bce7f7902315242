#!/bin/sh
# Losing the cache daemon, and bad input.  cachefilesd killed in the middle
# of a read from the cache: the read still returns the server's bytes, the
# cache is withdrawn, and a restarted cachefilesd brings caching back.
# Without a cache, an fsc mount works uncached.  A malformed cachefilesd.conf
# makes cachefilesd exit with a message, and NFS goes on.  An unknown mount
# option next to fsc fails the mount, naming the option.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 12
nfs_up

# The file cached first; then read again by a reader whose reads of the
# cache disk an I/O throttle (256 KiB/s) holds in flight while cachefilesd
# is killed.  The throttle is lifted after the kill, so that the cache can
# be withdrawn (it waits for the reads in flight) and the read go on.
f=daemon-loss
size=$((8 * 1048576))
pages=$(pages_of "$size")
new_file "$EXPORT/$f" "$size"
want=$(sum "$EXPORT/$f")
stored0=$(stored)
read_counts "$FSC" "$f" >/dev/null
wait_for 30 stored_since "$stored0" "$pages" ||
	diag "stored before the read under test: $(($(stored) - stored0)) of $pages pages"
drop_caches
slow=$CGROUP/slow-daemon-loss
throttle_reads slow-daemon-loss vdb 262144 >>"$LOG" 2>&1 || bail "io throttle"
from_cache0=$(fsc 1)
# shellcheck disable=SC2317 # called through wait_for
from_cache_since() { [ "$(fsc 1)" -gt "$1" ]; } # COUNT-BEFORE
# su execs sha256sum: $! is the reader.
throttled slow-daemon-loss "su $READER -s /bin/sh -c 'exec sha256sum $FSC/$f'" \
	>/tmp/daemon-loss.out 2>&1
reading=$!
wait_for 20 from_cache_since "$from_cache0"
from_cache=$(($(fsc 1) - from_cache0))
kill -0 "$reading" 2>/dev/null
alive=$?
killall -KILL cachefilesd
echo "$(cat /sys/block/vdb/dev) rbps=max" >"$slow/io.max"
diag "at the kill: $from_cache of $pages pages read from the cache, reader running: $alive"
expect_eq "reader running (kill -0)" 0 "$alive"
expect_ge "pages read from the cache" 1 "$from_cache"
expect_le "pages read from the cache" $((pages - 1)) "$from_cache"
ok $? read_in_flight_at_daemon_loss
wait "$reading"
rc=$?
rmdir "$slow"
expect_eq "reader's exit status" 0 "$rc"
expect_eq checksum "$want" "$(cut -d' ' -f1 /tmp/daemon-loss.out)"
ok $? read_survives_daemon_loss
wait_for 10 no_cache
ok $? cache_withdrawn

# An fsc mount with no cache bound.
nocache=/mnt/nocache
nfs_mount "$nocache" ,fsc >>"$LOG" 2>&1
ok $? fsc_mount_without_cache
as_reader "cat $nocache/$f" >/tmp/daemon-read.out
rc=$?
expect_eq "reader's exit status" 0 "$rc"
expect_eq checksum "$want" "$(sum /tmp/daemon-read.out)"
ok $? read_without_cache
# The kernel shows such a volume uncached: FSC "no", and no page read from
# a cache (its fsc: line is there: the option was given).
fsc=$(fsc_column "$nocache")
from_cache=$(mountstat "$nocache" fsc: 1)
diag "FSC of the mount without a cache: $fsc; pages read from a cache: $from_cache"
[ "$fsc" = no ] && [ -n "$from_cache" ] && [ "$from_cache" -eq 0 ]
ok $? fsc_mount_without_cache_uncached
umount "$nocache"

# A malformed configuration.
printf 'dir %s\ntag mycache\nbrun 10%%\nno-such-command 1\n' "$CACHE" >/tmp/bad.conf
cachefilesd_run -s -n -f /tmp/bad.conf >/tmp/bad.out 2>&1
rc=$?
sed 's/^/# cachefilesd: /' /tmp/bad.out
[ "$rc" -ne 0 ] && [ -s /tmp/bad.out ] && ! cache_active
ok $? malformed_conf_rejected
drop_caches
as_reader "cat $FSC/$f" >/tmp/daemon-read.out
rc=$?
expect_eq "reader's exit status" 0 "$rc"
expect_eq checksum "$want" "$(sum /tmp/daemon-read.out)"
ok $? nfs_unaffected_by_bad_conf

# Debian's configuration again: caching comes back.
cache_start >>"$LOG" 2>&1
ok $? cachefilesd_restarts
g=after-restart
gsize=1048576
new_file "$EXPORT/$g" "$gsize"
stored0=$(stored)
read_counts "$FSC" "$g" >/dev/null
wait_for 30 stored_since "$stored0" "$(pages_of "$gsize")"
drop_caches
read -r ops pages bytes <<EOF
$(read_counts "$FSC" "$g")
EOF
diag "after the restart, second read: $ops READs, $pages pages from the cache"
expect_eq "READs sent" 0 "$ops"
expect_eq "pages from the cache" "$(pages_of "$gsize")" "$pages"
expect_eq checksum "$(sum "$EXPORT/$g")" "$bytes"
ok $? caching_back_after_restart

# An unknown option beside fsc.
bad=/mnt/badopt
mkdir -p "$bad"
log_mark
out=$(in_client timeout 60 mount.nfs "$SERVER:$EXPORT" "$bad" -o "$NFS_OPTS,fsc,no-such-option" 2>&1)
rc=$?
echo "$out" | sed 's/^/# mount.nfs: /'
log_since_mark | grep -i "no-such-option" | sed 's/^/# kernel: /'
[ "$rc" -ne 0 ] && ! grep -q " $bad " /proc/mounts
ok $? unknown_option_fails_mount
# The kernel's own line, not mount.nfs's generic one.
logged_since_mark "nfs4\{0,1\}: Unknown parameter 'no-such-option'"
ok $? unknown_option_named
finish
