#!/bin/sh
# Coherency between two clients: client-a changes a file and closes it;
# client-b, whose cache holds the old version (its page cache dropped, so
# that the bytes are in the cache alone; its inode kept, with the old
# attributes), opens it afterwards and reads the server's new bytes, never
# an old one: for a rewrite of the same size, a truncate, an extend, an
# overwrite in place and a rename over it.  Nothing orders the two but
# close-to-open: no waiting between the change and the read, which takes
# nothing from client-b's cache; once the pages it fetched are stored,
# client-b reads it again after drop_caches, all from its cache.  A mount
# allowed to be stale, the negative control, reads the old bytes.
# shellcheck source=guest/lib/cluster.sh
. /lib/guest/cluster.sh
plan 6
cluster_up

# Each case on a file of its own, SIZE bytes, cached by client-b, then
# changed by client-a's CHANGE, a command line in which $f is the file's
# path on client-a.
coherency_case() { # NAME SIZE CHANGE
	name=coherency-$1
	new_file "$EXPORT/$name" "$2" && chmod 0666 "$EXPORT/$name"
	pages=$(on_client client-b "cache_file $name")
	expect_ge "$1: pages client-b read from its cache" "$(pages_of "$2")" "$pages"
	old=$(sum "$EXPORT/$name")
	on_client client-a "f=$FSC/$name; $3" >>"$LOG" 2>&1
	expect_eq "$1: status of client-a's change" 0 "$?"
	want=$(sum "$EXPORT/$name")
	expect_ne "$1: the server's bytes after the change" "$old" "$want"
	# client-b's cache was invalidated (its first read takes nothing from
	# it) and filled again (the read after drop_caches takes all from it).
	counts=$(on_client client-b "read_and_reread $name")
	expect_eq "$1: status of client-b's reads" 0 "$?"
	diag "$1: client-b's reads (READs, pages from the cache, checksum): $counts"
	read -r reads1 cached1 sum1 reads2 cached2 sum2 <<EOF
$counts
EOF
	new_pages=$(pages_of "$(stat -c %s "$EXPORT/$name")")
	expect_eq "$1: client-b's checksum" "$want" "$sum1"
	expect_ge "$1: READs of client-b's first read" 1 "$reads1"
	expect_eq "$1: pages of client-b's first read from its cache" 0 "$cached1"
	expect_eq "$1: client-b's checksum after drop_caches" "$want" "$sum2"
	expect_eq "$1: READs of client-b's read after drop_caches" 0 "$reads2"
	expect_eq "$1: pages of client-b's read after drop_caches from its cache" "$new_pages" "$cached2"
	ok $? "$1"
}

size=1048576
coherency_case rewritten_same_size "$size" \
	"head -c $size /dev/urandom >/tmp/new && dd if=/tmp/new of=\$f bs=65536 conv=notrunc status=none"
coherency_case truncated "$size" "truncate -s 1000 \$f"
coherency_case extended "$size" "head -c 3000000 /dev/urandom >>\$f"
coherency_case overwritten_in_place "$size" \
	"head -c 8192 /dev/urandom | dd of=\$f bs=4096 seek=10 iflag=fullblock conv=notrunc status=none"
coherency_case renamed_over "$size" \
	"head -c $size /dev/urandom >\$f.new && mv \$f.new \$f"

# The negative control: a mount of client-b's allowed to be stale (no
# close-to-open, attributes kept for ten minutes) still reads the old bytes
# after client-a's change.  The cases above would see a stale read.
name=coherency-stale
new_file "$EXPORT/$name" "$size" && chmod 0666 "$EXPORT/$name"
old=$(sum "$EXPORT/$name")
stale_sum() { on_client client-b "as_reader 'cat $STALE/$name' | sha256sum | cut -d' ' -f1"; }
on_client client-b "stale_mount" >>"$LOG" 2>&1
expect_eq "status of client-b's stale mount" 0 "$?"
on_exit "on_client client-b 'umount $STALE' >>$LOG 2>&1"
expect_eq "client-b's first read through it" "$old" "$(stale_sum)"
on_client client-a "head -c $size /dev/urandom >/tmp/new && dd if=/tmp/new of=$FSC/$name bs=65536 conv=notrunc status=none" >>"$LOG" 2>&1
expect_eq "status of client-a's change" 0 "$?"
expect_ne "the server's bytes after the change" "$old" "$(sum "$EXPORT/$name")"
expect_eq "client-b's read through the stale mount" "$old" "$(stale_sum)"
ok $? stale_mount_reads_old_bytes
finish
