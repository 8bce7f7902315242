#!/bin/sh
# The booted kernel is the one the harness just built and packed this
# initramfs for, not a stale image: its release and version strings match.
echo "KTAP version 1"
echo "1..2"
failed=0
check() { # NAME BOOTED BUILT
	if [ "$2" = "$3" ]; then
		echo "ok $n $1"
	else
		echo "# booted '$2', built '$3'"
		echo "not ok $n $1"
		failed=1
	fi
	n=$((n + 1))
}
n=1
check release "$(uname -r)" "$(cat /etc/kernel-release)"
check version "$(uname -v)" "$(cat /etc/kernel-version)"
exit "$failed"
