#!/bin/sh
# startup-and-scale.sh [--quick]: start-up and scale of b2c-tasks, each as a ratio measured in the same run.
#   start-up: spawn → first task row on the accessibility bus, 20 tasks, signed in through the keyring (SSO), against
#             baseline.c (an empty libadwaita window with a 20-row list); medians of 7 alternated runs, time and RSS.
#   scale:    the same with 1 000, 10 000 and 100 000 tasks, against 20: extra time and RSS per task; then scrolling
#             each list top to bottom (scroll.c: frames later than 60 Hz), against baseline.c's GtkListView of as
#             many check buttons (and, to tell GTK's cost from ours, of as many rows made as b2c-tasks makes them).
# Release build installed into .build-prefix-bench/ (--quick: the debug build in .build-prefix-test/, 1 000
# tasks, one run each; CI runs it so to keep it working). Runs its own Xvfb, D-Bus session and unlocked keyring.
# --before PREFIX: also measures the b2c-tasks installed in PREFIX (an earlier commit, built with
# meson-wrap/tools/dev-install.sh from a git worktree), alternated with this one, and prints this one's figures as
# a ratio of that one's: a before/after in one run, as the machine's speed drifts from one day to the next.
# --sizes "N …": the list sizes of the scale and scrolling part ("" for start-up only; default 1000 10000 100000).
# --prefix PREFIX: measures the b2c-tasks installed in PREFIX as it is (no build), for a variant made by hand.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. "$repo/Tests/Benchmarks/in-desktop.sh"
quick=false sizes="1000 10000 100000" runs=7 prefix="$repo/.build-prefix-bench" before="" build=true
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=true sizes="1000" runs=1 prefix="$repo/.build-prefix-test" ;;
    --before) before=$2; shift ;;
    --sizes) sizes=$2; shift ;;
    --prefix) prefix=$2 build=false; shift ;;
    *) echo "usage: $0 [--quick] [--before PREFIX] [--sizes \"N …\"] [--prefix PREFIX]" >&2; exit 2 ;;
  esac
  shift
done
[ -z "$before" ] || [ -x "$before/bin/b2c-tasks" ] || { echo "no b2c-tasks in $before/bin" >&2; exit 2; }
if [ "$quick" = false ] && [ "$build" = true ]; then
  meson-wrap/tools/dev-install.sh "$prefix" release >/dev/null
fi
. "$repo/Tests/Benchmarks/environment.sh"
B2C_TEST_EMAIL=ann@example.com B2C_TEST_PASSWORD=Tasks-Demo-1 BROWSER="$repo/Tests/TasksTestSupport/scripted-browser.sh" \
  "$prefix/bin/b2c-tasks-cli" sign-in --timeout 60 --json >/dev/null
# measure LABEL PROGRAM [LABEL PROGRAM]...: $runs rounds, each starting every PROGRAM once in turn (alternated, so
# that the machine's drift falls on all of them alike); leaves "seconds rss" medians in $work/LABEL.
measure() {
  (while [ $# -gt 0 ]; do : >"$work/$1.runs"; shift 2; done)
  round=0
  while [ $round -lt $runs ]; do
    (while [ $# -gt 0 ]; do
      /usr/bin/python3 "$repo/Tests/Benchmarks/measure.py" "${MEASURE_NAME:-task number 1}" "$2" >>"$work/$1.runs"
      # No offline copy, so every start fetches the list. (Mesa's shader cache stays, as on a desktop: removing it
      # made every start of both programs compile llvmpipe's shaders again, 0.5 s that hid the difference.)
      rm -rf "$work/cache/io.github.b2ctasks.B2CTasks"
      shift 2
    done)
    round=$((round + 1))
  done
  (while [ $# -gt 0 ]; do
    echo "$(median "$work/$1.runs" 1) $(median "$work/$1.runs" 2)" >"$work/$1"
    shift 2
  done)
}
# compare LABEL: with --before, LABEL's figures as a ratio of LABEL.before's.
compare() {
  [ -n "$before" ] || return 0
  read -r after_s after_kib <"$work/$1"
  read -r before_s before_kib <"$work/$1.before"
  awk -v a="$after_s" -v b="$before_s" -v c="$after_kib" -v d="$before_kib" -v l="$1" 'BEGIN {
    printf "  %s, before: %.3f s %d KiB; after : before = time %.2f×, RSS %.2f×\n", l, b, d, a / b, c / d }'
}

cc -O2 -o "$work/baseline-program" "$repo/Tests/Benchmarks/baseline.c" $(pkg-config --cflags --libs libadwaita-1)
/usr/bin/python3 "$repo/Tests/Benchmarks/measure.py" "task number 1" "$work/baseline-program" >/dev/null  # fills the caches
seed 20
if [ -n "$before" ]; then
  /usr/bin/python3 "$repo/Tests/Benchmarks/measure.py" "task number 1" "$before/bin/b2c-tasks" >/dev/null  # its caches
  measure baseline "$work/baseline-program" tasks-20 "$prefix/bin/b2c-tasks" tasks-20.before "$before/bin/b2c-tasks"
else
  measure baseline "$work/baseline-program" tasks-20 "$prefix/bin/b2c-tasks"
fi
compare tasks-20
read -r base_s base_kib <"$work/baseline"
read -r our_s our_kib <"$work/tasks-20"
echo "start-up (medians of $runs, alternated): baseline ${base_s} s ${base_kib} KiB; b2c-tasks with 20 tasks ${our_s} s ${our_kib} KiB"
awk -v a="$our_s" -v b="$base_s" -v c="$our_kib" -v d="$base_kib" \
  'BEGIN { printf "start-up ratio: time %.2f×, RSS %.2f× the baseline\n", a / b, c / d }'
cc -O2 -o "$work/scroll" "$repo/Tests/Benchmarks/scroll.c" -lX11 -lXtst -lXdamage
# frames LABEL COMMAND...: one more start, then scroll.c drags the scroll bar top to bottom and turns the wheel.
frames() {
  label=$1; shift
  : >"$work/$label.frames"
  SCROLL="$work/scroll" SCROLL_OUT="$work/$label.frames" \
    /usr/bin/python3 "$repo/Tests/Benchmarks/measure.py" "task number 1" "$@" >/dev/null
  rm -rf "$work/cache/io.github.b2ctasks.B2CTasks"
}
# The peer: GNOME's task app, when installed (apt install endeavour). Its lists live in evolution-data-server, which
# showed none of the lists written for it in this headless session (not even EDS's own "Personal"), so what is
# measured is its start to its empty "Tasks Will Appear Here" page: less work than a list of 20, so it flatters it.
if command -v endeavour >/dev/null; then
  MEASURE_ROLE=label /usr/bin/python3 "$repo/Tests/Benchmarks/measure.py" "Tasks Will Appear Here" endeavour >/dev/null  # fills the caches
  MEASURE_ROLE=label MEASURE_NAME="Tasks Will Appear Here" measure endeavour endeavour
  read -r peer_s peer_kib <"$work/endeavour"
  awk -v a="$our_s" -v b="$peer_s" -v c="$our_kib" -v d="$peer_kib" 'BEGIN {
    printf "peer: Endeavour to its empty page %.3f s %d KiB; b2c-tasks with 20 tasks: time %.2f×, RSS %.2f× Endeavour\n",
      b, d, a / b, c / d }'
fi
for size in $sizes; do
  seed "$size"
  if [ -n "$before" ]; then
    measure "tasks-$size" "$prefix/bin/b2c-tasks" "tasks-$size.before" "$before/bin/b2c-tasks"
  else
    measure "tasks-$size" "$prefix/bin/b2c-tasks"
  fi
  compare "tasks-$size"
  read -r s kib <"$work/tasks-$size"
  awk -v n="$size" -v s="$s" -v k="$kib" -v s0="$our_s" -v k0="$our_kib" 'BEGIN {
    printf "scale %6d tasks: %.3f s (%.2f× the 20-task start, +%.1f µs per task), %d KiB (+%.2f KiB per task)\n",
      n, s, s / s0, (s - s0) / (n - 20) * 1e6, k, (k - k0) / (n - 20) }'
  frames "scroll-$size" "$prefix/bin/b2c-tasks"
  [ -z "$before" ] || frames "scroll-before-$size" "$before/bin/b2c-tasks"
  BASELINE_ROWS=$size frames "scroll-baseline-$size" "$work/baseline-program"
  # The same list with rows made as b2c-tasks makes them, in C: what such a row costs GTK, apart from what we add.
  BASELINE_ROWS=$size BASELINE_ROW=app MEASURE_ROLE=label frames "scroll-app-row-$size" "$work/baseline-program"
  for phase in drag wheel; do
    echo "scroll $size tasks, $phase: $(sed -n "s/^$phase: //p" "$work/scroll-$size.frames")"
    echo "  baseline (GtkListView of $size check buttons): $(sed -n "s/^$phase: //p" "$work/scroll-baseline-$size.frames")"
    echo "  the same in C with b2c-tasks' rows: $(sed -n "s/^$phase: //p" "$work/scroll-app-row-$size.frames")"
    [ -z "$before" ] || echo "  before: $(sed -n "s/^$phase: //p" "$work/scroll-before-$size.frames")"
    # Late frames per 100 (the issue's measure: a program that draws fewer frames has fewer to be late) and the
    # median frame, each against the baseline's.
    late_per_100() { sed -n "s/^$phase: \([0-9]*\) frames, .*over 16 ms: \([0-9]*\)/\1 \2/p" "$1"; }
    median_ms() { sed -n "s/^$phase: .*interval median \([0-9.]*\) ms.*/\1/p" "$1"; }
    awk -v ours="$(late_per_100 "$work/scroll-$size.frames")" -v theirs="$(late_per_100 "$work/scroll-baseline-$size.frames")" \
      -v a="$(median_ms "$work/scroll-$size.frames")" -v b="$(median_ms "$work/scroll-baseline-$size.frames")" 'BEGIN {
      split(ours, o, " "); split(theirs, t, " ")
      printf "  late frames per 100: b2c-tasks %.0f, baseline %.0f; median frame %.2f× the baseline'"'"'s\n",
        100 * o[2] / (o[1] - 1), 100 * t[2] / (t[1] - 1), a / b }'
  done
done
