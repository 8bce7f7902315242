#!/bin/sh
# SELinux enforcing (the policy of guest/selinux/, loaded by init): the
# cache daemon's policy, not the reading user's, governs the kernel's cache
# work.  The reader reads in user_t, which may not touch the cache at all;
# cachefilesd runs confined in cachefilesd_t, and the kernel's cache work in
# cachefiles_kernel_t, the domain the policy names for cachefilesd's
# "cachefiles" service.  Policy variants (no-cache-write, no-named-rule)
# are loaded for some cases, and the full policy loaded back after.
#
# Every file creation and write-open in the cache is audited ("avc:
# granted", policy.te), so the kernel log says in which domain each was
# done.  Denials this test provokes are between "expected AVC denials"
# markers in the kernel log; any other fails the run (scripts/report.py).
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 11
nfs_up

POLICIES=/etc/selinux/credrec
CTX=system_u:system_r
READ_PREFIX="runcon $CTX:user_t"

# shellcheck disable=SC2317 # called through wait_for
denial_logged() {
	denials_since_mark >/dev/null
}
# The domains (types) granted or denied an audited access to cache files
# since the mark, sorted, unique, space-separated.
cache_file_domains() { # granted|denied
	log_since_mark | grep "avc:  $1 " |
		grep "tcontext=$CACHE_CONTEXT tclass=file" |
		sed -n 's/.* scontext=[^:]*:[^:]*:\([a-z_]*\) .*/\1/p' | sort -u | paste -sd' '
}
load_policy() { # VARIANT
	cat "$POLICIES/$1.policy" >/sys/fs/selinux/load
}
restart_cache() {
	cache_stop && cache_start
}
# A new file read twice in user_t: the second read comes from the cache,
# with the server's bytes, and every audited create or write-open of a
# cache file in between was done in DOMAIN alone.
size=1048576
cache_work_in() { # NAME DOMAIN
	new_file "$EXPORT/$1" "$size"
	log_mark
	read -r ops pages bytes <<EOF
$(read_twice "$FSC" "$1")
EOF
	granted=$(cache_file_domains granted)
	diag "second read of $1 in user_t: $ops READs, $pages pages from the cache"
	diag "domains granted create or write on cache files: ${granted:-none}"
	expect_eq "READs sent" 0 "$ops"
	expect_eq "pages from the cache" "$(pages_of "$size")" "$pages"
	expect_eq checksum "$(sum "$EXPORT/$1")" "$bytes"
	expect_eq "domains granted" "$2" "$granted"
}

[ "$(cat /sys/fs/selinux/enforce 2>/dev/null)" = 1 ]
ok $? enforcing

ctx=$(tr -d "\\0" <"/proc/$(pidof cachefilesd)/attr/current")
diag "cachefilesd runs in $ctx"
[ "$ctx" = "$CTX:cachefilesd_t" ]
ok $? daemon_in_its_domain

# cachefilesd_t is confined: a program run in it may not read what is not
# its own, a file of the export for one.
new_file "$EXPORT/se-confined" 4096
log_mark
expect_denials begin "cachefilesd_t reads the export"
runcon "$CTX:cachefilesd_t" cat "$EXPORT/se-confined" >/dev/null 2>&1
rc=$?
wait_for 10 denial_logged
expect_denials end "cachefilesd_t reads the export"
denials_since_mark | sed 's/.*avc:/# avc:/'
denied=$(denials_since_mark | grep -c "scontext=$CTX:cachefilesd_t tcontext=system_u:object_r:file_t ")
diag "root in cachefilesd_t reading $EXPORT/se-confined: status $rc, $denied denial(s)"
[ "$rc" -ne 0 ] && [ "$denied" -gt 0 ]
ok $? daemon_confined

# The reader in user_t; the cache's work in the service's domain.
cache_work_in se-service cachefiles_kernel_t
ok $? cache_work_in_service_domain

# While a reader's task waits for a read from the cache, which cachefiles
# submitted with the cache's credentials in force (subjective),
# /proc/PID/attr/current shows the reader's own context (objective).  The
# reader faults the pages of a mapping in one at a time (mmap-read:
# MADV_RANDOM, no readahead), so that nfs_read_folio() has netfs read each
# from the cache and waits for it in the reader's task.  An I/O throttle on
# the cache disk (cgroup v2 io.max, 4 KiB/s) holds the reader there.  The
# cache read is asynchronous: the task waits in netfs_begin_read(), or in
# cachefiles_read() should the submission itself wait.
slow=$CGROUP/slow-cache
in_cache_read() { grep -q 'netfs_begin_read\|cachefiles_read' "/proc/$reader/stack"; }
drop_caches
throttle_reads slow-cache vdb 4096 >>"$LOG" 2>&1
# su, sh and runcon each exec the next: $! ends as mmap-read's pid.
throttled slow-cache "su $READER -s /bin/sh -c 'exec runcon $CTX:user_t mmap-read $FSC/se-service'" \
	>/dev/null 2>&1
reader=$!
wait_for 20 in_cache_read
before=$?
attr=$(tr -d '\0' <"/proc/$reader/attr/current")
in_cache_read
after=$?
comm=$(cat "/proc/$reader/comm")
sed -n '1,/filemap_fault/p' "/proc/$reader/stack" | sed 's/^/# stack: /'
kill "$reader"
wait "$reader" 2>/dev/null
rmdir "$slow"
diag "$comm in a cache read (seen before and after: $before $after) shows $attr"
[ "$before" -eq 0 ] && [ "$after" -eq 0 ] && [ "$attr" = "$CTX:user_t" ]
ok $? procattr_objective_during_cache_read

# What the service created under the cache root is labelled as the root
# (set_create_files_as()); lost+found is mkfs's.  Data files are linked
# into the cache once their cookies are let go (some 10 s): there must be
# some, or the labels checked are only the directories'.
# shellcheck disable=SC2317 # called through wait_for
data_files() { cache_files | grep -q .; }
drop_caches
wait_for 30 data_files
expect_eq "data files in the cache" 0 "$?"
labels=$(find "$CACHE" -path "$CACHE/lost+found" -prune -o -exec /usr/bin/stat -c %C {} + |
	sort -u | paste -sd" ")
diag "labels in the cache: $labels"
expect_eq "labels in the cache" "$CACHE_CONTEXT" "$labels"
ok 0 cache_files_labelled

# The reading user's domain may not open the cache's files itself, even as
# root (DAC would let root in).
file=$(find "$CACHE/cache" -type f | head -n 1)
log_mark
expect_denials begin "user_t opens a cache file"
runcon "$CTX:user_t" cat "$file" >/dev/null 2>&1
rc=$?
# Audit records reach the log after the call returns: the end marker only
# once the denial is there.
wait_for 10 denial_logged
expect_denials end "user_t opens a cache file"
denied=$(denials_since_mark | grep -c "scontext=$CTX:user_t tcontext=$CACHE_CONTEXT")
diag "root in user_t reading $file: status $rc, $denied denial(s)"
[ "$rc" -ne 0 ] && [ "$denied" -gt 0 ]
ok $? reader_domain_kept_out

# The service may not write cache files: the reader still gets the server's
# bytes, nothing is cached, and the denials name the service's domain.
new_file "$EXPORT/se-nowrite" "$size"
log_mark
expect_denials begin "no-cache-write policy"
on_exit "load_policy full"
load_policy no-cache-write
ok $? load_no_cache_write_policy
read -r ops pages bytes <<EOF
$(read_twice "$FSC" se-nowrite)
EOF
wait_for 10 denial_logged
load_policy full
expect_denials end "no-cache-write policy"
denied=$(cache_file_domains denied)
diag "second read: $ops READs, $pages pages from the cache"
diag "domains denied on cache files: ${denied:-none}"
denials_since_mark | sed 's/.*avc:/# avc:/'
[ "$ops" -gt 0 ] && [ "$pages" -eq 0 ] && [ "$bytes" = "$(sum "$EXPORT/se-nowrite")" ] &&
	[ "$denied" = cachefiles_kernel_t ]
ok $? no_cache_write_bounds_service

# That policy may also have stopped the cache: when a cookie released
# under it commits its file, the xattr write is denied, cachefiles takes it
# as an I/O error and cachefilesd exits.  Whether that came before the full
# policy was back depends on the cookie's release; restart_cache copes with
# both.
diag "cache stopped after an I/O error: $(log_since_mark | grep -c "stopped due to I/O error") time(s)"

# No rule names the service's domain: get_kernel_cred() falls back to the
# daemon's own, which does the cache's work.
load_policy no-named-rule && restart_cache >>"$LOG" 2>&1
ok $? load_no_named_rule_policy
cache_work_in se-fallback cachefilesd_t
ok $? fallback_to_daemon_domain

load_policy full && restart_cache >>"$LOG" 2>&1
finish
