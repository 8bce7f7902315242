# shellcheck shell=sh
# shellcheck disable=SC2034 # the variables are for the tests that source it
# The boot under Debian's own SELinux policy (debian-policy in guest/boots):
# selinux-policy-default as its postinst installs it, built by
# scripts/debian-policy.sh, with one local module for Debian's own
# cachefilesd bug (guest/selinux/debian/).  init calls
# debian_policy_enforce instead of loading the test policy; the tests of
# guest/tests/debian-policy then start cachefilesd with debian_cache_start.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh

DEBIAN_POLICY=/etc/selinux/debian
CACHE_CONTEXT=system_u:object_r:cachefilesd_cache_t:s0
DAEMON_CONTEXT=system_u:system_r:cachefilesd_t:s0
LAUNCHER=/lib/guest/cachefilesd-launch

# Load the policy, label every file by Debian's file_contexts, and enforce.
# - The initramfs (cpio) carries no labels: setfiles labels it and the
#   filesystems mounted so far while the policy is permissive.  Once it is
#   enforcing, no file can be created on rootfs, so what is written later
#   lives on a tmpfs (/run, /var/lib/nfs), and the NFS server, which writes
#   /etc/exports, is set up before.
# - The cache directory is root's, 0755, as Debian's cachefilesd package
#   ships it.  (The other boots give it to a user of its own, which
#   cachefilesd_t, lacking dac_read_search, could reach only by overriding
#   DAC, with a denial audited at every lookup.)
# - Address-space randomisation is off for the whole boot (cachefilesd_run
#   in nfs.sh says why): setarch -R cannot do it here, as the domain
#   transition to cachefilesd_t clears the personality flags.
# - The permissive denials of labelling are marked expected; the audit
#   record of the switch to enforcing follows them in the audit queue, so
#   once it is in the log they all are.
debian_policy_enforce() {
	echo "debian-policy: $EXPECT_BEGIN (labelling, permissive)" >/dev/kmsg
	status=0
	for step in debian_mounts debian_label nfs_network nfs_server debian_enforce; do
		"$step" >>"$LOG" 2>&1 || {
			echo "debian-policy: $step failed" >>"$LOG"
			status=1
			break
		}
	done
	echo "debian-policy: $EXPECT_END (labelling, permissive)" >/dev/kmsg
	return "$status"
}
debian_mounts() {
	mkdir -p /run && mount -t tmpfs tmpfs /run &&
		mkdir -p /var/lib/nfs "$EXPORT" "$FSC" "$PLAIN" &&
		mount -t tmpfs tmpfs /var/lib/nfs &&
		ln -sf /proc/mounts /etc/mtab &&
		mkdir -p "$CACHE" && mount -t ext4 /dev/vdb "$CACHE" &&
		chown root:root "$CACHE" && chmod 0755 "$CACHE"
}
debian_label() {
	mount -t selinuxfs selinuxfs /sys/fs/selinux &&
		dd if="$DEBIAN_POLICY/policy.33" of=/sys/fs/selinux/load bs=16M &&
		debian_setfiles /dev /run /tmp /var/lib/nfs "$CACHE" &&
		chcon system_u:object_r:init_exec_t:s0 "$LAUNCHER"
}
# setfiles on each filesystem by itself: one walk across them all gave
# /dev/null, /dev/cachefiles and /dev/console an input device's label
# (event_device_t), seemingly because setfiles' hard-link table takes files
# of different filesystems with the same inode number for one file.  It
# has no option to stay on one filesystem: the root's walk excludes the
# others.
debian_setfiles() { # MOUNTPOINT...
	set -- /proc /sys "$@"
	excludes=
	for mp; do
		excludes="$excludes -e $mp"
	done
	shift 2
	# shellcheck disable=SC2086 # one word an option
	/sbin/setfiles -F $excludes "$DEBIAN_POLICY/file_contexts" / || return 1
	for mp; do
		/sbin/setfiles -F "$DEBIAN_POLICY/file_contexts" "$mp" || return 1
	done
}
debian_enforce() {
	echo 0 >/proc/sys/kernel/randomize_va_space &&
		echo 1 >/sys/fs/selinux/enforce &&
		wait_for 10 audit_logged 'enforcing=1 old_enforcing=0'
}
audit_logged() { dmesg | grep -q "$1"; }

# cachefilesd on the cache disk with CONFIG, started by the launcher, and
# its cache bound.
debian_cache_start() { # CONFIG
	"$LAUNCHER" "$1" &
	wait_for 10 cache_active
}
