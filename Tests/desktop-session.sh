#!/bin/sh
# desktop-session.sh COMMAND…: inside a D-Bus session, starts gnome-keyring's Secret Service with an unlocked login
# keyring (a locked one would make libsecret open a prompt and block), then runs COMMAND.
set -eu
. "$(dirname "$0")/keyring.sh"
unlock_keyring
exec "$@"
