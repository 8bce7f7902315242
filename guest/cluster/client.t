#!/bin/sh
# A cluster client's test (scripts/cluster.sh).  It binds its cache
# (cachefilesd on its disk), then its agent runs the server's commands
# (guest/lib/cluster.sh) until the server says it is done.  The server must
# have mounted the export with fsc, and its last command must have taken
# the mount and the cache down cleanly.
# shellcheck source=guest/lib/cluster.sh
. /lib/guest/cluster.sh
plan 4
cache_start >>"$LOG" 2>&1
ok $? cache_bound || sed 's/^/# /' "$LOG"
nc -ll -p "$AGENT_PORT" -e /cluster/agent &
echo "$!" >/tmp/agent.pid
wait "$!"
diag "$(wc -l <"$AGENT_LOG" 2>/dev/null || echo 0) commands served"
# The mount as it was, with fsc, and a cache behind it (FSC yes).
diag "the fsc mount: $(cat "$FSC_MOUNT" 2>/dev/null)"
grep -q " $FSC nfs4 .*,fsc[,= ].* FSC=yes\$" "$FSC_MOUNT" 2>/dev/null
ok $? mounted
expect_eq "the server's last command" agent_done "$(tail -n 1 "$AGENT_LOG" 2>/dev/null)"
ok $? served_until_done
expect_eq "status of unmounting and stopping the cache" 0 "$(cat /tmp/agent-done 2>/dev/null)"
ok $? taken_down
finish
