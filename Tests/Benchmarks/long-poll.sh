#!/bin/sh
# long-poll.sh [--quick]: the change feed's long poll (issue 66) on b2c-tasks-api over SQLite (one instance) and over
# PostgreSQL (two instances on one database: the waiting requests on the one, the edits through the other, so that
# PostgreSQL's NOTIFY carries them): the service's resident memory idle and holding 1 000 waiting requests, and the
# time from an edit until the first and the last of its account's 32 waiting requests has it, against the edit's own
# round trip (long-poll.py). --quick: the debug build, 64 waiting requests and 3 edits (CI keeps the script
# working with it); otherwise a release build, 1 024 waiting requests and 20 edits.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
duration=1s configuration=release waiters=1024 edits=20
if [ "${1:-}" = "--quick" ]; then configuration=debug waiters=64 edits=3; fi
. "$repo/Tests/Benchmarks/task-api-setup.sh"
# The service keeps one descriptor per waiting request (as does the script).
ulimit -n "$(ulimit -H -n)"

pid_of() { echo "$pids" | awk '{ print $NF }'; }
echo "The change feed's long poll ($configuration, $waiters waiting requests, $edits edits; $(nproc) CPUs):"
api sqlite "$work/tasks.sqlite"
echo "  b2c-tasks-api, SQLite (one instance):"
python3 -u "$repo/Tests/Benchmarks/long-poll.py" "$tenant" "$client" "$waiters" "$edits" "$(pid_of)" "$api_url" \
  | sed 's/^/    /'
kill "$(pid_of)"
api postgres "$database_url"
waiting_url=$api_url waiting_pid=$(pid_of)
api postgres-2 "$database_url"
echo "  b2c-tasks-api, PostgreSQL (waiting on one instance, the edits through the other):"
python3 -u "$repo/Tests/Benchmarks/long-poll.py" "$tenant" "$client" "$waiters" "$edits" "$waiting_pid" "$waiting_url" \
  "$api_url" | sed 's/^/    /'
