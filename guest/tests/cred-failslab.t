#!/bin/sh
# get_kernel_cred() out of memory: the kernel_cred_failslab KUnit suite, a
# module, fails each of its allocations in turn with failslab.  failslab
# fails allocations that may sleep only once told so here, in debugfs; its
# probability stays 0, so nothing else fails.  The suite's KTAP comes from
# KUnit's debugfs results (a KTAP document) and is shown as this test's
# subtests.
suite=kernel_cred_failslab
debugfs=/sys/kernel/debug
grep -q " $debugfs debugfs " /proc/mounts || mount -t debugfs debugfs "$debugfs" || exit 1

echo N >"$debugfs/failslab/ignore-gfp-wait" || exit 1
echo 0 >"$debugfs/failslab/verbose" || exit 1
insmod "/lib/modules/cred_failslab_kunit.ko"
rc=$?
echo Y >"$debugfs/failslab/ignore-gfp-wait"
echo 2 >"$debugfs/failslab/verbose"
if [ "$rc" -ne 0 ]; then
	echo "# insmod cred_failslab_kunit.ko: exit status $rc"
	exit 1
fi

results=$debugfs/kunit/$suite/results
cat "$results" || exit 1
grep -q "^ok 1 $suite\$" "$results" && ! grep -q "# SKIP" "$results"
