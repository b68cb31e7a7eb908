#!/bin/sh
# playground-throughput.sh [--quick]: throughput and p99 latency of GET /api/tasks (100 tasks, valid token) on
# b2c-playground, measured with wrk, against the same server's bare /health route in the same run; prints the ratio.
# --quick uses the debug build and one-second runs (CI keeps the script working with it); otherwise a release build
# and ten-second runs.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
duration=10s configuration=release
if [ "${1:-}" = "--quick" ]; then duration=1s configuration=debug; fi
command -v wrk >/dev/null || { echo "wrk is missing: meson-wrap/tools/install-deps.sh --tests" >&2; exit 1; }
work=$(mktemp -d /tmp/b2c-bench.XXXXXX)
if ! swift build -c "$configuration" --product b2c-playground >"$work/build.log" 2>&1; then
  cat "$work/build.log" >&2; exit 1
fi
bin=$(swift build -c "$configuration" --show-bin-path)

"$bin/b2c-playground" --port 0 --data "$work/data" --log-level warning >"$work/out" 2>"$work/err" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT INT TERM
tries=0
until grep -q "listening on" "$work/out" 2>/dev/null; do
  tries=$((tries + 1)); [ "$tries" -lt 150 ] || { cat "$work/err" >&2; exit 1; }; sleep 0.2
done
base=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$work/out")
tenant="$base/b2ctasks.onmicrosoft.com/B2C_1_SignUpOrSignIn"
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
i=0
while [ $i -lt 100 ]; do
  curl -sf -o /dev/null -H "Authorization: Bearer $token" "$base/api/tasks" -d "Text=task number $i"
  i=$((i + 1))
done

measure() { # URL [header] -> "requests/s p99"
  if [ -n "${2:-}" ]; then out=$(wrk -t2 -c16 -d"$duration" --latency -H "$2" "$1"); else out=$(wrk -t2 -c16 -d"$duration" --latency "$1"); fi
  rps=$(printf '%s\n' "$out" | awk '/Requests\/sec/ {print $2}')
  p99=$(printf '%s\n' "$out" | awk '$1 == "99%" {print $2}')
  errors=$(printf '%s\n' "$out" | awk '/Non-2xx/ {print $5}')
  [ -z "$errors" ] || { echo "wrk saw non-2xx answers: $out" >&2; exit 1; }
  echo "$rps $p99"
}
set -- $(measure "$base/health")
bare_rps=$1 bare_p99=$2
set -- $(measure "$base/api/tasks" "Authorization: Bearer $token")
tasks_rps=$1 tasks_p99=$2
ratio=$(awk -v a="$tasks_rps" -v b="$bare_rps" 'BEGIN { printf "%.3f", a / b }')
echo "b2c-playground ($configuration, wrk -t2 -c16 -d$duration):"
echo "  bare GET /health:                 $bare_rps requests/s, p99 $bare_p99"
echo "  GET /api/tasks (100 tasks, JWT):  $tasks_rps requests/s, p99 $tasks_p99"
echo "  ratio /api/tasks : /health = $ratio"
