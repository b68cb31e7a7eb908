#!/bin/sh
# fuzz.sh [RUNS] [TARGET…]: builds b2c-tasks-fuzz with libFuzzer and AddressSanitizer (scratch .build-fuzz/) and runs
# each target (default: all) for RUNS executions (default 1 000 000), starting from and adding to the corpus in
# Tests/Fuzz/corpus/TARGET/. A crash, hang or memory error leaves its input as crash-* here and fails the script
# (leak checks are off: Foundation keeps caches LeakSanitizer reports on the first property list). The normal build's
# b2c-tasks-fuzz replays the corpora; the tests do that in CI.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
runs=${1:-1000000}
[ $# -gt 0 ] && shift
targets=${*:-"redirect token tasks settings navigation jwt jwks discovery authority feed details ical xml"}
swift build --scratch-path .build-fuzz --product b2c-tasks-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -D -Xswiftc FUZZING >/dev/null
binary=$(swift build --scratch-path .build-fuzz --show-bin-path)/b2c-tasks-fuzz
export ASAN_OPTIONS=detect_leaks=0
# A crash goes straight to libFuzzer's handler, which keeps its input: Swift's backtracer, symbolizing this binary
# under AddressSanitizer first, took ten minutes for one fatalError here.
export SWIFT_BACKTRACE=enable=no
for target in $targets; do
  mkdir -p "Tests/Fuzz/corpus/$target"
  echo "fuzzing $target for $runs runs"
  # The xml target's inputs may be longer than a start tag may (4 096 bytes), so that one the checks before the
  # parser miss can be made: the harness fails on it.
  max_len=4096
  [ "$target" != xml ] || max_len=16384
  B2C_FUZZ_TARGET=$target "$binary" -runs="$runs" -max_len=$max_len -timeout=10 -artifact_prefix=Tests/Fuzz/crash- \
    -print_final_stats=1 -detect_leaks=0 "Tests/Fuzz/corpus/$target" 2>&1 | grep -E 'stat::number_of_executed_units|Done|ERROR|crash' || true
  if ls Tests/Fuzz/crash-* >/dev/null 2>&1; then echo "fuzz.sh: $target crashed" >&2; exit 1; fi
done
