#!/bin/sh
# service-check.sh: run by systemd as the clean root boots (try-debs.sh boots it with systemd-nspawn, with only
# loopback), with the three packages installed. What an administrator meets with b2c-tasks-api.service:
# - installed, the unit is neither enabled nor started;
# - configured and enabled, it serves with all its hardening: the packaged CLI signs Ann in at the packaged playground
#   and adds a task through it, which it stores (mode 0600) in its state folder; `systemd-analyze security` rates it;
# - an upgrade (dpkg -i of the package again) restarts it: a new process, serving;
# - removal stops it; purge keeps the tasks and says where.
# Writes service-check.log and service-check.status (0: passed) beside itself, then powers the machine off.
set -u
here=$(dirname "$(readlink -f "$0")")
exec >"$here/service-check.log" 2>&1
unit=b2c-tasks-api.service
finish() {
  echo "$1" >"$here/service-check.status"
  systemctl poweroff --no-block
  exit "$1"
}
fail() {
  echo "service-check: FAILED: $*"
  journalctl --no-pager -n 40 -u $unit
  finish 1
}
step() { echo "service-check: $*"; }
# ready: waits (60 s at most) until the service answers /ready.
ready() {
  for _ in $(seq 1 120); do
    curl -sf http://127.0.0.1:8080/ready >/dev/null && return 0
    sleep 0.5
  done
  return 1
}

[ "$(systemctl is-enabled $unit)" = disabled ] && ! systemctl -q is-active $unit ||
  fail "after install the unit is $(systemctl is-enabled $unit) and $(systemctl is-active $unit)"
step "installed: the unit is disabled and not running"

b2c-playground --data "$here/playground" --log-level warning >"$here/playground.log" 2>&1 &
issuer="http://127.0.0.1:5995/b2ctasks.onmicrosoft.com/B2C_1_SignUpOrSignIn/v2.0/.well-known/openid-configuration"
for _ in $(seq 1 120); do curl -sf "$issuer" >/dev/null && break; sleep 0.5; done
sed -i "s|^B2C_TASKS_API_OPTIONS=.*|B2C_TASKS_API_OPTIONS=--issuer-metadata $issuer --audience 6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10|" \
  /etc/b2c-tasks-api/b2c-tasks-api.env
systemctl enable --now $unit || fail "systemctl enable --now failed"
ready || fail "/ready never answered"
first=$(systemctl show -P MainPID $unit)

# A user of the service: the packaged CLI, signed in at the playground, with the service as its task API.
export HOME="$here/home" XDG_CONFIG_HOME="$here/home/config" XDG_DATA_HOME="$here/home/data"
mkdir -p "$XDG_CONFIG_HOME/io.github.b2ctasks.B2CTasks" "$XDG_DATA_HOME"
cat >"$XDG_CONFIG_HOME/io.github.b2ctasks.B2CTasks/settings.plist" <<PLIST
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
  <key>clientID</key><string>6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10</string>
  <key>authorityHost</key><string>http://127.0.0.1:5995</string>
  <key>tenant</key><string>b2ctasks.onmicrosoft.com</string>
  <key>signInPolicy</key><string>B2C_1_SignUpOrSignIn</string>
  <key>taskAPI</key><string>http://127.0.0.1:8080</string>
</dict></plist>
PLIST
listed=$(dbus-run-session -- sh -c ". '$here/keyring.sh' && unlock_keyring &&
  BROWSER='$here/scripted-browser.sh' B2C_TEST_EMAIL=ann@example.com B2C_TEST_PASSWORD=Tasks-Demo-1 \
    b2c-tasks-cli sign-in >/dev/null && b2c-tasks-cli add 'served under systemd' >/dev/null && b2c-tasks-cli list" 2>&1)
echo "$listed" | grep -q 'served under systemd' || fail "the CLI did not add a task through the service: $listed"
database=/var/lib/private/b2c-tasks-api/tasks.sqlite
[ "$(stat -c %a "$database")" = 600 ] || fail "the database has mode $(stat -c %a "$database")"
step "enabled: serving as the dynamic user $(stat -c %u /proc/"$first"); the CLI added a task through it, stored in $database (0600)"
step "systemd-analyze security: $(systemd-analyze security $unit | tail -n 1)"

dpkg -i "$here"/b2c-tasks-api_*.deb >/dev/null || fail "dpkg -i (the upgrade) failed"
second=$(systemctl show -P MainPID $unit)
[ "$second" != 0 ] && [ "$second" != "$first" ] || fail "the upgrade did not restart the service ($first, now $second)"
ready || fail "after the upgrade /ready never answered"
step "upgraded: restarted (process $first, now $second) and serving"

apt-get remove -y -q b2c-tasks-api >/dev/null || fail "apt-get remove failed"
! systemctl -q is-active $unit && [ ! -e "/proc/$second" ] || fail "removal left the service running"
step "removed: stopped"

said=$(apt-get purge -y -q b2c-tasks-api 2>&1) || fail "apt-get purge failed: $said"
[ -e "$database" ] || fail "purge deleted the tasks"
echo "$said" | grep -q "/var/lib/private/b2c-tasks-api" || fail "purge did not say where the tasks stay: $said"
step "purged: the tasks stay, and it says so: $(echo "$said" | grep 'b2c-tasks-api:' | head -n 1)"
finish 0
