#!/bin/sh
# NFSv3 with fsc (without locking: no rpc.statd in the guest; MOUNT over
# TCP: this kernel's NFS client has no UDP, CONFIG_NFS_DISABLE_UDP_SUPPORT,
# and mount.nfs would ask rpc.mountd over UDP otherwise): a read goes
# to the server, the same read after drop_caches comes from the cache, both
# with the server's bytes; the FSC column says yes.
# shellcheck source=guest/lib/nfs.sh
. /lib/guest/nfs.sh
echo "KTAP version 1"
echo "1..4"
nfs_up

v3=/mnt/v3
mkdir -p "$v3"
in_client timeout 60 mount.nfs "$SERVER:$EXPORT" "$v3" \
	-o vers=3,nolock,proto=tcp,mountproto=tcp,retry=0,nosharecache,actimeo=1,fsc >/tmp/v3-mount.out 2>&1
ok $? mount_v3_fsc
sed 's/^/# mount.nfs: /' /tmp/v3-mount.out
f=version3
head -c 1048577 /dev/urandom >"$EXPORT/$f"
chmod 0644 "$EXPORT/$f"
sync
want=$(sum "$EXPORT/$f")
read -r ops1 pages1 bytes1 <<EOF
$(read_counts "$v3" "$f")
EOF
drop_caches
read -r ops2 pages2 bytes2 <<EOF
$(read_counts "$v3" "$f")
EOF
diag "cold read: $ops1 READs, $pages1 pages from the cache; warm: $ops2 READs, $pages2 pages"
[ "$ops1" -gt 0 ] && [ "$bytes1" = "$want" ]
ok $? v3_cold_read_from_server
[ "$ops2" -eq 0 ] && [ "$pages2" -ge 257 ] && [ "$bytes2" = "$want" ]
ok $? v3_warm_read_from_cache
[ "$(fsc_column "$v3")" = yes ]
ok $? v3_volume_fsc_yes
umount "$v3"
exit "$failed"
