#!/bin/sh
# NFSv3 with fsc (without locking: no rpc.statd in the guest; MOUNT over
# TCP: this kernel's NFS client has no UDP, CONFIG_NFS_DISABLE_UDP_SUPPORT,
# and mount.nfs would ask rpc.mountd over UDP otherwise): a read goes
# to the server, the same read after drop_caches comes from the cache, both
# with the server's bytes; the FSC column says yes.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
plan 4
nfs_up

v3=/mnt/v3
mkdir -p "$v3"
in_client timeout 60 mount.nfs "$SERVER:$EXPORT" "$v3" \
	-o vers=3,nolock,proto=tcp,mountproto=tcp,retry=0,nosharecache,actimeo=1,fsc >/tmp/v3-mount.out 2>&1
ok $? mount_v3_fsc
sed 's/^/# mount.nfs: /' /tmp/v3-mount.out
f=version3
size=1048577
new_file "$EXPORT/$f" "$size"
want=$(sum "$EXPORT/$f")
read -r ops1 pages1 bytes1 <<EOF
$(read_counts "$v3" "$f")
EOF
drop_caches
read -r ops2 pages2 bytes2 <<EOF
$(read_counts "$v3" "$f")
EOF
diag "cold read: $ops1 READs, $pages1 pages from the cache; warm: $ops2 READs, $pages2 pages"
expect_ge "READs sent" 1 "$ops1"
expect_eq checksum "$want" "$bytes1"
ok $? v3_cold_read_from_server
expect_eq "READs sent" 0 "$ops2"
expect_eq "pages from the cache" "$(pages_of "$size")" "$pages2"
expect_eq checksum "$want" "$bytes2"
ok $? v3_warm_read_from_cache
[ "$(fsc_column "$v3")" = yes ]
ok $? v3_volume_fsc_yes
umount "$v3"
finish
