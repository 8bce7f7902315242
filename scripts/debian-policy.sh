#!/bin/bash
# Build Debian's own SELinux policy (selinux-policy-default, the reference
# policy) as its postinst installs it: every module the package ships, less
# those its postinst disables ("notdefault"), linked by semodule in a
# private root, nothing of Debian's edited.  Added to it are two local
# modules only, guest/selinux/debian/cachefilesd_dir_watch.te and
# cachefilesd_sigio.te, for gaps in Debian's cachefilesd module that they
# explain.  Nothing is installed or loaded on this machine.  Writes into
# OUTDIR the binary policy (policy.33) and what setfiles labels files with
# (file_contexts, file_contexts.subs_dist); and
# three variants of the policy, each with more local modules of guest/
# selinux/debian/ (the tests of guest/tests/debian-policy/ load them):
#   no-rule.policy.33         cachefiles_service_contexts.te alone: more
#                             contexts for the cachefiles service
#   named-rule.policy.33      and a named rule that gives the service
#                             cachefiles_kernel_t (cachefiles_named_rule.te)
#   forbidden-rule.policy.33  and a named rule that gives it a context
#                             cachefilesd may not use
#                             (cachefiles_forbidden_rule.te)
# The result is kept in build/debian-policy/ until its inputs change.
#   debian-policy.sh OUTDIR
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

out=${1:?usage: debian-policy.sh OUTDIR}
local_modules=$ROOT/guest/selinux/debian
policy_deb=$(downloaded_deb selinux-policy-default)
tools_deb=$(downloaded_deb policycoreutils)
# Linux 6.1 loads policies of version 33 at most.
policy_version=33

cache=$BUILD/debian-policy
key=$(cat "$policy_deb" "$tools_deb" "$local_modules"/*.te "$0" | sha256sum | cut -d' ' -f1)
variants=(no-rule named-rule forbidden-rule)
files=("policy.$policy_version" file_contexts file_contexts.subs_dist)
for variant in "${variants[@]}"; do
	files+=("$variant.policy.$policy_version")
done
if [ "$(cat "$cache/key" 2>/dev/null)" != "$key" ]; then
	say "building Debian's SELinux policy (${policy_deb##*/})"
	rm -rf "$cache"
	work=$cache/work
	mkdir -p "$work/deb" "$work/control" "$work/tools" "$work/root/etc/selinux" \
		"$work/root/var/lib/selinux"
	dpkg-deb -x "$policy_deb" "$work/deb"
	dpkg-deb -e "$policy_deb" "$work/control"
	dpkg-deb -x "$tools_deb" "$work/tools"
	modules=$work/deb/usr/share/selinux/default
	[ -s "$modules/.modules" ] || die "${policy_deb##*/} has no module list"
	notdefault=$(sed -n 's/^notdefault="\(.*\)"$/\1/p' "$work/control/postinst")
	[ -n "$notdefault" ] || die "${policy_deb##*/}'s postinst names no notdefault modules"

	# The private root semodule builds in (-p).  libsemanage runs the
	# unpacked tools: setfiles to check file_contexts, the "pp" compiler
	# for the modules.  The binary form of file_contexts is not made
	# (sefcontext_compile: true): setfiles reads the text.
	cp -r "$work/deb/etc/selinux/default" "$work/root/etc/selinux/"
	cat >"$work/root/etc/selinux/semanage.conf" <<-EOF
		module-store = direct
		expand-check = 0
		policy-version = $policy_version
		compiler-directory = $work/tools/usr/libexec/selinux/hll
		[setfiles]
		path = $work/tools/sbin/setfiles
		args = -q -c \$@ \$<
		[end]
		[sefcontext_compile]
		path = /bin/true
		[end]
	EOF

	for te in "$local_modules"/*.te; do
		name=$(basename "$te" .te)
		checkmodule -M -m -o "$work/$name.mod" "$te" >/dev/null
		semodule_package -o "$work/$name.pp" -m "$work/$name.mod"
	done

	args=()
	while read -r m; do
		args+=(-i "$modules/$m.pp.bz2")
	done <"$modules/.modules"
	for m in $notdefault; do
		args+=(-d "$m")
	done
	# As the postinst does (-X 100), then the two local modules; -n: load
	# nothing.  "user sddm not in password file" is harmless.
	run_semodule() { # ROOT ARGS...
		local root=$1
		shift
		"$work/tools/usr/sbin/semodule" -p "$root" -n -s default "$@" >>"$work/semodule.log" 2>&1 || {
			cat "$work/semodule.log" >&2
			die "semodule failed to build Debian's policy"
		}
	}
	run_semodule "$work/root" -X 100 "${args[@]}"
	run_semodule "$work/root" -X 400 -i "$work/cachefilesd_dir_watch.pp" \
		-i "$work/cachefilesd_sigio.pp"
	built=$work/root/etc/selinux/default
	cp "$built/policy/policy.$policy_version" "$built/contexts/files/file_contexts" \
		"$built/contexts/files/file_contexts.subs_dist" "$cache/"
	# Each variant in a copy of the private root, its modules added.
	for variant in "${variants[@]}"; do
		cp -a "$work/root" "$work/$variant"
		args=(-i "$work/cachefiles_service_contexts.pp")
		[ "$variant" = no-rule ] || args+=(-i "$work/cachefiles_${variant//-/_}.pp")
		run_semodule "$work/$variant" -X 400 "${args[@]}"
		cp "$work/$variant/etc/selinux/default/policy/policy.$policy_version" \
			"$cache/$variant.policy.$policy_version"
	done
	rm -rf "$work"
	echo "$key" >"$cache/key"
fi
mkdir -p "$out"
for f in "${files[@]}"; do
	cp "$cache/$f" "$out/"
done
