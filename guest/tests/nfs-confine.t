#!/bin/sh
# What the credential work is for: reads by an unprivileged user fill the
# cache, yet the kernel creates every cache file and directory with the
# cache's credentials (the cache root's owner, through
# set_create_files_as()), never the reader's or root's; the reader cannot
# reach the cache; and the reader's own ids never change, while it reads or
# after.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
echo "KTAP version 1"
echo "1..6"
nfs_up

for i in 1 2 3; do
	head -c 300000 /dev/urandom >"$EXPORT/confine-$i"
done
head -c 67108864 /dev/urandom >"$EXPORT/confine-big"
chmod 0644 "$EXPORT"/confine-*
sync
drop_caches

ids() { # [FILE]: the Uid and Gid lines of a /proc/PID/status, values only
	awk '$1 == "Uid:" || $1 == "Gid:" { $1 = ""; printf "%s;", $0 }' "$@"
}
want=" 1000 1000 1000 1000; 1000 1000 1000 1000;"
# The reading process itself: its pid is written before it execs cat.
rm -f /tmp/reader.pid
su "$READER" -s /bin/sh -c "echo \$\$ >/tmp/reader.pid; exec cat $FSC/confine-big >/dev/null" &
reader=$!
# Without a pause: the read takes well under a second.
until [ -s /tmp/reader.pid ]; do :; done
pid=$(cat /tmp/reader.pid)
during=
while kill -0 "$pid" 2>/dev/null; do
	during="$during$(ids "/proc/$pid/status" 2>/dev/null)
"
done
wait "$reader"
ok $? reader_read
bad=$(echo "$during" | grep -v -x -F -e "$want" -e "" | sort -u)
[ -n "$during" ] && [ -z "$bad" ]
ok $? reader_ids_unchanged_while_reading
[ -z "$bad" ] || diag "ids seen while reading: $bad"

for i in 1 2 3; do
	su "$READER" -s /bin/sh -c "cat $FSC/confine-$i >/dev/null"
done
after=$(su "$READER" -s /bin/sh -c 'cat /proc/self/status' | ids)
[ "$after" = "$want" ]
ok $? reader_ids_unchanged_after
[ "$after" = "$want" ] || diag "ids after reading: $after"

# The cache's data files are linked into the cache once FS-Cache lets go of
# their cookies: after the client forgets the inodes and the cookies' LRU
# time (about 10 s) has passed.  lost+found is mkfs's, not the kernel's.
drop_caches
cache_files() { find "$CACHE" -path "$CACHE/lost+found" -prune -o -type f -print; }
# shellcheck disable=SC2317 # called through wait_for
enough_files() { [ "$(cache_files | wc -l)" -ge 4 ]; }
wait_for 30 enough_files
ok $? cache_filled
not_cache_owned() {
	find "$CACHE" -path "$CACHE/lost+found" -prune -o -mindepth 1 \
		\( ! -user "$CACHE_UID" -o ! -group "$CACHE_UID" \) -print
}
diag "cache: $(cache_files | wc -l) files; owners (count uid:gid):" \
	"$(find "$CACHE" -path "$CACHE/lost+found" -prune -o -mindepth 1 -exec stat -c '%u:%g' {} + |
		sort | uniq -c | paste -sd' ')"
[ -z "$(not_cache_owned)" ]
ok $? cache_owned_by_cache_owner
not_cache_owned | head -n 10 | sed 's/^/# not the cache owner: /'

file=$(cache_files | head -n 1)
[ -n "$file" ] &&
	! su "$READER" -s /bin/sh -c "ls $CACHE" </dev/null >/dev/null 2>&1 &&
	! su "$READER" -s /bin/sh -c "cat $file" </dev/null >/dev/null 2>&1
ok $? reader_cannot_reach_cache
exit "$failed"
