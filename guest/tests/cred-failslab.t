#!/bin/sh
# get_kernel_cred() out of memory: the kernel_cred_failslab KUnit suite, a
# module, fails each of its allocations in turn with failslab.  failslab
# fails allocations that may sleep only once told so here, in debugfs; its
# probability stays 0, so nothing else fails.  The suite's KTAP comes from
# KUnit's debugfs results (a KTAP document) and is shown as this test's
# subtests.  The module is unloaded after, so that the test may run again.
# shellcheck source=guest/lib/ktap.sh
. /lib/guest/ktap.sh
suite=kernel_cred_failslab
module=cred_failslab_kunit
debugfs=/sys/kernel/debug
grep -q " $debugfs debugfs " /proc/mounts || mount -t debugfs debugfs "$debugfs" ||
	bail "cannot mount debugfs"
[ ! -e "/sys/module/$module" ] || bail "$module is loaded already"

echo N >"$debugfs/failslab/ignore-gfp-wait" || bail "cannot set failslab's ignore-gfp-wait"
echo 0 >"$debugfs/failslab/verbose" || bail "cannot set failslab's verbosity"
insmod "/lib/modules/$module.ko"
rc=$?
echo Y >"$debugfs/failslab/ignore-gfp-wait"
echo 2 >"$debugfs/failslab/verbose"
[ "$rc" -eq 0 ] || bail "insmod $module.ko: exit status $rc"

results=$debugfs/kunit/$suite/results
cat "$results" || bail "no $results"
grep -q "^ok 1 $suite\$" "$results" && ! grep -q "# SKIP" "$results"
rc=$?
rmmod "$module" || bail "rmmod $module: exit status $?"
exit "$rc"
