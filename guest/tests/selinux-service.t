#!/bin/sh
# SELinux's context for a kernel service under the test policy loaded: the
# selinux_kernel_service_policy KUnit suite, a module, runs in the kunit_*
# domains of guest/selinux/policy.te (a named rule to a context the daemon
# may use, no rule, a named rule to one it may not use).  Its KTAP, from
# KUnit's debugfs results, is this test's first subtest; the second checks
# that the AVC record of the denial it provokes names the service.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
suite=selinux_kernel_service_policy
module=kernel_service_policy_kunit
# debugfs: mounted by guest/init.
debugfs=/sys/kernel/debug
reason="kunit_daemon_t may not use kunit_forbidden_t"
denial='avc:  denied  { use_as_override } .* service="kunit-forbidden" scontext=system_u:system_r:kunit_daemon_t tcontext=system_u:system_r:kunit_forbidden_t tclass=kernel_service '
plan 2
[ ! -e "/sys/module/$module" ] || bail "$module is loaded already"

log_mark
expect_denials begin "$reason"
insmod "/lib/modules/$module.ko"
rc=$?
wait_for 10 logged_since_mark "$denial"
seen=$?
expect_denials end "$reason"

# The suite's results, less their top-level header: subtest 1.
results=$debugfs/kunit/$suite/results
if [ "$rc" -eq 0 ] && [ -r "$results" ]; then
	sed '1,2d' "$results"
	grep -q "^ok 1 $suite\$" "$results" && ! grep -q "# SKIP" "$results" || failed=1
	n=1
else
	not_ok "$suite" "insmod $module.ko: exit status $rc"
fi

log_since_mark | grep -E 'SELinux: |avc: ' | sed 's/^/# /'
[ "$seen" -eq 0 ] && ! denials_since_mark | grep -v -q -e "$denial"
ok $? "the AVC denial names the service kunit-forbidden, and is the only one"
# Unloaded, so that the test may run again.
[ "$rc" -ne 0 ] || rmmod "$module" || bail "rmmod $module: exit status $?"
finish
