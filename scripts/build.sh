#!/bin/bash
# Configure and build one kernel variant (see kernel_fragments in common.sh)
# out of build/linux into build/obj-VARIANT: tinyconfig, then the fragments,
# then olddefconfig.  Every option a fragment sets must survive into .config.
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

variant=${1:?usage: build.sh VARIANT}
obj=$(objdir "$variant")
# An assignment, so that an unknown variant (kernel_fragments dies in the
# subshell) stops the build here.
names=$(kernel_fragments "$variant")
fragments=()
for f in $names; do
	fragments+=("$ROOT/configs/$f.config")
done
mkdir -p "$obj"
# The kernels packaged by make deb (those of a Debian system) are built as
# bindeb-pkg builds them, with the packages' revision as build version.
version=()
case " $names " in
*" system "*) version=(KBUILD_BUILD_VERSION="$(package_version | sed 's/.*-//')") ;;
esac

kernel_make "$obj" -s tinyconfig >"$obj/merge_config.log" 2>&1
"$LINUX/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
	"${fragments[@]}" >>"$obj/merge_config.log"
kernel_make "$obj" -s olddefconfig >>"$obj/merge_config.log" 2>&1

# merge_config.sh only warns when an option is dropped; here it is an error.
# An option set again by a later fragment is checked against that one only.
dropped=0
declare -A later=()
for ((i = ${#fragments[@]} - 1; i >= 0; i--)); do
	f=${fragments[i]}
	while read -r line; do
		case "$line" in
		CONFIG_*=*) opt=${line%%=*} ;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }
			opt=${opt%% *} ;;
		*) continue ;;
		esac
		[ -z "${later[$opt]:-}" ] || continue
		later[$opt]=1
		case "$line" in
		CONFIG_*=*) grep -qxF "$line" "$obj/.config" && continue ;;
		*) grep -q "^$opt=" "$obj/.config" || continue ;;
		esac
		printf '%s: %s asks for "%s", .config has "%s"\n' "${0##*/}" \
			"configs/${f##*/}" "$line" \
			"$(grep -E "^(# )?${opt}[= ]" "$obj/.config" || echo "nothing")" >&2
		dropped=$((dropped + 1))
	done <"$f"
done
# make check builds each step of the series, where options that later
# patches add do not exist yet.
[ "$dropped" -eq 0 ] || [ -n "${ALLOW_MISSING_OPTIONS:-}" ] ||
	die "$dropped option(s) asked for by configs/ did not survive olddefconfig (missing dependencies?)"

say "building the $variant kernel in ${obj#"$ROOT"/}"
# One kernel build at a time on this machine: take a lock for the duration.
exec 9>"$BUILD/.build.lock"
flock 9
targets=(bzImage)
! kernel_has_modules "$obj" || targets+=(modules)
# Objects compiled or assembled so far, and about how many a whole build
# has (its objects, counted after the last build).
objects_file=$obj/.objects-of-a-build
build_status() {
	local n
	n=$(grep -cE '^  (CC|AS) ' "$obj/build.log" 2>/dev/null) || true
	if [ -s "$objects_file" ]; then
		echo "${n:-0} objects compiled (a whole build: about $(cat "$objects_file"))"
	else
		echo "${n:-0} objects compiled"
	fi
}
progress_start build_status
if ! kernel_make "$obj" -j"$(($(nproc) + 1))" "${version[@]}" "${targets[@]}" >"$obj/build.log" 2>&1; then
	progress_stop
	grep -E 'error|Error' "$obj/build.log" | head -n 40 >&2 || true
	tail -n 20 "$obj/build.log" >&2
	die "the $variant kernel did not build (log: ${obj#"$ROOT"/}/build.log)"
fi
progress_stop
find "$obj" -name '*.o' | wc -l >"$objects_file"
say "built $(cat "$obj/include/config/kernel.release") ($variant)"
