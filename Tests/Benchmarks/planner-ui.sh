#!/bin/sh
# planner-ui.sh [--quick]: the planner window's speed targets (issue 47), each as a ratio measured in the same run.
#   start-up: spawn → the default list's first row and the sidebar's last list, signed in through the keyring, with
#             20 lists and 2 000 tasks against 1 list and 20 tasks, each against baseline.c (an empty libadwaita window
#             with a 20-row list); medians of 7 rounds, each round starting the baseline, then b2c-tasks twice with
#             the small account, the baseline again, then b2c-tasks twice with the large one: the first start after
#             signing in (nothing kept on this computer: the whole change feed read), then a start as every later
#             one is (the offline copies kept, and read again from the service). Target: the large start's ratio to
#             the baseline within 5 % of the small one's.
#   switching: 10 000 tasks in 20 lists (2 500 due today, 2 500 in the next 7 days); the sidebar's entries clicked
#             in turn, 30 clicks (planner-ui.py, click.c: the button's release to the window's next frame, each
#             checked over AT-SPI to show the entry's tasks), against baseline.c's planner (a GtkListBox sidebar and a
#             GtkListView whose model is made anew at each click). Target: within one frame (16 ms) of the click.
#   scrolling: 100 000 tasks in one list shown on the planner's page, dragged and wheeled (scroll.c), against
#             baseline.c's GtkListView of as many check buttons. Target: level with it.
# Release build installed into .build-prefix-bench/ (--quick: the debug build in .build-prefix-test/, 200 and 1 000
# tasks, one round and one round of clicks; CI runs it so to keep it working). Runs its own Xvfb, D-Bus session and
# unlocked keyring. --parts "start switch scroll": the parts to run (default all); --scroll N: the tasks scrolled.
# --prefix PREFIX: measures the b2c-tasks installed in PREFIX as it is (no build): an earlier commit built with
# meson-wrap/tools/dev-install.sh from a git worktree, for a before/after of the ratios.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. "$repo/Tests/Benchmarks/in-desktop.sh"
quick=false runs=7 rounds=5 prefix="$repo/.build-prefix-bench" start_tasks=2000 switch_tasks=10000 scroll_tasks=100000
parts="start switch scroll" build=true
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=true runs=1 rounds=1 prefix="$repo/.build-prefix-test" start_tasks=200 switch_tasks=1000 scroll_tasks=1000 ;;
    --parts) parts=$2; shift ;;
    --scroll) scroll_tasks=$2; shift ;;
    --prefix) prefix=$2 build=false; shift ;;
    *) echo "usage: $0 [--quick] [--parts \"start switch scroll\"] [--scroll N] [--prefix INSTALLED]" >&2; exit 2 ;;
  esac
  shift
done
part() { case " $parts " in *" $1 "*) return 0 ;; esac; return 1; }
[ "$quick" = true ] || [ "$build" = false ] || meson-wrap/tools/dev-install.sh "$prefix" release >/dev/null
. "$repo/Tests/Benchmarks/environment.sh"
B2C_TEST_EMAIL=ann@example.com B2C_TEST_PASSWORD=Tasks-Demo-1 BROWSER="$repo/Tests/TasksTestSupport/scripted-browser.sh" \
  "$prefix/bin/b2c-tasks-cli" sign-in --timeout 60 --json >/dev/null
cc -O2 -o "$work/baseline-program" "$repo/Tests/Benchmarks/baseline.c" $(pkg-config --cflags --libs libadwaita-1)
cc -O2 -o "$work/click" "$repo/Tests/Benchmarks/click.c" -lX11 -lXtst -lXdamage
cc -O2 -o "$work/scroll" "$repo/Tests/Benchmarks/scroll.c" -lX11 -lXtst -lXdamage
app="$prefix/bin/b2c-tasks"
measure() { /usr/bin/python3 "$repo/Tests/Benchmarks/measure.py" "task number 1" "$@"; }
# Nothing kept of the lists: the change feed's copy (the offline copy), as on a computer just signed in to.
forget() { rm -rf "$work/data/io.github.b2ctasks.B2CTasks/planner"; }

echo "Planner (issue 47), $(nproc) CPUs:"
measure "$work/baseline-program" >/dev/null  # fills the caches
if part start; then
  seed_planner 1 20
  MEASURE_ALSO="list item|Tasks, " measure "$app" >/dev/null
  : >"$work/base" && : >"$work/small" && : >"$work/large" && : >"$work/small-first" && : >"$work/large-first"
  round=0
  while [ $round -lt $runs ]; do
    for size in small large; do
      measure "$work/baseline-program" >>"$work/base"
      if [ $size = small ]; then
        seed_planner 1 20
        also="list item|Tasks, "
      else
        seed_planner 20 "$start_tasks"
        also="list item|List 19, "
      fi
      # The first start after signing in on this computer (nothing kept), then a start as every later one is (the
      # change feed's copy kept, read again from the service).
      # The first start runs on until it has written the feed's copy (after its first frame; measure.py's SIGKILL
      # came before it once, and the "kept" start then read the whole feed again).
      forget
      MEASURE_ALSO="$also" MEASURE_WAIT_FILES="$work/data/io.github.b2ctasks.B2CTasks/planner/*.json" \
        measure "$app" >>"$work/$size-first"
      MEASURE_ALSO="$also" measure "$app" >>"$work/$size"
    done
    round=$((round + 1))
  done
  figure() { echo "$(median "$work/$1" 1) $(median "$work/$1" 2)"; }
  awk -v base="$(figure base)" -v small="$(figure small)" -v large="$(figure large)" \
    -v small_first="$(figure small-first)" -v large_first="$(figure large-first)" -v n="$start_tasks" -v r="$runs" '
    function show(label, figures, b) {
      split(figures, f, " ")
      printf "    %s: %.3f s %d KiB (%.2f×, %.2f× the baseline)\n", label, f[1], f[2], f[1] / b[1], f[2] / b[2]
    }
    BEGIN {
      split(base, b, " "); split(small, s, " "); split(large, l, " "); split(small_first, sf, " ")
      split(large_first, lf, " ")
      printf "  start-up, spawn → the first row and the last list in the sidebar (medians of %d): baseline %.3f s %d KiB\n",
        r, b[1], b[2]
      show("1 list, 20 tasks, copies kept", small, b)
      show(sprintf("20 lists, %d tasks, copies kept", n), large, b)
      printf "    ratio of ratios (target within 5 %%): time %.3f, RSS %.3f\n", l[1] / s[1], l[2] / s[2]
      show("1 list, 20 tasks, the first start after signing in", small_first, b)
      show(sprintf("20 lists, %d tasks, the first start after signing in", n), large_first, b)
      printf "    ratio of ratios: time %.3f, RSS %.3f\n", lf[1] / sf[1], lf[2] / sf[2]
    }'
fi

# switch FILE PROGRAM…: the clicks' answers in FILE ("ENTRY MS" per line).
switch() {
  file=$1; shift
  PLANNER_ENTRIES=22 PLANNER_ROUNDS=$rounds /usr/bin/python3 "$repo/Tests/Benchmarks/planner-ui.py" switch 20 "$@" >"$file.out"
  sed -n 's/^switch \(.*\): \([0-9.]*\)$/\1|\2/p' "$file.out" >"$file"
  forget
}
if part switch; then
  seed_planner 20 "$switch_tasks"
  CLICK="$work/click" switch "$work/switch" "$app"
  BASELINE_PLANNER="20 $switch_tasks" CLICK="$work/click" switch "$work/switch-baseline" "$work/baseline-program"
  figures() { cut -d'|' -f2 "$1" | sort -n | awk '{ v[NR] = $1; late += $1 > 16.7 } END {
    printf "%d clicks, median %.1f ms, worst %.1f ms, over 16.7 ms: %d", NR, v[int((NR + 1) / 2)], v[NR], late }'; }
  echo "  switching, $switch_tasks tasks in 20 lists (release of the button → the next frame):"
  echo "    b2c-tasks: $(figures "$work/switch")"
  for entry in Today Upcoming "List 1" Tasks; do
    grep "^$entry|" "$work/switch" >"$work/switch-entry" || true
    echo "      $entry: $(figures "$work/switch-entry")"
  done
  echo "    baseline (a C sidebar and list view): $(figures "$work/switch-baseline")"
  awk -v a="$(cut -d'|' -f2 "$work/switch" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')" \
    -v b="$(cut -d'|' -f2 "$work/switch-baseline" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')" \
    'BEGIN { printf "    median answer %.2f× the baseline'"'"'s\n", a / b }'
fi

part scroll || exit 0
seed_planner 2 "$scroll_tasks" last
PLANNER_ENTRIES=4 SCROLL="$work/scroll" CLICK="$work/click" /usr/bin/python3 "$repo/Tests/Benchmarks/planner-ui.py" \
  scroll "List 1" "$app" >"$work/scroll-app"
forget
# baseline.c's List 1 of 2 lists holds every other task: as many rows as b2c-tasks' list.
BASELINE_PLANNER="2 $((scroll_tasks * 2))" PLANNER_ENTRIES=4 SCROLL="$work/scroll" CLICK="$work/click" \
  /usr/bin/python3 "$repo/Tests/Benchmarks/planner-ui.py" scroll "List 1" "$work/baseline-program" >"$work/scroll-baseline"
for phase in drag wheel; do
  echo "  scrolling $scroll_tasks tasks on the planner's page, $phase: $(sed -n "s/^$phase: //p" "$work/scroll-app")"
  echo "    baseline (GtkListView of $scroll_tasks check buttons): $(sed -n "s/^$phase: //p" "$work/scroll-baseline")"
  median_ms() { sed -n "s/^$phase: .*interval median \([0-9.]*\) ms.*/\1/p" "$1"; }
  awk -v a="$(median_ms "$work/scroll-app")" -v b="$(median_ms "$work/scroll-baseline")" \
    'BEGIN { printf "    median frame %.2f× the baseline'"'"'s\n", a / b }'
done
