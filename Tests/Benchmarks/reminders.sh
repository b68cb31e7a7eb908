#!/bin/sh
# reminders.sh [--quick]: the reminder service (b2c-tasks --background) idle, with Ann's 2 000 tasks of 20 lists and
# 20 reminders days away, against two C programs on the same GLib main loop measured in the same run: one that wakes
# once a minute (the pace the service polled at before it held a long poll of the feed) and one that polls every 20
# seconds, as Errands does for its reminders.
#   Prints each program's wake-ups (voluntary context switches of all its threads) per minute over 5 minutes idle
#   (--quick: 20 seconds, with the debug build in .build-prefix-test/; --debug-build: 5 minutes with that build;
#   --prefix: 5 minutes with an installation already made), the service's as a ratio of the minute baseline's, and
#   its resident memory against the 20 MB target (issue 66: at most 2 wake-ups a minute, at most 20 MB).
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. "$repo/Tests/Benchmarks/in-desktop.sh"
seconds=300 prefix="$repo/.build-prefix-bench" quick=false
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=true seconds=20 prefix="$repo/.build-prefix-test" ;;
    --debug-build) quick=true prefix="$repo/.build-prefix-test" ;;
    --prefix) quick=true prefix=$2; shift ;;
    --seconds) seconds=$2; shift ;;
    *) echo "usage: $0 [--quick | --debug-build | --prefix INSTALLED] [--seconds N]" >&2; exit 2 ;;
  esac
  shift
done
[ "$quick" = true ] || meson-wrap/tools/dev-install.sh "$prefix" release >/dev/null
. "$repo/Tests/Benchmarks/environment.sh"

# The baselines: a GLib main loop woken by a timeout every N seconds, doing nothing else.
cat >"$work/idle.c" <<'C'
#include <glib.h>
#include <stdlib.h>
static gboolean tick(gpointer data) { (void)data; return G_SOURCE_CONTINUE; }
int main(int argc, char **argv) {
  (void)argc;
  g_timeout_add_seconds((guint)atoi(argv[1]), tick, NULL);
  g_main_loop_run(g_main_loop_new(NULL, FALSE));
  return 0;
}
C
cc -O2 -o "$work/idle" "$work/idle.c" $(pkg-config --cflags --libs glib-2.0)

seed_reminders "$prefix"

"$prefix/bin/b2c-tasks" --background >"$work/service.out" 2>&1 &
service=$!
"$work/idle" 60 &
minute=$!
"$work/idle" 20 &
poll=$!
trap 'kill $service $minute $poll $playground 2>/dev/null || true; "$repo/Tests/remove-tree.sh" "$work"' EXIT INT TERM

# threads PID: each thread's voluntary context switches so far, a line "TID COUNT" each.
threads() {
  for task in /proc/"$1"/task/*; do
    echo "${task##*/} $(awk '/^voluntary_ctxt_switches/ { print $2 }' "$task/status" 2>/dev/null)"
  done
}
# wakeups PID: the voluntary context switches of all its threads so far.
wakeups() { threads "$1" | awk '{ n += $2 } END { print n }'; }
# The service's first read of the feed (2 000 tasks) is over once it has been quiet for two seconds.
last=-1 tries=0
while [ "$(wakeups $service)" != "$last" ] && [ $tries -lt 15 ]; do
  last=$(wakeups $service) tries=$((tries + 1))
  sleep 2
done
[ $tries -lt 15 ] || echo "  (the service never stayed quiet for two seconds in 30 s)"
# Each thread is read every second, so that the wake-ups of a thread that ends meanwhile (GLib's pool ends its idle
# workers) are counted up to its last second, and those of a thread that starts are counted from 0.
for pid in $service $minute $poll; do threads $pid >"$work/start.$pid" && cp "$work/start.$pid" "$work/seen.$pid"; done
began=$(date +%s.%N) i=0
while [ $i -lt "$seconds" ]; do
  sleep 1
  for pid in $service $minute $poll; do threads $pid >>"$work/seen.$pid"; done
  i=$((i + 1))
done
elapsed=$(awk -v began="$began" -v now="$(date +%s.%N)" 'BEGIN { print now - began }')
# woke PID: its threads' wake-ups since the start of the idle time.
woke() {
  awk 'NR == FNR { start[$1] = $2; next } $2 != "" && $2 + 0 > last[$1] + 0 { last[$1] = $2 }
    END { for (t in last) n += last[t] - start[t]; print n + 0 }' "$work/start.$1" "$work/seen.$1"
}
awk -v s="$(woke $service)" -v m="$(woke $minute)" -v p="$(woke $poll)" -v t="$elapsed" 'BEGIN {
  printf "idle over %.0f s, wake-ups per minute: reminder service %.1f; baseline woken each minute %.1f; polling every 20 s (as Errands) %.1f\n",
    t, s * 60 / t, m * 60 / t, p * 60 / t
  printf "  the service against the minute baseline: %.2f×; %.2f× the target of 2 a minute\n", (s + 0.5) / (m + 0.5),
    s * 60 / t / 2
}'
awk '/^(VmRSS|RssAnon|RssFile)/ { rss[$1] = $2 }
  END { printf "reminder service idle: %d KiB resident (anonymous %d, files %d), %.2f× the 20 MB target\n",
    rss["VmRSS:"], rss["RssAnon:"], rss["RssFile:"], rss["VmRSS:"] / 20480 }' "/proc/$service/status"
if grep -q libgtk "/proc/$service/maps"; then echo "  GTK is loaded"; else echo "  GTK is not loaded"; fi
# Each thread's wake-ups while idle (a thread that ended meanwhile is named by its id).
awk 'NR == FNR { start[$1] = $2; next } $2 != "" && $2 + 0 > last[$1] + 0 { last[$1] = $2 }
  END { for (t in last) print t, last[t] - start[t] }' "$work/start.$service" "$work/seen.$service" |
  while read -r tid count; do
    echo "  thread $(cat "/proc/$service/task/$tid/comm" 2>/dev/null || echo "$tid (ended)"): $count wake-ups while idle"
  done

# Whatever the lists hold: 300 of Ann's tasks (as another member of a shared list could write them) get 60 000
# characters of notes, a 4 000-character title and a reminder ten days away; the service reads them from nothing
# (its agenda removed, as after a sign-in) and keeps only what its notifications show (issue 64, S3).
kill $service 2>/dev/null || true
wait $service 2>/dev/null || true
rm -f "$work/data/io.github.b2ctasks.B2CTasks/reminders/"*.json
sqlite3 "$database" "UPDATE tasks SET
    text = substr(replace(hex(zeroblob(2000)), '00', 'tt'), 1, 4000) || ' ' || text,
    details = json_set(details, '\$.notes', replace(hex(zeroblob(30000)), '00', 'nn'),
      '\$.reminders', json('[{\"at\":\"' || strftime('%Y-%m-%dT09:00:00.000Z', 'now', '+10 days')
        || '\",\"acknowledgedAt\":null,\"snoozedUntil\":null}]'))
  WHERE owner = '$owner' AND rowid IN (SELECT rowid FROM tasks WHERE owner = '$owner' ORDER BY rowid LIMIT 300)"
"$prefix/bin/b2c-tasks" --background >"$work/service.out" 2>&1 &
service=$!
# Read once its agenda is on disk and it has been quiet for two seconds.
last=-1 tries=0
while { [ "$(wakeups $service)" != "$last" ] || ! ls "$work/data/io.github.b2ctasks.B2CTasks/reminders/"*.json \
  >/dev/null 2>&1; } && [ $tries -lt 60 ]; do
  last=$(wakeups $service) tries=$((tries + 1))
  sleep 2
done
[ $tries -lt 60 ] || echo "  (the service did not keep its agenda and stay quiet within 120 s)"
agenda=$(cat "$work/data/io.github.b2ctasks.B2CTasks/reminders/"*.json 2>/dev/null | wc -c)
awk -v agenda="$agenda" '/^(VmRSS|VmHWM|RssAnon|RssFile)/ { kib[$1] = $2 }
  END { printf "with 300 tasks of 60 000 characters of notes and a reminder each: %d KiB resident (peak %d), %.2f× the 20 MB target; its agenda on disk %d KiB\n",
    kib["VmRSS:"], kib["VmHWM:"], kib["VmRSS:"] / 20480, agenda / 1024
    printf "  (anonymous %d KiB, files %d KiB)\n", kib["RssAnon:"], kib["RssFile:"] }' "/proc/$service/status"
