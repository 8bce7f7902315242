# shellcheck shell=sh
# shellcheck disable=SC2034 # the variables are for the tests that source it
# The tests of a Debian 12 system booted with the series' kernel package
# (scripts/debian-image.sh; guest/tests/debian-system and debian-reboot):
# systemd brings it up as Debian ships it, with Debian's SELinux policy
# enforcing; its NFS server exports $EXPORT, /etc/fstab mounts that at $FSC
# with fsc, and cachefilesd (guest/debian/cachefilesd.service) caches in
# /var/cache/fscache on the root filesystem.
# shellcheck source=guest/lib/ktap.sh
. /lib/guest/ktap.sh
# shellcheck source=guest/lib/counters.sh
. /lib/guest/counters.sh
# shellcheck source=guest/lib/knobs.sh
. /lib/guest/knobs.sh
# shellcheck source=guest/lib/cache.sh
. /lib/guest/cache.sh
EXPORT=/srv/nfs
FSC=/mnt/nfs
CACHE=/var/cache/fscache
# The file debian-fsc reads into the cache, read again after the reboot.
KEPT_FILE=kept
KEPT_BYTES=$((8 << 20))
# The denials Debian's policy makes of Debian's own programs, whatever the
# kernel: guest/debian/known-denials, each with why.
KNOWN_DENIALS=/etc/credrec/known-denials

# The units that failed, one a line; none on a system that came up whole.
failed_units() {
	systemctl list-units --failed --plain --no-legend | awk '{ print $1 }'
}

# The SELinux denials of this boot in the audit log (auditd's; the kernel
# holds those made before auditd started, audit=1), one a line as
# "COMMAND PERMISSION TARGET-TYPE CLASS", each once, sorted.
denials() {
	ausearch -m AVC,USER_AVC,SELINUX_ERR -ts boot 2>/dev/null |
		awk '/avc: +denied/ {
			comm = "?"; tclass = "?"; ttype = "?"; perms = ""; in_perms = 0
			for (i = 1; i <= NF; i++) {
				if ($i == "}") in_perms = 0
				if (in_perms) perms = perms (perms == "" ? "" : ",") $i
				if ($i == "{") in_perms = 1
				if ($i ~ /^comm=/) { comm = substr($i, 6); gsub(/"/, "", comm) }
				if ($i ~ /^tclass=/) tclass = substr($i, 8)
				if ($i ~ /^tcontext=/) { split($i, c, ":"); ttype = c[3] }
			}
			print comm, perms, ttype, tclass
		}' | sort -u
}

# The denials known-denials lists, one a line.
known_denials() { grep -v -e '^#' -e '^$' "$KNOWN_DENIALS"; }

# The cases both boots check: no unit failed, no denial but the known.
system_whole() {
	units=$(failed_units)
	expect_eq "failed units" "" "$(echo "$units" | xargs)"
	ok $? no_failed_unit
	denials >/tmp/denials
	known_denials >/tmp/known-denials
	unknown=$(grep -vxF -f /tmp/known-denials /tmp/denials)
	diag "$(($(wc -l </tmp/denials) - $(echo "$unknown" | grep -c .))) known denial(s) of Debian's policy"
	echo "$unknown" | while read -r denial; do
		[ -z "$denial" ] || diag "unknown denial: $denial"
	done
	expect_eq "denials not known" "" "$(echo "$unknown" | xargs)"
	ok $? no_unknown_denial
}
