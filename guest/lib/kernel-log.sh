# shellcheck shell=sh
# shellcheck disable=SC2034 # the variables are for the tests that source it
# The kernel log: a test's marks in it, what was logged since, and the
# SELinux denials it provokes.  Sourced by nfs.sh.

# The kernel log since the test's last mark, which log_mark writes there
# with the test's name.
MARK_NAME=${0##*/}
MARK_NAME=${MARK_NAME%.t}
mark=0
log_mark() {
	mark=$((mark + 1))
	echo "$MARK_NAME: mark $mark" >/dev/kmsg
}
log_since_mark() {
	dmesg | sed -n "/$MARK_NAME: mark $mark\$/,\$p"
}
denials_since_mark() {
	log_since_mark | grep "$AVC_DENIED"
}
logged_since_mark() { # PATTERN
	log_since_mark | grep -q -e "$1"
}
# SELinux denials the test provokes are between these markers in the
# kernel log; any other fails the run (scripts/report.py).  A window the
# test leaves open fails it, and run-tests closes it ($AVC_WINDOW).
expect_denials() { # begin|end REASON
	case $1 in
	begin)
		echo "$MARK_NAME: $EXPECT_BEGIN ($2)" >/dev/kmsg
		echo "$2" >"$AVC_WINDOW"
		;;
	end)
		echo "$MARK_NAME: $EXPECT_END ($2)" >/dev/kmsg
		rm -f "$AVC_WINDOW"
		;;
	esac
}
