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
for tool in wrk nginx:/usr/sbin/nginx initdb:/usr/lib/postgresql/15/bin/initdb; do
  path=${tool#*:}
  command -v "$path" >/dev/null || { echo "${tool%%:*} is missing: meson-wrap/tools/install-deps.sh --tests" >&2; exit 1; }
done
pgbin=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")
work=$(mktemp -d /tmp/b2c-bench.XXXXXX)
chmod 755 "$work"
if ! swift build -c "$configuration" --product b2c-playground >"$work/build.log" 2>&1 \
  || ! swift build -c "$configuration" --product b2c-tasks-api >>"$work/build.log" 2>&1; then
  cat "$work/build.log" >&2; exit 1
fi
bin=$(swift build -c "$configuration" --show-bin-path)
pids=""
cleanup() {
  for pid in $pids; do kill "$pid" 2>/dev/null || true; done
  for pid in $pids; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

# wait_for FILE TEXT: waits (30 s at most) until FILE contains TEXT.
wait_for() {
  tries=0
  until grep -q "$2" "$1" 2>/dev/null; do
    tries=$((tries + 1)); [ "$tries" -lt 150 ] || { cat "$1" >&2; exit 1; }; sleep 0.2
  done
}
# free_port: a loopback port nothing listens on.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

"$bin/b2c-playground" --port 0 --data "$work/data" --log-level warning >"$work/playground.out" 2>&1 &
pids="$pids $!"
wait_for "$work/playground.out" "listening on"
playground=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$work/playground.out")
tenant="$playground/b2ctasks.onmicrosoft.com/B2C_1_SignUpOrSignIn"
client=6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10

# Sign in as the demo user the way a browser does: authorize page, form post, code, token.
page=$(curl -sf -c "$work/jar" "$tenant/oauth2/v2.0/authorize?client_id=$client&response_type=code&redirect_uri=urn%3Aietf%3Awg%3Aoauth%3A2.0%3Aoob&scope=openid%20$client")
tx=$(printf '%s' "$page" | sed -n 's/.*name="tx" value="\([^"]*\)".*/\1/p' | head -n 1)
location=$(curl -s -b "$work/jar" -o /dev/null -w '%{redirect_url}' "$tenant/SelfAsserted" \
  --data-urlencode "tx=$tx" -d step=signin --data-urlencode email=ann@example.com --data-urlencode password=Tasks-Demo-1)
code=$(printf '%s' "$location" | sed -n 's/.*code=\([^&]*\).*/\1/p')
token=$(curl -sf "$tenant/oauth2/v2.0/token" -d grant_type=authorization_code -d client_id=$client \
  --data-urlencode "code=$code" --data-urlencode redirect_uri=urn:ietf:wg:oauth:2.0:oob \
  | sed -n 's/.*"access_token":"\([^"]*\)".*/\1/p')
[ -n "$token" ] || { echo "could not sign in" >&2; exit 1; }
# The token goes to curl and wrk in a header file and a Lua script, never on a command line.
printf 'Authorization: Bearer %s\n' "$token" >"$work/auth.header"
printf 'wrk.headers["Authorization"] = "Bearer %s"\n' "$token" >"$work/auth.lua"
chmod 600 "$work/auth.header" "$work/auth.lua"

# PostgreSQL of the benchmark's own (as the postgres user when run as root: it refuses root).
mkdir "$work/pg"
if [ "$(id -u)" -eq 0 ]; then chown postgres:postgres "$work/pg"; as_owner="setpriv --reuid=postgres --regid=postgres --init-groups --"; else as_owner=""; fi
$as_owner "$pgbin/initdb" -D "$work/pg/data" -U b2c -A trust -E UTF8 --locale=C --no-sync >"$work/initdb.log" 2>&1
pgport=$(free_port)
$as_owner "$pgbin/postgres" -D "$work/pg/data" -p "$pgport" -k "$work/pg" -c listen_addresses=127.0.0.1 \
  -c max_connections=200 >"$work/postgres.log" 2>&1 &
pids="$pids $!"
wait_for "$work/postgres.log" "ready to accept connections"
"$pgbin/createdb" -h 127.0.0.1 -p "$pgport" -U b2c tasks
database_url="postgres://b2c@127.0.0.1:$pgport/tasks"

# api NAME DATABASE [OPTION…]: starts b2c-tasks-api on DATABASE; sets $api_url.
api() {
  name=$1 database=$2
  shift 2
  "$bin/b2c-tasks-api" --port 0 --database "$database" --issuer-metadata "$tenant/v2.0/.well-known/openid-configuration" \
    --audience "$client" --log-level warning "$@" >"$work/$name.out" 2>&1 &
  pids="$pids $!"
  wait_for "$work/$name.out" "listening on"
  api_url=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$work/$name.out")
}
# seed URL: Ann gets 100 tasks there (the PostgreSQL instances share them).
seed() {
  i=0
  while [ $i -lt 100 ]; do
    curl -sf -o /dev/null -H @"$work/auth.header" "$1/api/tasks" -d "Text=task number $i"
    i=$((i + 1))
  done
}
# measure URL [auth]: "requests/s p99-ms" from wrk (two threads, 16 connections).
measure() {
  if [ -n "${2:-}" ]; then script="-s $work/auth.lua"; else script=""; fi
  # shellcheck disable=SC2086
  out=$(wrk -t2 -c16 -d"$duration" --latency $script "$1")
  rps=$(printf '%s\n' "$out" | awk '/Requests\/sec/ {print $2}')
  # p99 in milliseconds (wrk writes us, ms or s).
  p99=$(printf '%s\n' "$out" | awk '$1 == "99%" { v = $2 + 0; u = $2; sub(/^[0-9.]+/, "", u)
    printf "%.2f", (u == "us" ? v / 1000 : (u == "s" ? v * 1000 : v)) }')
  errors=$(printf '%s\n' "$out" | awk '/Non-2xx/ {print $5}')
  [ -z "$errors" ] || { echo "wrk saw non-2xx answers: $out" >&2; exit 1; }
  echo "$rps $p99"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
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
kill "$!"
api sqlite-uncached "$work/tasks.sqlite" --list-cache 0
compare "b2c-tasks-api, SQLite, no list cache" "$api_url"
kill "$!"
api postgres-uncached "$database_url" --list-cache 0
seed "$api_url"
compare "b2c-tasks-api, PostgreSQL, no list cache" "$api_url"
kill "$!"
api postgres1 "$database_url"
first=$api_url
compare "b2c-tasks-api, PostgreSQL" "$first"

# One instance behind nginx, then two (the second on the same database), in the same run.
api postgres2 "$database_url"
second=$api_url
balancer() { # NAME PORT UPSTREAM...
  name=$1 port=$2
  shift 2
  {
    echo "worker_processes 1; error_log $work/$name.log warn; pid $work/$name.pid; events { worker_connections 1024; }"
    echo "http { access_log off; proxy_max_temp_file_size 0; proxy_buffers 16 16k; upstream tasks {"
    for upstream in "$@"; do echo "  server ${upstream#http://};"; done
    echo "  keepalive 32; }"
    echo "  server { listen 127.0.0.1:$port; location / { proxy_pass http://tasks; proxy_http_version 1.1;"
    echo "    proxy_set_header Connection \"\"; } } }"
  } >"$work/$name.conf"
  /usr/sbin/nginx -p "$work" -c "$work/$name.conf" -e stderr -g "daemon off;" 2>"$work/$name.err" &
  pids="$pids $!"
  tries=0
  until curl -sf -o /dev/null "http://127.0.0.1:$port/health"; do
    tries=$((tries + 1)); [ "$tries" -lt 150 ] || { cat "$work/$name.err" >&2; exit 1; }; sleep 0.2
  done
}
one_port=$(free_port)
balancer one "$one_port" "$first"
two_port=$(free_port)
balancer two "$two_port" "$first" "$second"
set -- $(measure "http://127.0.0.1:$one_port/api/tasks" auth) $(measure "http://127.0.0.1:$two_port/api/tasks" auth)
echo "  nginx + PostgreSQL, GET /api/tasks: one instance $1 req/s (p99 $2 ms), two instances $3 req/s (p99 $4 ms):" \
  "two : one = $(ratio "$3" "$1")"
