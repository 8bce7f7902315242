#!/bin/bash
# Boot one machine under QEMU: one boot of guest/boots (the first by
# default) of one kernel variant, with its initramfs, memory and disks, and
# its time limit: a hung guest is killed.  The accelerator is
# scripts/accel.sh's, the command line's start common.sh's qemu_command.  The console goes to the boot's
# console log (build/obj-VARIANT/console-BOOT.log, the first boot's
# console.log; and to the terminal with --shell), after the QEMU command
# line; the KTAP of what the guest runs to its ktap log.  A boot that times
# out, or whose QEMU fails, exits non-zero with the cause in its failure
# log, which scripts/report.py reports.
#   qemu.sh VARIANT [BOOT]   boot, run what the boot runs, power off
#   qemu.sh VARIANT [BOOT] --shell
#                            the same, then a shell on this terminal
#   SHOW=1                   print the command line, and boot nothing
#   MACHINE_NICS="ARG..."    QEMU's arguments for the machine's NICs
#                            (scripts/cluster.sh)
#   BOOT_TIMEOUT=S           the limit, instead of the boot's in guest/boots
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

variant=${1:?usage: qemu.sh VARIANT [BOOT] [--shell]}
shift
boot=$(first_boot)
shell=
for arg; do
	case "$arg" in
	--shell) shell=1 ;;
	*)
		boot_field "$arg" name >/dev/null || die "no boot '$arg' in guest/boots"
		boot=$arg
		;;
	esac
done
obj=$(objdir "$variant")
console_log=$(boot_log "$obj" console "$boot")
ktap_log=$(boot_log "$obj" ktap "$boot")
failure_log=$(boot_log "$obj" failure "$boot")
memory=$(boot_field "$boot" memory)
# The time limits, stated here only.  A boot's is its row's (the debug
# kernel's KASAN under TCG makes its boots twice as long); a shell is given
# an hour.  Each guest test has its own (guest/run-tests enforces it): the
# debug kernel's kmemleak and KASAN make the slowest, selinux-debian, take
# some 5 minutes.  A boot that runs one test gives it the boot's time: a
# cluster client's serves the server for the whole boot, and a directory of
# one test (small-memory's) is the boot's reason.
boot_limit=$(boot_field "$boot" limit)
test_limit=240
if [ "$variant" = debug ]; then
	boot_limit=$((boot_limit * 2))
	test_limit=600
fi
runs=$(boot_field "$boot" runs)
if [ "$runs" = cluster ] ||
	[ "$(find "$ROOT/guest/$runs" -name '*.t' 2>/dev/null | wc -l)" -eq 1 ]; then
	test_limit=$boot_limit
fi
timeout=${BOOT_TIMEOUT:-$boot_limit}
read -ra nics <<<"${MACHINE_NICS:-}"

# The kernel command line: GUEST_CMDLINE adds to it (make run:
# guest.demo), and TESTS (names of guest/tests, space-separated) picks the
# guest tests to run.
append() {
	local tests=
	[ -z "${TESTS:-}" ] || tests="guest.tests=$(echo "$TESTS" | xargs | tr ' ' ,)"
	echo "$QEMU_APPEND guest.boot=$boot guest.test_timeout=$test_limit ${GUEST_CMDLINE:-} $tests $*"
}

# The guest's disks, /dev/vda, vdb, ... (guest/boots): new each boot, fully
# initialised, so that no background ext4 initialisation runs during the
# tests; or those of the boot before, kept.
disks_of=$boot
if [ "$(boot_field "$boot" disks)" = kept ]; then
	disks_of=$(boot_names | grep -x -B 1 -e "$boot" | head -n 1)
fi
# A disk named "system" is a Debian system (scripts/debian-image.sh) made
# for the boot; the boot starts the kernel and initrd of its /boot.
disks=()
system=
for disk in $(boot_field "$disks_of" disks | tr , ' '); do
	img=$obj/${disk%%:*}-$disks_of.img
	[ "${disk%%:*}" != system ] || system=$img
	if [ "$disks_of" = "$boot" ] && [ -z "${SHOW:-}" ]; then
		mkdir -p "$obj"
		if [ "$img" = "$system" ]; then
			"$ROOT/scripts/debian-image.sh" "$variant" "$img" "${disk#*:}" "$boot"
		else
			rm -f "$img"
			truncate -s "${disk#*:}" "$img"
			mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$img"
		fi
	fi
	disks+=(-drive "file=$img,if=virtio,format=raw")
done
boot_files=()
if [ -n "$system" ]; then
	# The image's own kernel and initrd (of the release debian-image.sh
	# installed), taken out of it without mounting it; the system's root is
	# the first disk.  audit=1: the kernel holds the audit records made
	# before auditd starts, and gives them to it.  security=selinux: the
	# system runs SELinux whatever the kernel lists first (Debian's kernel,
	# the stock variant's, lists AppArmor).
	boot_files=("$obj/vmlinuz-$boot" "$obj/initrd-$boot")
	if [ -z "${SHOW:-}" ]; then
		release=$(cat "$obj/debian-system/release")
		rm -f "${boot_files[@]}"
		debugfs -R "dump /boot/vmlinuz-$release ${boot_files[0]}" "$system" 2>/dev/null
		debugfs -R "dump /boot/initrd.img-$release ${boot_files[1]}" "$system" 2>/dev/null
		if [ ! -s "${boot_files[0]}" ] || [ ! -s "${boot_files[1]}" ]; then
			die "no kernel $release and initrd in /boot of ${system#"$ROOT"/}"
		fi
	fi
	[ "${disks[1]}" = "file=$system,if=virtio,format=raw" ] ||
		die "a Debian system must be a boot's first disk"
	GUEST_CMDLINE="root=/dev/vda ro audit=1 security=selinux ${GUEST_CMDLINE:-}"
fi

accel=$("$ROOT/scripts/accel.sh" "$variant")
qemu_command "$accel" "$memory" "$obj" "${boot_files[@]}"
qemu+=("${disks[@]}" "${nics[@]}")
if [ -n "$shell" ]; then
	console=(-chardev "stdio,id=con,mux=on,logfile=$console_log,logappend=on"
		-serial chardev:con -mon chardev=con)
	args=$(append guest.shell)
	# In the foreground, so that QEMU may read the terminal.
	limit=(--foreground "${SHELL_TIMEOUT:-3600}")
else
	console=(-chardev "file,id=con,path=$console_log,append=on" -serial chardev:con)
	args=$(append)
	limit=(-k 10 "$timeout")
fi
# scripts/cluster.sh stops a machine by its pid.
console+=(-pidfile "$obj/qemu-$boot.pid")

command=(timeout "${limit[@]}" "${qemu[@]}" -append "$args"
	"${console[@]}" -serial "file:$ktap_log")
if [ -n "${SHOW:-}" ]; then
	echo "# the $variant kernel's boot $boot:"
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

say "booting the $variant kernel, boot $boot, under QEMU ($accel, limit ${limit[-1]}s)"
boot_status() { echo "guest: $(guest_status "$console_log" "$ktap_log")"; }
rc=0
# scripts/cluster.sh shows the progress of its machines.
[ -n "$shell" ] || [ "$(boot_field "$boot" step)" = cluster ] || progress_start boot_status
start=$(date +%s)
"${command[@]}" 2>"$obj/qemu-stderr-$boot.log" || rc=$?
elapsed=$(($(date +%s) - start))
progress_stop
cat "$obj/qemu-stderr-$boot.log" >&2
if [ "$rc" -ne 0 ]; then
	tail -n 40 "$console_log" >&2 || true
	if [ "$rc" -eq 124 ] || { [ "$rc" -eq 137 ] && [ "$elapsed" -ge "${limit[-1]}" ]; }; then
		why="guest timed out after ${limit[-1]} s"
	elif [ "$rc" -gt 128 ]; then
		why="QEMU was killed (signal $((rc - 128))) after $elapsed s, before the guest finished"
	else
		why=$(head -n 1 "$obj/qemu-stderr-$boot.log")
		why="QEMU exited with status $rc before the guest finished${why:+: $why}"
	fi
	boot_failed "$obj" "$boot" "$why"
	die "$why (console tail above)"
fi
