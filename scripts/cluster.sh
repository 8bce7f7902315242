#!/bin/bash
# The cluster's boot: three machines of one kernel variant, each a QEMU of
# its own (scripts/qemu.sh --cluster-ROLE): an NFS server and two caching
# clients, client-a and client-b, each joined to the server by a link of its
# own over the host's loopback.  The server runs the tests of
# guest/tests/cluster and drives the clients through their agents
# (guest/lib/cluster.sh); each client reports its own KTAP.  Every machine
# has its time limit (qemu.sh); a client still running a minute after the
# server powered off is stopped, and that fails the run.
#   cluster.sh VARIANT
#   SHOW=1                 print the three QEMU command lines, boot nothing
#   KILL_CLIENT=client-a   (or client-b) kill that client's QEMU once the
#                          server's first test has run for a few seconds:
#                          the run must fail, naming it
set -eu
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/common.sh"

variant=${1:?usage: cluster.sh VARIANT}
obj=$(objdir "$variant")
roles="server client-a client-b"
case "${KILL_CLIENT:-client-a}" in
client-a | client-b) ;;
*) die "KILL_CLIENT: client-a or client-b, not '$KILL_CLIENT'" ;;
esac

# Four UDP ports free on the loopback, two a link (scripts/qemu.sh).
CLUSTER_PORTS=$(python3 -c '
import socket
socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(4)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))')
export CLUSTER_PORTS

if [ -n "${SHOW:-}" ]; then
	for role in $roles; do
		"$ROOT/scripts/qemu.sh" "$variant" "--cluster-$role"
	done
	exit 0
fi

log() { # ROLE KIND: a machine's log
	echo "$obj/$2-cluster-$1.log"
}
# Where qemu.sh writes a machine's QEMU pid.
pidfile() { # ROLE
	echo "$obj/qemu-cluster-$1.pid"
}
rm -f "$obj"/*-cluster-*.log "$obj"/qemu-cluster-*.pid
# Each machine's qemu.sh, its output (its messages, the console's tail when
# it fails) in cluster-ROLE.out.
declare -A pid
for role in $roles; do
	"$ROOT/scripts/qemu.sh" "$variant" "--cluster-$role" >"$obj/cluster-$role.out" 2>&1 &
	pid[$role]=$!
done
say "booted the cluster of the $variant kernel: server, client-a and client-b (output in ${obj#"$ROOT"/}/cluster-*.out)"

running() { # ROLE
	kill -0 "${pid[$1]}" 2>/dev/null
}
# shellcheck disable=SC2317 # called by progress_start
cluster_status() {
	local role state=
	for role in $roles; do
		if running "$role"; then
			state="$state; $role: $(guest_status "$(log "$role" console)" "$(log "$role" ktap)")"
		else
			state="$state; $role: off"
		fi
	done
	echo "${state#; }"
}
progress_start cluster_status

if [ -n "${KILL_CLIENT:-}" ]; then
	(
		while running server &&
			! grep -q '^guest: running test' "$(log server console)" 2>/dev/null; do
			sleep 1
		done
		sleep 10
		if kill -KILL "$(cat "$(pidfile "$KILL_CLIENT")" 2>/dev/null)" 2>/dev/null; then
			say "KILL_CLIENT: killed $KILL_CLIENT's QEMU"
		fi
	) &
fi

# A machine's end: qemu.sh says why in its failure log, unless it failed
# before booting.
ended() { # ROLE
	local rc=0
	wait "${pid[$1]}" || rc=$?
	[ "$rc" -ne 0 ] || return 0
	[ -s "$(log "$1" failure)" ] ||
		echo "scripts/qemu.sh exited with status $rc: $(tail -n 1 "$obj/cluster-$1.out")" >"$(log "$1" failure)"
	return 1
}
status=0
ended server || status=1
# The clients power off once the server has told them it is done.
for role in client-a client-b; do
	waited=0
	while running "$role" && [ "$waited" -lt 60 ]; do
		sleep 1
		waited=$((waited + 1))
	done
	if running "$role"; then
		kill -KILL "$(cat "$(pidfile "$role")")" 2>/dev/null || true
		wait "${pid[$role]}" || true
		echo "still running a minute after the server powered off: stopped" >"$(log "$role" failure)"
		status=1
	else
		ended "$role" || status=1
	fi
done
progress_stop
for role in $roles; do
	[ ! -s "$(log "$role" failure)" ] || sed "s/^/$role: /" "$obj/cluster-$role.out" >&2
done
# The demo (make cluster): what the server showed.
tr -d '\r' <"$(log server console)" | grep -a '^demo:' || true
exit "$status"
