#!/bin/sh
# in-session.sh: inside a clean root, as its user: starts b2c-playground (from its package), Xvfb, a D-Bus session
# with an unlocked keyring, and runs launcher-check.py in it.
set -eu
export HOME=/home/tester XDG_RUNTIME_DIR=/tmp/runtime-tester DISPLAY=:7
mkdir -m 700 -p "$XDG_RUNTIME_DIR"
b2c-playground --data "$HOME/playground" >/tmp/playground.log 2>&1 &
playground=$!
Xvfb :7 -screen 0 1280x800x24 -nolisten tcp >/tmp/xvfb.log 2>&1 &
xvfb=$!
trap 'kill $playground $xvfb 2>/dev/null || true' EXIT
ready() {
  curl -sf http://127.0.0.1:5995/b2ctasks.onmicrosoft.com/B2C_1_SignUpOrSignIn/v2.0/.well-known/openid-configuration \
    >/dev/null && xdotool getdisplaygeometry >/dev/null 2>&1
}
for i in $(seq 1 120); do
  ready && break
  sleep 0.5
done
ready || { echo "in-session: the playground or Xvfb did not start within 60 s" >&2; exit 1; }
dbus-run-session -- sh -c '
  . /tmp/keyring.sh
  unlock_keyring
  python3 /tmp/launcher-check.py'
