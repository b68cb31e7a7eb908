#!/bin/sh
# first-sync.sh [--quick] [--prefix INSTALLED] [--rounds N]: the first sync of 10 000 tasks in 20 lists (issue 66),
# by the CLI and by the window, each against the feed's transfer alone (every page read by first-sync.py, nothing
# decoded), in the same rounds, fifteen of them alternated (three with --quick), medians; target: each within 1.5×.
# (Each window figure is the difference of two single starts: single rounds spread from -0.8 to 3.0 on this machine,
# and the median of five moved by half the target between runs.)
#   the CLI: `b2c-tasks-cli reminders --json` (its process, the keyring's session, every page of the change feed read
#     and each task decoded, what has a reminder printed; the CLI keeps no copy);
#   the window: what those tasks add to its first start after signing in (nothing kept on this computer): spawn → the
#     first row and the sidebar's last list shown (measure.py, over AT-SPI) and the feed's copy on disk, with the 10 000
#     tasks, less the same start with 1 list of 20 tasks (GTK's start, the keyring, one small page). The window shows
#     the feed's first page while the rest comes; when all of it is shown (the last list's count whole) is printed too,
#     against the same transfer.
# Release build installed into .build-prefix-bench/ (--quick: the debug build in .build-prefix-test/ and 500 tasks;
# CI runs it so to keep it working). Runs its own Xvfb, D-Bus session and unlocked keyring.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. "$repo/Tests/Benchmarks/in-desktop.sh"
quick=false prefix="$repo/.build-prefix-bench" tasks=10000 build=true rounds=15
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=true prefix="$repo/.build-prefix-test" tasks=500 rounds=3 ;;
    --prefix) prefix=$2 build=false; shift ;;
    --rounds) rounds=$2; shift ;;
    *) echo "usage: $0 [--quick] [--prefix INSTALLED] [--rounds N]" >&2; exit 2 ;;
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
# window ENTRY: the window's first start after signing in, until its first row, a sidebar entry whose spoken name
# starts with ENTRY and the feed's copy on disk: prints the milliseconds until the later of the rows and the copy.
window() {
  rm -rf "$work/data/io.github.b2ctasks.B2CTasks/planner"
  MEASURE_ALSO="list item|$1" MEASURE_WAIT_FILES="$work/data/io.github.b2ctasks.B2CTasks/planner/*.json" \
    /usr/bin/python3 "$repo/Tests/Benchmarks/measure.py" "task number 1" "$prefix/bin/b2c-tasks" |
    awk '{ printf "%.1f", ($3 > $1 ? $3 : $1) * 1000 }'
}
window "Tasks, " >/dev/null  # fills the caches
echo "The first sync ($tasks tasks in 20 lists, $(basename "$prefix"); $(nproc) CPUs):"
: >"$work/rounds"
for round in $(seq "$rounds"); do
  seed_planner 1 20
  small=$(window "Tasks, ")
  seed_planner 20 "$tasks"
  transfer=$(python3 "$repo/Tests/Benchmarks/first-sync.py" "$base" "$tasks")
  started=$(now_ms)
  "$prefix/bin/b2c-tasks-cli" reminders --json >"$work/reminders.json"
  cli=$(awk -v a="$started" -v b="$(now_ms)" 'BEGIN { printf "%.1f", b - a }')
  python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$work/reminders.json"
  large=$(window "List 19, ")
  whole=$(window "List 19, $((tasks / 20)) open tasks")
  echo "$transfer $cli $small $large $whole" | awk '{ printf "%s %s %s %s %.1f %.3f %.3f %s %.1f %.3f\n", $1, $2,
    $3, $4, $4 - $3, $2 / $1, ($4 - $3) / $1, $5, $5 - $3, ($5 - $3) / $1 }' >>"$work/rounds"
done
# Columns: transfer, CLI, window small, window large, what the tasks add to the window, CLI ratio, window ratio; the
# window until the whole lists are shown, what the tasks add to it, its ratio.
ratios() { cut -d' ' -f"$1" "$work/rounds" | tr '\n' '/' | sed 's|/$||'; }
printf '  the feed'"'"'s transfer %s ms; b2c-tasks-cli reminders --json %s ms: ratio %s (%s)\n' \
  "$(median "$work/rounds" 1)" "$(median "$work/rounds" 2)" "$(median "$work/rounds" 6)" "$(ratios 6)"
printf '  the window'"'"'s first start after signing in, to its rows and its copy on disk: %s ms with %s tasks in 20 lists, %s ms with 20 tasks in 1:\n' \
  "$(median "$work/rounds" 4)" "$tasks" "$(median "$work/rounds" 3)"
printf '    what the tasks add, %s ms, against the transfer: ratio %s (%s)\n' "$(median "$work/rounds" 5)" \
  "$(median "$work/rounds" 7)" "$(ratios 7)"
printf '    until every task is shown (the last list'"'"'s count whole): %s ms, adding %s ms: ratio %s (%s)\n' \
  "$(median "$work/rounds" 8)" "$(median "$work/rounds" 9)" "$(median "$work/rounds" 10)" "$(ratios 10)"
