#!/bin/bash
# make list: the guest tests by boot (guest/boots), each with its header,
# the comment at its top that says what it checks.  The headers are the
# catalogue: nothing else repeats them.
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

# A test's header: the comment lines after the first (#! or the SPDX line),
# up to the first line that is not its prose.
header() { # FILE
	awk 'NR == 1 { next }
		/^# (shellcheck|needs:)/ || !/^(#|\/\*| \*)/ { exit }
		{ sub(/^(# ?|\/\* ?| \* ?)/, ""); if ($0 != "") print "    " $0 }' "$1"
}

for boot in $(boot_names); do
	dir=$ROOT/guest/$(boot_field "$boot" runs)
	case ,$(boot_field "$boot" reports), in
	*,guest,*) [ -d "$dir" ] || continue ;;
	*) continue ;;
	esac
	echo "== boot $boot: guest/${dir#"$ROOT/guest/"}"
	for file in "$dir"/*.t "$dir"/*.c; do
		[ -e "$file" ] || continue
		name=${file##*/}
		echo "${name%.*}"
		header "$file"
	done
done
