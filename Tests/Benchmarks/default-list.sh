# default_list_sql OWNER-SQL: SQL that gives the owner (an SQL expression for a TaskOwner key) a default list in the
# playground's database when they have none, as the task API makes it at its first call. Sourced by environment.sh
# and by the UI test that seeds 2 000 tasks.
default_list_sql() {
  echo "INSERT INTO lists (id, owner, name, isDefault, createdAt, updatedAt, version, seq)
      SELECT '00000000-0000-4000-8000-000000000001', $1, 'Tasks', 1, '2026-11-22 08:00:00.000',
        '2026-11-22 08:00:00.000', 1, 1
      WHERE NOT EXISTS (SELECT 1 FROM lists WHERE owner = $1 AND isDefault);
    INSERT INTO members (listID, member, memberID, role, joinedSeq)
      SELECT id, $1, '00000000-0000-4000-8000-000000000002', 'owner', 1 FROM lists WHERE owner = $1 AND isDefault
        AND NOT EXISTS (SELECT 1 FROM members WHERE member = $1 AND listID = lists.id);"
}
