#!/bin/sh
# Coherency between two clients: client-a changes a file and closes it;
# client-b, whose cache holds the old version (its page cache dropped, so
# that the bytes are in the cache alone; its inode kept, with the old
# attributes), opens it afterwards and reads the server's new bytes, never
# an old one: for a rewrite of the same size, a truncate, an extend, an
# overwrite in place and a rename over it.  Nothing orders the two but
# close-to-open: no waiting between the change and the read.  Then
# client-b reads it again after drop_caches.
# shellcheck source=guest/lib/cluster.sh
. /lib/guest/cluster.sh
plan 5
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
	expect_eq "$1: client-b's checksum" "$want" "$(on_client client-b "client_sum $name")"
	expect_eq "$1: client-b's checksum after drop_caches" "$want" \
		"$(on_client client-b "drop_caches; client_sum $name")"
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
exit "$failed"
