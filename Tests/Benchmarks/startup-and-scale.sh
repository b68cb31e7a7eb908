#!/bin/sh
# startup-and-scale.sh [--quick]: start-up and scale of b2c-tasks, each as a ratio measured in the same run.
#   start-up: spawn → first task row on the accessibility bus, 20 tasks, signed in through the keyring (SSO), against
#             baseline.c (an empty libadwaita window with a 20-row list); medians of 5 runs, time and RSS.
#   scale:    the same with 1 000, 10 000 and 100 000 tasks, against 20: extra time and RSS per task; then scrolling
#             each list top to bottom (scroll.c: frames later than 60 Hz), against baseline.c's GtkListView of as
#             many check buttons (and, to tell GTK's cost from ours, of as many rows made as b2c-tasks makes them).
# Release build installed into .build-prefix-bench/ (--quick: the debug build in .build-prefix-test/, 1 000
# tasks, one run each; CI runs it so to keep it working). Runs its own Xvfb, D-Bus session and unlocked keyring.
# --before PREFIX: also measures the b2c-tasks installed in PREFIX (an earlier commit, built with
# meson-wrap/tools/dev-install.sh from a git worktree), alternated with this one, and prints this one's figures as
# a ratio of that one's: a before/after in one run, as the machine's speed drifts from one day to the next.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
if [ -z "${B2C_BENCH_INSIDE:-}" ]; then
  export B2C_BENCH_INSIDE=1
  exec Tests/xvfb.sh dbus-run-session -- "$0" "$@"
fi
quick=false sizes="1000 10000 100000" runs=5 prefix="$repo/.build-prefix-bench" before=""
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=true sizes="1000" runs=1 prefix="$repo/.build-prefix-test" ;;
    --before) before=$2; shift ;;
    *) echo "usage: $0 [--quick] [--before PREFIX]" >&2; exit 2 ;;
  esac
  shift
done
[ -z "$before" ] || [ -x "$before/bin/b2c-tasks" ] || { echo "no b2c-tasks in $before/bin" >&2; exit 2; }
if [ "$quick" = false ]; then
  meson-wrap/tools/dev-install.sh "$prefix" release >/dev/null
fi
. "$repo/Tests/Benchmarks/environment.sh"
B2C_TEST_EMAIL=ann@example.com B2C_TEST_PASSWORD=Tasks-Demo-1 BROWSER="$repo/Tests/TasksTestSupport/scripted-browser.sh" \
  "$prefix/bin/b2c-tasks-cli" sign-in --timeout 60 --json >/dev/null
# measure LABEL COMMAND...: runs it $runs times; leaves "seconds rss" medians in $work/LABEL. With BEFORE=PROGRAM,
# that program's runs alternate with these, their medians in $work/LABEL.before.
measure() {
  label=$1; shift
  : >"$work/$label.runs"
  : >"$work/$label.before.runs"
  i=0
  while [ $i -lt $runs ]; do
    /usr/bin/python3 "$repo/Tests/Benchmarks/measure.py" "${MEASURE_NAME:-task number 1}" "$@" >>"$work/$label.runs"
    # No offline copy, so every start fetches the list. (Mesa's shader cache stays, as on a desktop: removing it
    # made every start of both programs compile llvmpipe's shaders again, 0.5 s that hid the difference.)
    rm -rf "$work/cache/io.github.b2ctasks.B2CTasks"
    if [ -n "${BEFORE:-}" ]; then
      /usr/bin/python3 "$repo/Tests/Benchmarks/measure.py" "task number 1" "$BEFORE" >>"$work/$label.before.runs"
      rm -rf "$work/cache/io.github.b2ctasks.B2CTasks"
    fi
    i=$((i + 1))
  done
  echo "$(median "$work/$label.runs" 1) $(median "$work/$label.runs" 2)" >"$work/$label"
  if [ -n "${BEFORE:-}" ]; then
    echo "$(median "$work/$label.before.runs" 1) $(median "$work/$label.before.runs" 2)" >"$work/$label.before"
    read -r after_s after_kib <"$work/$label"
    read -r before_s before_kib <"$work/$label.before"
    awk -v a="$after_s" -v b="$before_s" -v c="$after_kib" -v d="$before_kib" -v l="$label" 'BEGIN {
      printf "  %s, before: %.3f s %d KiB; after : before = time %.2f×, RSS %.2f×\n", l, b, d, a / b, c / d }'
  fi
}

cc -O2 -o "$work/baseline-program" "$repo/Tests/Benchmarks/baseline.c" $(pkg-config --cflags --libs libadwaita-1)
/usr/bin/python3 "$repo/Tests/Benchmarks/measure.py" "task number 1" "$work/baseline-program" >/dev/null  # fills the caches
measure baseline "$work/baseline-program"
seed 20
if [ -n "$before" ]; then
  /usr/bin/python3 "$repo/Tests/Benchmarks/measure.py" "task number 1" "$before/bin/b2c-tasks" >/dev/null  # its caches
fi
BEFORE=${before:+$before/bin/b2c-tasks} measure tasks-20 "$prefix/bin/b2c-tasks"
read -r base_s base_kib <"$work/baseline"
read -r our_s our_kib <"$work/tasks-20"
echo "start-up (medians of $runs): baseline ${base_s} s ${base_kib} KiB; b2c-tasks with 20 tasks ${our_s} s ${our_kib} KiB"
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
  BEFORE=${before:+$before/bin/b2c-tasks} measure "tasks-$size" "$prefix/bin/b2c-tasks"
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
    ours=$(sed -n "s/^$phase: .*over 16 ms: \([0-9]*\)/\1/p" "$work/scroll-$size.frames")
    theirs=$(sed -n "s/^$phase: .*over 16 ms: \([0-9]*\)/\1/p" "$work/scroll-baseline-$size.frames")
    echo "scroll $size tasks, $phase: $(sed -n "s/^$phase: //p" "$work/scroll-$size.frames")"
    echo "  baseline (GtkListView of $size check buttons): $(sed -n "s/^$phase: //p" "$work/scroll-baseline-$size.frames")"
    echo "  the same in C with b2c-tasks' rows: $(sed -n "s/^$phase: //p" "$work/scroll-app-row-$size.frames")"
    [ -z "$before" ] || echo "  before: $(sed -n "s/^$phase: //p" "$work/scroll-before-$size.frames")"
    awk -v a="$ours" -v b="$theirs" 'BEGIN {
      if (b > 0) ratio = sprintf("%.2f×", a / b); else if (a == 0) ratio = "none in either"; else ratio = a " against none"
      printf "  ratio of frames over 16 ms: %s\n", ratio }'
  done
done
