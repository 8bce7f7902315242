#!/bin/sh
# A READ that comes back short inside a subrequest of several READs: the
# pages past its reply must not be taken as read, whatever the READs after
# it brought (issue 41).  A cached file is read with every cache read
# failing after it was done (cachefiles' injection, bit 4), so that netfs
# fetches each failed run of pages from the server in one subrequest of
# several READs (rsize=4096); fail_nfs_read (the kernel's fault injection,
# in debugfs) cuts the second of them to half its bytes and makes its reply
# end at EOF, or fail with EIO.  The reader must get the server's bytes;
# the same pages read again from the page cache too.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 5
nfs_up

# debugfs: mounted by guest/init.
debugfs=/sys/kernel/debug
FAIL=$debugfs/fail_nfs_read
[ -d "$FAIL" ] || bail "no $FAIL (CONFIG_NFS_FAULT_INJECTION)"
mnt=/mnt/rsize-4k
nfs_mount "$mnt" ,fsc,rsize=4096 >>"$LOG" 2>&1 || bail "mount with rsize=4096"
on_exit "umount $mnt"
rsize=$(awk -v mp="$mnt" '$2 == mp' /proc/mounts | grep -o 'rsize=[0-9]*')
expect_eq "rsize" rsize=4096 "$rsize"
ok $? mounted_with_rsize_4096

size=$((64 * 4096 + 100))
pages=$(pages_of "$size")
new_file "$EXPORT/short" "$size"
want=$(sum "$EXPORT/short")
s0=$(stored "$mnt")
got=$(sum "$mnt/short")
expect_eq "cold read" "$want" "$got" &&
	wait_for 30 stored_since "$s0" "$pages" "$mnt"
ok $? file_cached

# Read the file with its cache reads failing and the second READ after
# arming cut; say where the bytes went wrong, if they did.
on_exit "echo 0 >$INJECT; echo 0 >$FAIL/probability; echo N >$FAIL/eio"
cut_read() { # eof|eio
	[ "$1" = eio ] && echo Y >"$FAIL/eio" || echo N >"$FAIL/eio"
	drop_caches
	echo 0 >"$FAIL/verbose"
	echo 2 >"$FAIL/interval"
	echo 1 >"$FAIL/times"
	echo 4 >"$INJECT"
	echo 100 >"$FAIL/probability"
	count_reads "$mnt" cp "$mnt/short" /tmp/short-read 2>/tmp/short-read.err
	status=$?
	echo 0 >"$FAIL/probability"
	echo 0 >"$INJECT"
	diag "$1: cp exit $status ($(cat /tmp/short-read.err)), READs $reads, cache reads failed $missed pages"
	expect_eq "READs cut" 0 "$(cat "$FAIL/times")"
	expect_eq "$1: bytes read" "$want" "$(sum /tmp/short-read)" ||
		diag "$1: $(cmp /tmp/short-read "$EXPORT/short" 2>&1 | head -n 1)"
	expect_eq "$1: bytes in the page cache" "$want" "$(sum "$mnt/short")"
	rm -f /tmp/short-read /tmp/short-read.err
}

cut_read eof
ok $? read_cut_at_eof_has_server_bytes
cut_read eio
ok $? read_cut_by_error_has_server_bytes
# The cache still holds the server's bytes.
drop_caches
read -r ops from_cache bytes <<END
$(read_counts "$mnt" short)
END
diag "warm: $ops READs, $from_cache pages from the cache"
expect_eq "warm read" "$want" "$bytes" && expect_eq "READs" 0 "$ops"
ok $? cache_kept_server_bytes
finish
