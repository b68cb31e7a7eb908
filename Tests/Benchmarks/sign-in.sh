#!/bin/sh
# sign-in.sh [--quick]: how long b2c-tasks takes to finish a sign-in, as a ratio to the HTTP it needs, in one run.
#   b2c-tasks: from the web view intercepting B2C's redirect to the server's list shown, read from the app's own
#              debug log (G_MESSAGES_DEBUG=b2c-tasks prints both moments with GLib's timestamps), signing Ann (20
#              tasks) in by typing into the playground's page in the window, as a person does.
#   curl:      the same two round trips, timed by curl: the code exchanged at the token endpoint (PKCE), then
#              GET /api/tasks with the access token; each run with a fresh code from a scripted sign-in.
# Medians of 5 runs (--quick: one, with the debug build in .build-prefix-test/; CI runs it so to keep it working).
# --before PREFIX: also signs in with the b2c-tasks installed in PREFIX (an earlier commit), alternated with this one.
# Secrets (code, verifier, tokens) go to curl on its standard input, never in its arguments.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. "$repo/Tests/Benchmarks/in-desktop.sh"
runs=5 prefix="$repo/.build-prefix-bench" quick=false before=""
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=true runs=1 prefix="$repo/.build-prefix-test" ;;
    --before) before=$2; shift ;;
    *) echo "usage: $0 [--quick] [--before PREFIX]" >&2; exit 2 ;;
  esac
  shift
done
[ -z "$before" ] || [ -x "$before/bin/b2c-tasks" ] || { echo "no b2c-tasks in $before/bin" >&2; exit 2; }
[ "$quick" = true ] || meson-wrap/tools/dev-install.sh "$prefix" release >/dev/null
. "$repo/Tests/Benchmarks/environment.sh"
seed 20
client=6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10
policy_base="$base/b2ctasks.onmicrosoft.com/B2C_1_SignUpOrSignIn/oauth2/v2.0"
driver="$repo/Tests/TasksAppUITests/atspi_driver.py"

# fail MESSAGE: says what went wrong, with the last lines the app printed, and stops.
fail() {
  echo "sign-in.sh: $1" >&2
  tail -n 20 "$work/app.err" >&2 2>/dev/null
  exit 1
}
# until SECONDS COMMAND...: runs COMMAND every 0.1 s until it succeeds; fails after SECONDS, or at once when the app
# it waits on ($app) has exited.
until_ok() {
  deadline=$(($(date +%s) + $1)); shift
  until "$@" >/dev/null 2>&1; do
    kill -0 "$app" 2>/dev/null || fail "b2c-tasks exited while waiting for: $*"
    [ "$(date +%s)" -lt "$deadline" ] || fail "timed out waiting for: $*"
    sleep 0.1
  done
}
# painted: B2C's page is drawn in the window (the same check as the UI tests: the page area is not blank).
painted() {
  import -window root -crop 660x400+30+70 "$work/probe.png" &&
    [ "$(identify -format '%[fx:standard_deviation > 0.02]' "$work/probe.png")" = 1 ]
}
# ms HH:MM:SS.mmm → milliseconds since midnight.
ms() { echo "$1" | awk -F: '{ printf "%.0f", ($1 * 3600 + $2 * 60 + $3) * 1000 }'; }

# One sign-in in the b2c-tasks of PREFIX: prints the milliseconds from the interception to the list, and to the tokens kept (the
# code redeemed, the id_token checked against B2C's keys, the tokens in the keyring).
app_sign_in() {
  attempt=1
  # A key lost on the way to the page (the text typed into nothing, a Return before the password) leaves the page
  # waiting: the sign-in is tried again from the start, as a person would, up to three times.
  until app_sign_in_once "$1"; do
    [ $attempt -lt 3 ] || fail "the sign-in did not reach the list in 3 attempts"
    echo "sign-in.sh: attempt $attempt did not reach the list within 30 s; again" >&2
    attempt=$((attempt + 1))
  done
}
app_sign_in_once() {
  program=$1/bin/b2c-tasks
  secret-tool clear keychain-group "bench.$$" kind session 2>/dev/null || true  # signed out: the welcome page
  G_MESSAGES_DEBUG=b2c-tasks "$program" >"$work/app.err" 2>&1 &  # GLib prints debug lines on stdout
  app=$!
  until_ok 30 /usr/bin/python3 "$driver" press "$app" "push button" "Sign In"
  until_ok 30 /usr/bin/python3 "$driver" extents "$app" label "Sign in"  # B2C's page title, under the window's
  until_ok 30 painted
  window=$(xdotool search --onlyvisible --pid "$app" | tail -n 1)
  xdotool windowfocus --sync "$window"
  xdotool type --delay 10 ann@example.com
  xdotool key Tab
  xdotool type --delay 10 Tasks-Demo-1
  xdotool key Return
  deadline=$(($(date +%s) + 30))
  # (The lists shown: this version's planner, or the sample's list of a version before it, for --before.)
  until grep -qE "the server's list is shown|the service's lists are shown" "$work/app.err"; do
    kill -0 "$app" 2>/dev/null || fail "b2c-tasks exited while signing in"
    if [ "$(date +%s)" -ge "$deadline" ]; then
      kill "$app"
      wait "$app" 2>/dev/null || true
      return 1
    fi
    sleep 0.1
  done
  kill "$app"
  wait "$app" 2>/dev/null || true
  caught=$(sed -n 's/.*DEBUG: \([0-9:.]*\): sign-in: the redirect.*/\1/p' "$work/app.err" | tail -n 1)
  kept=$(sed -n 's/.*DEBUG: \([0-9:.]*\): sign-in: the tokens are checked.*/\1/p' "$work/app.err" | tail -n 1)
  shown=$(sed -nE "s/.*DEBUG: ([0-9:.]*): (tasks: the server's list is|planner: the service's lists are) shown.*/\1/p" \
    "$work/app.err" | tail -n 1)
  echo "$(($(ms "$shown") - $(ms "$caught"))) $(($(ms "$kept") - $(ms "$caught")))"
}

# One sign-in with curl: prints the milliseconds of the token request plus the first read of the change feed (what the
# app reads to show the lists), and of the token request.
curl_sign_in() {
  verifier=$(head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')
  challenge=$(printf '%s' "$verifier" | openssl dgst -sha256 -binary | base64 | tr '+/' '-_' | tr -d '=\n')
  jar="$work/cookies"
  rm -f "$jar"
  page=$(curl -s -c "$jar" -b "$jar" -L "$policy_base/authorize?client_id=$client&response_type=code&redirect_uri=urn%3Aietf%3Awg%3Aoauth%3A2.0%3Aoob&response_mode=query&scope=openid%20offline_access%20$client&state=bench&nonce=bench&code_challenge=$challenge&code_challenge_method=S256")
  field() { printf '%s' "$page" | sed -n "s/.*name=\"$1\" value=\"\([^\"]*\)\".*/\1/p" | head -n 1; }
  action=$(printf '%s' "$page" | sed -n 's/.*method="post" action="\([^"]*\)".*/\1/p' | head -n 1)
  code=$(curl -s -c "$jar" -b "$jar" -o /dev/null -D - "$base$action" --data-urlencode "tx=$(field tx)" \
    --data-urlencode "step=$(field step)" --data-urlencode email=ann@example.com --data-urlencode password=Tasks-Demo-1 |
    sed -n 's/^[Ll]ocation: .*[?&]code=\([^&[:space:]]*\).*/\1/p')
  [ -n "$code" ] || { echo "sign-in.sh: the scripted sign-in got no code" >&2; exit 1; }
  answer=$(printf 'data = "code=%s"\ndata = "code_verifier=%s"\n' "$code" "$verifier" |
    curl -s -K - -w '\n%{time_total}' "$policy_base/token" -d grant_type=authorization_code -d "client_id=$client" \
      --data-urlencode redirect_uri=urn:ietf:wg:oauth:2.0:oob --data-urlencode "scope=openid offline_access $client")
  token_s=$(printf '%s' "$answer" | tail -n 1)
  access=$(printf '%s' "$answer" | sed '$d' | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["access_token"])')
  list_s=$(printf 'header = "Authorization: Bearer %s"\n' "$access" |
    curl -s -K - -o /dev/null -w '%{time_total}' "$base/api/v2/changes")
  awk -v a="$token_s" -v b="$list_s" 'BEGIN { printf "%.0f %.0f\n", (a + b) * 1000, a * 1000 }'
}

: >"$work/app.runs"
: >"$work/before.runs"
: >"$work/curl.runs"
i=0
while [ $i -lt $runs ]; do
  app_sign_in "$prefix" >>"$work/app.runs"
  [ -z "$before" ] || app_sign_in "$before" >>"$work/before.runs"
  curl_sign_in >>"$work/curl.runs"
  i=$((i + 1))
done
app_ms=$(median "$work/app.runs" 1)
curl_ms=$(median "$work/curl.runs" 1)
echo "sign-in (medians of $runs): b2c-tasks from the intercepted redirect to the list ${app_ms} ms; curl, token + list ${curl_ms} ms"
echo "  of which to the tokens kept: b2c-tasks $(median "$work/app.runs" 2) ms; curl's token request $(median "$work/curl.runs" 2) ms"
awk -v a="$app_ms" -v b="$curl_ms" 'BEGIN { printf "sign-in ratio: %.2f× the raw round trips\n", a / (b > 0 ? b : 1) }'
if [ -n "$before" ]; then
  awk -v a="$app_ms" -v b="$(median "$work/before.runs" 1)" -v c="$(median "$work/app.runs" 2)" \
    -v d="$(median "$work/before.runs" 2)" 'BEGIN {
    printf "  before: %d ms to the list, %d ms to the tokens kept; after : before = %.2f×, %.2f×\n", b, d, a / b, c / d }'
fi
