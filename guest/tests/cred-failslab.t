#!/bin/sh
# get_kernel_cred() out of memory: the kernel_cred_failslab KUnit suite, a
# module, fails each of its allocations in turn with failslab.  failslab
# fails allocations that may sleep only once told so here, in debugfs; its
# probability stays 0, so nothing else fails.  The daemon whose credentials
# the suite copies is an idle process of $READER's, which no other process
# runs as meanwhile: the references the suite compares are its own.  The
# suite's KTAP comes from KUnit's debugfs results (a KTAP document) and is
# shown as this test's subtests.  The module is unloaded after, so that the
# test may run again.
# shellcheck source=guest/lib/ktap.sh
. /lib/guest/ktap.sh
suite=kernel_cred_failslab
module=cred_failslab_kunit
# debugfs: mounted by guest/init.
debugfs=/sys/kernel/debug
[ ! -e "/sys/module/$module" ] || bail "$module is loaded already"
others=$(ps -o user,pid,comm | awk -v u="$READER" '$1 == u')
[ -z "$others" ] || bail "processes of $READER run already: $others"

# The suite finds its daemon by name (a module's suites run before its
# parameters are read): $READER's shell, renamed, waiting for its sleep.
su "$READER" -s /bin/sh -c 'echo failslab-daemon >/proc/self/comm
	trap "kill \$!; exit 0" TERM
	sleep 600 &
	wait' &
daemon=$!
on_exit "kill $daemon && wait $daemon"
# (Not pidof: busybox's takes a 15-character comm for a cut name and
# compares argv[0], here sh, instead.)
# shellcheck disable=SC2317 # called through wait_for
daemon_named() { cat /proc/[0-9]*/comm | grep -qx failslab-daemon; }
wait_for 10 daemon_named || bail "no process failslab-daemon of $READER's"
on_exit "echo Y >$debugfs/failslab/ignore-gfp-wait; echo 2 >$debugfs/failslab/verbose"
echo N >"$debugfs/failslab/ignore-gfp-wait" || bail "cannot set failslab's ignore-gfp-wait"
echo 0 >"$debugfs/failslab/verbose" || bail "cannot set failslab's verbosity"
insmod "/lib/modules/$module.ko"
rc=$?
[ "$rc" -eq 0 ] || bail "insmod $module.ko: exit status $rc"
on_exit "rmmod $module"

results=$debugfs/kunit/$suite/results
cat "$results" || bail "no $results"
grep -q "^ok 1 $suite\$" "$results" && ! grep -q "# SKIP" "$results"
exit
