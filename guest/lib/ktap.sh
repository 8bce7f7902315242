# shellcheck shell=sh
# shellcheck disable=SC2034 # $failed is for the tests that source it
# The guest tests' KTAP, and what several of them do.  A test prints its
# plan, checks what it claims with expect_* (each prints what it wanted and
# what it got when the check fails, as kselftest_harness's EXPECT does), and
# reports each case with ok, undoes what it changed with on_exit, and ends
# with finish, which fails it when it reported other than its plan:
#	plan 2
#	on_exit "echo 0 >$INJECT"
#	expect_eq "READs sent" 0 "$ops"
#	expect_ge "pages from the cache" "$(pages_of 4096)" "$pages"
#	ok $? read_from_cache
#	finish

# Debian's programs are in the usr directories.
PATH=/sbin:/bin:/usr/sbin:/usr/bin
# The unprivileged user the tests read as (uid and gid 1000).
READER=reader

failed=0
n=0
# The cases plan announced, none until it is called.
planned=
# An expect_* failed since the last result line.
expectation_failed=0

plan() { # CASES
	planned=$1
	echo "KTAP version 1"
	echo "1..$1"
}

# The end of a test: its exit status, failed when a case failed or when it
# reported more or fewer cases than it planned.
finish() {
	if [ -n "$planned" ] && [ "$n" -ne "$planned" ]; then
		diag "planned $planned cases, reported $n"
		failed=1
	fi
	exit "$failed"
}

# What a test changed outside itself (error injection, a sysctl, a loaded
# policy) is put back by cleanup whenever the test ends: by finish, bail,
# an error, or run-tests' TERM at its time limit.  on_exit adds a command
# line; cleanup runs them, last added first, once.
cleanup_commands=
on_exit() { # COMMAND-LINE
	cleanup_commands="$1
$cleanup_commands"
}
cleanup() {
	status=$?
	commands=$cleanup_commands
	cleanup_commands=
	set -f
	ifs=$IFS
	IFS='
'
	for command in $commands; do
		IFS=$ifs
		eval "$command" || {
			diag "cleanup: '$command' failed"
			status=1
		}
	done
	exit "$status"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# A result line: "ok" when STATUS is 0 and every expect_* since the last
# result line held, else "not ok", remembered for the exit status.  Returns
# the case's status, 0 or 1.
ok() { # STATUS NAME
	n=$((n + 1))
	if [ "$1" -eq 0 ] && [ "$expectation_failed" -eq 0 ]; then
		echo "ok $n $2"
		return 0
	fi
	expectation_failed=0
	echo "not ok $n $2"
	failed=1
	return 1
}
not_ok() { # NAME [REASON]
	[ "$#" -lt 2 ] || diag "$2"
	ok 1 "$1"
}

diag() { echo "# $*"; }

# End the test at once, failed, with the log file of $BAIL_LOG (if any)
# and the end of the kernel log.
BAIL_LOG=
bail() { # REASON
	echo "Bail out! $*"
	[ -z "$BAIL_LOG" ] || sed 's/^/# /' "$BAIL_LOG"
	dmesg | tail -n 20 | sed 's/^/# dmesg: /'
	exit 1
}

# Checks: true when they hold; when not, a diagnostic line with what was
# wanted and what was got, and the next result line is "not ok".
expect_eq() { # WHAT WANTED GOT
	[ "$2" = "$3" ] && return 0
	diag "$1: wanted '$2', got '$3'"
	expectation_failed=1
	return 1
}
expect_ne() { # WHAT UNWANTED GOT
	[ "$2" != "$3" ] && return 0
	diag "$1: wanted anything but '$2', got it"
	expectation_failed=1
	return 1
}
# Integers: GOT at least MIN, at most MAX.
expect_ge() { # WHAT MIN GOT
	[ "$3" -ge "$2" ] 2>/dev/null && return 0
	diag "$1: wanted at least $2, got '$3'"
	expectation_failed=1
	return 1
}
expect_le() { # WHAT MAX GOT
	[ "$3" -le "$2" ] 2>/dev/null && return 0
	diag "$1: wanted at most $2, got '$3'"
	expectation_failed=1
	return 1
}

# Wait up to $1 seconds for the command that follows to succeed.
wait_for() { # SECONDS COMMAND...
	t=$1
	shift
	while ! "$@" 2>/dev/null; do
		t=$((t - 1))
		[ "$t" -ge 0 ] || return 1
		sleep 1
	done
}

# Run a shell command line as $READER.
as_reader() { # COMMAND-LINE...
	su "$READER" -s /bin/sh -c "$*"
}

# A file of BYTES new random bytes, readable by all, on disk.
new_file() { # PATH BYTES
	head -c "$2" /dev/urandom >"$1" && chmod 0644 "$1" && sync
}

# The 4 KiB pages a file of BYTES spans.
pages_of() { # BYTES
	echo $((($1 + 4095) / 4096))
}

# The SHA-256 of a file's bytes.
sum() { # FILE
	sha256sum <"$1" | cut -d' ' -f1
}
