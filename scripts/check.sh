#!/bin/bash
# Checks on the series itself, beyond what the booted tests prove:
# checkpatch --strict on every patch, the fixes that lead the series
# building on the pristine tree alone, and every patch building on its own
# (the test kernel's configuration, built at each step of the series in a
# worktree of build/linux), the built-in KUnit suites linking as modules,
# and the whole series building without NFS's FS-Cache support (the nofsc
# kernel), booted with the one guest test that expects it.
#   CHECK_FROM=N   build only at patch N and after (all are checkpatch'ed)
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

"$ROOT/scripts/tree.sh"
# checkpatch's SPDX check runs python3 with ply: Debian's, not another
# python3 that may come first on PATH.  The tree is Debian's tarball, with
# no upstream history, so checkpatch cannot find the commits that Fixes:
# tags name (UNKNOWN_COMMIT_ID); it still checks the tags' form.  It asks
# for a MAINTAINERS change with every new file (FILE_PATH_CHANGES), even
# one that an entry's directory already covers, where MAINTAINERS wants no
# line of its own (the new suites in kernel/sched/, mm/, security/selinux/).
bad=0
while read -r p; do
	if ! (cd "$LINUX" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict --quiet \
		--ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES "$PATCHES/$p"); then
		echo "checkpatch: $p" >&2
		bad=1
	fi
done < <(series_patches)
[ "$bad" -eq 0 ] || die "checkpatch --strict reports problems (above)"
say "checkpatch --strict: clean on $(series_patches | wc -l) patches"

step=$STEP_TREE
if ! [ -e "$step/.git" ]; then
	# make clean removes the directory, git still lists the worktree.
	git -C "$LINUX" worktree prune
	git -C "$LINUX" worktree add -q --detach "$step" pristine
fi
# The fixes that lead the series (those with a Fixes: tag) are for 6.1.y as
# it is: each must apply to the pristine tree alone, and build there.
n=0 fixes=0
for commit in $(git -C "$LINUX" rev-list --reverse pristine..applied); do
	n=$((n + 1))
	git -C "$LINUX" log -1 --format=%B "$commit" | grep -q '^Fixes: ' || break
	[ "$n" -ge "${CHECK_FROM:-1}" ] || continue
	fixes=$((fixes + 1))
	git -C "$step" reset -q --hard
	git -C "$step" checkout -q --detach pristine
	git -C "$step" cherry-pick --no-commit "$commit" >/dev/null ||
		die "patch $n does not apply to the pristine tree alone"
	say "building on the pristine tree alone: $(git -C "$LINUX" log -1 --format=%s "$commit")"
	KERNEL_TREE=$step ALLOW_MISSING_OPTIONS=1 "$ROOT/scripts/build.sh" step
	git -C "$step" reset -q --hard
done
say "$fixes of the fixes that lead the series applied and built on the pristine tree alone"

n=0
for commit in $(git -C "$LINUX" rev-list --reverse pristine..applied); do
	n=$((n + 1))
	[ "$n" -ge "${CHECK_FROM:-1}" ] || continue
	git -C "$step" checkout -q --detach "$commit"
	say "building at: $(git -C "$step" log -1 --format=%s)"
	KERNEL_TREE=$step ALLOW_MISSING_OPTIONS=1 "$ROOT/scripts/build.sh" step
done
say "every patch from ${CHECK_FROM:-1} on builds on its own"

# The series' KUnit suites whose options are tristate, which the test kernel
# builds in, must link as modules too: built here as external modules
# against the last step's kernel.  (cred_kunit's option is bool: it calls
# functions that are not exported.)
modules=$(mktemp -d)
cp "$step/kernel/sched/wait_kunit.c" "$step/mm/page_flags_kunit.c" "$modules/"
echo "obj-m += wait_kunit.o page_flags_kunit.o" >"$modules/Makefile"
make -s -C "$step" O="$(objdir step)" ARCH=x86_64 M="$modules" modules
rm -rf "$modules"
say "the built-in KUnit suites link as modules"
TESTS=nfs-fscache-config "$ROOT/scripts/boot.sh" nofsc
say "the series builds and boots without NFS_FSCACHE"
