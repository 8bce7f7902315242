#!/bin/bash
# The cluster's boot: its machines (the boots of step "cluster" in
# guest/boots), each a QEMU of its own (scripts/qemu.sh VARIANT BOOT): an
# NFS server and two caching clients, client-a and client-b, each joined to
# the server by a link of its own over the host's loopback.  The server runs
# the tests of guest/tests/cluster and drives the clients through their
# agents (guest/lib/cluster.sh); each client reports its own KTAP.  Every
# machine has its time limit (guest/boots); a client still running a minute
# after the server powered off is stopped, and that fails the run.
#   cluster.sh VARIANT
#   SHOW=1                 print the QEMU command lines, boot nothing
#   KILL_CLIENT=client-a   (or client-b) kill that client's QEMU once the
#                          server's first test has run for a few seconds:
#                          the run must fail, naming it
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

variant=${1:?usage: cluster.sh VARIANT}
obj=$(objdir "$variant")
machines=$(boots_of_step cluster)
server=cluster-server
clients=$(echo "$machines" | grep -v -x -e "$server")
case "${KILL_CLIENT:-client-a}" in
client-a | client-b) ;;
*) die "KILL_CLIENT: client-a or client-b, not '$KILL_CLIENT'" ;;
esac

# The links: client-a's is link 1, client-b's link 2, each a NIC at each
# end joined by QEMU over the host's loopback (UDP, on ports free now).  A
# NIC's MAC gives the guest its address (guest/lib/cluster.sh):
# 52:54:00:98:0L:0H is 10.98.L.H, H 1 on the server and 2 on the client.
read -r port1s port1c port2s port2c <<<"$(python3 -c '
import socket
socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(4)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))')"
nic() { # LINK HOST LOCAL-PORT REMOTE-PORT
	printf ' %s %s' -netdev "dgram,id=link$1,local.type=inet,local.host=127.0.0.1,local.port=$3,remote.type=inet,remote.host=127.0.0.1,remote.port=$4" \
		-device "virtio-net-pci,netdev=link$1,mac=52:54:00:98:0$1:0$2"
}
nics_of() { # MACHINE
	case "$1" in
	cluster-server) nic 1 1 "$port1s" "$port1c" && nic 2 1 "$port2s" "$port2c" ;;
	cluster-client-a) nic 1 2 "$port1c" "$port1s" ;;
	cluster-client-b) nic 2 2 "$port2c" "$port2s" ;;
	*) die "no links for the cluster's machine $1" ;;
	esac
}
# One machine's boot.
boot() { # MACHINE
	MACHINE_NICS=$(nics_of "$1") "$ROOT/scripts/qemu.sh" "$variant" "$1"
}

if [ -n "${SHOW:-}" ]; then
	for machine in $machines; do
		boot "$machine"
	done
	exit 0
fi

log() { # MACHINE KIND
	boot_log "$obj" "$2" "$1"
}
pidfile() { # MACHINE: where qemu.sh writes its QEMU's pid
	echo "$obj/qemu-$1.pid"
}
for machine in $machines; do
	rm -f "$(log "$machine" console)" "$(log "$machine" ktap)" \
		"$(log "$machine" failure)" "$(pidfile "$machine")"
done
# Each machine's qemu.sh, its output (its messages, the console's tail when
# it fails) in BOOT.out.
declare -A pid
for machine in $machines; do
	boot "$machine" >"$obj/$machine.out" 2>&1 &
	pid[$machine]=$!
done
say "booted the cluster of the $variant kernel: $(echo "$machines" | xargs) (output in ${obj#"$ROOT"/}/cluster-*.out)"

running() { # MACHINE
	kill -0 "${pid[$1]}" 2>/dev/null
}
# shellcheck disable=SC2317 # called by progress_start
cluster_status() {
	local machine state=
	for machine in $machines; do
		if running "$machine"; then
			state="$state; ${machine#cluster-}: $(guest_status "$(log "$machine" console)" "$(log "$machine" ktap)")"
		else
			state="$state; ${machine#cluster-}: off"
		fi
	done
	echo "${state#; }"
}
progress_start cluster_status

if [ -n "${KILL_CLIENT:-}" ]; then
	(
		while running "$server" &&
			! grep -q "^$RUNNING_TEST" "$(log "$server" console)" 2>/dev/null; do
			sleep 1
		done
		sleep 10
		if kill -KILL "$(cat "$(pidfile "cluster-$KILL_CLIENT")" 2>/dev/null)" 2>/dev/null; then
			say "KILL_CLIENT: killed $KILL_CLIENT's QEMU"
		fi
	) &
fi

# A machine's end: qemu.sh says why in its failure log, unless it failed
# before booting.
ended() { # MACHINE
	local rc=0
	wait "${pid[$1]}" || rc=$?
	[ "$rc" -ne 0 ] || return 0
	[ -s "$(log "$1" failure)" ] ||
		boot_failed "$obj" "$1" "scripts/qemu.sh exited with status $rc: $(tail -n 1 "$obj/$1.out")"
	return 1
}
status=0
ended "$server" || status=1
# The clients power off once the server has told them it is done.
for machine in $clients; do
	waited=0
	while running "$machine" && [ "$waited" -lt 60 ]; do
		sleep 1
		waited=$((waited + 1))
	done
	if running "$machine"; then
		kill -KILL "$(cat "$(pidfile "$machine")")" 2>/dev/null || true
		wait "${pid[$machine]}" || true
		boot_failed "$obj" "$machine" "still running a minute after the server powered off: stopped"
		status=1
	else
		ended "$machine" || status=1
	fi
done
progress_stop
for machine in $machines; do
	[ ! -s "$(log "$machine" failure)" ] || sed "s/^/${machine#cluster-}: /" "$obj/$machine.out" >&2
done
# The demo (make cluster): what the server showed.
tr -d '\r' <"$(log "$server" console)" | grep -a '^demo:' || true
exit "$status"
