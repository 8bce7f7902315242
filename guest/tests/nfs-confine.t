#!/bin/sh
# What the credential work is for: reads by an unprivileged user fill the
# cache, yet the kernel creates every cache file and directory with the
# cache's credentials (the cache root's owner, through
# set_create_files_as()), never the reader's or root's; the reader cannot
# reach the cache; and the reader's own ids never change, while it reads or
# after.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 6
nfs_up

# The cache's files before this test's reads: they must add to them.
files0=$(cache_files | wc -l)
for i in 1 2 3; do
	new_file "$EXPORT/confine-$i" 300000
done
size=$((8 * 1048576))
new_file "$EXPORT/confine-big" "$size"

ids() { # [FILE]: the Uid and Gid lines of a /proc/PID/status, values only
	awk '$1 == "Uid:" || $1 == "Gid:" { $1 = ""; printf "%s;", $0 }' "$@"
}
want=" 1000 1000 1000 1000; 1000 1000 1000 1000;"
# The reading process itself, sampled while it reads confine-big from the
# cache: the file is cached first, then read again by a reader whose reads
# of the cache disk an I/O throttle (1 MiB/s) holds for some seconds.
stored0=$(stored)
read_counts "$FSC" confine-big >/dev/null
wait_for 30 stored_since "$stored0" "$(pages_of "$size")" ||
	diag "stored before the read under test: $(($(stored) - stored0)) pages"
drop_caches
slow=$CGROUP/slow-confine
throttle_reads slow-confine vdb 1048576 >>"$LOG" 2>&1 || bail "io throttle"
from_cache0=$(fsc 1)
throttled slow-confine "su $READER -s /bin/sh -c 'exec cat $FSC/confine-big'" >/dev/null
reader=$!
# Sampled from when it is cat, as the reader (sh and su exec the next).
# shellcheck disable=SC2317 # called through wait_for
reader_is_cat() { [ "$(cat "/proc/$reader/comm")" = cat ]; }
wait_for 10 reader_is_cat || diag "the reader never became cat"
# At most 2000 samples; the read takes some 8 s, the samples far less each.
during=
samples=0
while [ "$samples" -lt 2000 ] && kill -0 "$reader" 2>/dev/null; do
	during="$during$(ids "/proc/$reader/status" 2>/dev/null)
"
	samples=$((samples + 1))
done
from_cache=$(($(fsc 1) - from_cache0))
echo "$(cat /sys/block/vdb/dev) rbps=max" >"$slow/io.max"
wait "$reader"
ok $? reader_read
rmdir "$slow"
bad=$(echo "$during" | grep -v -x -F -e "$want" -e "" | sort -u)
seen=$(echo "$during" | grep -c -x -F -e "$want")
diag "$samples samples of the reader's ids while it read, $seen as wanted;" \
	"$from_cache pages read from the cache"
expect_ge "samples of the reader's ids, as wanted" 10 "$seen"
expect_eq "other ids seen" "" "$bad"
expect_ge "pages read from the cache while sampling" 1 "$from_cache"
ok $? reader_ids_unchanged_while_reading

for i in 1 2 3; do
	as_reader "cat $FSC/confine-$i >/dev/null"
done
after=$(as_reader 'cat /proc/self/status' | ids)
expect_eq "ids after reading" "$want" "$after"
ok $? reader_ids_unchanged_after

# The cache's data files are linked into the cache once FS-Cache lets go of
# their cookies: after the client forgets the inodes and the cookies' LRU
# time (about 10 s) has passed.  lost+found is mkfs's, not the kernel's.
drop_caches
# shellcheck disable=SC2317 # called through wait_for
enough_files() { [ "$(cache_files | wc -l)" -ge $((files0 + 4)) ]; }
wait_for 30 enough_files
ok $? cache_filled
not_cache_owned() {
	find "$CACHE" -path "$CACHE/lost+found" -prune -o -mindepth 1 \
		\( ! -user "$CACHE_UID" -o ! -group "$CACHE_UID" \) -print
}
diag "cache: $(cache_files | wc -l) files; owners (count uid:gid):" \
	"$(find "$CACHE" -path "$CACHE/lost+found" -prune -o -mindepth 1 -exec stat -c '%u:%g' {} + |
		sort | uniq -c | paste -sd' ')"
enough_files && [ -z "$(not_cache_owned)" ]
ok $? cache_owned_by_cache_owner
not_cache_owned | head -n 10 | sed 's/^/# not the cache owner: /'

# The reader's commands work where the reader may go (the positive
# control), and fail on the cache, whose file root reads.
file=$(cache_files | head -n 1)
expect_ne "a cache file" "" "$file"
as_reader "ls /tmp && cat $FSC/confine-1" </dev/null >/dev/null 2>&1
expect_eq "the reader's ls and cat of the fsc mount" 0 "$?"
cat "$file" >/dev/null
expect_eq "root's cat of $file" 0 "$?"
as_reader "ls $CACHE" </dev/null >/dev/null 2>&1
expect_ne "the reader's ls of the cache" 0 "$?"
as_reader "cat $file" </dev/null >/dev/null 2>&1
expect_ne "the reader's cat of $file" 0 "$?"
ok 0 reader_cannot_reach_cache
finish
