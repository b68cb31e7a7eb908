#!/usr/bin/env python3
"""caldav-sync.py URL HEADER-FILE TASKS LISTS: a CalDAV client's first sync of an account against the API v2 feed of
the same tasks (issue 65), on the task service at URL, for the account whose `Authorization` header is in HEADER-FILE
(never on a command line). Gives the account LISTS lists holding TASKS tasks, makes an app password, then times, in
turn and three times each (medians): the feed's transfer of every task (all pages), and a CalDAV first sync as DAVx5
does it (PROPFIND Depth 1 of the calendar home, then per list a PROPFIND Depth 1 of the ETags and calendar-multiget
of the texts in batches of 500). Prints the figures and their ratio, then writes the app password and a sync token of
each list to the files the shell script reads (`--out FOLDER`)."""
import base64
import http.client
import json
import re
import statistics
import sys
import time
import urllib.parse

from planner_seed import seed

url, header_file, tasks, lists, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
name, value = open(header_file, encoding="utf-8").read().strip().split(": ", 1)
parts = urllib.parse.urlsplit(url)
connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=300)


def call(method, path, body=None, headers=None, ok=300):
    connection.request(method, path, body=body, headers=headers or {})
    answer = connection.getresponse()
    data = answer.read()
    if answer.status >= ok:
        sys.exit(f"{method} {path} answered {answer.status}: {data[:300]!r}")
    return data


def api(method, path, body=None, headers=None):
    headers = dict(headers or {})
    headers[name] = value
    if body is not None:
        headers["Content-Type"] = "application/json"
        body = json.dumps(body)
    return call(method, "/api/v2" + path, body, headers)


seed(api, tasks, lists)
made = json.loads(api("POST", "/app-passwords", {"name": "Benchmark"}))
basic = "Basic " + base64.b64encode(f"{made['username']}:{made['password']}".encode()).decode()
home = f"/dav/calendars/{made['username']}/"


def dav(method, path, body, depth=None):
    headers = {"Authorization": basic, "Content-Type": "application/xml; charset=utf-8"}
    if depth is not None:
        headers["Depth"] = depth
    return call(method, path, body.encode(), headers)


def feed():
    count, path = 0, "/changes"
    while True:
        page = json.loads(api("GET", path))
        count += len(page["tasks"])
        if not page.get("more"):
            return count
        path = f"/changes?since={page['next']}"


def caldav():
    listing = dav("PROPFIND", home, '<d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/></d:prop></d:propfind>', "1")
    collections = [h for h in re.findall(r"<d:href>([^<]+)</d:href>", listing.decode()) if h != home]
    count, tokens = 0, {}
    for collection in collections:
        etags = dav("PROPFIND", collection,
                    '<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><d:sync-token/></d:prop></d:propfind>', "1").decode()
        tokens[collection] = re.search(r"<d:sync-token>([^<]+)</d:sync-token>", etags).group(1)
        hrefs = [h for h in re.findall(r"<d:href>([^<]+)</d:href>", etags) if h != collection]
        for start in range(0, len(hrefs), 500):
            body = ('<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/>'
                    "<c:calendar-data/></d:prop>" + "".join(f"<d:href>{h}</d:href>" for h in hrefs[start:start + 500])
                    + "</c:calendar-multiget>")
            count += dav("REPORT", collection, body).count(b"BEGIN:VTODO")
    return count, tokens


feeds, davs = [], []
for _ in range(3):
    start = time.monotonic()
    assert feed() == tasks
    feeds.append(time.monotonic() - start)
    start = time.monotonic()
    count, tokens = caldav()
    assert count == tasks, f"CalDAV gave {count} tasks, not {tasks}"
    davs.append(time.monotonic() - start)
f, d = statistics.median(feeds), statistics.median(davs)
print(f"API v2 feed, every task: {f * 1000:.0f} ms; CalDAV first sync (PROPFIND + multiget): {d * 1000:.0f} ms; "
      f"ratio {d / f:.2f} (medians of 3: {'/'.join(f'{x / y:.2f}' for x, y in zip(davs, feeds))})")
with open(f"{out}/dav.header", "w", encoding="utf-8") as header:
    header.write(f"Authorization: {basic}\n")
with open(f"{out}/tokens", "w", encoding="utf-8") as listed:
    listed.write("".join(f"{collection} {token}\n" for collection, token in tokens.items()))
