# shellcheck shell=sh
# shellcheck disable=SC2034 # the variables are for the tests that source it
# The cache and its daemon: cachefilesd started and stopped, the cache
# directory prepared, the caches bound.  Sourced by nfs.sh, whose variables
# ($CACHE, $CACHE_DISK, $CACHE_UID) it uses.

# Debian's cachefilesd (0.10.10).  It aborts at random: decant_cull_table()
# takes any cull-table pointer whose bits 28-31 read 6 for its own poison
# value and calls abort(), and with address-space randomisation some heap
# pointers have them ("Fix random abort()", Hristo Venev, linux-nfs,
# January 2024, not in Debian's package).  Without randomisation its heap
# starts at 0x5555_5555_xxxx and would have to grow by some 170 MiB to reach
# such a pointer.  It runs in its own SELinux domain (guest/selinux/).
# The benchmark's kernels have no SELinux: then it runs unlabelled.
cachefilesd_run() { # ARGS...
	if selinux_on; then
		runcon system_u:system_r:cachefilesd_t setarch "$(uname -m)" -R cachefilesd "$@"
	else
		setarch "$(uname -m)" -R cachefilesd "$@"
	fi
}
selinux_on() { [ -e /sys/fs/selinux/enforce ]; }

# Whether PID's address space is randomised: "no" when its personality has
# ADDR_NO_RANDOMIZE (setarch -R) or the system has randomisation off.
address_space_randomised() { # PID
	if [ "$(cat /proc/sys/kernel/randomize_va_space)" = 0 ] ||
		[ $((0x$(cat "/proc/$1/personality") & 0x0040000)) -ne 0 ]; then
		echo no
	else
		echo yes
	fi
}

# A cache directory on its own disk: mounted, its root owned by cachefs
# (the kernel creates the cache's files as that owner, through
# set_create_files_as()) and labelled for SELinux as the cache, the label
# the kernel gives what it creates in it, by the same call.
cache_dir_prepare() { # DIR DEVICE
	mkdir -p "$1" &&
		{ grep -q " $1 " /proc/mounts || mount -t ext4 "$2" "$1"; } &&
		chown "$CACHE_UID:$CACHE_UID" "$1" && chmod 0700 "$1" &&
		{ ! selinux_on || chcon "$CACHE_CONTEXT" "$1"; }
}
CACHE_CONTEXT=system_u:object_r:cachefiles_cache_t

# cachefilesd on the cache disk (its pid file in /var/run).
cache_start() {
	mkdir -p /run /var && ln -sfn /run /var/run &&
		cache_dir_prepare "$CACHE" "$CACHE_DISK" &&
		cachefilesd_run -s -f /etc/cachefilesd.conf &&
		wait_for 10 cache_active
}

# Stop cachefilesd, and wait for it to leave and its cache to be withdrawn.
# It may have left already: when the kernel stops a cache after an I/O
# error (e.g. a cache file's xattr it may not write), cachefilesd exits.
cache_stop() {
	killall -q cachefilesd
	wait_for 10 not_running cachefilesd && wait_for 10 no_cache
}

# The cache's data files (lost+found is mkfs's, not the kernel's).
cache_files() { find "$CACHE" -path "$CACHE/lost+found" -prune -o -type f -print; }

# The names (tags) of the caches bound and active ("A" in the state
# column of /proc/fs/fscache/caches), one a line.
active_caches() {
	awk 'NR > 2 && $6 == "A" { print $7 }' /proc/fs/fscache/caches
}
cache_active() { [ -n "$(active_caches)" ]; }
# Whether the caches have nothing left to make: no volume being created or
# waiting to be (flags 0x08, 0x10 in /proc/fs/fscache/volumes), no cookie
# being looked up or created (state L or C in .../cookies).  What they make
# needs write access to the cache's filesystem: under a freeze it waits for
# the thaw, and a read of the cookie waits with it.
cache_settled() {
	awk 'NR > 2 { print $5 }' /proc/fs/fscache/volumes | while read -r flags; do
		[ $((0x$flags & 0x18)) -eq 0 ] || exit 1
	done &&
		! awk 'NR > 2 && ($6 == "L" || $6 == "C") { found = 1 } END { exit !found }' \
		/proc/fs/fscache/cookies
}
no_cache() { ! cache_active; }
not_running() { ! pidof "$1" >/dev/null; }
