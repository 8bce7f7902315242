#!/bin/sh
# fstests, as NFS and FS-Cache maintainers run it: fstests' check runs a
# list of generic tests (guest/fstests/tests, or the list guest.fstests=
# names on the kernel command line) in each section of
# guest/fstests/local.config, NFS 4.2 and 3, each with and without fsc
# (or those guest.fstests_sections=A,B names), against the system's own
# knfsd: a case a section (fstests_case).  A test that fails is check's
# verdict, reported here and compared by make fstests across sections and
# kernels (scripts/fstests-report.py).
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
[ -n "$sections" ] || sections=$(fstests_sections)
plan $(($(echo "$sections" | wc -w) + 1))

diag "fstests list ${list:-tests}: $tests"
fstests_export
ok $? exports

for section in $sections; do
	# shellcheck disable=SC2086 # a word a test
	fstests_case "$section" any $tests
done
finish
