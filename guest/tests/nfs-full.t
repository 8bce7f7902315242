#!/bin/sh
# A cache disk smaller than what is read: cachefilesd culls old cache files
# to make room, and every read returns the server's bytes, none an error.
# For this test cachefilesd runs on a small disk of its own (/dev/vdc,
# 48 MiB) with Debian's configuration but for its directory; the main cache
# disk stays mounted, and Debian's cachefilesd is back at the end.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 6
nfs_up

SMALL=/var/cache/fscache-small
small_log=/tmp/cachefilesd-small.log
small_pid=
small_job=
{
	sed "s|^dir .*|dir $SMALL|" /etc/cachefilesd.conf >/tmp/cachefilesd-small.conf &&
		cache_dir_prepare "$SMALL" /dev/vdc && cache_stop
} >>"$LOG" 2>&1 &&
	{
		# In the foreground of its own (-n), so that its messages and its
		# exit status are seen, whenever it exits.
		cachefilesd_run -n -s -f /tmp/cachefilesd-small.conf >"$small_log" 2>&1 &
		small_job=$!
		wait_for 10 cache_active && small_pid=$(pidof cachefilesd)
	}
ok $? small_cache_started || tail -n 5 "$LOG" | sed 's/^/# /'
# Run as cache_start runs Debian's: with no address-space randomisation
# (ADDR_NO_RANDOMIZE, 0x0040000), see cachefilesd_run.
personality=$(cat "/proc/$small_pid/personality" 2>/dev/null)
diag "cachefilesd personality: ${personality:-none}"
[ -n "$personality" ] && [ $((0x$personality & 0x0040000)) -ne 0 ]
ok $? cachefilesd_not_randomised

files="full-1 full-2 full-3 full-4 full-5"
for f in $files; do
	new_file "$EXPORT/$f" 16777216
done
culled0=$(fscache_stat NoSpace cull)
bad=0
for round in 1 2; do
	for f in $files; do
		drop_caches
		as_reader "cat $FSC/$f" >/tmp/full.out
		rc=$?
		expect_eq "round $round, $f: cat's exit status" 0 "$rc" || bad=1
		expect_eq "round $round, $f: checksum" "$(sum "$EXPORT/$f")" "$(sum /tmp/full.out)" || bad=1
	done
done
rm -f /tmp/full.out
ok "$bad" every_read_right
culled=$(($(fscache_stat NoSpace cull) - culled0))
diag "culled: $culled; cache disk: $(df -k "$SMALL" | awk 'NR == 2 { print $3 " KiB used of " $2 }')"
grep NoSpace /proc/fs/fscache/stats | sed 's/^/# /'
[ "$culled" -gt 0 ]
ok $? cachefilesd_culled
kill -0 "$small_pid" 2>/dev/null
ok $? cachefilesd_still_running
kill "$small_pid" 2>/dev/null
wait "$small_job" 2>/dev/null
diag "cachefilesd exited with status $?"
sed 's/^/# cachefilesd: /' "$small_log"

# Debian's cachefilesd back, whatever became of the small cache's; the
# small disk emptied and unmounted, so that the test may run again.
killall cachefilesd 2>/dev/null
{
	wait_for 10 no_cache && rm -rf "${SMALL:?}"/* && umount "$SMALL" &&
		cache_start
} >>"$LOG" 2>&1
ok $? main_cache_back
finish
