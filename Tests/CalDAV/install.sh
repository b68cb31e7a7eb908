#!/bin/sh
# install.sh DIR: makes sure DIR is a Python virtualenv holding the CalDAV interop tests' clients, pinned, from PyPI:
#   caldav (python-caldav), caldav-server-tester (its probe of ~100 server features; needs caldav>=3.6.0),
#   vdirsyncer + todoman (command-line sync and task manager), radicale (the reference server for the self-check).
# Their dependencies are held to constraints.txt beside this file. Idempotent: does nothing when DIR already has
# exactly these (a stamp file records the list; pip is asked to confirm the five versions). Quiet; prints how long
# it took. Several callers at once: one installs, the others wait (flock).
set -eu
[ $# -eq 1 ] || { echo "usage: $0 VENV-DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
venv=$1
pins='caldav==3.6.0 caldav-server-tester==1.7.0 vdirsyncer==0.21.0 todoman==4.7.0 radicale==3.9.0'
start=$(date +%s.%N)
mkdir -p "$(dirname "$venv")"
exec 9>"$venv.lock"
flock 9
stamp="$pins $(cksum <"$here/constraints.txt")"
installed() {
  [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.caldav-pins" 2>/dev/null)" = "$stamp" ] || return 1
  # the stamp says so; check pip agrees (someone may have changed the venv by hand)
  have=$("$venv/bin/python" -m pip list --disable-pip-version-check --format=freeze 2>/dev/null | tr 'A-Z_' 'a-z-')
  for p in $pins; do
    printf '%s\n' "$have" | grep -qx "$p" || return 1
  done
}
if installed; then
  what="already installed"
else
  if [ ! -x "$venv/bin/python" ]; then
    if ! python3 -m venv "$venv" 2>/dev/null; then
      # Debian's own python3 keeps venv (ensurepip) in a package of its own
      rm -rf "$venv"
      if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get install -y -qq python3-venv >/dev/null
        python3 -m venv "$venv"
      else
        echo "install.sh: python3 -m venv failed (Debian: apt-get install python3-venv)" >&2
        exit 1
      fi
    fi
  fi
  # shellcheck disable=SC2086 # the list is split on purpose
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -c "$here/constraints.txt" $pins
  printf '%s' "$stamp" >"$venv/.caldav-pins"
  what="installed"
fi
end=$(date +%s.%N)
awk -v a="$start" -v b="$end" -v w="$what" -v v="$venv" 'BEGIN { printf "caldav clients %s in %s (%.1f s)\n", w, v, b - a }'
