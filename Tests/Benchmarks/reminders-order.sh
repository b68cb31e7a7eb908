#!/bin/sh
# reminders-order.sh [--prefix INSTALLED]: writes Sources/TasksReminders/service.order, the functions the reminder
# service (b2c-tasks-reminders) runs from spawn through its first read of the feed and one more read, in the order
# they first ran. The linker lays them out first and together (Package.swift), so that waiting for a reminder keeps
# few pages of code resident (the kernel maps 64 KiB around each page a program touches; see startup-order.sh, which
# does the same for the window). Run it after changes to what a read does, then rebuild; a stale order costs memory,
# never correctness.
# How: the release build (installed into .build-prefix-bench/, or --prefix) runs under valgrind's callgrind (about
# a minute) in the benchmarks' own D-Bus session, keyring and playground, with Ann's tasks and 20 reminders.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. "$repo/Tests/Benchmarks/in-desktop.sh"
command -v valgrind >/dev/null || { echo "reminders-order.sh needs valgrind (apt install valgrind)" >&2; exit 2; }
prefix="$repo/.build-prefix-bench"
if [ "${1:-}" = --prefix ]; then prefix=$2; else meson-wrap/tools/dev-install.sh "$prefix" release >/dev/null; fi
. "$repo/Tests/Benchmarks/environment.sh"
seed_reminders "$prefix"
# valgrind 3.19 cannot read the DWARF 5 the toolchain writes: the run uses a copy without it (the symbols stay).
program="$work/b2c-tasks-reminders"
cp "$prefix/lib/b2c-tasks/b2c-tasks-reminders" "$program"
strip --strip-debug "$program"
valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" --demangle=no --dump-instr=no \
  --compress-strings=no --compress-pos=no "$program" >"$work/service.out" 2>&1 &
service=$!
# The first read is over when the agenda is kept on disk; then one more read, as each minute brings.
tries=0
until ls "$XDG_DATA_HOME"/io.github.b2ctasks.B2CTasks/reminders/*.json >/dev/null 2>&1; do
  tries=$((tries + 1)); [ $tries -lt 1500 ] || { cat "$work/service.out" >&2; exit 1; }; sleep 0.2
done
kept=$(ls "$XDG_DATA_HOME"/io.github.b2ctasks.B2CTasks/reminders/*.json)
before=$(stat -c %Y.%y "$kept")
"$prefix/bin/b2c-tasks-cli" add "One more" --remind "in 5 days" >/dev/null  # tells the service to read
tries=0
while [ "$(stat -c %Y.%y "$kept")" = "$before" ]; do
  tries=$((tries + 1)); [ $tries -lt 1500 ] || { cat "$work/service.out" >&2; exit 1; }; sleep 0.2
done
kill -TERM $service
wait $service || true
/usr/bin/python3 "$repo/Tests/Benchmarks/callgrind-order.py" "$work/callgrind.out" "$program" \
  >"$repo/Sources/TasksReminders/service.order"
echo "$(wc -l <"$repo/Sources/TasksReminders/service.order") functions in Sources/TasksReminders/service.order"
