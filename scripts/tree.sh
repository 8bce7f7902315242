#!/bin/bash
# Unpack Debian's kernel source into build/linux as a git repository whose
# first commit (tag "pristine") is the untouched tree, and apply
# patches/series on it with git am.  Re-running is a no-op while neither
# patches/ nor the tree changed; work committed in the tree but not exported
# is never thrown away.
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

unpack() {
	local tmp=$BUILD/linux.unpacking version
	version=$(dpkg-query -W -f='${Version}' "$LINUX_SOURCE_PACKAGE")
	say "unpacking $LINUX_SOURCE_TARBALL ($version)"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	tar -xJf "$LINUX_SOURCE_TARBALL" -C "$tmp" --strip-components=1
	git -C "$tmp" init -q
	git -C "$tmp" add -A -f .
	GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
		git -C "$tmp" commit -q -m "Debian $LINUX_SOURCE_PACKAGE $version, pristine"
	git -C "$tmp" tag pristine
	echo "$version" >"$tmp/.git/debian-version"
	mv "$tmp" "$LINUX"
}

# Whether the tree holds commits or changes that patches/ does not have.
has_unexported_work() {
	local applied
	applied=$(git -C "$LINUX" rev-parse -q --verify applied ||
		git -C "$LINUX" rev-parse pristine)
	[ "$(git -C "$LINUX" rev-parse HEAD)" != "$applied" ] ||
		[ -n "$(uncommitted_changes)" ] ||
		[ -n "$(untracked_files)" ]
}

apply_series() {
	local p out
	say "applying patches/series to $LINUX"
	git -C "$LINUX" am --abort >/dev/null 2>&1 || true
	git -C "$LINUX" reset -q --hard pristine
	git -C "$LINUX" tag -d applied >/dev/null 2>&1 || true
	rm -f "$APPLIED_DIGEST_FILE"
	while read -r p; do
		[ -f "$PATCHES/$p" ] || die "patches/series lists $p, which does not exist"
		if ! out=$(git -C "$LINUX" am -q --keep-cr "$PATCHES/$p" 2>&1); then
			printf '%s\n' "$out" >&2
			git -C "$LINUX" am --abort >/dev/null 2>&1 || true
			git -C "$LINUX" reset -q --hard pristine
			die "patch $p does not apply (see the failing file above); $LINUX was reset to pristine"
		fi
	done < <(series_patches)
	git -C "$LINUX" tag applied
	series_digest >"$APPLIED_DIGEST_FILE"
}

# The exported form of what was applied must be patches/ itself (but for
# its README and the cover letter's text, which are written by hand).
check_round_trip() {
	local out
	out=$(mktemp -d)
	"$ROOT/scripts/export.sh" --to "$out" >/dev/null
	if ! diff -r -x README -x cover-letter "$PATCHES" "$out" >&2; then
		rm -rf "$out"
		die "exporting the applied series does not reproduce patches/ (diff above)"
	fi
	rm -rf "$out"
}

mkdir -p "$BUILD"
[ -d "$LINUX/.git" ] || unpack
have=$(cat "$LINUX/.git/debian-version")
want=$(dpkg-query -W -f='${Version}' "$LINUX_SOURCE_PACKAGE")
[ "$have" = "$want" ] ||
	die "$LINUX was unpacked from $have but $want is installed: move it away and re-run"

if [ "$(cat "$APPLIED_DIGEST_FILE" 2>/dev/null)" = "$(series_digest)" ]; then
	if has_unexported_work; then
		say "note: $LINUX has work not exported to patches/ (make export); using the tree as it is"
	else
		say "$LINUX is up to date with patches/ ($(series_patches | wc -l) patches)"
	fi
	exit 0
fi
if has_unexported_work; then
	git -C "$LINUX" status --short --untracked-files=no >&2
	die "patches/ changed, and $LINUX holds work not in patches/: export it (make export) or drop it (git -C $LINUX reset --hard applied)"
fi
apply_series
check_round_trip
say "$LINUX: $(series_patches | wc -l) patches applied"
