#!/bin/sh
# Bad input to /dev/cachefiles, the cache daemon's interface: each command
# gets the error cachefiles.rst names for it ("Errors from the Cache
# Device"), and the kernel goes on.  The device may be open once at a time,
# so this test stops Debian's cachefilesd and is the daemon itself: it opens
# the device (fd 3), and after the cases that need no bound cache, binds
# the cache directory as cachefilesd would.  Then each bad command is sent
# to the bound cache, and a file cached before is read again through the
# fsc mount after each: every page from the cache.  Debian's cachefilesd
# is back at the end.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 34
nfs_up

DEVICE=/dev/cachefiles
# The kernel's answer to one command written to fd 3: "ok" or an error name.
answer() { # COMMAND (with C escapes, see guest/tools/cachefiles-cmd.c)
	cachefiles-cmd 3 "$1"
}
# A case: COMMAND written to fd 3 gets WANTED.
command_case() { # NAME WANTED COMMAND
	expect_eq "$1: answer" "$2" "$(answer "$3")"
	ok $? "$1"
}
# A fresh, unbound open of the device as fd 3.
reopen() {
	exec 3>&-
	exec 3<>"$DEVICE" || bail "cannot open $DEVICE"
}
# A case: a cache directory given by "dir" that bind then refuses.
bind_refused_case() { # NAME WANTED DIR
	reopen
	expect_eq "$1: dir" ok "$(answer "dir $3")"
	expect_eq "$1: bind" "$2" "$(answer bind)"
	expect_eq "$1: caches bound" "" "$(cache_active && echo one)"
	ok $? "$1"
}

# A file cached by Debian's cachefilesd, to be read from the cache later.
f=cachefiles_dev
size=1048576
new_file "$EXPORT/$f" "$size"
stored0=$(stored)
read_counts "$FSC" "$f" >/dev/null
wait_for 30 stored_since "$stored0" "$(pages_of "$size")" ||
	diag "stored: $(($(stored) - stored0)) of $(pages_of "$size") pages"
cache_stop >>"$LOG" 2>&1 || bail "cachefilesd did not stop"

# Opening (util-linux setpriv: busybox has its own, with fewer options).
expect_eq "open without CAP_SYS_ADMIN" EPERM \
	"$(/usr/bin/setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin cachefiles-cmd open 2>&1)"
ok $? open_without_cap_sys_admin
exec 3<>"$DEVICE" || bail "cannot open $DEVICE"
expect_eq "second open" EBUSY "$(cachefiles-cmd open)"
ok $? open_twice

# Commands that no cache state makes right.
command_case empty_write EOPNOTSUPP ""
command_case empty_line EINVAL '\n'
command_case command_of_4_kib EOPNOTSUPP "tag $(head -c 4092 /dev/zero | tr '\0' a)"
command_case command_of_64_kib EOPNOTSUPP "$(head -c 65536 /dev/zero | tr '\0' a)"
command_case binary_bytes EOPNOTSUPP '\x01\x02\xfe\xff \x80'
command_case nul_in_the_middle EINVAL 'tag ab\0cd'
command_case unknown_verb EOPNOTSUPP 'no-such-command 1'
command_case verb_without_space_before_args EOPNOTSUPP 'brun10%'
command_case cull_before_bind EIO 'cull some-object'
command_case inuse_before_bind EIO 'inuse some-object'
command_case secctx_naming_no_context EINVAL 'secctx system_u:system_r:no_such_type_t'
command_case brun_over_100 EINVAL 'brun 101%'
command_case bcull_above_brun EINVAL 'bcull 8%'
command_case bstop_above_bcull EINVAL 'bstop 6%'
command_case fcull_without_percent EINVAL 'fcull 5'
command_case frun_negative EINVAL 'frun -1%'

# Cache directories bind refuses (each on a fresh open: one dir an open).
touch /tmp/not-a-directory
bind_refused_case dir_naming_a_file ENOTDIR /tmp/not-a-directory
bind_refused_case dir_missing ENOENT /var/cache/no-such-directory
bind_refused_case dir_through_a_missing_parent ENOENT "$CACHE/no-such/.."
bind_refused_case dir_on_tmpfs EOPNOTSUPP /tmp
reopen
expect_eq "dir twice: first" ok "$(answer "dir $CACHE")"
expect_eq "dir twice: second" EEXIST "$(answer "dir $CACHE")"
ok $? dir_twice

# Bound, as Debian's cachefilesd.conf binds it, through a path with "..",
# after a tag too long for a command.
reopen
expect_eq "dir with .." ok "$(answer "dir $CACHE/../${CACHE##*/}")"
command_case tag_too_long EOPNOTSUPP "tag $(head -c 4092 /dev/zero | tr '\0' t)"
for command in "tag mycache" "brun 10%" "bcull 7%" "bstop 3%" \
	"frun 10%" "fcull 7%" "fstop 3%" "bind"; do
	expect_eq "$command" ok "$(answer "$command")"
done
wait_for 10 cache_active
ok $? bind_with_dotdot_in_dir

# The cached file, read again: every page from the cache, no READ.
from_cache() {
	drop_caches
	read -r ops pages bytes <<EOF
$(read_counts "$FSC" "$f")
EOF
	expect_eq "READs sent" 0 "$ops"
	expect_eq "pages from the cache" "$(pages_of "$size")" "$pages"
	expect_eq checksum "$(sum "$EXPORT/$f")" "$bytes"
}
from_cache
ok $? read_from_bound_cache
# A bad command to the bound cache, then the read again.
bound_case() { # NAME WANTED COMMAND
	expect_eq "$1: answer" "$2" "$(answer "$3")"
	from_cache
	ok $? "$1"
}
bound_case bind_twice EBUSY bind
bound_case dir_after_bind EEXIST "dir $CACHE"
bound_case tag_after_bind EEXIST 'tag other'
bound_case secctx_after_bind EBUSY 'secctx system_u:object_r:cachefiles_cache_t'
bound_case bad_command_to_bound_cache EOPNOTSUPP '\xff\xfe'
bound_case bstop_above_bcull_bound EINVAL 'bstop 50%'

# Unbound by closing the device; Debian's cachefilesd back.
exec 3>&-
wait_for 10 no_cache
ok $? unbound_on_close
cache_start >>"$LOG" 2>&1
ok $? cachefilesd_back
finish
