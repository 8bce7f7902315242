# shellcheck shell=sh
# shellcheck disable=SC2034 # the variables are for the scripts that source it
# The lines the guest writes and the host looks for, defined here only: the
# guest's scripts source this file, the host's too (scripts/common.sh), and
# scripts/report.py reads its NAME='VALUE' lines.

# On the console before each guest test (guest/run-tests), with its name;
# the host shows the test running, and scripts/cluster.sh's KILL_CLIENT
# waits for the first.
RUNNING_TEST='guest: running test '
# On the console when the guest's tests have run (guest/init): a boot
# without it never finished.
GUEST_DONE='guest: guest tests ran'
# On the console after the debug kernel's kmemleak scan (guest/init),
# followed by " STATUS, N suspected leak(s)".
KMEMLEAK_SCANNED='guest: kmemleak: scanned, status'
# On the console of the boot that probes for KVM (scripts/qemu.sh).
PROBE_OK='guest: probe ok'
# In the kernel log, around the SELinux denials a test provokes
# (expect_denials, guest/lib/nfs.sh): any other fails the run.
EXPECT_BEGIN='expected AVC denials: begin'
EXPECT_END='expected AVC denials: end'
# The kernel's own line of an SELinux denial.
AVC_DENIED='avc:  denied'
# The file present in the guest while a test's expected-denials window is
# open (guest/run-tests closes a window a test left open).
AVC_WINDOW=/tmp/avc-window-open
