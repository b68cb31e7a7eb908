#!/usr/bin/env python3
"""planner-feed.py URL HEADER-FILE TASKS LISTS TOKEN-FILE: the change feed of the task API v2 at URL, for the account
whose `Authorization` header is in HEADER-FILE (never on a command line). Gives the account LISTS lists holding TASKS
tasks in all (one connection, kept alive), then measures: the first full sync (time and bytes), an unchanged feed
read (bytes), and a read after 10 changes (bytes). The full sync follows every page. Writes the last token to TOKEN-FILE, for wrk. Prints one line per
figure."""
import http.client
import json
import re
import sys
import time
import urllib.parse

from planner_seed import seed

url, header_file, tasks, lists, token_file = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
name, value = open(header_file, encoding="utf-8").read().strip().split(": ", 1)
parts = urllib.parse.urlsplit(url)
connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)


def call(method, path, body=None, headers=None):
    headers = dict(headers or {})
    headers[name] = value
    if body is not None:
        headers["Content-Type"] = "application/json"
        body = json.dumps(body)
    connection.request(method, "/api/v2" + path, body=body, headers=headers)
    answer = connection.getresponse()
    data = answer.read()
    if answer.status >= 300:
        sys.exit(f"{method} {path} answered {answer.status}: {data[:300]!r}")
    return data


list_ids, task_ids = seed(call, tasks, lists)

start = time.monotonic()
# The first full sync: every page of the read (the service's page size).
full, pages, path = b"", [], "/changes"
while True:
    data = call("GET", path)
    pages.append(json.loads(data))
    full += data
    if not pages[-1].get("more"):
        break
    path = f"/changes?since={pages[-1]['next']}"
elapsed = time.monotonic() - start
count = sum(len(page["tasks"]) for page in pages)
assert count == tasks, f"the full sync has {count} tasks, not {tasks}"
print(f"first full sync: {count} tasks in {len(pages[0]['lists'])} lists, {len(pages)} pages, {len(full)} bytes, "
      f"{elapsed * 1000:.0f} ms")
# The transfer alone, for the ratio against the floor (the shell script's sqlite3 -json): three reads, the fastest.
# Each page's `next` is found in its head (the service writes it before the tasks) instead of parsing the page: the
# floor parses nothing either, and Python's json.loads of ten pages was a fifth of the time measured (issue 66).
next_token = re.compile(rb'"more":true,"next":"([^"]*)"')
transfers = []
for _ in range(3):
    start, path = time.monotonic(), "/changes"
    while True:
        page = call("GET", path)
        more = next_token.search(page)
        if not more:
            assert b'"more":false' in page, "a page's head has neither more nor next"
            break
        path = f"/changes?since={more.group(1).decode()}"
    transfers.append(time.monotonic() - start)
with open(token_file + ".transfer", "w", encoding="utf-8") as out:
    out.write(f"{min(transfers) * 1000:.1f}\n")
print(f"the full sync's transfer alone (the fastest of 3): {min(transfers) * 1000:.1f} ms")
token = pages[-1]["next"]
unchanged = call("GET", f"/changes?since={token}")
print(f"unchanged feed read: {len(unchanged)} bytes")
for list_id, task_id in task_ids[:10]:
    call("PATCH", f"/lists/{list_id}/tasks/{task_id}", {"title": "changed"})
after = call("GET", f"/changes?since={token}")
changed = json.loads(after)
assert len(changed["tasks"]) == 10, f"the read after 10 changes has {len(changed['tasks'])} tasks"
print(f"feed read after 10 changes: {len(after)} bytes ({len(after) / len(full) * 100:.2f} % of the full sync)")
with open(token_file, "w", encoding="utf-8") as out:
    out.write(changed["next"])
