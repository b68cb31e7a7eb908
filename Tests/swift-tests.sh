#!/bin/sh
# swift-tests.sh [SWIFT-TEST-ARGUMENTS…]: the Swift tests (already built: swift build --build-tests, and the app
# installed into .build-prefix-test/ by meson-wrap/tools/dev-install.sh) under Xvfb and a private D-Bus session with
# an unlocked gnome-keyring, in a private home; `Tests/run-all.sh swift-tests` builds first. Arguments go to
# `swift test` (--filter SUITE for one suite).
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

# A private home for the keyring, settings and caches, so tests never touch the user's own.
sandbox=$(mktemp -d /tmp/b2c-tasks-tests.XXXXXX)
# The TLS tests trust a throwaway certificate authority for their run (b2c-tasks-test-PID.crt) and remove it as they
# exit; should a test process have died first, this puts the system's trust store back (another run's stays).
untrust() {
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo -n"; fi
  removed=""
  for file in /usr/local/share/ca-certificates/b2c-tasks-test-*.crt; do
    [ -e "$file" ] || continue
    pid=${file##*-test-}
    pid=${pid%.crt}
    if [ ! -d "/proc/$pid" ]; then $sudo rm -f "$file" && removed=1; fi
  done
  if [ -n "$removed" ]; then
    $sudo flock /run/lock/b2c-tasks-test-ca.lock update-ca-certificates --fresh >/dev/null
  fi
}
trap 'untrust; "$repo/Tests/remove-tree.sh" "$sandbox"' EXIT
mkdir -p "$sandbox/data" "$sandbox/config" "$sandbox/cache" "$sandbox/runtime"
chmod 700 "$sandbox/runtime"

# Every suite runs in this one process, with its servers and clients: 1 400 sockets at once at the run's busiest
# (measured). The soft limit on descriptors is raised to the hard one (at most 65 536: the servers the tests start
# inherit it), as b2c-tasks-api does for itself, and both are printed.
files=$(ulimit -H -n)
if [ "$files" = unlimited ] || [ "$files" -gt 65536 ]; then files=65536; fi
if [ "$(ulimit -S -n)" != unlimited ] && [ "$(ulimit -S -n)" -lt "$files" ]; then ulimit -S -n "$files" 2>/dev/null || true; fi
echo "== Open files: soft limit $(ulimit -S -n), hard limit $(ulimit -H -n)"

# Every close() of a descriptor the test process does not hold is reported (Tests/close-check.c, preloaded into it):
# a double close there can close another thread's socket, which crashed a CI run in SwiftNIO.
cc -shared -fPIC -O2 -Wall -o "$sandbox/close-check.so" "$repo/Tests/close-check.c" -ldl
closes="$sandbox/close-check.log"

# The tests run in parallel, so a failure can be printed long before the end; the log is kept, and the failures are
# printed again last, where a reader of the output's tail sees them.
mkdir -p "$repo/.build/test-artifacts"
log="$repo/.build/test-artifacts/swift-test.log"
{
  status=0
  env XDG_DATA_HOME="$sandbox/data" XDG_CONFIG_HOME="$sandbox/config" XDG_CACHE_HOME="$sandbox/cache" \
    XDG_RUNTIME_DIR="$sandbox/runtime" B2C_TASKS_TEST_DESKTOP=1 B2C_TASKS_PREFIX="$repo/.build-prefix-test" \
    B2C_TASKS_ARTIFACTS="$repo/.build/test-artifacts" GTK_A11Y=atspi \
    "$repo/Tests/xvfb.sh" dbus-run-session -- "$repo/Tests/desktop-session.sh" \
    env LD_PRELOAD="$sandbox/close-check.so" B2C_TASKS_CLOSE_CHECK_LOG="$closes" \
    swift test --skip-build "$@" || status=$?
  echo "$status" >"$sandbox/status"
} 2>&1 | tee "$log"
status=$(cat "$sandbox/status")
if [ ! -e "$closes.armed" ]; then
  echo "== The double-close check was not armed in the test process (Tests/close-check.c): the run is not trusted" |
    tee -a "$log"
  [ "$status" -ne 0 ] || status=1
fi
if [ -s "$closes" ]; then
  # Each frame "FILE(+0xOFFSET)" is named by llvm-symbolizer, from the toolchain beside swift.
  symbolizer="$(dirname "$(readlink -f "$(command -v swift)")")/llvm-symbolizer"
  echo "== The test process closed descriptors it did not hold (double closes; each with its stack):"
  while IFS= read -r line; do
    case $line in
      "=="*) echo "$line" ;;
      *"(+0x"*")"*)
        file=${line%%(+0x*} offset=${line#*(+} offset=${offset%%)*}
        if [ -x "$symbolizer" ]; then
          echo "  $("$symbolizer" --obj="$file" "$offset" | head -n 2 | swift demangle --simplified | paste -s -d ' ')"
        else
          echo "  $line"
        fi ;;
      *) echo "  $line" | swift demangle --simplified ;;
    esac
  done <"$closes" | tee -a "$log"
  [ "$status" -ne 0 ] || status=1
fi
if [ "$status" -ne 0 ]; then
  echo "== The failures again (the whole output is in $log):"
  grep -A 6 -E '✘|error:|Fatal error|Crash' "$log" | grep -v -E '^> ◇|◇ Test .* started' | head -n 200 || true
  exit "$status"
fi
