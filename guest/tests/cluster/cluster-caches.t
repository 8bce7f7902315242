#!/bin/sh
# Both clients' caches are used.  Each client reads a data set, waits for
# its pages to be stored in its cache, drops its page cache and reads it
# again: the second pass takes every page from its own cache and sends no
# READ, and the server's count of READs served does not move during the
# second passes.
# shellcheck source=guest/lib/cluster.sh
. /lib/guest/cluster.sh
plan 3
cluster_up

files="set-1 set-2 set-3 set-4"
size=2097152
pages=$(($(pages_of "$size") * 4))
for f in $files; do
	new_file "$EXPORT/$f" "$size"
done

# A pass over the data set by a client (read_pass), its status checked:
# $result is "READs pages" it took from the server and from its cache.
pass() { # CLIENT STORED
	out=$(on_client "$1" "read_pass $2 $files")
	status=$?
	result="failed failed"
	expect_eq "$1: status of a pass ($(echo "$out" | tr '\n' ' '))" 0 "$status" &&
		result=$out
}

served0=$(nfsd_reads)
sent=0
for client in $CLUSTER_CLIENTS; do
	pass "$client" "$pages"
	first=$result
	diag "$client: first pass: $first (READs, pages from the cache)"
	expect_ge "$client: READs of the first pass" 1 "${first% *}" &&
		sent=$((sent + ${first% *}))
done
served1=$(nfsd_reads)
expect_ge "READs the server served in the first passes" "$sent" $((served1 - served0))
ok $? first_passes_from_the_server

# The server's count says nothing of a client that made no second pass:
# each must have made it, in full, for the count to mean anything.
second_passes=0
for client in $CLUSTER_CLIENTS; do
	pass "$client" 0
	second=$result
	expect_eq "$client: READs of the second pass" 0 "${second% *}" &&
		expect_ge "$client: pages of the second pass from its cache" "$pages" "${second#* }" &&
		second_passes=$((second_passes + 1))
	diag "$client: second pass: $second (READs, pages from the cache)"
done
ok $? second_passes_from_each_cache
expect_eq "clients that made their second pass from their cache" \
	"$(echo "$CLUSTER_CLIENTS" | wc -w)" "$second_passes"
expect_eq "READs the server served in the second passes" 0 $(($(nfsd_reads) - served1))
ok $? server_served_no_second_pass
finish
