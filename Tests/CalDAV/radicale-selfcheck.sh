#!/bin/sh
# radicale-selfcheck.sh [--venv DIR] [--layout root|dav|both|none] [--keep DIR] [--eds] [--faults]
#                       [interop.py options...]
#
# Checks interop.py itself against Radicale (the reference CalDAV server, from PyPI through install.sh): starts
# Radicale on a free loopback port with htpasswd (plain) auth for one user, its storage in a temporary folder, runs
# interop.py against it, stops it. Exits with interop.py's status.
#
# Layouts: "root" is Radicale at the root of its address; "dav" puts logproxy.py in front of it, serving it under
# /dav/ with / redirecting there (308) and /.well-known/caldav (301) as our task service lays out its address, so
# every client discovers from the bare address through the redirects. "both" (the default) runs root, then dav.
# With --keep DIR, Radicale's debug log and logproxy's log of every exchange of every client (python-caldav,
# vdirsyncer, todoman, caldav-server-tester) are kept in DIR; the root layout then goes through logproxy too.
# With --eds, eds.py (Evolution's CalDAV backend, Debian's packages: meson-wrap/tools/install-deps.sh --tests) runs after interop.py
# in each layout. With --faults, interop.py also runs against Radicale broken on purpose by logproxy.py --fault
# (dropping X- properties, ignoring If-Match, refusing sync-collection, ...), once per fault, and each time the
# check that should catch it must fail: the checks are shown not to pass vacuously. Anything else is handed to
# interop.py (e.g. --checks sync,todos -v).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
venv=$repo/.build/caldav-venv layout=both keep= eds= faults=
while [ $# -gt 0 ]; do
  case $1 in
    --venv) venv=$2; shift 2 ;;
    --layout) layout=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --eds) eds=1; shift ;;
    --faults) faults=1; shift ;;
    *) break ;;
  esac
done
case $layout in root|dav|both|none) ;; *) echo "radicale-selfcheck.sh: --layout root|dav|both|none" >&2; exit 2 ;; esac
"$here/install.sh" "$venv"
[ -z "$eds" ] || "$here/../../meson-wrap/tools/install-deps.sh" --tests
py=$venv/bin/python
tmp=$(mktemp -d "${TMPDIR:-/tmp}/radicale-selfcheck.XXXXXX")
logs=${keep:-$tmp}
mkdir -p "$logs"
pids=
cleanup() {
  for p in $pids; do kill "$p" 2>/dev/null || true; done
  for p in $pids; do wait "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# wait_http PID URL: polls URL until anything answers HTTP, while PID lives, for at most 30 s
wait_http() {
  "$py" - "$1" "$2" <<'EOF'
import os, sys, time, urllib.request, urllib.error
pid, url = int(sys.argv[1]), sys.argv[2]
deadline = time.monotonic() + 30
while True:
    try:
        urllib.request.urlopen(urllib.request.Request(url, method="OPTIONS"), timeout=2)
        break
    except urllib.error.HTTPError:
        break  # an answer, whatever its status
    except OSError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        sys.exit(f"process {pid} ended before {url} answered")
    if time.monotonic() > deadline:
        sys.exit(f"{url} did not answer within 30 s")
    time.sleep(0.05)
EOF
}

user=interop password=$("$py" -c 'import secrets; print(secrets.token_urlsafe(18))')
printf '%s:%s\n' "$user" "$password" >"$tmp/users"
port=$("$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
level=warning
[ -z "$keep" ] || level=debug
cat >"$tmp/config" <<EOF
[server]
hosts = 127.0.0.1:$port
[auth]
type = htpasswd
htpasswd_filename = $tmp/users
htpasswd_encryption = plain
delay = 0
[rights]
type = owner_only
[storage]
filesystem_folder = $tmp/collections
[web]
type = none
[logging]
level = $level
EOF
"$venv/bin/radicale" --config "$tmp/config" >"$logs/radicale.log" 2>&1 &
radicale=$!
pids=$radicale
wait_http "$radicale" "http://127.0.0.1:$port/"
echo "radicale $("$venv/bin/radicale" --version 2>/dev/null) on 127.0.0.1:$port"

# proxy NAME [logproxy options]: starts logproxy.py in front of Radicale; sets $proxy_port
proxy() {
  name=$1; shift
  rm -f "$tmp/$name.port"
  "$py" "$here/logproxy.py" --target "http://127.0.0.1:$port" --port-file "$tmp/$name.port" \
    ${keep:+--log "$logs/$name.http.log"} "$@" 2>>"$logs/$name.proxy.err" &
  pids="$pids $!"
  "$py" - "$!" "$tmp/$name.port" <<'EOF'
import os, sys, time
pid, path = int(sys.argv[1]), sys.argv[2]
deadline = time.monotonic() + 30
while not os.path.exists(path):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        sys.exit("logproxy ended before it listened")
    if time.monotonic() > deadline:
        sys.exit("logproxy did not listen within 30 s")
    time.sleep(0.05)
EOF
  proxy_port=$(cat "$tmp/$name.port")
}

status=0
if [ "$layout" = root ] || [ "$layout" = both ]; then
  url="http://127.0.0.1:$port/"
  if [ -n "$keep" ]; then proxy root; url="http://127.0.0.1:$proxy_port/"; fi
  echo "== Radicale at the root of $url"
  "$py" "$here/interop.py" --url "$url" --user="$user" --password="$password" \
    ${keep:+--trace "$logs/root.python-caldav.log"} "$@" || status=1
  [ -z "$eds" ] || /usr/bin/python3 "$here/eds.py" --url "$url" --user="$user" --password="$password" || status=1
fi
if [ "$layout" = dav ] || [ "$layout" = both ]; then
  proxy dav --mount /dav/
  url="http://127.0.0.1:$proxy_port/"
  echo "== Radicale under /dav/ of $url (/ -> 308 /dav/, /.well-known/caldav -> 301 /dav/)"
  "$py" "$here/interop.py" --url "$url" --user="$user" --password="$password" \
    ${keep:+--trace "$logs/dav.python-caldav.log"} "$@" || status=1
  [ -z "$eds" ] || /usr/bin/python3 "$here/eds.py" --url "$url" --user="$user" --password="$password" || status=1
fi
if [ -n "$faults" ]; then
  echo "== interop.py against Radicale broken on purpose (logproxy.py --fault): the named check must fail"
  caught=0 missed=0
  for pair in drop-x-props:todos drop-param:todos ignore-if-match:todos weak-etag:todos unfiltered-query:todos \
              no-sync-collection:sync no-current-user-principal:discovery no-well-known:discovery \
              wrong-getcontenttype:vdirsyncer; do
    fault=${pair%%:*} check=${pair#*:}
    proxy "fault-$fault" --fault "$fault"
    out=$("$py" "$here/interop.py" --url "http://127.0.0.1:$proxy_port/" --user="$user" --password="$password" \
      --checks "$check" 2>&1) && rc=0 || rc=$?
    line=$(printf '%s\n' "$out" | grep -m1 "^FAIL $check:" || true)
    if [ "$rc" -ne 0 ] && [ -n "$line" ]; then
      caught=$((caught + 1))
      echo "ok fault $fault: $(printf '%s' "$line" | cut -c1-200)"
    else
      missed=$((missed + 1)) status=1
      echo "FAIL fault $fault: $check did not fail against it (exit $rc)"
      printf '%s\n' "$out" | sed 's/^/    /'
    fi
  done
  echo "$caught passed, $missed failed"
fi
[ -z "$keep" ] || echo "logs in $logs"
exit $status
