#!/bin/sh
# Losing the cache daemon, and bad input.  cachefilesd killed in the middle
# of a read: the read still returns the server's bytes, the cache is
# withdrawn, and a restarted cachefilesd brings caching back.  Without a
# cache, an fsc mount works uncached.  A malformed cachefilesd.conf makes
# cachefilesd exit with a message, and NFS goes on.  An unknown mount option
# next to fsc fails the mount, naming the option.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
echo "KTAP version 1"
echo "1..11"
nfs_up

f=daemon-loss
head -c 67108864 /dev/urandom >"$EXPORT/$f"
chmod 0644 "$EXPORT/$f"
want=$(sum "$EXPORT/$f")
sync
drop_caches
su "$READER" -s /bin/sh -c "sha256sum $FSC/$f" >/tmp/daemon-loss.out &
reading=$!
sleep 2
killall -KILL cachefilesd
wait "$reading"
rc=$?
[ "$rc" -eq 0 ] && [ "$(cut -d' ' -f1 /tmp/daemon-loss.out)" = "$want" ]
ok $? read_survives_daemon_loss
wait_for 10 no_cache
ok $? cache_withdrawn

# An fsc mount with no cache bound.
nocache=/mnt/nocache
nfs_mount "$nocache" ,fsc >>"$LOG" 2>&1
ok $? fsc_mount_without_cache
[ "$(su "$READER" -s /bin/sh -c "cat $nocache/$f" | sha256sum | cut -d' ' -f1)" = "$want" ]
ok $? read_without_cache
# The kernel shows such a volume uncached: FSC "no", and no page read from
# a cache (its fsc: line is there: the option was given).
fsc=$(fsc_column "$nocache")
from_cache=$(mountstat "$nocache" fsc: 1)
diag "FSC of the mount without a cache: $fsc; pages read from a cache: $from_cache"
[ "$fsc" = no ] && [ "${from_cache:-0}" -eq 0 ]
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
[ "$(su "$READER" -s /bin/sh -c "cat $FSC/$f" | sha256sum | cut -d' ' -f1)" = "$want" ]
ok $? nfs_unaffected_by_bad_conf

# Debian's configuration again: caching comes back.
cache_start >>"$LOG" 2>&1
ok $? cachefilesd_restarts
g=after-restart
head -c 1048576 /dev/urandom >"$EXPORT/$g"
chmod 0644 "$EXPORT/$g"
sync
read_counts "$FSC" "$g" >/dev/null
drop_caches
read -r ops pages bytes <<EOF
$(read_counts "$FSC" "$g")
EOF
diag "after the restart, second read: $ops READs, $pages pages from the cache"
[ "$ops" -eq 0 ] && [ "$pages" -ge 256 ] && [ "$bytes" = "$(sum "$EXPORT/$g")" ]
ok $? caching_back_after_restart

# An unknown option beside fsc.
bad=/mnt/badopt
mkdir -p "$bad"
out=$(in_client timeout 60 mount.nfs "$SERVER:$EXPORT" "$bad" -o "$NFS_OPTS,fsc,no-such-option" 2>&1)
rc=$?
echo "$out" | sed 's/^/# mount.nfs: /'
dmesg | grep -i "no-such-option" | tail -n 1 | sed 's/^/# dmesg: /'
[ "$rc" -ne 0 ] && ! grep -q " $bad " /proc/mounts
ok $? unknown_option_fails_mount
{ echo "$out"; dmesg; } | grep -q -i -e "no-such-option" -e "incorrect mount option"
ok $? unknown_option_named
exit "$failed"
