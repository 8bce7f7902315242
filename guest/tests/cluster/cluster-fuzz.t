#!/bin/sh
# A coherency fuzz between the machines.  Each round client-a changes a
# file (writes at a random offset, a truncate, a replacement by rename)
# and closes it; then client-b opens it and reads random ranges, with
# pread() or through a shared mapping, its page cache dropped at random
# before; every read is compared byte for byte with the server's file.
# All $rounds rounds must be made.  They take some 20 s under TCG on the
# test kernel, ten times that or more on the debug kernel; $seconds seconds
# stops a run gone slow, with a diagnostic, before run-tests' limit on the
# debug kernel (600 s), and fails it.
# The seed is printed; the kernel command line's guest.fuzz_seed=N replays
# one.
# shellcheck source=guest/lib/cluster.sh
. /lib/guest/cluster.sh
plan 2
cluster_up

rounds=40
seconds=500
seed=$(sed -n 's/.*guest\.fuzz_seed=\([0-9]*\).*/\1/p' /proc/cmdline)
seed=${seed:-$(date +%s)}
diag "seed $seed"
file=fuzz
new_file "$EXPORT/$file" 262144 && chmod 0666 "$EXPORT/$file"

# The plan: per round a change, then one to three reads ("read pread|mmap
# OFFSET LENGTH DROP", DROP what client-b drops first, as written to
# drop_caches: 0 nothing, 1 its page cache, 3 its inodes and dentries too).
awk -v seed="$seed" -v rounds="$rounds" 'BEGIN {
	srand(seed)
	size = 262144
	for (r = 1; r <= rounds; r++) {
		op = int(rand() * 4)
		if (op < 2) {
			off = int(rand() * (size + 65536))
			len = 1 + int(rand() * 65536)
			print "write", off, len
			if (off + len > size)
				size = off + len
		} else if (op == 2) {
			size = int(rand() * size * 1.5)
			print "truncate", size
		} else {
			size = int(rand() * 524288)
			print "replace", size
		}
		for (i = int(rand() * 3); i >= 0; i--)
			print "read", rand() < 0.5 ? "pread" : "mmap", int(rand() * (size + 4096)),
				1 + int(rand() * 131072), rand() < 0.7 ? 0 : rand() < 0.5 ? 1 : 3
	}
}' >/tmp/fuzz.plan

# A change by client-a, closed before it returns.
change() { # write OFFSET LENGTH | truncate SIZE | replace SIZE
	f=$FSC/$file
	case $1 in
	write) on_client client-a "head -c $3 /dev/urandom >/tmp/w && dd if=/tmp/w of=$f bs=65536 seek=$2 oflag=seek_bytes conv=notrunc status=none" ;;
	truncate) on_client client-a "truncate -s $2 $f" ;;
	replace) on_client client-a "head -c $2 /dev/urandom >$f.new && mv $f.new $f" ;;
	esac
}

reads=0 bytes=0 wrong=0 errors=0 done_rounds=0
start=$(date +%s)
while read -r what a b c d <&3; do
	case $what in
	write | truncate | replace)
		[ $(($(date +%s) - start)) -lt "$seconds" ] || break
		done_rounds=$((done_rounds + 1))
		out=$(change "$what" "$a" "$b" 2>&1) || {
			errors=$((errors + 1))
			diag "round $done_rounds: client-a's $what $a $b failed: $out"
		}
		continue
		;;
	esac
	# read MODE OFFSET LENGTH DROP
	[ "$d" -eq 0 ] || on_client client-b "sync; echo $d >/proc/sys/vm/drop_caches" >>"$LOG" 2>&1
	got=$(on_client client-b "range-read $FSC/$file $b $c $a >/tmp/got && echo \$(wc -c </tmp/got) \$(sha256sum </tmp/got | cut -d' ' -f1)")
	status=$?
	range-read "$EXPORT/$file" "$b" "$c" pread >/tmp/want
	want="$(wc -c </tmp/want) $(sum /tmp/want)"
	reads=$((reads + 1))
	if [ "$status" -ne 0 ]; then
		errors=$((errors + 1))
		diag "round $done_rounds: client-b's $a read of $c bytes at $b failed: $got"
		continue
	fi
	bytes=$((bytes + ${got%% *}))
	[ "$got" != "$want" ] || continue
	on_client client-b "byte_lines /tmp/got" >/tmp/got.od
	byte_lines /tmp/want >/tmp/want.od
	differ=$(awk 'NR == FNR { want[FNR] = $1; n = FNR; next }
		{ if (!(FNR in want) || want[FNR] != $1) bad++; m = FNR }
		END { if (n > m) bad += n - m; print bad + 0 }' /tmp/want.od /tmp/got.od)
	wrong=$((wrong + differ))
	diag "round $done_rounds: client-b's $a read of $c bytes at $b: $differ wrong bytes (got length and sum $got, the server's $want)"
done 3</tmp/fuzz.plan

diag "$done_rounds rounds in $(($(date +%s) - start)) s: $reads reads, $bytes bytes, $wrong wrong bytes, $errors errors"
expect_eq "rounds made" "$rounds" "$done_rounds"
expect_eq "wrong bytes" 0 "$wrong"
ok $? no_wrong_bytes
expect_eq "errors" 0 "$errors"
ok $? no_errors
finish
