#!/usr/bin/env python3
"""long-poll.py TENANT CLIENT WAITERS EDITS PID URL [URL2]: the change feed's long poll on b2c-tasks-api at URL
(process PID). Signs up ceil(WAITERS / 32) accounts at the playground's TENANT (the service lets one account hold 32
waiting requests), has them hold WAITERS requests `GET /api/v2/changes?since=…&wait=280` on URL, each on a
connection of its own, and waits until each account is refused a 33rd (all of its 32 wait). Prints the service's
resident memory idle and holding them. Then EDITS times: an account adds a task through URL2 (another instance on
the same database; URL when not given), and the script measures how long until the first and the last of that
account's waiting requests has the task, against the edit's own round trip. Tokens stay in this process."""
import asyncio
import json
import resource
import statistics
import sys
import time
import urllib.parse
import uuid

import playground_token

tenant, client, waiters, edits, pid = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
url = sys.argv[6]
writer_url = sys.argv[7] if len(sys.argv) > 7 else url
PER_ACCOUNT = 32
WAIT = 280
# One descriptor per waiting request, here as in the service.
resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)


def sign_up(email):
    """An access token for a new account, through the playground's sign-up page as a browser fills it in."""
    return playground_token.token(tenant, email, "Bench-Pass-2026!", sign_up=True, client=client)


async def request(base, method, path, token, body=None):
    """One request on a connection of its own: (status, parsed body)."""
    parts = urllib.parse.urlsplit(base)
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
    data = json.dumps(body).encode() if body is not None else b""
    head = (f"{method} /api/v2{path} HTTP/1.1\r\nHost: {parts.netloc}\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Length: {len(data)}\r\nConnection: close\r\n")
    if body is not None:
        head += "Content-Type: application/json\r\nIf-None-Match: *\r\n"
    writer.write(head.encode() + b"\r\n" + data)
    await writer.drain()
    status = int((await reader.readline()).split()[1])
    length = 0
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    payload = await reader.readexactly(length) if length else b""
    writer.close()
    return status, (json.loads(payload) if payload else None)


async def waiting_request(base, account):
    """A request waiting for the account's next change; asked again while the account's places are full (a probe
    holds one for a moment)."""
    while True:
        status, page = await request(base, "GET", f"/changes?since={account['since']}&wait={WAIT}", account["token"])
        if status != 429:
            return status, page
        await asyncio.sleep(0.05)


def resident_kib():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def main():
    accounts = []
    for index in range((waiters + PER_ACCOUNT - 1) // PER_ACCOUNT):
        token = await asyncio.to_thread(sign_up, f"bench-{uuid.uuid4().hex[:12]}@example.com")
        status, page = await request(url, "GET", "/changes", token)
        assert status == 200, f"the first read answered {status}"
        status, made = await request(url, "PUT", f"/lists/{uuid.uuid4()}", token, {"name": "Bench"})
        assert status == 201, f"a new list answered {status}"
        status, page = await request(url, "GET", "/changes", token)
        accounts.append({"token": token, "since": page["next"], "list": made["id"], "count": 0})
    idle = resident_kib()
    # The waiting requests, spread over the accounts (at most 32 each).
    waiting = {}
    for number in range(waiters):
        account = accounts[number // PER_ACCOUNT]
        account["count"] += 1
        waiting[number] = (account, asyncio.create_task(waiting_request(url, account)))
    # Each full account is refused one more once its 32 wait (until then the probe may be one of them: asked again).
    for account in accounts:
        if account["count"] < PER_ACCOUNT:
            continue
        while True:
            status, _ = await request(url, "GET", f"/changes?since={account['since']}&wait=1", account["token"])
            if status == 429:
                break
    holding = resident_kib()
    print(f"waiting requests held: {waiters} ({len(accounts)} accounts); resident memory {idle} KiB idle, "
          f"{holding} KiB holding them ({(holding - idle) / waiters:.1f} KiB each, {holding / idle:.2f}x idle)")

    firsts, lasts, trips = [], [], []
    for round_number in range(edits):
        account = accounts[round_number % len(accounts)]
        mine = [number for number, (owner, _) in waiting.items() if owner is account]
        title = f"edit {round_number}"
        started = time.monotonic()
        status, _ = await request(writer_url, "PUT", f"/lists/{account['list']}/tasks/{uuid.uuid4()}",
                                  account["token"], {"title": title})
        trip = time.monotonic() - started
        assert status == 201, f"the edit answered {status}"
        first = None
        for finished in asyncio.as_completed([waiting[number][1] for number in mine]):
            status, page = await finished
            assert status == 200 and any(task["title"] == title for task in page["tasks"]), \
                f"a waiting request answered {status} without the edit"
            first = first if first is not None else time.monotonic() - started
            account["since"] = page["next"]
        last = time.monotonic() - started
        firsts.append(first)
        lasts.append(last)
        trips.append(trip)
        # The same requests wait again, from the new token.
        for number in mine:
            waiting[number] = (account, asyncio.create_task(waiting_request(url, account)))
        await asyncio.sleep(0)
    trip, first, last = statistics.median(trips), statistics.median(firsts), statistics.median(lasts)
    print(f"an edit's answer to the waiting requests ({edits} edits, medians): first {first * 1000:.1f} ms, "
          f"last of {PER_ACCOUNT} {last * 1000:.1f} ms; the edit's own round trip {trip * 1000:.1f} ms: "
          f"ratio {first / trip:.2f} (first) and {last / trip:.2f} (last); {last / 1.0:.3f} of the 1 s target")
    for _, task in waiting.values():
        task.cancel()


asyncio.run(main())
