#!/bin/sh
# scripted-browser.sh URL: the "system browser" of the CLI tests (set as $BROWSER). Opens URL, signs in on the
# playground's page with $B2C_TEST_EMAIL and $B2C_TEST_PASSWORD when a form shows (a signed-in browser session
# skips it), and follows the redirects to the app's loopback listener, as a person's browser would.
set -eu
url=$1
# What a browser was given, for tests that check no token is ever handed to one (a temporary file of the test).
if [ -n "${B2C_TEST_BROWSER_LOG:-}" ]; then printf '%s\n' "$url" >>"$B2C_TEST_BROWSER_LOG"; fi
# The apps hand over a page only the user can read (a file:// address); like a browser, follow its refresh.
url=$(/bin/sh "$(dirname "$0")/hand-over-target.sh" "$url")
jar=${B2C_TEST_COOKIES:-$(mktemp)}
page=$(mktemp)
# Like a browser, it puts no address or form field on a command line (every local user can read those): curl reads
# them from its standard input (a config file, one quoted value per line).
quoted() { printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"; }
# The page's own origin, where its form posts: the URL given may be the app's start address, which redirects there.
landed=$(printf 'url = %s\n' "$(quoted "$url")" |
  curl -s -c "$jar" -b "$jar" -L --max-redirs 5 -o "$page" -w '%{url_effective}' -K -)
body=$(cat "$page")
rm -f "$page"
origin=$(printf '%s' "$landed" | sed 's|^\(https*://[^/]*\).*|\1|')
if printf '%s' "$body" | grep -q 'name="tx"'; then
  field() { printf '%s' "$body" | sed -n "s/.*name=\"$1\" value=\"\([^\"]*\)\".*/\1/p" | head -n 1; }
  action=$(printf '%s' "$body" | sed -n 's/.*method="post" action="\([^"]*\)".*/\1/p' | head -n 1)
  {
    printf 'url = %s\n' "$(quoted "$origin$action")"
    printf 'data-urlencode = %s\n' "$(quoted "tx=$(field tx)")" "$(quoted "step=$(field step)")" \
      "$(quoted "email=${B2C_TEST_EMAIL:-}")" "$(quoted "password=${B2C_TEST_PASSWORD:-}")"
  } | curl -s -c "$jar" -b "$jar" -L --max-redirs 5 -o /dev/null -K -
fi
