#!/bin/bash
# fstests (xfstests), the filesystem suite kernel maintainers run, built on
# this machine from its source tarball, in build/fstests/fstests, which
# scripts/debian-image.sh copies into the Debian system as
# /var/lib/xfstests: fstests' check runs from its built tree (its programs
# are executables, not libtool wrappers), and its `make install` would
# cost minutes of one process a file for the same files.  Built once and
# kept until the tarball or this script changes.  Prints the tree's path.
#   fstests-build.sh
#   FSTESTS_TARBALL=PATH  the source: a `git archive --prefix=fstests/` of
#                         fstests' repository (default: the one in the
#                         workplace's peers, commit 63a29724)
set -eu -o pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

tarball=${FSTESTS_TARBALL:-$ROOT/../shared/peers/fstests-63a29724.tar.gz}
[ -f "$tarball" ] || die "no fstests source at $tarball (FSTESTS_TARBALL=PATH)"
kept=$BUILD/fstests
built=$kept/fstests
# configure fails without the first line's; each of the second's adds
# programs whose tests are otherwise not run (aio, io_uring, vfstest, dbtest).
"$ROOT/scripts/deps.sh" autoconf automake libtool pkg-config xfslibs-dev uuid-dev libacl1-dev \
	libaio-dev liburing-dev libcap-dev libgdbm-dev libgdbm-compat-dev >&2

key=$(cat "$tarball" "$ROOT/scripts/fstests-build.sh" | sha256sum | cut -d' ' -f1)
if [ "$(cat "$kept/key" 2>/dev/null)" = "$key" ] && [ -x "$built/ltp/fsx" ]; then
	echo "$built"
	exit 0
fi

say "building fstests from ${tarball##*/}" >&2
rm -rf "$kept"
mkdir -p "$kept"
tar -xzf "$tarball" -C "$kept"
[ -f "$built/configure.ac" ] || die "$tarball: not fstests' source (no fstests/configure.ac)"
if ! nice make -C "$built" -j"$(nproc)" >"$kept/build.log" 2>&1; then
	tail -n 20 "$kept/build.log" >&2
	die "fstests did not build (log: ${kept#"$ROOT"/}/build.log)"
fi
[ -x "$built/ltp/fsx" ] || die "fstests' build made no ltp/fsx (log: ${kept#"$ROOT"/}/build.log)"
echo "$key" >"$kept/key"
say "built fstests in ${built#"$ROOT"/}" >&2
echo "$built"
