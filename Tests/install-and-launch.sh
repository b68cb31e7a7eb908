#!/bin/sh
# install-and-launch.sh BUILD-DIR PREFIX: installs the meson build BUILD-DIR into a temporary DESTDIR and checks the
# tree; then starts the app installed in PREFIX (by dev-install.sh) the way GNOME's launcher does: gtk4-launch with
# XDG_DATA_DIRS pointing at the prefix, which D-Bus-activates it (DBusActivatable), and waits for its window.
# Needs an X display (run under xvfb-run).
set -eu
build=$1 prefix=$2
app_id=io.github.b2ctasks.B2CTasks
work=$(mktemp -d /tmp/b2c-install.XXXXXX)
trap '"$(dirname "$0")/remove-tree.sh" "$work"' EXIT INT TERM
fail() { echo "install-and-launch: $*" >&2; exit 1; }

# 1. The tree.
meson install -C "$build" --destdir "$work/dest" --quiet >"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "meson install failed"; }
installed_prefix=$(meson introspect "$build" --buildoptions \
  | python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
root="$work/dest$installed_prefix"
expected="bin/b2c-tasks bin/b2c-tasks-cli bin/b2c-playground bin/b2c-tasks-api lib/b2c-tasks/libTasksWebView.so
  lib/b2c-tasks/b2c-tasks-reminders share/dbus-1/services/$app_id.Reminders.service
  share/applications/$app_id.Reminders.desktop
  share/b2c-tasks/b2c-tasks.gresource share/applications/$app_id.desktop share/metainfo/$app_id.metainfo.xml
  share/glib-2.0/schemas/$app_id.gschema.xml share/dbus-1/services/$app_id.service
  share/dbus-1/services/io.github.b2ctasks.Broker.service share/dbus-1/interfaces/io.github.b2ctasks.Broker1.xml
  share/icons/hicolor/scalable/apps/$app_id.svg share/icons/hicolor/symbolic/apps/$app_id-symbolic.svg"
for size in 16 32 48 64 128; do expected="$expected share/icons/hicolor/${size}x$size/apps/$app_id.png"; done
for language in $(grep -v '^#' "$(dirname "$0")/../meson-wrap/po/LINGUAS"); do
  expected="$expected share/locale/$language/LC_MESSAGES/b2c-tasks.mo"
done
missing=""
for file in $expected; do [ -s "$root/$file" ] || missing="$missing $file"; done
[ -z "$missing" ] || fail "missing from the installed tree:$missing"
for program in b2c-tasks b2c-tasks-cli b2c-playground b2c-tasks-api; do [ -x "$root/bin/$program" ] || fail "$program is not executable"; done
grep -qx 'DBusActivatable=true' "$root/share/applications/$app_id.desktop" || fail "the desktop file is not DBusActivatable"
grep -qx "Exec=$installed_prefix/bin/b2c-tasks --gapplication-service" "$root/share/dbus-1/services/$app_id.service" \
  || fail "the D-Bus service does not start $installed_prefix/bin/b2c-tasks"
grep -qx "Exec=$installed_prefix/lib/b2c-tasks/b2c-tasks-reminders --gapplication-service" \
  "$root/share/dbus-1/services/$app_id.Reminders.service" || fail "the reminder service's D-Bus service file"
"$root/bin/b2c-tasks" --version | grep -q '^b2c-tasks [0-9]' || fail "--version"
"$root/bin/b2c-tasks" --help | grep -q -- '--settings=FILE' || fail "--help"
echo "install-and-launch: the installed tree is complete ($(echo $expected | wc -w) files)"

# 2. The launcher. A D-Bus session that knows the prefix's service files, with an unlocked keyring.
# As a session whose PATH and XDG_DATA_DIRS include the prefix (GLib skips desktop entries whose Exec is not on PATH).
export PATH="$prefix/bin:$PATH" XDG_DATA_DIRS="$prefix/share:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}"
export XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_CACHE_HOME="$work/cache" GSETTINGS_BACKEND=memory
dbus-run-session -- sh -eu -c '
  . "'"$(cd "$(dirname "$0")" && pwd)"'/keyring.sh"
  unlock_keyring
  gtk4-launch '"$app_id"'
  tries=0
  until window=$(xdotool search --onlyvisible --name "^B2C Tasks\$" 2>/dev/null | head -n 1) && [ -n "$window" ]; do
    tries=$((tries + 1)); [ $tries -lt 150 ] || { echo "install-and-launch: no window after gtk4-launch" >&2; exit 1; }
    sleep 0.2
  done
  pid=$(xdotool getwindowpid "$window")
  tr "\0" " " </proc/$pid/cmdline | grep -q -- "--gapplication-service" \
    || { echo "install-and-launch: the window is not from the D-Bus-activated service" >&2; exit 1; }
  echo "install-and-launch: gtk4-launch started $(tr "\0" " " </proc/$pid/cmdline)and its window is up"
  gapplication action '"$app_id"' quit
  # Quit ends it (a window makes the service an app again: no linger).
  tries=0
  while [ -d /proc/$pid ]; do
    tries=$((tries + 1)); [ $tries -lt 150 ] || { echo "install-and-launch: still running 30 s after Quit" >&2; exit 1; }
    sleep 0.2
  done
  # The sign-in broker: D-Bus starts the app for it, without a window, and it answers (nobody is signed in).
  accounts=$(gdbus call --session --timeout 60 --dest io.github.b2ctasks.Broker --object-path /io/github/b2ctasks/Broker \
    --method io.github.b2ctasks.Broker1.GetAccounts)
  [ "$accounts" = "(@aa{sv} [],)" ] || { echo "install-and-launch: the broker answered $accounts" >&2; exit 1; }
  echo "install-and-launch: the D-Bus-activated broker answers GetAccounts: $accounts"
  # The reminder service: a notification'"'"'s button (an app. action) reaches it by D-Bus activation once it has ended.
  gapplication action '"$app_id"'.Reminders refresh
  owner=$(gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.GetConnectionUnixProcessID '"$app_id"'.Reminders)
  reminders=$(echo "$owner" | sed "s/.*uint32 \([0-9]*\).*/\1/")
  tr "\0" " " </proc/$reminders/cmdline | grep -q "lib/b2c-tasks/b2c-tasks-reminders --gapplication-service" \
    || { echo "install-and-launch: the reminder service was not started by D-Bus" >&2; exit 1; }
  if grep -q libgtk /proc/$reminders/maps; then echo "install-and-launch: the reminder service loaded GTK" >&2; exit 1; fi
  echo "install-and-launch: an action of the reminder service started it by D-Bus: $(tr "\0" " " </proc/$reminders/cmdline)"
  gapplication action '"$app_id"'.Reminders quit
'
