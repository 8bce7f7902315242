#!/bin/bash
# Turn the commits made in build/linux after "pristine" into patches/ again:
# one git format-patch file each, with file contents that do not depend on
# the repository (zero commit ids, full blob ids), the git version or when
# the commits were applied, and patches/series listing them in order.
#   export.sh            rewrite patches/ and mark the tree as applied
#   export.sh --to DIR   write the series to DIR only (for round-trip checks)
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

out=$PATCHES
[ "${1:-}" != --to ] || out=$2
[ -d "$LINUX/.git" ] || die "no kernel tree at $LINUX: run make tree first"
[ -z "$(uncommitted_changes)" ] ||
	die "$LINUX has uncommitted changes: commit them first"
untracked=$(untracked_files)
[ -z "$untracked" ] ||
	die "files in $LINUX that no commit holds (add new files with git add -f):
$untracked"

mkdir -p "$out"
rm -f "$out"/*.patch "$out/series"
git -C "$LINUX" format-patch -q --zero-commit --no-signature --full-index \
	-o "$out" pristine..HEAD
# A blank context line is a single space in format-patch's output: write it
# as an empty line, which git am reads the same, so that the files hold no
# trailing whitespace for a checker that reads them as text.
sed -i 's/^ $//' "$out"/*.patch
find "$out" -maxdepth 1 -name '*.patch' -printf '%f\n' | LC_ALL=C sort >"$out/series"

if [ "$out" = "$PATCHES" ]; then
	git -C "$LINUX" tag -f applied >/dev/null
	series_digest >"$APPLIED_DIGEST_FILE"
	say "exported $(series_patches | wc -l) patches to patches/"
fi
