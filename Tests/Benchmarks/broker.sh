#!/bin/sh
# broker.sh [--quick]: GetToken from the sign-in broker on a warm broker (token still fresh), against reading the
# session from the keyring directly (the Secret Service's SearchItems and GetSecrets, what libsecret does), in one
# run and one client process, alternated in rounds; then the broker's resident memory while idle.
#   Prints each side's median and p99 latency and the broker's p99 as a ratio of the keyring's; the target is a
#   p99 of at most 5 ms. 2 000 calls of each (--quick: 200, with the debug build in .build-prefix-test/).
# The broker runs as D-Bus would start it (b2c-tasks --gapplication-service), with Ann signed in through
# b2c-tasks-cli and the measuring script allowed first (Allow clicked on the broker's question through AT-SPI).
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. "$repo/Tests/Benchmarks/in-desktop.sh"
calls=2000 prefix="$repo/.build-prefix-bench" quick=false
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=true calls=200 prefix="$repo/.build-prefix-test" ;;
    *) echo "usage: $0 [--quick]" >&2; exit 2 ;;
  esac
  shift
done
[ "$quick" = true ] || meson-wrap/tools/dev-install.sh "$prefix" release >/dev/null
. "$repo/Tests/Benchmarks/environment.sh"
measure="$repo/Tests/Benchmarks/broker-measure.py"

BROWSER="$repo/Tests/TasksTestSupport/scripted-browser.sh" B2C_TEST_EMAIL=ann@example.com \
  B2C_TEST_PASSWORD=Tasks-Demo-1 "$prefix/bin/b2c-tasks-cli" sign-in >"$work/cli.out" 2>&1 ||
  { cat "$work/cli.out" >&2; exit 1; }
"$prefix/bin/b2c-tasks" --gapplication-service >"$work/broker.out" 2>&1 &
broker=$!
trap 'kill $broker $playground 2>/dev/null || true; "$repo/Tests/remove-tree.sh" "$work"' EXIT INT TERM
/usr/bin/python3 "$measure" allow "$broker" "$repo/Tests/TasksAppUITests/atspi_driver.py"
# The broker measured is a new one, as D-Bus starts it for an app allowed before: the question's window (GTK's
# renderer, fonts) would otherwise be counted in its idle memory.
kill $broker
wait $broker || true
"$prefix/bin/b2c-tasks" --gapplication-service >"$work/broker.out" 2>&1 &
broker=$!
/usr/bin/python3 "$measure" measure "$calls" "bench.$$"
# Idle: the calls are over and the broker waits for the next (its five-minute linger).
/usr/bin/python3 "$measure" settle
awk '/^(VmRSS|RssAnon|RssFile|RssShmem)/ { rss[$1] = $2 }
  END { printf "broker idle: %d KiB resident (anonymous %d, files %d, shared %d)\n",
    rss["VmRSS:"], rss["RssAnon:"], rss["RssFile:"], rss["RssShmem:"] }' "/proc/$broker/status"
