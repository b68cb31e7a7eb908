# task-api-setup.sh: what the task API benchmarks share, sourced after setting $repo, $configuration and $duration:
# builds b2c-playground and b2c-tasks-api, starts the playground, signs the demo user in as a browser does (the token
# in $work/auth.header and $work/auth.lua, never on a command line), starts a PostgreSQL of its own ($database_url,
# $pgbin, $pgport), and defines api, balancer, measure, ratio and median. Everything it starts stops at exit.
for tool in wrk nginx:/usr/sbin/nginx initdb:/usr/lib/postgresql/15/bin/initdb; do
  path=${tool#*:}
  command -v "$path" >/dev/null || { echo "${tool%%:*} is missing: meson-wrap/tools/install-deps.sh --tests" >&2; exit 1; }
done
pgbin=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")
work=$(mktemp -d /tmp/b2c-bench.XXXXXX)
chmod 755 "$work"
# With the flags meson's build gives (the two share .build/).
flags=$("$repo/meson-wrap/tools/swift-build.sh" --flags "$configuration")
# shellcheck disable=SC2086
if ! swift build -c "$configuration" $flags --product b2c-playground >"$work/build.log" 2>&1 \
  || ! swift build -c "$configuration" $flags --product b2c-tasks-api >>"$work/build.log" 2>&1; then
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
# stop_api PID: SIGTERM to an instance started by `api`, then waits for it to end (the next may open its file).
stop_api() {
  kill "$1"
  wait "$1" 2>/dev/null || true
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
# balancer NAME PORT UPSTREAM…: nginx on PORT, spreading requests over the UPSTREAM instances (kept-alive
# connections, as a deployment would).
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
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# rows: the task rows the benchmark's PostgreSQL has read so far (sequential and index fetches of the tasks table).
rows() {
  "$pgbin/psql" -h 127.0.0.1 -p "$pgport" -U b2c -d tasks -At -c "SELECT pg_stat_force_next_flush()" >/dev/null
  "$pgbin/psql" -h 127.0.0.1 -p "$pgport" -U b2c -d tasks -At \
    -c "SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) FROM pg_stat_user_tables WHERE relname = 'tasks'"
}
