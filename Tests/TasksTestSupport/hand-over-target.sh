#!/bin/sh
# hand-over-target.sh ADDRESS: the address a browser goes to when given ADDRESS: for the apps' hand-over page (a
# file:// address, or its path), where its refresh leads; any other address as it is.
set -eu
case $1 in
  file://*) page=$(printf '%s' "${1#file://}" | sed 's/%20/ /g') ;;
  /*) page=$1 ;;
  *) printf '%s\n' "$1"; exit 0 ;;
esac
sed -n 's/.*http-equiv="refresh" content="0; url=\([^"]*\)".*/\1/p' "$page" | head -n 1 | sed 's/&amp;/\&/g'
