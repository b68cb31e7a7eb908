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
