# environment.sh: sourced by the benchmark scripts (inside their Xvfb and D-Bus session) with $repo and $prefix
# set. Makes $work (removed at exit), a private home with a new, unlocked login keyring, starts b2c-playground from
# $prefix ($playground, at $base) and writes the app's settings for it (keychain group bench.PID); `seed N` gives
# Ann (a demo user) exactly N tasks; `median FILE COLUMN`.
work=$(mktemp -d /tmp/b2c-bench.XXXXXX)
mkdir -p "$work/data" "$work/config" "$work/cache"
# A private home for the keyring too: a new login keyring, created unlocked (an old one would open a prompt).
# The prefix's share/ is searched as an installed app's would be (its icons, as GTK looks them up).
export GTK_A11Y=atspi GSETTINGS_BACKEND=memory XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" \
  XDG_CACHE_HOME="$work/cache" XDG_DATA_DIRS="$prefix/share:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}"
. "$repo/Tests/keyring.sh"
. "$repo/Tests/Benchmarks/default-list.sh"
unlock_keyring bench
"$prefix/bin/b2c-playground" --port 0 --data "$work/playground" --log-level warning >"$work/pg.out" 2>&1 &
playground=$!
trap 'kill $playground 2>/dev/null || true; "$repo/Tests/remove-tree.sh" "$work"' EXIT INT TERM
tries=0
until grep -q "listening on" "$work/pg.out" 2>/dev/null; do
  tries=$((tries + 1)); [ $tries -lt 150 ] || { cat "$work/pg.out" >&2; exit 1; }; sleep 0.2
done
base=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$work/pg.out")
mkdir -p "$work/config/io.github.b2ctasks.B2CTasks"
cat >"$work/config/io.github.b2ctasks.B2CTasks/settings.plist" <<PLIST
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
  <key>clientID</key><string>6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10</string>
  <key>authorityHost</key><string>$base</string>
  <key>tenant</key><string>b2ctasks.onmicrosoft.com</string>
  <key>signInPolicy</key><string>B2C_1_SignUpOrSignIn</string>
  <key>redirectURI</key><string>urn:ietf:wg:oauth:2.0:oob</string>
  <key>keychain</key><string>bench.$$</string>
  <key>taskAPI</key><string>$base</string>
</dict></plist>
PLIST
database=$(ls "$work/playground"/*.sqlite)
# The task API keys tasks by issuer and subject (TaskOwner); the playground's own users' issuer is "local".
owner="local $(sqlite3 "$database" "SELECT oid FROM users WHERE email = 'ann@example.com'")"

# seed N: Ann has exactly N tasks, "task number 1" … "task number N", in her default list (made if she has none;
# the task API v2's schema: every task is in a list, with a UUID).
seed() {
  sqlite3 "$database" "DELETE FROM tasks WHERE owner = '$owner';
    $(default_list_sql "'$owner'")
    WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < $1)
    INSERT INTO tasks (owner, text, completed, dateModified, uuid, listID, createdAt, completedAt)
    SELECT '$owner', 'task number ' || x, x % 3 = 0, '2026-11-22 08:00:00.000',
      printf('00000000-0000-4000-9000-%012d', x), (SELECT id FROM lists WHERE owner = '$owner' AND isDefault),
      '2026-11-22 08:00:00.000', CASE WHEN x % 3 = 0 THEN '2026-11-22 08:00:00.000' END FROM n;"
}

# median FILE COLUMN: the median of a column of numbers.
median() { cut -d' ' -f"$2" "$1" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# seed_planner LISTS TASKS [last]: Ann has LISTS lists (her default "Tasks", then "List 1" …) holding TASKS tasks,
# "task number 1" … in all: task i in list (i - 1) % LISTS (with "last", all in the last list), due today when
# i % 4 == 0 and on one of the next 7 days when i % 4 == 1 (baseline.c's BASELINE_PLANNER spreads them alike). The
# app's copy of the change feed is removed, as after a sign-in on a new computer.
# member_order_sql: with a schema where each member keeps their own list order (members.sortKey, issue 64), SQL that
# gives the owner's members rows their lists' keys, as the migration does; nothing for an earlier schema (an earlier
# build measured with --prefix).
member_order_sql() {
  if [ "$(sqlite3 "$database" "SELECT count(*) FROM pragma_table_info('members') WHERE name = 'sortKey'")" = 1 ]; then
    echo "UPDATE members SET sortKey = (SELECT sortKey FROM lists WHERE lists.id = members.listID)
      WHERE member = '$owner';"
  fi
}

seed_planner() {
  sqlite3 "$database" "DELETE FROM tasks WHERE owner = '$owner';
    DELETE FROM members WHERE listID IN (SELECT id FROM lists WHERE owner = '$owner' AND NOT isDefault);
    DELETE FROM lists WHERE owner = '$owner' AND NOT isDefault;
    $(default_list_sql "'$owner'")
    WITH RECURSIVE n(x) AS (SELECT 1 WHERE $1 > 1 UNION ALL SELECT x + 1 FROM n WHERE x < $1 - 1)
    INSERT INTO lists (id, owner, name, sortKey, createdAt, updatedAt, version, seq)
      SELECT printf('00000000-0000-4000-8100-%012d', x), '$owner', 'List ' || x, printf('%08d', x * 1000),
        '2026-11-22 08:00:00.000', '2026-11-22 08:00:00.000', 1, 1 FROM n;
    INSERT INTO members (listID, member, memberID, role, joinedSeq)
      SELECT id, '$owner', printf('00000000-0000-4000-8200-%012d', rowid), 'owner', 1 FROM lists
      WHERE owner = '$owner' AND NOT isDefault;
    $(member_order_sql)
    WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < $2)
    INSERT INTO tasks (owner, text, completed, dateModified, uuid, listID, createdAt, completedAt, details)
    SELECT '$owner', 'task number ' || x, 0, '2026-11-22 08:00:00.000', printf('00000000-0000-4000-9000-%012d', x),
      CASE WHEN list = 0 THEN (SELECT id FROM lists WHERE owner = '$owner' AND isDefault)
        ELSE printf('00000000-0000-4000-8100-%012d', list) END,
      '2026-11-22 08:00:00.000', NULL,
      '{\"categories\":[],\"due\":' || CASE
        WHEN x % 4 = 0 THEN '{\"date\":\"' || date('now', 'localtime') || '\",\"time\":null,\"timeZone\":null}'
        WHEN x % 4 = 1 THEN '{\"date\":\"' || date('now', 'localtime', '+' || (x / 4 % 7 + 1) || ' days')
          || '\",\"time\":\"09:00\",\"timeZone\":null}'
        ELSE 'null' END
      || ',\"lastOccurrenceDone\":null,\"notes\":\"\",\"occurrencesDone\":0,\"priority\":0,\"recurrence\":null,'
      || '\"reminders\":[],\"sortKey\":\"\"}'
    FROM (SELECT x, CASE WHEN '${3:-}' = 'last' THEN $1 - 1 ELSE (x - 1) % $1 END AS list FROM n);"
  rm -rf "$work/data/io.github.b2ctasks.B2CTasks/planner"
}

# seed_reminders PREFIX: Ann signed in with PREFIX's CLI, with 2 000 tasks in 20 lists (seed_planner) and 20
# reminders 3 to 22 days away: the reminder service's benchmarks (reminders.sh, reminders-order.sh).
seed_reminders() {
  BROWSER="$repo/Tests/TasksTestSupport/scripted-browser.sh" B2C_TEST_EMAIL=ann@example.com \
    B2C_TEST_PASSWORD=Tasks-Demo-1 "$1/bin/b2c-tasks-cli" sign-in >"$work/cli.out" 2>&1 ||
    { cat "$work/cli.out" >&2; exit 1; }
  seed_planner 20 2000
  i=1
  while [ $i -le 20 ]; do
    "$1/bin/b2c-tasks-cli" add "Reminder $i" --remind "in $((i + 2)) days" >/dev/null
    i=$((i + 1))
  done
}
