#!/bin/sh
# caldav-sync.sh [--quick]: CalDAV's speed (issue 65) on b2c-tasks-api over SQLite and over PostgreSQL, for an
# account with 10 000 tasks in 20 lists: a CalDAV client's first sync (PROPFIND of the ETags and calendar-multiget,
# as DAVx5 does it) as a ratio to the API v2 feed's transfer of the same tasks in the same run; and on PostgreSQL the
# task rows read by 100 sync-collection REPORTs of every list when nothing changed (pg_stat_user_tables: none is
# read, the list's position answers). --quick: the debug build and 200 tasks (CI keeps the script working with it);
# otherwise a release build (about 3 minutes).
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
duration=1s configuration=release tasks=10000 reads=100
if [ "${1:-}" = "--quick" ]; then configuration=debug tasks=200 reads=20; fi
. "$repo/Tests/Benchmarks/task-api-setup.sh"

echo "CalDAV first sync against the API v2 feed ($configuration, $tasks tasks in 20 lists; $(nproc) CPUs):"
api sqlite "$work/tasks.sqlite"
printf '  b2c-tasks-api, SQLite: '
python3 "$repo/Tests/Benchmarks/caldav-sync.py" "$api_url" "$work/auth.header" "$tasks" 20 "$work"
stop_api "$!"
api postgres "$database_url"
printf '  b2c-tasks-api, PostgreSQL: '
python3 "$repo/Tests/Benchmarks/caldav-sync.py" "$api_url" "$work/auth.header" "$tasks" 20 "$work"
# A backend reports its statistics when idle for 10 s at the latest (PostgreSQL 15): wait before each count.
sleep 11
before=$(rows)
i=0 answers=0
while [ $i -lt "$reads" ]; do
  while read -r collection token; do
    body="<d:sync-collection xmlns:d=\"DAV:\"><d:sync-token>$token</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>"
    answer=$(curl -sf -X REPORT -H @"$work/dav.header" -H "Content-Type: application/xml" --data-binary "$body" \
      "$api_url$collection")
    case $answer in *"<d:response>"*) echo "an unchanged sync-collection answered a change: $answer" >&2; exit 1 ;; esac
    answers=$((answers + 1))
  done <"$work/tokens"
  i=$((i + 1))
done
sleep 11
echo "    task rows read by $answers unchanged sync-collection REPORTs: $(($(rows) - before))"
