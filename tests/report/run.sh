#!/bin/bash
# Self-test of scripts/report.py on recorded test boots.  Each case is a
# directory holding console.log (and ktap.log) of one boot and "expect":
# the exit status report.py must give and the last line it must print; and
# in every case the two agree: exit status 0 exactly when nothing failed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
passed=0
failed=0
junit=$(mktemp)
trap 'rm -f "$junit"' EXIT
for case in "$here"/*/; do
	name=$(basename "$case")
	{ read -r want_status; read -r want_line; } <"$case/expect"
	status=0
	out=$("$root/scripts/report.py" "$case" "$case/suites" --junit "$junit" 2>&1) || status=$?
	line=$(printf '%s\n' "$out" | tail -n 1)
	# The last line and the exit status agree, whatever the case, and so
	# does the JUnit file: as many cases, failures and skips.
	case "$status:$line" in
	"0:"*" 0 failed"* | [1-9]*:*" passed, "[1-9]*" failed"*) agree=1 ;;
	*) agree=0 ;;
	esac
	"$here/junit-agrees.py" "$junit" "$line" || agree=0
	if [ "$agree" = 1 ] && [ "$status" = "$want_status" ] && [ "$line" = "$want_line" ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		printf '%s\n' "$out" | tail -n 15
		echo "report self-test $name: exit $status, '$line'; expected exit $want_status, '$want_line'"
	fi
done
echo "report self-test: $passed cases passed, $failed failed"
[ "$failed" -eq 0 ]
