#!/bin/sh
# run-all.sh [STAGE…] [-- SWIFT-TEST-ARGUMENTS…]: runs every test of B2C Tasks on a fresh Debian 12 machine, or the
# stages named. The stages, in the order of a full run (the default):
#   deps         installs what is missing (apt; needs root or sudo)
#   build        the debug build with the tests, installed into .build-prefix-test/
#   data         meson's tests: the data files, translations and names (meson test)
#   launch       an install and a start the way GNOME's launcher does it, and the broker started by D-Bus
#   benchmarks   the benchmark scripts, --quick (kept working; their figures mean nothing here)
#   swift-tests  the Swift tests under Xvfb and a private D-Bus session with an unlocked gnome-keyring; arguments after
#                -- go to `swift test` (for one suite: Tests/run-all.sh swift-tests -- --filter BrokerUITests)
#   packages     the Debian packages: built, checked by lintian, tried in clean Debian 12 and 13 roots (in a full run
#                they are built in the background, at the lowest priority, from the end of the build stage on)
# A stage named alone builds first when it needs the build (data, launch, benchmarks, swift-tests). Screenshots land
# in .build/test-artifacts/.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

stages="" swift_arguments="" packages_only=false
while [ $# -gt 0 ]; do
  case $1 in
    --) shift; swift_arguments="$*"; break ;;
    --packages-build) packages_only=true ;;  # the background part of a full run (start_packages_build)
    deps | build | data | launch | packages | benchmarks | swift-tests) stages="$stages $1" ;;
    *) echo "run-all.sh: unknown stage $1 (see the comment at the top)" >&2; exit 2 ;;
  esac
  shift
done
full=false
[ -n "$stages" ] || { full=true; stages="deps build data launch benchmarks swift-tests packages"; }
built=false
build() {
  swift build --build-tests
  meson-wrap/tools/dev-install.sh "$repo/.build-prefix-test" debug
  built=true
}
needs_build() { $built || build; }

if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
# The packages' release build and the download of the clean roots (the one waits on the CPU, the other on the
# network). In a full run they go on in the background, at the lowest CPU priority, from the end of the debug build
# to the packages' stage (moved to the end): a build from nothing takes a quarter of an hour on 2 cores, and the
# tests in between often leave a core idle (waiting on a window, a server or a keyring).
build_packages() {
  $sudo Tests/Packages/try-debs.sh --prepare bookworm trixie &
  roots=$!
  meson-wrap/tools/build-debs.sh "$repo/.build/debs"
  echo "run-all: the packages were built after $(($(date +%s) - packages_started)) s"
  wait "$roots"
  echo "run-all: the clean roots were ready after $(($(date +%s) - packages_started)) s"
}
packages_build="" packages_started=$(date +%s)
if $packages_only; then
  build_packages
  exit 0
fi
start_packages_build() {
  mkdir -p "$repo/.build/test-artifacts"
  packages_log="$repo/.build/test-artifacts/packages-build.log"
  # A session of its own, so that a run that ends early takes the whole build with it.
  setsid nice -n 19 "$repo/Tests/run-all.sh" --packages-build </dev/null >"$packages_log" 2>&1 &
  packages_build=$!
  trap 'kill -- "-$packages_build" 2>/dev/null || true' EXIT
}
finish_packages_build() {
  status=0
  wait "$packages_build" || status=$?
  trap - EXIT
  cat "$packages_log"
  [ "$status" -eq 0 ] || { echo "run-all: the packages' build failed ($status)" >&2; exit "$status"; }
}

# Each stage's wall time is printed as it ends, so a slow CI run tells where its time went.
timed() {
  started=$(date +%s)
  "$@"
  echo "run-all: stage $stage took $(($(date +%s) - started)) s"
}
run_stage() {
  case $stage in
    deps) meson-wrap/tools/install-deps.sh --tests ;;
    build) build ;;
    data)
      needs_build
      meson test -C "$repo/.build-meson-debug" --print-errorlogs
      ;;
    launch)
      needs_build
      # The installed tree, a start the way GNOME's launcher does it (gtk4-launch, D-Bus activation) and Quit, and
      # the sign-in broker started by D-Bus.
      Tests/xvfb.sh Tests/install-and-launch.sh "$repo/.build-meson-debug" "$repo/.build-prefix-test"
      ;;
    packages)
      # Built from the tracked files, checked by lintian, and tried in clean Debian 12 and 13 roots made from
      # Debian's archive (the launcher's entry, a sign-in, a task, the CLI, the service's unit, a clean purge).
      if [ -z "$packages_build" ]; then build_packages; else finish_packages_build; fi
      lintian --fail-on error,warning --no-tag-display-limit "$repo"/.build/debs/*.deb
      $sudo Tests/Packages/try-debs.sh "$repo/.build/debs" bookworm trixie
      ;;
    benchmarks)
      needs_build
      # Keep the benchmark scripts working (figures from a one-second debug run mean nothing; see Tests/Benchmarks).
      Tests/Benchmarks/task-api-throughput.sh --quick
      Tests/Benchmarks/planner-feed.sh --quick
      Tests/Benchmarks/caldav-sync.sh --quick
      Tests/Benchmarks/long-poll.sh --quick
      Tests/Benchmarks/first-sync.sh --quick
      Tests/Benchmarks/startup-and-scale.sh --quick
      Tests/Benchmarks/sign-in.sh --quick
      Tests/Benchmarks/broker.sh --quick
      Tests/Benchmarks/planner-ui.sh --quick
      Tests/Benchmarks/reminders.sh --quick
      ;;
    swift-tests)
      needs_build
      Tests/swift-tests.sh $swift_arguments
      # Alone, once every other test is over: the test that sets the machine's clock.
      if [ -z "$swift_arguments" ]; then
        B2C_TASKS_CLOCK_TESTS=1 Tests/swift-tests.sh --filter ClockSetUITests
      fi
      ;;
  esac
}
for stage in $stages; do
  timed run_stage
  if $full && [ "$stage" = build ]; then start_packages_build; fi
done
$full && echo "run-all: every stage passed" || true
