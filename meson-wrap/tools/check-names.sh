#!/bin/sh
# check-names.sh REPO VERSION APP_ID DOMAIN: the names B2C Tasks is known by are given once in meson (the project's
# version and name, app_id) and once in Swift (AppIdentity, Installation), since `swift build` runs without meson;
# this test (meson test names-agree) fails when any copy differs: the Swift constants, the .ui files' translation
# domain, the GSettings schema, the GResource prefix, the installed data files' names.
set -eu
repo=$1 version=$2 app_id=$3 domain=$4
path="/$(echo "$app_id" | tr . /)"
failed=0

expect() { # expect FILE TEXT WHAT
  if ! grep -qF -- "$2" "$repo/$1"; then
    echo "$1: expected $3 ($2)" >&2
    failed=1
  fi
}

expect Sources/TasksCore/AppIdentity.swift "static let appID = \"$app_id\"" "the app ID"
expect Sources/TasksCore/AppIdentity.swift "static let gettextDomain = \"$domain\"" "the gettext domain"
expect Sources/TasksApp/Installation.swift "static let version = \"$version\"" "the meson project's version"
expect Sources/TasksApp/Installation.swift "static let resourceBase = \"$path\"" "the GResource prefix"
expect "data/$app_id.gschema.xml" "<schema id=\"$app_id\" path=\"$path/\">" "the schema's id and path"
expect "data/$app_id.gresource.xml" "<gresource prefix=\"$path\">" "the GResource prefix"
expect "data/$app_id.metainfo.xml.in" "<id>$app_id</id>" "the component id"
expect "data/$app_id.metainfo.xml.in" "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "the launchable"
expect "data/$app_id.service.in" "Name=$app_id" "the D-Bus name"
# The sign-in broker's names (Swift: AppIdentity.Broker) in its D-Bus service file and interface description.
swift_value() { # swift_value NAME: the string constant NAME of AppIdentity.swift
  sed -n "s/.*static let $1 = \"\(.*\)\"/\1/p" "$repo/Sources/TasksCore/AppIdentity.swift"
}
bus_name=$(swift_value busName) object_path=$(swift_value objectPath) interface=$(swift_value interface)
expect "data/$bus_name.service.in" "Name=$bus_name" "the broker's bus name"
expect "data/$interface.xml" "<interface name=\"$interface\">" "the broker's interface"
expect "data/$interface.xml" "Bus name $bus_name on" "the broker's bus name"
expect "data/$interface.xml" "object $object_path;" "the broker's object path"
expect "data/$app_id.gresource.xml" "alias=\"$interface.xml\">$interface.xml<" "the broker's interface resource"
# The reminder service's names (Swift: AppIdentity.Reminders): its D-Bus service file and desktop entry.
reminders_id=$(swift_value appID | grep -F "$app_id." || true)
if [ "$reminders_id" != "$app_id.Reminders" ]; then
  echo "Sources/TasksCore/AppIdentity.swift: expected the reminder service's id $app_id.Reminders ($reminders_id)" >&2
  failed=1
fi
expect "data/$reminders_id.service.in" "Name=$reminders_id" "the reminder service's D-Bus name"
expect "data/$reminders_id.service.in" "Exec=@pkglibdir@/b2c-tasks-reminders --gapplication-service" "its program"
expect "data/$reminders_id.desktop.in" "DBusActivatable=true" "the reminder service's entry, D-Bus activatable"
# The GSettings keys: SettingsKey names every key of the schema, and no other.
schema_keys=$(sed -n 's/.*<key name="\([^"]*\)".*/\1/p' "$repo/data/$app_id.gschema.xml" | sort)
swift_keys=$(sed -n 's/.*case [a-zA-Z]* = "\([^"]*\)".*/\1/p' "$repo/Sources/TasksApp/SettingsKey.swift" | sort)
if [ "$schema_keys" != "$swift_keys" ]; then
  echo "Sources/TasksApp/SettingsKey.swift: the keys differ from the schema's:" $schema_keys "/" $swift_keys >&2
  failed=1
fi
for ui in "$repo"/data/ui/*.ui; do
  expect "data/ui/${ui##*/}" "<interface domain=\"$domain\">" "the gettext domain"
done
exit "$failed"
