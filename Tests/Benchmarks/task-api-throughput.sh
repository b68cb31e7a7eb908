#!/bin/sh
# task-api-throughput.sh [--quick]: throughput and p99 latency of GET /api/tasks (100 tasks, valid token), measured
# with wrk against the bare /health route of the same server in the same run, for each host of the task API:
# b2c-playground (SQLite), b2c-tasks-api on SQLite, b2c-tasks-api on PostgreSQL; then one against two b2c-tasks-api
# instances on one PostgreSQL behind nginx. Prints every figure and ratio. PostgreSQL (initdb into a temporary
# folder) and nginx run on private loopback ports. --quick uses the debug build and one-second runs (CI keeps the
# script working with it); otherwise a release build and ten-second runs. Each server's two routes are measured
# alternately three times; medians are printed (each ratio from one pair of neighbouring runs).
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
duration=10s configuration=release
if [ "${1:-}" = "--quick" ]; then duration=1s configuration=debug; fi
. "$repo/Tests/Benchmarks/task-api-setup.sh"
# seed URL: Ann gets 100 tasks there (the PostgreSQL instances share them).
seed() {
  i=0
  while [ $i -lt 100 ]; do
    curl -sf -o /dev/null -H @"$work/auth.header" "$1/api/tasks" -d "Text=task number $i"
    i=$((i + 1))
  done
}
# compare NAME URL: /api/tasks against /health on one server, alternated three times (the machine's speed drifts
# within a run); prints the medians and the median of the three ratios.
compare() {
  name=$1 url=$2 healths="" lists="" health_p99s="" list_p99s="" ratios=""
  for round in 1 2 3; do
    set -- $(measure "$url/health") $(measure "$url/api/tasks" auth)
    healths="$healths $1" health_p99s="$health_p99s $2" lists="$lists $3" list_p99s="$list_p99s $4"
    ratios="$ratios $(ratio "$3" "$1")"
  done
  printf '  %-42s /health %9s req/s (p99 %6sms)   /api/tasks %9s req/s (p99 %6sms)   ratio %s (%s)\n' \
    "$name" "$(median $healths)" "$(median $health_p99s)" "$(median $lists)" "$(median $list_p99s)" \
    "$(median $ratios)" "$(echo $ratios | tr ' ' '/')"
}

echo "Task API throughput ($configuration, wrk -t2 -c16 -d$duration, 100 tasks, a valid token; $(nproc) CPUs):"
seed "$playground"
compare "b2c-playground (in-process, SQLite)" "$playground"
# b2c-tasks-api answers an unchanged list from memory (one one-row query for the list's version); with
# --list-cache 0 it reads and encodes every task for every request, as after each change.
api sqlite "$work/tasks.sqlite"
seed "$api_url"
compare "b2c-tasks-api, SQLite" "$api_url"
stop_api "$!"
api sqlite-uncached "$work/tasks.sqlite" --list-cache 0
compare "b2c-tasks-api, SQLite, no list cache" "$api_url"
stop_api "$!"
api postgres-uncached "$database_url" --list-cache 0
seed "$api_url"
compare "b2c-tasks-api, PostgreSQL, no list cache" "$api_url"
stop_api "$!"
api postgres1 "$database_url"
first=$api_url
compare "b2c-tasks-api, PostgreSQL" "$first"

# One instance behind nginx, then two (the second on the same database), in the same run.
api postgres2 "$database_url"
second=$api_url
one_port=$(free_port)
balancer one "$one_port" "$first"
two_port=$(free_port)
balancer two "$two_port" "$first" "$second"
set -- $(measure "http://127.0.0.1:$one_port/api/tasks" auth) $(measure "http://127.0.0.1:$two_port/api/tasks" auth)
echo "  nginx + PostgreSQL, GET /api/tasks: one instance $1 req/s (p99 $2 ms), two instances $3 req/s (p99 $4 ms):" \
  "two : one = $(ratio "$3" "$1")"
