#!/bin/sh
# Many readers of one cached file at once, while the server appends to it:
# buffered pread(), O_DIRECT pread() and mmap readers of ranges at
# different offsets and of different sizes (some across the old end of
# the file), and whole-file readers, three rounds of them.  Appends leave
# every byte already written as it was, so each reader's bytes must be the
# server's final file at the same offset, for as many bytes as it got, and
# it must get at least what the file held when the appends began.  Once
# the appends end, the file reads right from the server after drop_caches,
# and then, stored, from the cache with no READ.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 4
nfs_up

mib=1048576
f=many-readers
size0=$((4 * mib))
new_file "$EXPORT/$f" "$size0"
s0=$(stored)
read_sum "$FSC/$f" >/dev/null
wait_for 30 stored_since "$s0" "$(pages_of "$size0")"
ok $? cached_before_the_appends
drop_caches

# The server appends 64 KiB every fifth of a second, 40 times.
(
	i=0
	while [ "$i" -lt 40 ]; do
		head -c 65536 /dev/urandom >>"$EXPORT/$f"
		sleep 0.2
		i=$((i + 1))
	done
) &
appender=$!

# The readers, OFFSET:LENGTH:HOW (HOW: pread, direct or mmap of range-read,
# or "whole" for cat); their outputs in /tmp/many-readers-N.out.
readers="0:$mib:pread 12345:300000:mmap 4096:$((2 * mib)):direct
$((mib + 777)):$((mib + 5)):pread $((3 * mib)):$((2 * mib)):mmap
$((4 * mib - 8192)):$((mib)):direct $((4 * mib - 1000)):70000:pread
0:0:whole $((2 * mib + 1)):1:mmap $((3 * mib + 4096)):65536:direct"
# A reader's OFFSET:LENGTH:HOW into $off, $len and $how.
spec_of() { # SPEC
	off=${1%%:*} how=${1#*:}
	len=${how%%:*} how=${how#*:}
}
round=0 bad=0 runs=0
while [ "$round" -lt 3 ]; do
	k=0 pids=
	for r in $readers; do
		k=$((k + 1))
		spec_of "$r"
		if [ "$how" = whole ]; then
			cat "$FSC/$f" >"/tmp/$f-$k.out" 2>&1 &
		else
			range-read "$FSC/$f" "$off" "$len" "$how" >"/tmp/$f-$k.out" 2>/tmp/$f-$k.err &
		fi
		pids="$pids $!"
	done
	for pid in $pids; do
		wait "$pid" || bad=$((bad + 1))
	done
	# Compared once the appends are through (wait below), per round.
	mkdir -p "/tmp/$f-round-$round"
	mv /tmp/"$f"-[0-9]*.out "/tmp/$f-round-$round/"
	runs=$((runs + k))
	round=$((round + 1))
done
wait "$appender"
final=$((size0 + 40 * 65536))
[ "$(stat -c %s "$EXPORT/$f")" -eq "$final" ] || bail "the appends"
wrong=0 short=0
round=0
while [ "$round" -lt 3 ]; do
	k=0
	for r in $readers; do
		k=$((k + 1))
		spec_of "$r"
		[ "$how" != whole ] || len=$final
		out=/tmp/$f-round-$round/$f-$k.out
		got=$(stat -c %s "$out")
		# At least what the file held before the appends.
		least=$((size0 - off < len ? size0 - off : len))
		[ "$least" -gt 0 ] || least=0
		if [ "$got" -lt "$least" ] || [ "$got" -gt "$len" ]; then
			short=$((short + 1))
			diag "round $round, $how of $len at $off: $got bytes"
		fi
		if ! tail -c "+$((off + 1))" "$EXPORT/$f" | head -c "$got" | cmp -s - "$out"; then
			wrong=$((wrong + 1))
			diag "round $round, $how of $len at $off: other bytes than the server's"
		fi
	done
	round=$((round + 1))
done
diag "$runs reads: $bad failed, $short of a wrong length, $wrong with other bytes"
[ "$bad" -eq 0 ] && [ "$short" -eq 0 ]
ok $? every_reader_ends_with_its_length
[ "$wrong" -eq 0 ]
ok $? every_reader_gets_the_servers_bytes

# After the appends: right from the server, then from the cache.
sleep 2
want=$(sum "$EXPORT/$f")
drop_caches
s0=$(stored)
count_reads "$FSC" read_sum "$FSC/$f"
first=$got
diag "after the appends: $reads READs, $from_cache pages from the cache"
wait_for 60 stored_since "$s0" $(($(pages_of "$final") - from_cache))
drop_caches
count_reads "$FSC" read_sum "$FSC/$f"
diag "again: $reads READs, $from_cache pages from the cache"
[ "$first" = "$want" ] && [ "$got" = "$want" ] && [ "$reads" -eq 0 ] &&
	[ "$from_cache" -eq "$(pages_of "$final")" ]
ok $? right_then_from_the_cache
finish
