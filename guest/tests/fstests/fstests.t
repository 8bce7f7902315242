#!/bin/sh
# fstests, as NFS and FS-Cache maintainers run it: fstests' check runs a
# list of generic tests (guest/fstests/tests, or the list guest.fstests=
# names on the kernel command line) in each section of
# guest/fstests/local.config, NFS 4.2 and 3, each with and without fsc
# (or those guest.fstests_sections=A,B names), against the system's own
# knfsd.  A case a section: check ran every test
# of the list in it (a test that fails is check's verdict, reported here
# and compared by make fstests across sections and kernels: scripts/
# fstests-report.py), every mount of the test and scratch directories
# had the section's NFS version and fsc or not, the cache was used in the
# fsc sections and not in the others (cookies acquired, /proc/fs/fscache/
# stats) and stayed bound (cachefilesd alive), and no mount was left
# uncached (NFS says "Cache volume key already in use" and goes on
# without the cache).
# shellcheck source=guest/lib/ktap.sh
. /lib/guest/ktap.sh
# shellcheck source=guest/lib/fstests.sh
. /lib/guest/fstests.sh
# shellcheck source=guest/lib/cache.sh
. /lib/guest/cache.sh

list=$(sed -n 's/.*guest\.fstests=\([^ ]*\).*/\1/p' /proc/cmdline)
tests=$(fstests_list "${list:-tests}")
[ -n "$tests" ] || bail "no tests in the list ${list:-tests}"
sections=$(sed -n 's/.*guest\.fstests_sections=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ')
[ -n "$sections" ] || sections=$(sed -n 's/^\[\(.*\)\]$/\1/p' "$FSTESTS/local.config")
plan $(($(echo "$sections" | wc -w) + 1))

diag "fstests list ${list:-tests}: $tests"
# The system's own fsc mount of this server goes too: NFS shares a
# superblock between mounts whatever fsc says (nfs_compare_mount_options),
# and NFS 4 reaches an export from the server's root, which is of the same
# filesystem as that mount's export here (FSTESTS.md).
umount /mnt/nfs
fstests_export
ok $? exports

for section in $sections; do
	start=$(date +%s)
	# shellcheck disable=SC2086 # a word a test
	fstests_check "$section" $tests
	diag "$section: check exited $?, $(($(date +%s) - start)) s;" \
		"cache: $cookies cookies, $cache_reads reads, $cache_writes writes"
	echo "$mounts" | while read -r line; do diag "$section mount: $line"; done
	missing=
	for test in $tests; do
		result=$(fstests_result "$section" "$test")
		diag "$section $test $result"
		case $result in
		missing) missing="$missing $test" ;;
		fail) fstests_why "$section" "$test" | while read -r line; do diag "  $line"; done ;;
		esac
	done
	[ -z "$missing" ] || tail -n 20 "$FSTESTS_RESULTS/$section.out" | while read -r line; do
		diag "  $line"
	done
	case $section in
	*_nofsc) expect_eq "cookies acquired" 0 "$cookies" ;;
	*) expect_ge "cookies acquired" 1 "$cookies" ;;
	esac
	fstests_mounts_are "$section" "$mounts" || expect_eq "mounts" "as $section" "$mounts"
	expect_ge "caches bound" 1 "$(active_caches | wc -l)"
	expect_eq "tests check did not run" "" "$(echo "$missing" | xargs)" &&
		expect_eq "mounts left uncached" 0 "$uncached"
	ok $? "$section"
done
finish
