#!/bin/bash
# Build the guest's SELinux test policies (guest/selinux/policy.te says
# what they are) for the kernel built in OBJDIR, into OUTDIR as
# VARIANT.policy: the kernel's own declarations of classes, permissions
# and initial SIDs (written by its scripts/selinux/mdp), then
# guest/selinux/*.te, the unconfined domains' rules (one a class), the
# user, and guest/selinux/contexts; compiled by Debian's checkpolicy.
#   selinux-policy.sh OBJDIR OUTDIR
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

obj=${1:?usage: selinux-policy.sh OBJDIR OUTDIR}
out=${2:?usage: selinux-policy.sh OBJDIR OUTDIR}
src=$ROOT/guest/selinux
mdp=$obj/scripts/selinux/mdp/mdp
[ -x "$mdp" ] || die "no $mdp: is SELinux in this kernel?"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# mdp's own types and rules, which follow its declarations, are not used;
# nor is always_check_network, which would check every packet against
# labels that no one gives (no labelled networking here).
"$mdp" "$work/mdp.conf" "$work/file_contexts"
sed -e '/^type base_t;$/,$d' -e '/^policycap always_check_network;$/d' \
	"$work/mdp.conf" >"$work/declarations"
grep -q '^policycap ' "$work/declarations" ||
	die "mdp's output has changed: no declarations before 'type base_t;'"
mapfile -t classes < <(awk '/^class [a-z0-9_]+$/ && !seen[$2]++ { print $2 }' "$work/declarations")
mapfile -t sids < <(awk '$1 == "sid" && NF == 2 { print $2 }' "$work/declarations")

tail_rules() {
	local class sid
	for class in "${classes[@]}"; do
		echo "allow unconfined_domain { domain file_type }:$class *;"
		echo "allow user_t { domain file_type -cachefiles_cache_t }:$class *;"
	done
	echo "user system_u roles { system_r };"
	# Every initial SID gets a context: the one contexts gives, or unlabeled.
	for sid in "${sids[@]}"; do
		grep -E "^sid $sid " "$src/contexts" ||
			echo "sid $sid system_u:object_r:unlabeled_t"
	done
	grep -v -E '^sid ' "$src/contexts"
}
tail_rules >"$work/tail"

mkdir -p "$out"
build() { # VARIANT TE-FILES...
	local variant=$1
	shift
	cat "$work/declarations" "$@" "$work/tail" >"$work/$variant.conf"
	checkpolicy -c 33 -o "$out/$variant.policy" "$work/$variant.conf" >"$work/$variant.log" 2>&1 || {
		cat "$work/$variant.log" >&2
		die "checkpolicy failed on the $variant policy"
	}
}
build full "$src/policy.te" "$src/cache-write.te" "$src/named-rule.te"
build no-cache-write "$src/policy.te" "$src/named-rule.te"
build no-named-rule "$src/policy.te" "$src/cache-write.te"
