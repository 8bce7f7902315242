#!/bin/sh
# make test's share of fstests (make fstests runs the whole list on both
# NFS versions, with and without fsc): the tests of guest/fstests/ci, in
# the section NFS 4.2 with fsc, in the Debian system as an admin has it
# (Debian's SELinux policy enforcing, cachefilesd from its unit), every
# one passing, with the cache used and still bound at the end.
# shellcheck source=guest/lib/debian-system.sh
. /lib/guest/debian-system.sh
# shellcheck source=guest/lib/fstests.sh
. /lib/guest/fstests.sh
plan 2

tests=$(fstests_list ci)
[ -n "$tests" ] || bail "no tests in the list ci"
fstests_export
ok $? exports

# shellcheck disable=SC2086 # a word a test
fstests_case nfs42_fsc pass $tests
finish
