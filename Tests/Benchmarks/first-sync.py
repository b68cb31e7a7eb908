#!/usr/bin/env python3
"""first-sync.py BASE TASKS: signs Ann in at the playground BASE as a browser does (the token stays in this process)
and reads the whole change feed, every page, without decoding it; prints the milliseconds the transfer took and
checks that TASKS tasks came."""
import http.client
import http.cookiejar
import json
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

base, tasks = sys.argv[1], int(sys.argv[2])
tenant = f"{base}/b2ctasks.onmicrosoft.com/B2C_1_SignUpOrSignIn"
client = "6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args):
        return None


jar = http.cookiejar.CookieJar()
opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)
query = urllib.parse.urlencode({"client_id": client, "response_type": "code",
                                "redirect_uri": "urn:ietf:wg:oauth:2.0:oob", "scope": f"openid {client}"})
page = opener.open(f"{tenant}/oauth2/v2.0/authorize?{query}").read().decode()
tx = re.search(r'name="tx" value="([^"]*)"', page).group(1)
form = urllib.parse.urlencode({"tx": tx, "step": "signin", "email": "ann@example.com",
                               "password": "Tasks-Demo-1"}).encode()
try:
    opener.open(f"{tenant}/SelfAsserted", data=form)
    sys.exit("the sign-in did not redirect")
except urllib.error.HTTPError as redirect:
    location = redirect.headers["Location"]
code = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)["code"][0]
body = urllib.parse.urlencode({"grant_type": "authorization_code", "client_id": client, "code": code,
                               "redirect_uri": "urn:ietf:wg:oauth:2.0:oob"}).encode()
token = json.loads(urllib.request.urlopen(f"{tenant}/oauth2/v2.0/token", data=body).read())["access_token"]

parts = urllib.parse.urlsplit(base)
connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
started = time.monotonic()
path, count = "/api/v2/changes", 0
while True:
    connection.request("GET", path, headers={"Authorization": f"Bearer {token}"})
    answer = connection.getresponse()
    data = answer.read()
    assert answer.status == 200, f"the feed answered {answer.status}"
    count += data.count(b'"listId":')
    if b'"more":true' not in data:
        break
    path = "/api/v2/changes?since=" + re.search(rb'"next":"([^"]*)"', data).group(1).decode()
elapsed = time.monotonic() - started
assert count == tasks, f"the feed had {count} tasks, not {tasks}"
print(f"{elapsed * 1000:.1f}")
