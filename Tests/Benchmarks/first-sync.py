#!/usr/bin/env python3
"""first-sync.py BASE TASKS: signs Ann in at the playground BASE as a browser does (the token stays in this process)
and reads the whole change feed, every page, without decoding it; prints the milliseconds the transfer took and
checks that TASKS tasks came."""
import http.client
import json
import re
import sys
import time
import urllib.parse

import playground_token

base, tasks = sys.argv[1], int(sys.argv[2])
tenant = f"{base}/b2ctasks.onmicrosoft.com/B2C_1_SignUpOrSignIn"
token = playground_token.token(tenant, "ann@example.com", "Tasks-Demo-1")

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
