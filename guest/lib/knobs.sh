# shellcheck shell=sh
# shellcheck disable=SC2034 # the variables are for the tests that source it
# The kernel's knobs the tests turn: an I/O throttle (cgroup v2), trace
# events (tracefs), the page cache dropped.  Sourced by nfs.sh.
# A cgroup v2 group, $CGROUP/NAME, whose reads of a disk are limited to BPS
# bytes a second (io.max; "max" lifts the limit): a task moved into it is
# held inside its reads of that disk.
CGROUP=/sys/fs/cgroup
throttle_reads() { # NAME DISK BPS
	{ grep -q " $CGROUP cgroup2 " /proc/mounts || mount -t cgroup2 none "$CGROUP"; } &&
		echo +io >"$CGROUP/cgroup.subtree_control" && mkdir -p "$CGROUP/$1" &&
		echo "$(cat "/sys/block/$2/dev") rbps=$3" >"$CGROUP/$1/io.max"
}
# COMMAND-LINE run by sh in the background inside $CGROUP/GROUP: the shell
# joins the group and execs the command, so $! is the command's task.
throttled() { # GROUP COMMAND-LINE
	sh -c "echo \$\$ >$CGROUP/$1/cgroup.procs && exec $2" &
}

# Whether a task is inside FUNCTION, by its kernel stack, and not inside
# NOT-IN when given (say, waiting for the pages it will fill, not still
# reading ahead): wait_for it to know a throttled task is held.
# shellcheck disable=SC2317 # called through wait_for
waits_in() { # PID FUNCTION [NOT-IN]
	grep -q "$2" "/proc/$1/stack" &&
		{ [ -z "${3:-}" ] || ! grep -q "$3" "/proc/$1/stack"; }
}

# tracefs, where trace events are turned on and read; 6.1 does not mount
# it by itself.
TRACING=/sys/kernel/tracing
tracefs_mount() {
	grep -q " $TRACING tracefs " /proc/mounts || mount -t tracefs tracefs "$TRACING"
}
drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}
