#!/bin/sh
# The booted kernel is the one the harness just built and packed this
# initramfs for, not a stale image: its release and version strings match.
# shellcheck source=guest/lib/ktap.sh
. /lib/guest/ktap.sh
plan 2
expect_eq "release booted" "$(cat /etc/kernel-release)" "$(uname -r)"
ok $? release
expect_eq "version booted" "$(cat /etc/kernel-version)" "$(uname -v)"
ok $? version
finish
