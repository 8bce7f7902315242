#!/bin/sh
# Who the cache works as, in trace events: cred:kernel_service_cred when
# cachefilesd binds its cache and get_kernel_cred() makes the credentials
# of its "cachefiles" service, and cachefiles:cachefiles_begin_secure each
# time CacheFiles switches to them.  Under the test policy the service acts
# in cachefiles_kernel_t, and the cache's files are made as cachefs (fsuid
# and fsgid $CACHE_UID, the owner of the cache's root).
#
# cachefilesd binds before it forks into the background, so to compare
# pids this test runs it with -n, in the foreground.  It is restarted the
# usual way (cache_start) at the end, with the events off.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 4
nfs_up

tracefs_mount || bail "cannot mount tracefs on $TRACING"
SERVICE_EVENT=cred/kernel_service_cred
SECURE_EVENT=cachefiles/cachefiles_begin_secure
CTX=system_u:system_r:cachefiles_kernel_t

events_enable() { # 0|1
	echo "$1" >"$TRACING/events/$SERVICE_EVENT/enable" &&
		echo "$1" >"$TRACING/events/$SECURE_EVENT/enable"
}
trace_clear() { : >"$TRACING/trace"; }
# The recorded events of one name, each as the text after "NAME: ".
events_of() { # NAME
	sed -n "s/.* $1: //p" "$TRACING/trace"
}
# What cachefiles_begin_secure should say of each switch once the cache is
# bound, whatever the operation.
secure_pattern() { # TAG
	echo "^tag=$1 op=[a-z_]* fsuid=$CACHE_UID fsgid=$CACHE_UID ctx=$CTX\$"
}

service=$(cat "$TRACING/events/$SERVICE_EVENT/enable")
secure=$(cat "$TRACING/events/$SECURE_EVENT/enable")
diag "enabled at boot: $SERVICE_EVENT $service, $SECURE_EVENT $secure"
[ "$service" = 0 ] && [ "$secure" = 0 ]
ok $? off_by_default

# A bind with both events on: one kernel_service_cred event, naming the
# daemon that bound the cache; the bind's own switches are traced too.
cache_stop || bail "cachefilesd did not stop"
trace_clear
events_enable 1 || bail "cannot enable the events"
cache_dir_prepare "$CACHE" "$CACHE_DISK" || bail "cannot prepare $CACHE"
cachefilesd_run -n -s -f /etc/cachefilesd.conf >>"$LOG" 2>&1 &
daemon=$!
wait_for 10 cache_active || bail "cachefilesd -n did not bind its cache"
pid=$(pidof cachefilesd)
tag=$(active_caches)
grep ' kernel_service_cred: ' "$TRACING/trace" | sed 's/^/# /'
expect_eq "kernel_service_cred events" \
	"service=cachefiles pid=$pid comm=cachefilesd uid=0 gid=0 ctx=$CTX" \
	"$(events_of kernel_service_cred | paste -sd";")"
# The bind switches twice: to the service's credentials as made, root's
# ids, to look up the cache's root; then to those that create files as
# the root's owner.
events_of cachefiles_begin_secure | sed 's/^/# /'
expect_eq "switches for the bind" \
	"tag=$tag op=bind fsuid=0 fsgid=0 ctx=$CTX;tag=$tag op=bind fsuid=$CACHE_UID fsgid=$CACHE_UID ctx=$CTX" \
	"$(events_of cachefiles_begin_secure | grep ' op=bind ' | paste -sd';')"
expect_eq "other switches not with the cache's tag, ids and context" 0 \
	"$(events_of cachefiles_begin_secure | grep -v ' op=bind ' | grep -vc "$(secure_pattern "$tag")")"
ok 0 service_cred_event

# A file read cold, stored, then read warm from the cache: each step of
# the cache's work is done as the cache, whichever task does it.
trace_clear
size=1048576
new_file "$EXPORT/traced" "$size"
stored_before=$(stored)
read -r cold_ops _ cold_sum <<EOF
$(read_counts "$FSC" traced)
EOF
wait_for 30 stored_since "$stored_before" "$(pages_of "$size")" ||
	diag "the cold read's pages were not all stored within 30 s"
drop_caches
read -r ops pages sum <<EOF
$(read_counts "$FSC" traced)
EOF
diag "cold read: $cold_ops READs; warm read: $ops READs, $pages pages from the cache"
events_of cachefiles_begin_secure | sort | uniq -c | sed 's/^/# /'
diag "the first switch of each operation, and the task it was made in:"
grep ' cachefiles_begin_secure: ' "$TRACING/trace" |
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^op=/) op = $i } !seen[op]++' | sed 's/^/# /'
expect_eq "warm read: READs sent" 0 "$ops"
expect_eq "warm read: pages from the cache" "$(pages_of "$size")" "$pages"
expect_eq "checksums" "$(sum "$EXPORT/traced") $(sum "$EXPORT/traced")" "$cold_sum $sum"
expect_eq "operations traced" "create lookup prep_read prep_write read write" \
	"$(events_of cachefiles_begin_secure | sed -n 's/.* op=\([a-z_]*\) .*/\1/p' |
		sort -u | grep -v 'volume\|withdraw' | paste -sd' ')"
expect_eq "switches not with the cache's tag, ids and context" 0 \
	"$(events_of cachefiles_begin_secure | grep -vc "$(secure_pattern "$tag")")"
expect_eq "kernel_service_cred events" "" "$(events_of kernel_service_cred | paste -sd";")"
ok 0 cache_work_traced

# Both off: a bind and a file read cold and warm record nothing.
events_enable 0 || bail "cannot disable the events"
trace_clear
killall cachefilesd
wait "$daemon"
wait_for 10 no_cache || bail "the cache of cachefilesd -n stayed bound"
cache_start || bail "cachefilesd did not start again"
new_file "$EXPORT/untraced" "$size"
read -r ops pages sum <<EOF
$(read_twice "$FSC" untraced)
EOF
diag "with the events off: $ops READs, $pages pages from the cache"
expect_eq "pages from the cache" "$(pages_of "$size")" "$pages"
expect_eq "events recorded" 0 "$(grep -vc '^#' "$TRACING/trace")"
ok 0 nothing_when_off
finish
