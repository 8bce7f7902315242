#!/bin/sh
# Debian's own SELinux policy, enforcing (guest/lib/debian-policy.sh): the
# cache binds and caches NFS reads with cachefilesd confined in
# cachefilesd_t, as a Debian 12 machine runs it, both with Debian's
# cachefilesd.conf as shipped and with its documented "secctx" line.
# The policy has no rule naming a context for the cachefiles service: the
# service keeps cachefilesd's credentials, or takes the one secctx names.
# Then each other order of decision, under variants of the policy with
# local modules added (guest/selinux/debian/): a named rule for the service
# to a context cachefilesd may use, or to one it may not, each with and
# without secctx, which names a context cachefilesd may or may not use.
# The cases prove the rows of the table of cachefiles.rst ("In short") and
# credentials.rst, each case's name beginning with its row's: as-shipped
# (no rule, no secctx), named-rule (a rule to a context it may use),
# forbidden-rule (one it may not), no-rule-secctx, named-rule-secctx and
# forbidden-rule-secctx (secctx naming a context it may use, whatever the
# rule), named-rule-secctx-forbidden (secctx naming one it may not).
# shellcheck source=guest/lib/debian-policy.sh
. /lib/guest/debian-policy.sh
plan 34

ctx=$(tr -d '\0' </proc/self/attr/current)
diag "this test runs in $ctx; the cache directory is labelled $(/usr/bin/stat -c %C "$CACHE")"
[ "$(cat /sys/fs/selinux/enforce)" = 1 ] &&
	[ "$(/usr/bin/stat -c %C "$CACHE")" = "$CACHE_CONTEXT" ]
ok $? "enforcing Debian's policy, files labelled by its file_contexts"

# The labels of the regular files in the cache, sorted, unique; their count.
cache_file_labels() {
	find "$CACHE" -type f -exec /usr/bin/stat -c %C {} + | sort -u | paste -sd' '
}
cache_files() {
	find "$CACHE" -type f | wc -l
}

# A new file of 1 MiB, NAME on the export, read twice through the fsc
# mount: ops, pages and bytes of the second read (read_twice).
size=1048576
read_new_file_twice() { # NAME
	new_file "$EXPORT/$1" "$size"
	read -r ops pages bytes <<EOF
$(read_twice "$FSC" "$1")
EOF
	diag "second read: $ops READs, $pages pages from the cache"
}

# One configuration: bind, the daemon's domain, a file read twice through
# the fsc mount (the second read from the cache, with the server's bytes),
# the cache files' labels.
cache_case() { # NAME CONFIG
	debian_cache_start "$2"
	ok $? "$1: cachefilesd binds its cache"
	log_since_mark | grep -E 'CacheFiles|cachefilesd:' | sed 's/^/# /'

	pid=$(pidof cachefilesd)
	daemon=$(tr -d '\0' <"/proc/${pid:-0}/attr/current" 2>/dev/null)
	diag "cachefilesd (pid ${pid:-none}) runs in ${daemon:-nothing}"
	[ "$daemon" = "$DAEMON_CONTEXT" ]
	ok $? "$1: cachefilesd runs in cachefilesd_t"

	nfs_mount "$FSC" ,fsc >>"$LOG" 2>&1 || bail "mount with fsc"
	files_before=$(cache_files)
	read_new_file_twice "$1"
	expect_eq "READs sent" 0 "$ops"
	expect_eq "pages from the cache" "$(pages_of "$size")" "$pages"
	expect_eq checksum "$(sum "$EXPORT/$1")" "$bytes"
	ok $? "$1: a file read twice comes from the cache the second time"

	labels=$(cache_file_labels)
	files_after=$(cache_files)
	diag "cache files: $files_before before the reads, $files_after after; labels: ${labels:-none}"
	[ "$files_after" -gt "$files_before" ] && [ "$labels" = "$CACHE_CONTEXT" ]
	ok $? "$1: the cache's files, new ones among them, are labelled cachefilesd_cache_t"
}
cache_case_end() {
	umount "$FSC"
	cache_stop || bail "cachefilesd did not stop"
}

# cachefilesd.conf with the secctx line that Debian's README.Debian asks
# for: the cache work runs in cachefiles_kernel_t.
log_mark
cache_case secctx /etc/cachefilesd-secctx.conf
cache_case_end

# cachefilesd.conf as shipped: the cache work runs in cachefilesd_t, to
# which Debian's policy grants dac_override but not dac_read_search.  Cache
# files have mode 0, so reading a cache file's xattr when the second read
# looks its object up asks for dac_read_search first: denied and audited,
# then granted by dac_override.  Stock 6.1 does the same; it is the
# policy's, and the only denial this case may see.
DAC_READ_SEARCH_DENIAL='{ dac_read_search } .* scontext=system_u:system_r:cachefilesd_t:s0 tcontext=system_u:system_r:cachefilesd_t:s0 tclass=capability '
reason="cachefilesd_t has no dac_read_search in Debian's policy"
log_mark
expect_denials begin "$reason"
cache_case as-shipped /etc/cachefilesd.conf
# shellcheck disable=SC2317 # called through wait_for
dac_read_search_denied() { denials_since_mark | grep -q -e "$DAC_READ_SEARCH_DENIAL"; }
wait_for 10 dac_read_search_denied
expect_denials end "$reason"
denials=$(denials_since_mark)
printf '%s\n' "$denials" | sed 's/^/# /'
[ -n "$denials" ] &&
	! printf '%s\n' "$denials" | grep -v -q -e "$DAC_READ_SEARCH_DENIAL"
ok $? "as-shipped: the only denials are of dac_read_search to cachefilesd_t"
cache_case_end

# The variants: Debian's policy with more contexts for the service, and
# with or without a named rule for it.  Their auditallow rule logs each
# cache file's creation with the context that creates it: the context the
# cache work runs in.
debian_policy_load() { # VARIANT
	dd if="$DEBIAN_POLICY/$1.policy.33" of=/sys/fs/selinux/load bs=16M 2>>"$LOG" ||
		bail "loading the $1 variant of Debian's policy"
	diag "loaded the $1 variant of Debian's policy"
}
created_as() { # NAME TYPE
	creators=$(log_since_mark |
		sed -n 's/.*avc: *granted *{ create } .* scontext=\([^ ]*\) .* tclass=file.*/\1/p' |
		sort -u | paste -sd' ')
	diag "cache files created as: ${creators:-nothing audited}"
	[ "$creators" = "system_u:system_r:$2:s0" ]
	ok $? "$1: the cache work runs in $2"
}

# A bind refused: cachefilesd exits, no cache is bound, the kernel says
# why, and the one denial is of use_as_override on the context refused.
# NFS reads through the fsc mount are then right, and uncached.
bind_refused() { # NAME CONFIG REFUSED-TYPE KERNEL-MESSAGE
	refused=system_u:system_r:$3:s0
	denial="{ use_as_override } .* scontext=$DAEMON_CONTEXT tcontext=$refused tclass=kernel_service "
	reason="cachefilesd_t may not use $3"
	log_mark
	expect_denials begin "$reason"
	"$LAUNCHER" "$2" &
	wait_for 10 logged_since_mark "$4"
	said=$?
	wait_for 10 logged_since_mark "$denial"
	wait_for 10 not_running cachefilesd
	expect_denials end "$reason"
	log_since_mark | grep -E 'CacheFiles|cachefilesd:|SELinux: |avc: ' | sed 's/^/# /'
	denials=$(denials_since_mark)
	[ "$said" -eq 0 ] && not_running cachefilesd && no_cache &&
		[ -n "$denials" ] && ! printf '%s\n' "$denials" | grep -v -q -e "$denial"
	ok $? "$1: bind fails, the kernel names the service and $3"

	nfs_mount "$FSC" ,fsc >>"$LOG" 2>&1 || bail "mount with fsc"
	read_new_file_twice "$1"
	[ "$ops" -gt 0 ] && [ "$pages" -eq 0 ] && [ "$bytes" = "$(sum "$EXPORT/$1")" ]
	ok $? "$1: reads through the fsc mount are right, and uncached"
	umount "$FSC"
}

FORBIDDEN=cachefiles_forbidden_kernel_t
# The AVC record of the refused service names it.
SERVICE_REFUSED="avc:  denied  { use_as_override } .* service=\"cachefiles\" scontext=$DAEMON_CONTEXT tcontext=system_u:system_r:$FORBIDDEN:s0 "
SECCTX_REFUSED="CacheFiles: Security denies permission to nominate security context system_u:system_r:$FORBIDDEN:s0: error -13"

# No named rule, and secctx naming a context cachefilesd may use other
# than Debian's cachefiles_kernel_t: the service runs in that one.
# The policy as shipped is back whenever the test ends.
on_exit "dd if=$DEBIAN_POLICY/policy.33 of=/sys/fs/selinux/load bs=16M 2>>$LOG"
debian_policy_load no-rule
log_mark
cache_case no-rule-secctx /etc/cachefilesd-secctx-other.conf
created_as no-rule-secctx cachefiles_other_kernel_t
cache_case_end

# A named rule to cachefiles_kernel_t: without secctx the service runs in
# it; with secctx naming another context cachefilesd may use, in that one;
# with secctx naming one it may not use, bind fails.
debian_policy_load named-rule
log_mark
cache_case named-rule /etc/cachefilesd.conf
created_as named-rule cachefiles_kernel_t
cache_case_end
log_mark
cache_case named-rule-secctx /etc/cachefilesd-secctx-other.conf
created_as named-rule-secctx cachefiles_other_kernel_t
cache_case_end
bind_refused named-rule-secctx-forbidden /etc/cachefilesd-secctx-forbidden.conf \
	"$FORBIDDEN" "$SECCTX_REFUSED"

# A named rule to a context cachefilesd may not use: without secctx, bind
# fails; with secctx naming cachefiles_kernel_t, cachefilesd's choice
# decides, and the rule is not even computed.
debian_policy_load forbidden-rule
bind_refused forbidden-rule /etc/cachefilesd.conf "$FORBIDDEN" "$SERVICE_REFUSED"
log_mark
cache_case forbidden-rule-secctx /etc/cachefilesd-secctx.conf
created_as forbidden-rule-secctx cachefiles_kernel_t
cache_case_end
finish
