#!/bin/sh
# The fsc mount option on the kernel built with NFS_FSCACHE (the test
# kernel) and without it (make check's nofsc kernel, which boots this test
# alone): with it, the mount is cached and a second read comes from the
# cache; without it, the same mount is accepted, says it is uncached, has
# no fsc: counts, and reads every byte from the server.  The kernel's
# .config, which the host packs, says which is expected.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 3
nfs_up

if grep -q '^CONFIG_NFS_FSCACHE=y$' /etc/kernel-config; then
	with=yes
else
	with=no
fi
diag "NFS_FSCACHE in this kernel: $with"
expect_eq "the fsc mount's FSC column" "$with" "$(fsc_column "$FSC")"
ok $? fsc_column_says_what_the_kernel_has

size=$((40 * 4096 + 7))
new_file "$EXPORT/config" "$size"
want=$(sum "$EXPORT/config")
# Read the file through the fsc mount: its bytes and the READs sent.
read_fsc() {
	count_reads "$FSC" sum "$FSC/config"
	bytes=$got ops=$reads
}
if [ "$with" = yes ]; then
	s0=$(stored)
	read_fsc
	wait_for 30 stored_since "$s0" "$(pages_of "$size")"
	drop_caches
	read_fsc
	diag "second read: $ops READs, $from_cache pages from the cache"
	expect_eq "bytes" "$want" "$bytes" && expect_eq "READs" 0 "$ops" &&
		expect_eq "pages from the cache" "$(pages_of "$size")" "$from_cache"
else
	read_fsc
	drop_caches
	read_fsc
	diag "second read: $ops READs, fsc: line '$(mountstat "$FSC" fsc: 1)'"
	expect_eq "bytes" "$want" "$bytes" && expect_ge "READs" 1 "$ops" &&
		expect_eq "fsc: counts" "" "$(mountstat "$FSC" fsc: 1)"
fi
ok $? second_read_from_where_the_kernel_says

expect_eq "bytes without fsc" "$want" "$(sum "$PLAIN/config")"
ok $? plain_mount_reads_right
finish
