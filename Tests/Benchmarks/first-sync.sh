#!/bin/sh
# first-sync.sh [--quick] [--prefix INSTALLED]: the CLI's first sync of 10 000 tasks in 20 lists (issue 66):
# `b2c-tasks-cli reminders --json` (its process, the keyring's session, every page of the change feed read and each
# task decoded, what has a reminder printed; the CLI keeps no copy) against the feed's transfer alone (every page read by first-sync.py, nothing decoded), alternated
# three times in one run, medians; target: within 1.5×. Release build installed into .build-prefix-bench/
# (--quick: the debug build in .build-prefix-test/ and 500 tasks; CI runs it so to keep it working). Runs its own
# Xvfb, D-Bus session and unlocked keyring.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. "$repo/Tests/Benchmarks/in-desktop.sh"
quick=false prefix="$repo/.build-prefix-bench" tasks=10000 build=true
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=true prefix="$repo/.build-prefix-test" tasks=500 ;;
    --prefix) prefix=$2 build=false; shift ;;
    *) echo "usage: $0 [--quick] [--prefix INSTALLED]" >&2; exit 2 ;;
  esac
  shift
done
[ "$quick" = true ] || [ "$build" = false ] || meson-wrap/tools/dev-install.sh "$prefix" release >/dev/null
. "$repo/Tests/Benchmarks/environment.sh"
BROWSER="$repo/Tests/TasksTestSupport/scripted-browser.sh" B2C_TEST_EMAIL=ann@example.com \
  B2C_TEST_PASSWORD=Tasks-Demo-1 "$prefix/bin/b2c-tasks-cli" sign-in >"$work/cli.out" 2>&1 ||
  { cat "$work/cli.out" >&2; exit 1; }
seed_planner 20 "$tasks"

# now_ms: the clock in milliseconds, read by date (a Python reading it, as before, added its own start-up of about
# 20 ms to every CLI figure).
now_ms() { date +%s%N | awk '{ printf "%.1f", $1 / 1000000 }'; }
echo "The CLI's first sync ($tasks tasks in 20 lists, $(basename "$prefix"); $(nproc) CPUs):"
: >"$work/rounds"
for round in 1 2 3; do
  transfer=$(python3 "$repo/Tests/Benchmarks/first-sync.py" "$base" "$tasks")
  started=$(now_ms)
  "$prefix/bin/b2c-tasks-cli" reminders --json >"$work/reminders.json"
  cli=$(awk -v a="$started" -v b="$(now_ms)" 'BEGIN { printf "%.1f", b - a }')
  python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$work/reminders.json"
  echo "$transfer $cli $(awk -v a="$cli" -v b="$transfer" 'BEGIN { printf "%.3f", a / b }')" >>"$work/rounds"
done
printf '  the feed'"'"'s transfer %s ms; b2c-tasks-cli reminders --json %s ms: ratio %s (%s)\n' \
  "$(median "$work/rounds" 1)" "$(median "$work/rounds" 2)" "$(median "$work/rounds" 3)" \
  "$(cut -d' ' -f3 "$work/rounds" | tr '\n' '/' | sed 's|/$||')"
