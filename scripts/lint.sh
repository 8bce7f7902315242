#!/bin/bash
# make lint: shellcheck on every shell script, pyflakes on the Python, and
# patches/README's table naming the series' patches in order.
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"
cd "$ROOT"

shell=() python=()
while read -r f; do
	case "$f" in
	*.patch) continue ;;
	*.sh) shell+=("$f") ;;
	*.py) python+=("$f") ;;
	*)
		case "$(head -n1 "$f")" in
		'#!'*python*) python+=("$f") ;;
		'#!'*sh) shell+=("$f") ;;
		esac
		;;
	esac
done < <(git ls-files --cached --others --exclude-standard)

failed=0
say "shellcheck: ${#shell[@]} scripts"
shellcheck -x "${shell[@]}" || failed=1
say "pyflakes: ${#python[@]} programs"
pyflakes3 "${python[@]}" || failed=1

# The table's first column is each patch's subject, in backquotes.
say "patches/README: the series' $(series_patches | wc -l) patches"
# shellcheck disable=SC2016 # the backquotes are the table's
listed=$(sed -n 's/^| `\(.*\)` | .*/\1/p' "$PATCHES/README")
subjects=$(series_patches | while read -r p; do
	git mailinfo /dev/null /dev/null <"$PATCHES/$p" | sed -n 's/^Subject: //p'
done)
if [ "$listed" != "$subjects" ]; then
	diff <(echo "$subjects") <(echo "$listed") | sed 's/^/  /' >&2 || true
	echo "lint.sh: patches/README's table does not list patches/series in order (< series, > README)" >&2
	failed=1
fi

[ "$failed" -eq 0 ] || die "lint found problems (above)"
say "lint: clean"
