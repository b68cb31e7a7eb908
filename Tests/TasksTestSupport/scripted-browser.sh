#!/bin/sh
# scripted-browser.sh URL: the "system browser" of the CLI tests (set as $BROWSER). Opens URL, signs in on the
# playground's page with $B2C_TEST_EMAIL and $B2C_TEST_PASSWORD when a form shows (a signed-in browser session
# skips it), and follows the redirects to the app's loopback listener, as a person's browser would.
set -eu
url=$1
# What a browser was given, for tests that check no token is ever handed to one (a temporary file of the test).
if [ -n "${B2C_TEST_BROWSER_LOG:-}" ]; then printf '%s\n' "$url" >>"$B2C_TEST_BROWSER_LOG"; fi
jar=${B2C_TEST_COOKIES:-$(mktemp)}
page=$(mktemp)
# The page's own origin, where its form posts: the URL given may be the app's start address, which redirects there.
landed=$(curl -s -c "$jar" -b "$jar" -L --max-redirs 5 -o "$page" -w '%{url_effective}' "$url")
body=$(cat "$page")
rm -f "$page"
origin=$(printf '%s' "$landed" | sed 's|^\(https*://[^/]*\).*|\1|')
if printf '%s' "$body" | grep -q 'name="tx"'; then
  field() { printf '%s' "$body" | sed -n "s/.*name=\"$1\" value=\"\([^\"]*\)\".*/\1/p" | head -n 1; }
  action=$(printf '%s' "$body" | sed -n 's/.*method="post" action="\([^"]*\)".*/\1/p' | head -n 1)
  curl -s -c "$jar" -b "$jar" -L --max-redirs 5 -o /dev/null "$origin$action" \
    --data-urlencode "tx=$(field tx)" --data-urlencode "step=$(field step)" \
    --data-urlencode "email=${B2C_TEST_EMAIL:-}" --data-urlencode "password=${B2C_TEST_PASSWORD:-}"
fi
