#!/bin/sh
# planner-profile.sh [--runs N] [--prefix INSTALLED]: where the planner window's start spends its time (issue 66),
# found before changing code. The warm start of planner-ui.sh (signed in through the keyring, the change feed's copy
# kept, spawn → the first row and the sidebar's last list) with 1 list of 20 tasks and with 20 lists of 2 000 tasks,
# N times each (default 5) under `perf record -a -g` (the whole machine, so that the X server and the playground's
# share is seen too; this machine's CPU counters are not available, so perf samples the CPU clock). Prints, for
# each size, the samples per process, then per library of b2c-tasks' threads, then its functions with the most
# samples of their own, and the difference of the two sizes: what the 1 980 more tasks cost.
# Release build installed into .build-prefix-bench/ (as planner-ui.sh). Not part of the test command: it measures
# nothing against a target (the figures that are go through planner-ui.sh).
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. "$repo/Tests/Benchmarks/in-desktop.sh"
command -v perf >/dev/null || { echo "planner-profile.sh needs perf (apt install linux-perf)" >&2; exit 2; }
runs=5 prefix="$repo/.build-prefix-bench" build=true
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift ;;
    --prefix) prefix=$2 build=false; shift ;;
    *) echo "usage: $0 [--runs N] [--prefix INSTALLED]" >&2; exit 2 ;;
  esac
  shift
done
[ "$build" = false ] || meson-wrap/tools/dev-install.sh "$prefix" release >/dev/null
. "$repo/Tests/Benchmarks/environment.sh"
B2C_TEST_EMAIL=ann@example.com B2C_TEST_PASSWORD=Tasks-Demo-1 BROWSER="$repo/Tests/TasksTestSupport/scripted-browser.sh" \
  "$prefix/bin/b2c-tasks-cli" sign-in --timeout 60 --json >/dev/null
app="$prefix/bin/b2c-tasks"
measure() { /usr/bin/python3 "$repo/Tests/Benchmarks/measure.py" "task number 1" "$@"; }
for size in small large; do
  if [ $size = small ]; then
    seed_planner 1 20
    also="list item|Tasks, "
  else
    seed_planner 20 2000
    also="list item|List 19, "
  fi
  rm -rf "$work/data/io.github.b2ctasks.B2CTasks/planner"
  # The first start after the seed writes the feed's copy; the profiled starts are the warm ones after it.
  MEASURE_ALSO="$also" MEASURE_WAIT_FILES="$work/data/io.github.b2ctasks.B2CTasks/planner/*.json" measure "$app" >/dev/null
  MEASURE_ALSO="$also" perf record -q -a -g -F 997 -o "$work/$size.data" -- /bin/sh -c '
    i=0
    while [ $i -lt '"$runs"' ]; do /usr/bin/python3 "$0" "task number 1" "$1" >>"$2"; i=$((i + 1)); done' \
    "$repo/Tests/Benchmarks/measure.py" "$app" "$work/$size.times" 2>/dev/null
  report() { perf report -i "$work/$size.data" --stdio --no-children -g none -n "$@" 2>/dev/null | grep -v '^#' | grep -v '^$'; }
  echo "== $size ($( [ $size = small ] && echo "1 list, 20 tasks" || echo "20 lists, 2 000 tasks"), $runs warm starts, median $(median "$work/$size.times" 1) s)"
  echo "-- samples per process (all CPUs during the starts)"
  report --sort comm | head -12
  # Every thread of the b2c-tasks processes (Swift's pool, libsoup's, GTK's renderer), named or not.
  pids=$(perf script -i "$work/$size.data" -F comm,pid 2>/dev/null | awk '$1 == "b2c-tasks" { print $2 }' | sort -u |
    paste -sd, -)
  echo "-- b2c-tasks (all its threads), per thread"
  report --pid "$pids" --sort comm | head -12
  echo "-- b2c-tasks (all its threads), per library"
  report --pid "$pids" --sort dso | head -15
  echo "-- b2c-tasks (all its threads), the functions with the most samples of their own"
  report --pid "$pids" --sort sym | head -300 >"$work/$size.syms"
  head -40 "$work/$size.syms"
  echo "-- b2c-tasks' own code (the app with the Swift runtime and Foundation linked in): functions with their callees"
  perf report -i "$work/$size.data" --stdio --children -g none -n --pid "$pids" --dsos b2c-tasks --sort sym \
    2>/dev/null | grep -v '^#' | grep -v '^$' | head -60
done
echo "== what 2 000 tasks in 20 lists cost beyond 20 tasks: functions by samples, large minus small"
awk '{ samples = $2; sub(/^ *[0-9.]+% +[0-9]+ +/, "") }
  NR == FNR { small[$0] = samples; next }
  { d = samples - small[$0]; if (d > 0) printf "%8d  %s\n", d, $0 }' "$work/small.syms" "$work/large.syms" |
  sort -rn | head -25
