#!/bin/bash
# Turn the commits made in build/linux after "pristine" into patches/ again:
# one git format-patch file each, with file contents that do not depend on
# the repository (zero commit ids, full blob ids), the git version or when
# the commits were applied, and patches/series listing them in order; and
# the series' cover letter, 0000-cover-letter.patch (not in series).
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
	--cover-letter -o "$out" pristine..HEAD
# The cover letter: its subject (the first line) and text from
# patches/cover-letter, kept by hand; the shortlog and diffstat git's; its
# author and date the last patch's, so that an unchanged series exports the
# same file.
python3 - "$out/$COVER_LETTER" "$PATCHES/cover-letter" \
	"$(git -C "$LINUX" log -1 --format='%an <%ae>' HEAD)" \
	"$(git -C "$LINUX" log -1 --format=%aD HEAD)" <<'EOF'
import re
import sys
letter, source, author, date = sys.argv[1:]
subject, _, blurb = open(source).read().partition('\n\n')
text = open(letter).read()
text = text.replace('*** SUBJECT HERE ***', subject.strip())
text = text.replace('*** BLURB HERE ***', blurb.strip())
text = re.sub(r'^From: .*$', 'From: ' + author, text, count=1, flags=re.MULTILINE)
text = re.sub(r'^Date: .*$', 'Date: ' + date, text, count=1, flags=re.MULTILINE)
open(letter, 'w').write(text)
EOF
# A blank context line is a single space in format-patch's output: write it
# as an empty line, which git am reads the same, so that the files hold no
# trailing whitespace for a checker that reads them as text.
sed -i 's/^ $//' "$out"/*.patch
find "$out" -maxdepth 1 -name '*.patch' ! -name "$COVER_LETTER" -printf '%f\n' |
	LC_ALL=C sort >"$out/series"

if [ "$out" = "$PATCHES" ]; then
	git -C "$LINUX" tag -f applied >/dev/null
	series_digest >"$APPLIED_DIGEST_FILE"
	say "exported $(series_patches | wc -l) patches to patches/"
fi
