#!/bin/bash
# Boot one kernel variant with its initramfs under QEMU.  The console goes to
# build/obj-VARIANT/console.log (and to the terminal with --shell), after
# the QEMU command line; the guest tests' KTAP to ktap.log.  Every boot has
# a time limit: a hung guest is killed.  A boot that times out, or whose
# QEMU fails, exits non-zero with the cause in failure.log (failure-BOOT.log
# for the later boots), which scripts/report.py reports.
# SHOW=1: print the command line, and boot nothing.
#   qemu.sh VARIANT                 boot, run the tests, power off
#   qemu.sh VARIANT --shell         the same, then a shell on this terminal
#   qemu.sh VARIANT --after-reboot  boot again with the disks of the last
#                                   boot, run the tests of guest/tests/
#                                   after-reboot; logs console-after-reboot.log
#                                   and ktap-after-reboot.log
#   qemu.sh VARIANT --debian-policy boot with new disks under Debian's own
#                                   SELinux policy, run the tests of
#                                   guest/tests/debian-policy; logs
#                                   console-debian-policy.log and
#                                   ktap-debian-policy.log
#   qemu.sh VARIANT --bench         run guest/bench instead of the tests,
#                                   with more memory and bigger disks; logs
#                                   console-bench.log and bench.log
#   qemu.sh VARIANT --cluster-ROLE  one machine of the cluster
#                                   (scripts/cluster.sh), ROLE server,
#                                   client-a or client-b; logs
#                                   console-cluster-ROLE.log and
#                                   ktap-cluster-ROLE.log, QEMU's pid in
#                                   qemu-cluster-ROLE.pid
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

variant=${1:?usage: qemu.sh VARIANT [--shell | --after-reboot | --debian-policy | --bench | --cluster-ROLE]}
mode=${2:-}
case "$mode" in
"" | --shell | --after-reboot | --debian-policy | --bench) ;;
--cluster-server | --cluster-client-a | --cluster-client-b) ;;
*) die "unknown option '$mode'" ;;
esac
obj=$(objdir "$variant")
logs=
case "$mode" in
--after-reboot | --debian-policy | --cluster-*) logs=-${mode#--} ;;
esac
console_log=$obj/console$logs.log
ktap_log=$obj/ktap$logs.log
failure_log=$obj/failure$logs.log
memory=2G
sizes="export:1G cache:512M small:48M"
if [ "$mode" = --bench ]; then
	console_log=$obj/console-bench.log
	ktap_log=$obj/bench.log
	failure_log=$obj/failure-bench.log
	# Five 256 MiB files, in the server's and the client's page caches,
	# and in the cache.
	memory=4G
	sizes="export:2G cache:2G small:48M"
fi
# The cluster's machines (scripts/cluster.sh): the server exports its disk
# to the two clients, each caching on its own disk.  Each client has a link
# of its own to the server, a NIC at each end joined by QEMU over the host's
# loopback (UDP, the ports scripts/cluster.sh picked: CLUSTER_PORTS, "LINK1-
# SERVER LINK1-CLIENT LINK2-SERVER LINK2-CLIENT").  A NIC's MAC gives the
# guest its address (guest/lib/cluster.sh): 52:54:00:98:0L:0H is 10.98.L.H.
role=
nics=()
nic() { # LINK HOST LOCAL-PORT REMOTE-PORT
	nics+=(-netdev "dgram,id=link$1,local.type=inet,local.host=127.0.0.1,local.port=$3,remote.type=inet,remote.host=127.0.0.1,remote.port=$4"
		-device "virtio-net-pci,netdev=link$1,mac=52:54:00:98:0$1:0$2")
}
case "$mode" in
--cluster-*)
	role=${mode#--cluster-}
	read -r link1_server link1_client link2_server link2_client <<<"${CLUSTER_PORTS:?CLUSTER_PORTS: set by scripts/cluster.sh}"
	memory=1G
	case "$role" in
	server)
		sizes="export:1G"
		nic 1 1 "$link1_server" "$link1_client"
		nic 2 1 "$link2_server" "$link2_client"
		;;
	client-a)
		sizes="cache:512M"
		nic 1 2 "$link1_client" "$link1_server"
		;;
	client-b)
		sizes="cache:512M"
		nic 2 2 "$link2_client" "$link2_server"
		;;
	esac
	;;
esac
# Test boots end by themselves within minutes (the debug kernel's first,
# KASAN under TCG, in about ten); a shell is given an hour.
boot_limit=600
[ "$variant" != debug ] || boot_limit=1200
[ "$mode" != --bench ] || boot_limit=2400
[ -z "$role" ] || boot_limit=$((boot_limit * 3 / 2))
# Each guest test's own limit (guest/run-tests): the debug kernel's
# kmemleak and KASAN make the slowest, selinux-debian, take some 5 minutes.
# A cluster client's one test serves the server for the whole boot.
test_limit=240
[ "$variant" != debug ] || test_limit=600
case "$role" in client-*) test_limit=$boot_limit ;; esac
timeout=${BOOT_TIMEOUT:-$boot_limit}

# The QEMU command line, shared by the KVM probe and the real boot, in the
# array "qemu".
set_qemu() { # ACCEL
	qemu=(qemu-system-x86_64 -machine q35 -accel "$1" -cpu max -smp 2 -m "$memory"
		-nodefaults -no-reboot -display none
		-kernel "$obj/arch/x86/boot/bzImage"
		-initrd "$obj/initramfs.cpio.gz")
}
# GUEST_CMDLINE adds to it (make run: guest.demo), and TESTS (names of
# guest/tests, space-separated) picks the guest tests to run.
append() {
	local tests=
	[ -z "${TESTS:-}" ] || tests="guest.tests=$(echo "$TESTS" | xargs | tr ' ' ,)"
	# No AVC message lost for want of room in the audit queue.
	echo "console=ttyS0 panic=-1 audit_backlog_limit=8192 guest.test_timeout=$test_limit ${GUEST_CMDLINE:-} $tests $*"
}

# KVM only where a boot under it really reaches init; the verdict is kept.
# SHOW=1 does not probe: without a verdict, it shows TCG.
accel() {
	local cache=$BUILD/accel
	if [ -n "${SHOW:-}" ] && [ ! -f "$cache" ]; then
		echo tcg
		return
	fi
	if [ ! -f "$cache" ]; then
		echo tcg >"$cache"
		set_qemu kvm
		if [ -r /dev/kvm ] && [ -w /dev/kvm ] &&
			timeout -k 5 30 "${qemu[@]}" -append "$(append guest.probe)" \
				-serial stdio 2>/dev/null | grep -q 'guest: probe ok'; then
			echo kvm >"$cache"
		fi
		say "QEMU accelerator: $(cat "$cache") (probed; delete $cache to probe again)" >&2
	fi
	cat "$cache"
}

# The guest's disks, new each boot: /dev/vda the NFS export, /dev/vdb the
# cache, /dev/vdc a cache too small for the data (guest/lib/nfs.sh,
# guest/tests/nfs-full.t); on the cluster's machines, /dev/vda only, the
# export or the cache.  Fully initialised, so that no background ext4
# initialisation runs during the tests.
disks=()
for disk in $sizes; do
	img=$obj/${disk%%:*}${role:+-cluster-$role}.img
	if [ "$mode" != --after-reboot ] && [ -z "${SHOW:-}" ]; then
		rm -f "$img"
		truncate -s "${disk#*:}" "$img"
		mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$img"
	fi
	disks+=(-drive "file=$img,if=virtio,format=raw")
done

accel=$(accel)
set_qemu "$accel"
qemu+=("${disks[@]}" "${nics[@]}")
if [ "$mode" = --shell ]; then
	console=(-chardev "stdio,id=con,mux=on,logfile=$console_log,logappend=on"
		-serial chardev:con -mon chardev=con)
	args=$(append guest.shell)
	# In the foreground, so that QEMU may read the terminal.
	limit=(--foreground "${SHELL_TIMEOUT:-3600}")
else
	console=(-chardev "file,id=con,path=$console_log,append=on" -serial chardev:con)
	if [ -n "$role" ]; then
		args=$(append "guest.cluster=$role")
	elif [ -n "$logs" ]; then
		args=$(append "guest.${mode#--}")
	elif [ "$mode" = --bench ]; then
		args=$(append guest.bench)
	else
		args=$(append)
	fi
	limit=(-k 10 "$timeout")
fi
# scripts/cluster.sh stops a cluster's machine by its pid.
[ -z "$role" ] || console+=(-pidfile "$obj/qemu$logs.pid")

command=(timeout "${limit[@]}" "${qemu[@]}" -append "$args"
	"${console[@]}" -serial "file:$ktap_log")
if [ -n "${SHOW:-}" ]; then
	echo "# the $variant kernel's boot${mode:+ ($mode)}:"
	printf '%q ' "${command[@]}"
	echo
	exit 0
fi
mkdir -p "$obj"
rm -f "$console_log" "$ktap_log" "$failure_log"
# The console log starts with the command line, to rerun a boot by hand.
{
	printf '# QEMU command line: '
	printf '%q ' "${command[@]}"
	echo
} >"$console_log"

machine=
[ -z "$role" ] || machine=" as the cluster's $role"
say "booting the $variant kernel$machine under QEMU ($accel, limit ${limit[-1]}s)"
boot_status() { echo "guest: $(guest_status "$console_log" "$ktap_log")"; }
rc=0
# scripts/cluster.sh shows the progress of its three machines.
[ "$mode" = --shell ] || [ -n "$role" ] || progress_start boot_status
start=$(date +%s)
"${command[@]}" 2>"$obj/qemu-stderr$logs.log" || rc=$?
elapsed=$(($(date +%s) - start))
progress_stop
cat "$obj/qemu-stderr$logs.log" >&2
if [ "$rc" -ne 0 ]; then
	tail -n 40 "$console_log" >&2 || true
	if [ "$rc" -eq 124 ] || { [ "$rc" -eq 137 ] && [ "$elapsed" -ge "${limit[-1]}" ]; }; then
		echo "guest timed out after ${limit[-1]} s" >"$failure_log"
	elif [ "$rc" -gt 128 ]; then
		echo "QEMU was killed (signal $((rc - 128))) after $elapsed s, before the guest finished" >"$failure_log"
	else
		why=$(head -n 1 "$obj/qemu-stderr$logs.log")
		echo "QEMU exited with status $rc before the guest finished${why:+: $why}" >"$failure_log"
	fi
	die "$(cat "$failure_log") (console tail above)"
fi
