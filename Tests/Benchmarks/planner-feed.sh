#!/bin/sh
# planner-feed.sh [--quick]: the task API v2's change feed for an account with 10 000 tasks in 20 lists (issue 46), on
# b2c-tasks-api over SQLite and over PostgreSQL: the first full sync (time, bytes), an unchanged feed read (bytes;
# on PostgreSQL also the task rows read by 1 000 of them, from pg_stat_user_tables), a read after 10 changes (bytes),
# the full sync's transfer against the floor of the same work (the account's tasks as JSON from the database's own
# tool: sqlite3 -json, psql's json_agg; issue 66: within 3×),
# and the throughput of an unchanged GET /api/v2/changes against /health on the same instance in the same run (wrk,
# alternated three times, medians; on PostgreSQL also with two instances behind nginx), as task-api-throughput.sh
# reports its ratios. --quick: the debug build, 200 tasks, 100 counted reads and one-second runs (CI keeps the script
# working with it); otherwise a release build and ten-second runs (about 6 minutes).
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
duration=10s configuration=release tasks=10000 reads=1000
if [ "${1:-}" = "--quick" ]; then duration=1s configuration=debug tasks=200 reads=100; fi
. "$repo/Tests/Benchmarks/task-api-setup.sh"

# feed NAME URL: seeds the account there and prints the sizes, then the feed's throughput against /health.
feed() {
  name=$1 url=$2
  echo "  $name:"
  python3 "$repo/Tests/Benchmarks/planner-feed.py" "$url" "$work/auth.header" "$tasks" 20 "$work/since" | sed 's/^/    /'
  since=$(cat "$work/since")
  # The floor (issue 66): the same rows as JSON from the database's own tool, the fastest of three, and the feed's
  # full transfer against it.
  floor=$(floor_ms "$name")
  case $name in *SQLite*) floor_tool="sqlite3 -json" ;; *) floor_tool="psql, json_agg" ;; esac
  printf '    the floor, the tasks as JSON from the database (%s): %s ms; the feed'"'"'s transfer %s ms: ratio %s\n' \
    "$floor_tool" "$floor" "$(cat "$work/since.transfer")" "$(ratio "$(cat "$work/since.transfer")" "$floor")"
  unchanged "unchanged feed read" "$url"
}

# unchanged LABEL URL: the throughput of an unchanged feed read (since $since) against /health's at URL, alternated
# three times, medians.
unchanged() {
  label=$1 at=$2 healths="" feeds="" ratios=""
  for round in 1 2 3; do
    set -- $(measure "$at/health") $(measure "$at/api/v2/changes?since=$since" auth)
    healths="$healths $1" feeds="$feeds $3" ratios="$ratios $(ratio "$3" "$1")"
  done
  printf '    %s: %s req/s against /health %s req/s: ratio %s (%s)\n' \
    "$label" "$(median $feeds)" "$(median $healths)" "$(median $ratios)" "$(echo $ratios | tr ' ' '/')"
}

# floor_ms NAME: the fastest of three reads of the account's tasks as JSON by the database's own command-line tool
# (sqlite3 -json; psql's json_agg for PostgreSQL), in milliseconds.
floor_ms() {
  best=""
  for round in 1 2 3; do
    started=$(date +%s%N)
    case $1 in
      *SQLite*)
        sqlite3 -json "$work/tasks.sqlite" "SELECT * FROM tasks WHERE listID IS NOT NULL" >/dev/null ;;
      *)
        "$pgbin/psql" -h 127.0.0.1 -p "$pgport" -U b2c -d tasks -At \
          -c "SELECT json_agg(t) FROM tasks t WHERE list_id IS NOT NULL" >/dev/null ;;
    esac
    took=$(( ($(date +%s%N) - started) / 1000 ))
    if [ -z "$best" ] || [ "$took" -lt "$best" ]; then best=$took; fi
  done
  awk -v us="$best" 'BEGIN { printf "%.1f", us / 1000 }'
}

echo "Task API v2 change feed ($configuration, $tasks tasks in 20 lists, wrk -t2 -c16 -d$duration; $(nproc) CPUs):"
api sqlite "$work/tasks.sqlite"
feed "b2c-tasks-api, SQLite" "$api_url"
stop_api "$!"
api postgres "$database_url"
feed "b2c-tasks-api, PostgreSQL" "$api_url"
first=$api_url
# A backend reports its statistics when idle for 10 s at the latest (PostgreSQL 15): wait before each count.
sleep 11
before=$(rows)
i=0
while [ $i -lt "$reads" ]; do
  curl -sf -o /dev/null -H @"$work/auth.header" "$api_url/api/v2/changes?since=$(cat "$work/since")"
  i=$((i + 1))
done
sleep 11
echo "    task rows read by $reads unchanged feed reads: $(($(rows) - before))"
# Two instances on the one database behind nginx (issue 66: the unchanged read with two instances), against /health
# through the same nginx.
api postgres2 "$database_url"
port=$(free_port)
balancer two "$port" "$api_url" "$first"
unchanged "two instances behind nginx, unchanged feed read" "http://127.0.0.1:$port"
