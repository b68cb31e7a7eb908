#!/bin/sh
# startup-order.sh: writes Sources/TasksApp/startup.order, the functions b2c-tasks runs from spawn to its first task
# row (signed in through the keyring, 20 tasks), in the order they first ran. The linker (LLD's
# --symbol-ordering-file, Package.swift) lays them out first and together, so that a start faults in few pages of
# code: the kernel maps 64 KiB around each page a program touches, and code scattered over the whole program made
# most of it resident (RESULTS.md, issue 18). Run it after changes to what a start does, then rebuild; a stale order
# costs memory, never correctness (names it no longer finds are skipped). The program is linked again with it (the
# order file is not an input SwiftPM tracks).
# How: the release build installed into .build-prefix-bench/ runs once under valgrind's callgrind (names not
# demangled; about two minutes), in the benchmarks' own Xvfb, D-Bus session, keyring and playground.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. "$repo/Tests/Benchmarks/in-desktop.sh"
command -v valgrind >/dev/null || { echo "startup-order.sh needs valgrind (apt install valgrind)" >&2; exit 2; }
prefix="$repo/.build-prefix-bench"
meson-wrap/tools/dev-install.sh "$prefix" release >/dev/null
. "$repo/Tests/Benchmarks/environment.sh"
B2C_TEST_EMAIL=ann@example.com B2C_TEST_PASSWORD=Tasks-Demo-1 BROWSER="$repo/Tests/TasksTestSupport/scripted-browser.sh" \
  "$prefix/bin/b2c-tasks-cli" sign-in --timeout 60 --json >/dev/null
seed 20
# valgrind 3.19 cannot read the DWARF 5 the toolchain writes: the run uses a copy without it (the symbols stay), in
# a prefix of its own beside the installed data.
mkdir -p "$work/prefix/bin"
ln -s "$prefix/share" "$prefix/lib" "$work/prefix/"
program="$work/prefix/bin/b2c-tasks"
cp "$prefix/bin/b2c-tasks" "$program"
strip --strip-debug "$program"
/usr/bin/python3 "$repo/Tests/Benchmarks/measure.py" "task number 1" "$prefix/bin/b2c-tasks" >/dev/null  # warm
rm -rf "$work/cache/io.github.b2ctasks.B2CTasks"
# measure.py waits for the first row (a slow start under callgrind: its limit is raised), lets the program finish
# what a start does around it (the session's other requests, on other threads; slow under callgrind), and then stops
# it with SIGTERM, on which callgrind writes what it saw.
MEASURE_TIMEOUT=900 MEASURE_LINGER=30 MEASURE_STOP=TERM /usr/bin/python3 "$repo/Tests/Benchmarks/measure.py" "task number 1" \
  valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" --demangle=no --dump-instr=no \
  --compress-strings=no --compress-pos=no "$program" >/dev/null
# callgrind writes the file as the program exits.
tries=0
until [ -s "$work/callgrind.out" ] && grep -q '^totals:' "$work/callgrind.out"; do
  tries=$((tries + 1)); [ $tries -lt 600 ] || { echo "callgrind wrote no profile" >&2; exit 1; }; sleep 0.2
done
/usr/bin/python3 "$repo/Tests/Benchmarks/callgrind-order.py" "$work/callgrind.out" "$program" \
  >"$repo/Sources/TasksApp/startup.order"
echo "$(wc -l <"$repo/Sources/TasksApp/startup.order") functions in Sources/TasksApp/startup.order"
rm -f "$(swift build -c release --show-bin-path)/b2c-tasks"
meson-wrap/tools/dev-install.sh "$prefix" release >/dev/null
