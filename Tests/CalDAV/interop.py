#!/usr/bin/env python3
"""interop.py: CalDAV interoperability checks, run with real clients against a server.

    interop.py --url BASE --user USER --password PASS [--checks NAME,...] [--trace FILE] [-v]

BASE is the server's bare address (http://127.0.0.1:8080/): every client starts its discovery there. Run it with
the Python of the virtualenv that install.sh makes (it holds python-caldav, vdirsyncer, todoman and
caldav-server-tester; the command-line tools are taken from beside that Python).

Checks (all by default, in this order):
  discovery   python-caldav finds the principal, the calendar home and the calendars from BASE alone; the server
              answered current-user-principal and calendar-home-set itself (no guessing by the library);
              /.well-known/caldav leads to the same principal; OPTIONS says calendar-access; an unauthenticated
              request is a 401 with a Basic challenge, a wrong password a 401; a calendar made for the check is
              listed by a second client's discovery.
  mkcalendar  MKCALENDAR of a VTODO list with a display name; found by name in principal.calendars(), its
              supported components are VTODO; PROPPATCH of the display name is seen by a second client; DELETE
              removes it from the listing.
  todos       VTODOs saved (raw iCalendar, and python-caldav's generator) come back with every property line
              they were sent with (summary, due, priority, categories, RRULE, VALARM, X-TEST-KEEP, an unknown
              parameter), through get_todos() and get_object_by_uid(); an edit, todo.complete(), pending vs
              include_completed (filtered by the server, not the library), a delete, ETags (strong; a PUT answer's
              ETag only if the stored bytes are the ones sent), If-Match with a stale ETag and If-None-Match: *
              on an existing object get 412 and change nothing.
  sync        sync-collection (RFC 6578) with no fallback: an initial sync gives a token; one add, one change and
              one delete by a second client come back as exactly those (the delete as a 404 member); an
              unchanged object does not; the request really was a sync-collection REPORT; a made-up token is a
              403 with DAV:valid-sync-token.
  vdirsyncer  vdirsyncer discover (answering yes) and sync with the server from BASE into a folder; todoman
              lists the tasks; todo new / todo edit / todo done; vdirsyncer sync back; python-caldav sees the new
              task, the edit and the completion; a change on the server comes down again.
  tester      caldav-server-tester (the python-caldav project's probe of ~100 server features): prints what it
              found; fails only on the features named with --tester-require (comma separated) not "full".

Prints one line per check, "ok NAME" or "FAIL NAME: reason" (details indented below with -v, and for tester
always), then "N passed, N failed"; exits 1 when a check failed. Every check deletes what it made. --trace FILE
appends every request python-caldav sent and the answer to FILE (Authorization redacted); vdirsyncer and todoman
go through their own HTTP stacks: run them through logproxy.py to see theirs.
"""
import argparse
import ast
import datetime
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
import traceback
import urllib.parse
from collections import Counter
from pathlib import Path

import caldav
import icalendar
from caldav.elements import dav
from caldav.lib import error as caldav_error
from lxml import etree

ALL_CHECKS = ["discovery", "mkcalendar", "todos", "sync", "vdirsyncer", "tester"]
NS = {"D": "DAV:", "C": "urn:ietf:params:xml:ns:caldav"}
BIN = Path(sys.executable).parent


class Fail(Exception):
    pass


def need(cond, msg):
    if not cond:
        raise Fail(msg)


def short(x, n=300):
    s = x.decode("utf-8", "replace") if isinstance(x, bytes) else str(x)
    s = " ".join(s.split())
    return s if len(s) <= n else s[:n] + "…"


# ---------------------------------------------------------------------------------------------------------------
# Recording what python-caldav sends, and raw requests


class Exchange:
    def __init__(self, method, url, req_headers, req_body, status, resp_headers, resp_body):
        self.method, self.url, self.req_headers, self.req_body = method, url, req_headers, req_body
        self.status, self.resp_headers, self.resp_body = status, resp_headers, resp_body

    @property
    def path(self):
        return urllib.parse.urlsplit(self.url).path

    def req_text(self):
        b = self.req_body
        return b.decode("utf-8", "replace") if isinstance(b, bytes) else (b or "")

    def resp_text(self):
        return self.resp_body.decode("utf-8", "replace") if self.resp_body else ""


class Run:
    """What all checks share: the server's address and account, the trace, and the clients made so far."""

    def __init__(self, args):
        self.base = args.url if args.url.endswith("/") else args.url + "/"
        self.user, self.password = args.user, args.password
        self.verbose = args.verbose
        self.trace = open(args.trace, "a", encoding="utf-8") if args.trace else None
        self.args = args
        self.exchanges = []
        self.notes = []
        self.token = secrets.token_hex(4)

    def note(self, line):
        self.notes.append(line)

    def client(self, password=None):
        """A new python-caldav client with its own connection and auth negotiation, recording every exchange."""
        c = caldav.DAVClient(url=self.base, username=self.user,
                             password=self.password if password is None else password, timeout=60)
        orig = c.session.request
        run = self

        def request(method, url, **kw):
            r = orig(method, url, **kw)
            headers = dict(kw.get("headers") or {})
            auth = kw.get("auth")
            if auth is not None:
                headers["Authorization"] = f"({type(auth).__name__} {getattr(auth, 'username', '?')})"
            ex = Exchange(method, str(r.url or url), headers, kw.get("data"), r.status_code, dict(r.headers),
                          r.content)
            # redirects niquests followed: (status, URL asked) for each hop
            ex.hops = [(h.status_code, str(h.url)) for h in (r.history or [])]
            run.exchanges.append(ex)
            run.write_trace(ex)
            return r

        c.session.request = request
        return c

    def write_trace(self, ex):
        if not self.trace:
            return
        lines = [f"(redirected: {st} from {u})" for st, u in ex.hops]
        lines += [f">>> {ex.method} {ex.url}"] + [f"{k}: {v}" for k, v in ex.req_headers.items()]
        if ex.req_body:
            lines += ["", ex.req_text()]
        lines += [f"<<< {ex.status}"] + [f"{k}: {v}" for k, v in ex.resp_headers.items()]
        if ex.resp_body:
            lines += ["", ex.resp_text()]
        self.trace.write("\n".join(lines) + "\n\n")
        self.trace.flush()

    def raw(self, client, method, url, body="", headers=None):
        """A request through client's session (its auth), not following redirects; returns the niquests response."""
        h = {"User-Agent": "b2c-interop"}
        h.update(headers or {})
        kw = dict(data=body.encode() if isinstance(body, str) else body, headers=h, allow_redirects=False, timeout=60)
        if client.auth is None:
            client.build_auth_object(["basic"])
        return client.session.request(method, str(url), auth=client.auth, **kw)

    def mark(self):
        return len(self.exchanges)

    def since(self, mark):
        return self.exchanges[mark:]


def same_origin(a, b):
    a, b = urllib.parse.urlsplit(str(a)), urllib.parse.urlsplit(str(b))
    return (a.scheme, a.hostname, a.port) == (b.scheme, b.hostname, b.port)


def xml(body):
    return etree.fromstring(body)


def url_path(u):
    return urllib.parse.unquote(urllib.parse.urlsplit(str(u)).path)


def make_task_list(run, principal, name):
    cal = principal.make_calendar(name=name, supported_calendar_component_set=["VTODO"])
    run.made.append(cal.url)
    return cal


def delete_made(run):
    """Deletes the calendars a check made, through a client of its own; returns the failures."""
    problems = []
    if not run.made:
        return problems
    try:
        c = run.client()
        for url in run.made:
            r = run.raw(c, "DELETE", url)
            if r.status_code not in (200, 204, 404):
                problems.append(f"DELETE {url_path(url)}: {r.status_code}")
    except Exception as e:  # noqa: BLE001 - a cleanup failure is reported, never hidden
        problems.append(f"cleanup: {e}")
    run.made = []
    return problems


def listed(principal):
    """{path: (display name, [components])} of the principal's calendars, as python-caldav lists them."""
    out = {}
    for cal in principal.get_calendars():
        out[url_path(cal.url)] = (cal.get_display_name(), cal.get_supported_components())
    return out


# ---------------------------------------------------------------------------------------------------------------
# discovery


def check_discovery(run):
    c = run.client()
    m = run.mark()
    principal = c.principal()
    ex = run.since(m)
    need(ex and ex[0].status == 401, f"the first request, sent without credentials, got {ex[0].status if ex else '-'}"
         " (python-caldav negotiates auth from a 401)")
    challenge = ex[0].resp_headers.get("WWW-Authenticate") or ex[0].resp_headers.get("www-authenticate") or ""
    need(challenge.lower().startswith("basic"), f"401 without a Basic challenge: WWW-Authenticate={challenge!r} "
         "(python-caldav only guesses Basic over TLS)")
    cup = [e for e in ex if e.method == "PROPFIND" and "current-user-principal" in e.req_text() and e.status == 207]
    need(cup, "no 207 answer to a PROPFIND for current-user-principal: " +
         "; ".join(f"{e.method} {e.path} {e.status}" for e in ex))
    href = xml(cup[-1].resp_body).find(".//D:current-user-principal/D:href", NS)
    need(href is not None and href.text, "the PROPFIND answer has no current-user-principal href: " +
         short(cup[-1].resp_body))
    need(url_path(principal.url) == url_path(urllib.parse.urljoin(cup[-1].url, href.text.strip())),
         f"python-caldav's principal {principal.url} is not the server's {href.text}")
    need(same_origin(principal.url, run.base), f"the principal {principal.url} is on another origin")
    need(url_path(principal.url) != url_path(run.base) or href.text.strip() == url_path(run.base),
         "the principal is the bare address itself")
    hops = "".join(f"{url_path(u)} {st} -> " for st, u in cup[-1].hops)
    run.detail(f"principal {url_path(principal.url)} (PROPFIND {hops}{cup[-1].path} Depth "
               f"{cup[-1].req_headers.get('Depth')})")

    m = run.mark()
    home = principal.calendar_home_set.url
    homes = [e for e in run.since(m) + ex if e.method == "PROPFIND" and "calendar-home-set" in e.req_text()
             and e.status == 207]
    need(homes, "no 207 answer to a PROPFIND for calendar-home-set")
    hh = xml(homes[-1].resp_body).find(".//C:calendar-home-set/D:href", NS)
    need(hh is not None and hh.text, "no calendar-home-set href in " + short(homes[-1].resp_body))
    need(url_path(home) == url_path(urllib.parse.urljoin(homes[-1].url, hh.text.strip())),
         f"home {home} is not the server's {hh.text}")
    run.detail(f"calendar home {url_path(home)}")

    r = run.raw(c, "OPTIONS", home)
    davh = [t.strip() for t in (r.headers.get("DAV") or "").split(",")]
    need(r.status_code in (200, 204) and "1" in davh and "calendar-access" in davh,
         f"OPTIONS {url_path(home)}: {r.status_code}, DAV: {r.headers.get('DAV')!r} (needs 1 and calendar-access)")
    run.detail(f"OPTIONS DAV: {r.headers.get('DAV')}; Allow: {r.headers.get('Allow')}")

    # /.well-known/caldav (RFC 6764): a redirect, followed with PROPFIND, reaches the same principal
    body = ('<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:prop>'
            '<D:current-user-principal/></D:prop></D:propfind>')
    url = urllib.parse.urljoin(run.base, "/.well-known/caldav")
    hops = []
    for _ in range(5):
        r = run.raw(c, "PROPFIND", url, body, {"Depth": "0", "Content-Type": "application/xml; charset=utf-8"})
        hops.append(f"{url_path(url)} {r.status_code}")
        if r.status_code in (301, 302, 303, 307, 308):
            loc = r.headers.get("Location")
            need(loc, f"{r.status_code} from {url_path(url)} without a Location")
            url = urllib.parse.urljoin(url, loc)
            need(same_origin(url, run.base), f"/.well-known/caldav leads off the origin, to {url}")
            continue
        break
    need(r.status_code == 207, "PROPFIND /.well-known/caldav (following redirects): " + " -> ".join(hops))
    wh = xml(r.content).find(".//D:current-user-principal/D:href", NS)
    need(wh is not None and url_path(urllib.parse.urljoin(url, wh.text.strip())) == url_path(principal.url),
         f"/.well-known/caldav ({' -> '.join(hops)}) gave principal "
         f"{wh.text if wh is not None else None}, not {url_path(principal.url)}")
    run.detail("well-known: " + " -> ".join(hops))

    # a wrong password: 401, not a listing
    bad = run.client(password=run.password + "-wrong")
    try:
        bad.principal()
        raise Fail("a wrong password was accepted")
    except caldav_error.AuthorizationError as e:
        need(getattr(e, "status", 401) in (401, None) or "401" in str(e), f"a wrong password: {e}")

    # the listing: a calendar made here is found by a second client, discovering from BASE again
    before = listed(principal)
    name = f"Interop discovery {run.token}"
    cal = make_task_list(run, principal, name)
    c2 = run.client()
    after = listed(c2.principal())
    need(url_path(cal.url) in after, f"a second client's principal.calendars() does not list {url_path(cal.url)}: "
         f"{sorted(after)}")
    need(after[url_path(cal.url)][0] == name, f"listed with the name {after[url_path(cal.url)][0]!r}, not {name!r}")
    run.detail(f"{len(before)} calendar(s) were there before; the new one is listed as {after[url_path(cal.url)]}")


# ---------------------------------------------------------------------------------------------------------------
# mkcalendar


def check_mkcalendar(run):
    c = run.client()
    principal = c.principal()
    name = f"Interop {run.token}"
    m = run.mark()
    cal = make_task_list(run, principal, name)
    mk = [e for e in run.since(m) if e.method == "MKCALENDAR"]
    need(mk and mk[0].status == 201, f"MKCALENDAR: {[e.status for e in mk]}")
    run.detail("make_calendar(): " + ", ".join(f"{e.method} {e.path} {e.status}" for e in run.since(m)))

    other = run.client().principal()
    found = [cal2 for cal2 in other.get_calendars() if cal2.get_display_name() == name]
    need(len(found) == 1, f"{len(found)} calendars named {name!r} in a second client's principal.calendars()")
    need(url_path(found[0].url) == url_path(cal.url), f"found at {found[0].url}, made at {cal.url}")
    comps = found[0].get_supported_components()
    need(sorted(comps) == ["VTODO"], f"supported-calendar-component-set is {comps}, asked for VTODO only")

    new_name = f"Interop renamed {run.token}"
    m = run.mark()
    cal.set_properties([dav.DisplayName(new_name)])
    pp = [e for e in run.since(m) if e.method == "PROPPATCH"]
    need(pp and pp[0].status == 207, f"PROPPATCH: {[e.status for e in pp]}")
    st = [s.text for s in xml(pp[0].resp_body).iterfind(".//D:propstat/D:status", NS)]
    need(st and all(" 200 " in s for s in st), f"PROPPATCH propstat status {st}")
    names = {cal2.get_display_name() for cal2 in run.client().principal().get_calendars()}
    need(new_name in names and name not in names, f"after PROPPATCH a second client lists {sorted(names)}")

    m = run.mark()
    cal.delete()
    run.made.remove(cal.url)
    de = [e for e in run.since(m) if e.method == "DELETE"]
    need(de and de[0].status in (200, 204), f"DELETE of the calendar: {[e.status for e in de]}")
    gone = listed(run.client().principal())
    need(url_path(cal.url) not in gone, "the deleted calendar is still listed")


# ---------------------------------------------------------------------------------------------------------------
# todos

VCAL_A = """BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//B2C Tasks//CalDAV interop//EN
BEGIN:VTODO
UID:{uid}
DTSTAMP:20260102T090000Z
CREATED:20260102T090000Z
SUMMARY;X-TEST-PARAM=kept:Interop weekly review
DESCRIPTION:Line one\\nline two\\, with a comma
DTSTART:20300107T080000Z
DUE:20300107T100000Z
PRIORITY:1
CATEGORIES:home,errands
RRULE:FREQ=WEEKLY
STATUS:NEEDS-ACTION
X-TEST-KEEP:value
X-APPLE-SORT-ORDER:42
BEGIN:VALARM
ACTION:DISPLAY
DESCRIPTION:Reminder
TRIGGER;RELATED=END:-PT15M
END:VALARM
END:VTODO
END:VCALENDAR
"""

SIMPLE = """BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//B2C Tasks//CalDAV interop//EN
BEGIN:VTODO
UID:{uid}
DTSTAMP:20260102T090000Z
SUMMARY:{summary}
DUE;VALUE=DATE:{due}
STATUS:NEEDS-ACTION
END:VTODO
END:VCALENDAR
"""


def unfold(text):
    return re.sub(r"\r?\n[ \t]", "", text.replace("\r\n", "\n"))


def content_lines(text):
    """Counter of (component path, NAME, params, value) for every line inside the VTODOs (and their VALARMs)."""
    out = Counter()
    stack = []
    for line in unfold(text).split("\n"):
        if not line:
            continue
        name, params, value = icalendar.parser.Contentline(line).parts()
        name = name.upper()
        if name == "BEGIN":
            stack.append(value.upper())
            continue
        if name == "END":
            stack.pop()
            continue
        if not stack or stack[:2] != ["VCALENDAR", "VTODO"]:
            continue
        ps = tuple(sorted((k.upper(), str(v)) for k, v in params.items()))
        out[("/".join(stack[1:]), name, ps, value)] += 1
    return out


def kept_lines(sent, got):
    """The lines of sent that got lacks, as readable strings."""
    missing = content_lines(sent) - content_lines(got)
    return [f"{p}: {n}{''.join(';%s=%s' % kv for kv in ps)}:{v}" for (p, n, ps, v) in missing]


def todo_of(obj, uid):
    cal = icalendar.Calendar.from_ical(obj.data)
    todos = [t for t in cal.walk("VTODO") if str(t.get("UID")) == uid]
    need(len(todos) == 1, f"{len(todos)} VTODOs with UID {uid} in {obj.url}")
    return todos[0]


def by_uid(objs):
    out = {}
    for o in objs:
        for t in icalendar.Calendar.from_ical(o.data).walk("VTODO"):
            out[str(t.get("UID"))] = o
    return out


def put_body(run, mark, url):
    """The body python-caldav PUT to url since mark (the last one)."""
    puts = [e for e in run.since(mark) if e.method == "PUT" and url_path(e.url) == url_path(url)]
    need(puts, f"no PUT to {url} recorded")
    need(puts[-1].status in (200, 201, 204), f"PUT {url_path(url)}: {puts[-1].status} {short(puts[-1].resp_body)}")
    return puts[-1]


def check_todos(run):
    c = run.client()
    principal = c.principal()
    cal = make_task_list(run, principal, f"Interop todos {run.token}")
    r = secrets.token_hex(4).upper()
    uid_a = f"A354E4C3-{r}-4D0E-9F6B-8C1A2B3C4D5E"  # Apple's shape
    uid_b = f"57934118136584{int(r, 16) % 100000:05d}"  # Tasks.org's shape: digits
    uid_c = f"interop-{r.lower()}@example.org"  # x@host
    uid_d = "040000008200E00074C5B7101A82E008" + r * 2  # Exchange's long hex

    # A: raw iCalendar with everything; B: python-caldav's own generator, from keyword arguments
    m = run.mark()
    a = cal.add_todo(VCAL_A.format(uid=uid_a))
    sent_a = put_body(run, m, a.url)
    m = run.mark()
    b = cal.add_todo(uid=uid_b, summary="Interop edit me", due=datetime.date(2030, 1, 5), priority=5,
                     categories=["work", "interop"], rrule={"FREQ": ["WEEKLY"]}, **{"X-TEST-KEEP": "b-value"},
                     alarm_trigger=datetime.timedelta(minutes=-30), alarm_action="DISPLAY",
                     alarm_description="B reminder")
    sent_b = put_body(run, m, b.url)
    cal.add_todo(SIMPLE.format(uid=uid_c, summary="Interop complete me", due="20300106"))
    d = cal.add_todo(SIMPLE.format(uid=uid_d, summary="Interop delete me", due="20300108"))
    sent = {uid_a: sent_a.req_text(), uid_b: sent_b.req_text()}

    # read back: todos() and object_by_uid(), every line sent is there
    listing = by_uid(cal.get_todos())
    need(set(listing) == {uid_a, uid_b, uid_c, uid_d}, f"get_todos() gave UIDs {sorted(listing)}")
    for uid, text in sent.items():
        for how, obj in (("get_todos()", listing[uid]), ("get_object_by_uid()", cal.get_object_by_uid(uid))):
            miss = kept_lines(text, obj.data)
            need(not miss, f"{how} of {uid} lost or changed: {miss}")
    ta = todo_of(cal.get_object_by_uid(uid_a), uid_a)
    need(str(ta["SUMMARY"]) == "Interop weekly review" and ta["SUMMARY"].params.get("X-TEST-PARAM") == "kept",
         f"SUMMARY of A: {ta['SUMMARY']!r} {dict(ta['SUMMARY'].params)}")
    need(ta.decoded("DUE") == datetime.datetime(2030, 1, 7, 10, tzinfo=datetime.timezone.utc), "DUE of A")
    need(int(ta["PRIORITY"]) == 1, "PRIORITY of A")
    need([str(x) for x in ta["CATEGORIES"].cats] == ["home", "errands"], f"CATEGORIES of A: {ta['CATEGORIES']}")
    need(dict(ta["RRULE"]) == {"FREQ": ["WEEKLY"]}, f"RRULE of A: {ta['RRULE']}")
    need(str(ta.get("X-TEST-KEEP")) == "value", "X-TEST-KEEP of A")
    alarms = ta.walk("VALARM")
    need(len(alarms) == 1 and alarms[0].decoded("TRIGGER") == -datetime.timedelta(minutes=15)
         and alarms[0]["TRIGGER"].params.get("RELATED") == "END", f"VALARM of A: {alarms}")

    # GET: strong ETag; a PUT answer's ETag only when the stored bytes are the sent ones (RFC 9110 9.3.4)
    for uid, ex in ((uid_a, sent_a), (uid_b, sent_b)):
        g = run.raw(c, "GET", ex.url)
        need(g.status_code == 200, f"GET {url_path(ex.url)}: {g.status_code}")
        etag = g.headers.get("ETag")
        need(etag and not etag.startswith("W/"), f"GET {url_path(ex.url)}: ETag {etag!r} (a strong one needed)")
        ct = g.headers.get("Content-Type", "")
        need(ct.startswith("text/calendar"), f"GET {url_path(ex.url)}: Content-Type {ct!r}")
        put_etag = ex.resp_headers.get("ETag") or ex.resp_headers.get("etag")
        if put_etag:
            need(put_etag == etag, f"the PUT answer's ETag {put_etag} is not the GET's {etag}")
            if g.content != (ex.req_body if isinstance(ex.req_body, bytes) else ex.req_text().encode()):
                run.note(f"{uid}: the PUT answer had an ETag though the stored bytes differ from the body sent "
                         "(RFC 9110 9.3.4 says send none then)")
        run.detail(f"PUT {url_path(ex.url)} answered {ex.status} ETag {put_etag}; GET ETag {etag}")

    # edit B's summary with python-caldav (it sends If-Match with the ETag it has)
    bb = cal.get_object_by_uid(uid_b)
    bb.icalendar_component["SUMMARY"] = icalendar.vText("Interop edited")
    m = run.mark()
    bb.save()
    edit = put_body(run, m, bb.url)
    run.detail(f"edit PUT headers: { {k: v for k, v in edit.req_headers.items() if k.lower().startswith('if')} }")
    tb = todo_of(cal.get_object_by_uid(uid_b), uid_b)
    need(str(tb["SUMMARY"]) == "Interop edited", f"after the edit SUMMARY is {tb['SUMMARY']}")
    miss = [x for x in kept_lines(sent_b.req_text(), cal.get_object_by_uid(uid_b).data)
            if not x.startswith("VTODO: SUMMARY") and not x.startswith("VTODO: SEQUENCE")
            and not x.startswith("VTODO: DTSTAMP")]
    need(not miss, f"the edit of B lost: {miss}")

    # two python-caldav copies of B: the second save, on the stale ETag, is refused
    first, second = cal.get_object_by_uid(uid_b), cal.get_object_by_uid(uid_b)
    need(first.etag and first.etag == second.etag, f"the ETags of two reads differ: {first.etag} {second.etag}")
    first.icalendar_component["DESCRIPTION"] = icalendar.vText("first writer")
    first.save()
    second.icalendar_component["DESCRIPTION"] = icalendar.vText("second writer")
    m = run.mark()
    try:
        second.save()
        raise Fail("python-caldav saved over a newer version (stale If-Match accepted)")
    except caldav_error.DAVError as e:
        puts = [x for x in run.since(m) if x.method == "PUT"]
        need(puts and puts[0].status == 412 and puts[0].req_headers.get("if-match") == second.etag,
             f"the stale save: {type(e).__name__}, PUTs {[(x.status, x.req_headers) for x in puts]}")
        run.detail(f"python-caldav's save on a stale ETag: {type(e).__name__} after PUT "
                   f"{[x.status for x in puts]}")
    need("DESCRIPTION:first writer" in unfold(cal.get_object_by_uid(uid_b).data), "the first writer's change is lost")

    # complete C; pending vs include_completed, the pending filter done by the server
    cc = cal.get_object_by_uid(uid_c)
    cc.complete()
    tc = todo_of(cal.get_object_by_uid(uid_c), uid_c)
    need(str(tc.get("STATUS")) == "COMPLETED" and tc.get("COMPLETED") is not None,
         f"after complete(): STATUS {tc.get('STATUS')}, COMPLETED {tc.get('COMPLETED')}")
    need(tc.decoded("COMPLETED").utcoffset() == datetime.timedelta(0), "COMPLETED is not UTC")
    m = run.mark()
    pending = set(by_uid(cal.get_todos()))
    queries = [e for e in run.since(m) if e.method == "REPORT"]
    need(pending == {uid_a, uid_b, uid_d}, f"get_todos() after completing C: {sorted(pending)}")
    c_path = url_path(cc.url)
    for q in queries:
        need(q.status == 207, f"calendar-query: {q.status} {short(q.resp_body)}")
        hrefs = {urllib.parse.unquote(urllib.parse.urlsplit(h.text.strip()).path)
                 for h in xml(q.resp_body).iterfind("D:response/D:href", NS)}
        need(c_path not in hrefs, "the server answered a pending-tasks calendar-query with the completed task "
             f"(python-caldav filtered it out itself): {short(q.req_body)}")
    run.detail(f"get_todos() sent {len(queries)} calendar-query REPORT(s)")
    everything = set(by_uid(cal.get_todos(include_completed=True)))
    need(everything == {uid_a, uid_b, uid_c, uid_d}, f"get_todos(include_completed=True): {sorted(everything)}")

    # delete D
    m = run.mark()
    d.delete()
    need([e.status for e in run.since(m) if e.method == "DELETE"][-1:] in ([200], [204]), "DELETE of D")
    need(run.raw(c, "GET", d.url).status_code == 404, "GET of the deleted D is not 404")
    try:
        cal.get_object_by_uid(uid_d)
        raise Fail("get_object_by_uid() still finds the deleted D")
    except caldav_error.NotFoundError:
        pass
    need(set(by_uid(cal.get_todos(include_completed=True))) == {uid_a, uid_b, uid_c}, "D still listed")

    # stale ETag: If-Match with the ETag before a change is 412, and changes nothing; If-None-Match: * too
    url = str(bb.url)
    g = run.raw(c, "GET", url)
    etag0, body0 = g.headers.get("ETag"), g.content.decode()
    need(etag0, "GET of B has no ETag")
    body1 = body0.replace("SUMMARY:Interop edited", "SUMMARY:Interop first writer")
    need(body1 != body0, "no SUMMARY line to change in " + short(body0))
    cal_h = {"Content-Type": "text/calendar; charset=utf-8"}
    p1 = run.raw(c, "PUT", url, body1, {**cal_h, "If-Match": etag0})
    need(p1.status_code in (200, 201, 204), f"PUT with the current ETag: {p1.status_code} {short(p1.content)}")
    p2 = run.raw(c, "PUT", url, body0.replace("SUMMARY:Interop edited", "SUMMARY:Interop second writer"),
                 {**cal_h, "If-Match": etag0})
    need(p2.status_code == 412, f"PUT with a stale If-Match: {p2.status_code} (412 expected)")
    p3 = run.raw(c, "PUT", url, body0, {**cal_h, "If-None-Match": "*"})
    need(p3.status_code == 412, f"PUT with If-None-Match: * on an existing object: {p3.status_code}")
    g2 = run.raw(c, "GET", url)
    need("SUMMARY:Interop first writer" in unfold(g2.content.decode()), "a refused PUT changed the object")
    need(g2.headers.get("ETag") != etag0, "the ETag did not change when the object did")
    p4 = run.raw(c, "DELETE", url, headers={"If-Match": etag0})
    need(p4.status_code == 412, f"DELETE with a stale If-Match: {p4.status_code}")
    run.detail(f"stale If-Match PUT {p2.status_code}, If-None-Match:* PUT {p3.status_code}, "
               f"stale If-Match DELETE {p4.status_code}")


# ---------------------------------------------------------------------------------------------------------------
# sync


def sync_reports(exs):
    return [e for e in exs if e.method == "REPORT" and "sync-collection" in e.req_text()]


def check_sync(run):
    c1 = run.client()
    cal = make_task_list(run, c1.principal(), f"Interop sync {run.token}")
    keep = cal.add_todo(SIMPLE.format(uid=f"sync-keep-{run.token}", summary="Interop keep", due="20300110"))
    change = cal.add_todo(SIMPLE.format(uid=f"sync-change-{run.token}", summary="Interop change", due="20300111"))
    gone = cal.add_todo(SIMPLE.format(uid=f"sync-gone-{run.token}", summary="Interop gone", due="20300112"))

    m = run.mark()
    first = cal.get_objects_by_sync_token(load_objects=True, disable_fallback=True)
    reps = sync_reports(run.since(m))
    need(len(reps) == 1 and reps[0].status == 207, f"initial sync: {[(e.method, e.status) for e in run.since(m)]}")
    need(first.sync_token and not str(first.sync_token).startswith("fake-"), f"token {first.sync_token!r}")
    tok = xml(reps[0].resp_body).find("D:sync-token", NS)
    need(tok is not None and tok.text == first.sync_token, "the token is not the multistatus' DAV:sync-token")
    urls = {url_path(o.url) for o in first}
    need(urls == {url_path(x.url) for x in (keep, change, gone)}, f"initial sync gave {sorted(urls)}")
    need(all(o.data and "BEGIN:VTODO" in o.data for o in first), "initial sync objects without data")
    run.detail(f"initial sync token {first.sync_token}; Depth {reps[0].req_headers.get('Depth')}")

    # a second client: one add, one change, one delete
    c2 = run.client()
    cal2 = c2.calendar(url=str(cal.url))
    added = cal2.add_todo(SIMPLE.format(uid=f"sync-added-{run.token}", summary="Interop added", due="20300113"))
    ch = cal2.get_object_by_uid(f"sync-change-{run.token}")
    ch.icalendar_component["SUMMARY"] = icalendar.vText("Interop changed")
    ch.save()
    cal2.get_object_by_uid(f"sync-gone-{run.token}").delete()

    m = run.mark()
    second = cal.get_objects_by_sync_token(sync_token=first.sync_token, load_objects=True, disable_fallback=True)
    reps = sync_reports(run.since(m))
    need(len(reps) == 1 and reps[0].status == 207, f"sync from the token: {[(e.method, e.status) for e in run.since(m)]}")
    need(f">{first.sync_token}<" in reps[0].req_text(), "the REPORT did not carry the token")
    need(second.sync_token and second.sync_token != first.sync_token, f"the token did not move: {second.sync_token}")
    deleted = {url_path(u) for u in second.deleted_urls}
    changed = {url_path(o.url) for o in second if url_path(o.url) not in deleted}
    need(changed == {url_path(added.url), url_path(change.url)},
         f"sync reported changed {sorted(changed)}, expected the added and the changed one")
    need(deleted == {url_path(gone.url)}, f"sync reported deleted {sorted(deleted)}, expected {url_path(gone.url)}")
    statuses = {}
    for resp in xml(reps[0].resp_body).iterfind("D:response", NS):
        href = urllib.parse.unquote(urllib.parse.urlsplit(resp.findtext("D:href", "", NS).strip()).path)
        statuses[href] = resp.findtext("D:status", "", NS) or ",".join(
            s.text for s in resp.iterfind("D:propstat/D:status", NS))
    need(" 404 " in statuses.get(url_path(gone.url), ""), f"the deleted member's status: {statuses}")
    for o in second:
        if url_path(o.url) == url_path(change.url):
            need("SUMMARY:Interop changed" in unfold(o.data), "the changed object's data is the old one")
    run.detail("second sync: " + "; ".join(f"{h} {s}" for h, s in sorted(statuses.items())))

    # nothing happened since: an empty sync
    third = cal.get_objects_by_sync_token(sync_token=second.sync_token, load_objects=False, disable_fallback=True)
    need(len(list(third)) == 0, f"a sync with nothing new gave {[url_path(o.url) for o in third]}")

    # a made-up token: 403 with DAV:valid-sync-token (raw, and as python-caldav sees it)
    bogus = "http://example.invalid/sync/made-up-" + run.token
    body = ('<?xml version="1.0" encoding="utf-8"?><D:sync-collection xmlns:D="DAV:">'
            f'<D:sync-token>{bogus}</D:sync-token><D:sync-level>1</D:sync-level>'
            '<D:prop><D:getetag/></D:prop></D:sync-collection>')
    r = run.raw(c1, "REPORT", cal.url, body, {"Depth": "0", "Content-Type": "application/xml; charset=utf-8"})
    need(r.status_code == 403, f"a made-up token: {r.status_code} (403 expected) {short(r.content)}")
    need(r.content and xml(r.content).find("D:valid-sync-token", NS) is not None,
         f"the 403 has no DAV:valid-sync-token: {short(r.content)}")
    try:
        cal.get_objects_by_sync_token(sync_token=bogus, disable_fallback=True)
        raise Fail("python-caldav took the made-up token")
    except caldav_error.DAVError as e:
        pre = getattr(e, "preconditions", None) or []
        need(any("valid-sync-token" in str(p) for p in pre), f"python-caldav saw {type(e).__name__} {pre}")
    run.detail(f"made-up token: {r.status_code} {short(r.content, 200)}")


# ---------------------------------------------------------------------------------------------------------------
# vdirsyncer + todoman


def tool(name):
    p = BIN / name
    return str(p) if p.exists() else (shutil.which(name) or name)


def sh(run, argv, input_text=None, env=None, timeout=300):
    t = time.monotonic()
    p = subprocess.run(argv, input=input_text, capture_output=True, text=True, env=env, timeout=timeout)
    run.detail(f"$ {' '.join(Path(a).name if i == 0 else a for i, a in enumerate(argv))} -> {p.returncode} "
               f"({time.monotonic() - t:.1f} s)")
    if p.returncode != 0:
        raise Fail(f"{' '.join(argv[:1] + argv[3:])} exited {p.returncode}: {short(p.stderr or p.stdout, 800)}")
    return p


def check_vdirsyncer(run):
    c = run.client()
    name = f"Interop vdirsyncer {run.token}"
    cal = make_task_list(run, c.principal(), name)
    uids = {s: f"vds-{s}-{run.token}" for s in ("one", "two", "three")}
    for s, uid in uids.items():
        cal.add_todo(SIMPLE.format(uid=uid, summary=f"Interop vds {s}", due="2030011" + str(len(s))))
    collection = urllib.parse.unquote(str(cal.url).rstrip("/").rsplit("/", 1)[1])

    tmp = Path(tempfile.mkdtemp(prefix="interop-vds-"))
    try:
        q = lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'  # noqa: E731
        cfg = tmp / "vdirsyncer.conf"
        cfg.write_text(textwrap.dedent(f"""\
            [general]
            status_path = {q(str(tmp / 'status'))}

            [pair interop]
            a = "interop_local"
            b = "interop_remote"
            collections = [["interop", "interop", {q(collection)}]]
            metadata = ["displayname"]

            [storage interop_local]
            type = "filesystem"
            path = {q(str(tmp / 'lists'))}
            fileext = ".ics"

            [storage interop_remote]
            type = "caldav"
            url = {q(run.base)}
            username = {q(run.user)}
            password = {q(run.password)}
            """))
        env = dict(os.environ, HOME=str(tmp), XDG_CONFIG_HOME=str(tmp / "xdg"), NO_COLOR="1")
        vds = [tool("vdirsyncer"), "-c", str(cfg)]
        p = sh(run, vds + ["discover"], input_text="y\n" * 20, env=env)
        need(f'"{collection}"' in p.stdout + p.stderr or collection in p.stdout + p.stderr,
             f"vdirsyncer discover did not list {collection}: {short(p.stdout + p.stderr, 800)}")
        sh(run, vds + ["metasync"], env=env)
        sh(run, vds + ["sync"], env=env)
        local = tmp / "lists" / "interop"
        files = sorted(local.glob("*.ics"))
        need(len(files) == 3, f"vdirsyncer sync wrote {len(files)} .ics files, not 3")
        listname = (local / "displayname").read_text().strip() if (local / "displayname").exists() else "interop"
        need(listname == name, f"metasync wrote the display name {listname!r}, not {name!r}")

        tcfg = tmp / "todoman.py"
        tcfg.write_text(f'path = {q(str(tmp / "lists" / "*"))}\ncache_path = {q(str(tmp / "todoman.sqlite3"))}\n'
                        'date_format = "%Y-%m-%d"\ntime_format = "%H:%M"\n')
        todo = [tool("todo"), "--config", str(tcfg)]
        import json
        tasks = json.loads(sh(run, todo + ["--porcelain", "list"], env=env).stdout)
        summaries = {t["summary"]: t for t in tasks}
        need(set(summaries) == {f"Interop vds {s}" for s in uids}, f"todo list: {sorted(summaries)}")
        sh(run, todo + ["new", "-l", listname, "--due", "2030-02-01", "--priority", "high", "Interop vds new"],
           env=env)
        sh(run, todo + ["edit", str(summaries["Interop vds one"]["id"]), "--location", "Interop room",
                        "--priority", "low"], env=env)
        sh(run, todo + ["done", str(summaries["Interop vds two"]["id"])], env=env)
        written = {f.name: f.read_text() for f in local.glob("*.ics")}
        new_files = [n for n, t in written.items() if "Interop vds new" in t]
        need(len(new_files) == 1, f"todo new wrote {len(new_files)} files")
        run.detail("todoman wrote:\n" + written[new_files[0]].strip())
        sh(run, vds + ["sync"], env=env)

        server = by_uid(run.client().calendar(url=str(cal.url)).get_todos(include_completed=True))
        todos = {}
        for uid, o in server.items():
            todos[uid] = todo_of(o, uid)
        new = [t for t in todos.values() if str(t.get("SUMMARY")) == "Interop vds new"]
        need(len(new) == 1, f"the server has {len(new)} 'Interop vds new' tasks: {sorted(map(str, todos))}")
        need(new[0].decoded("DUE").isoformat().startswith("2030-02-01"), f"new task DUE {new[0].get('DUE')}")
        one, two = todos[uids["one"]], todos[uids["two"]]
        need(str(one.get("LOCATION")) == "Interop room", f"the edited task's LOCATION is {one.get('LOCATION')}")
        need(str(two.get("STATUS")) == "COMPLETED" and two.get("COMPLETED") is not None,
             f"the task marked done: STATUS {two.get('STATUS')} COMPLETED {two.get('COMPLETED')}")
        need(str(todos[uids["three"]]["SUMMARY"]) == "Interop vds three", "the untouched task changed")

        # a change on the server comes down
        three = run.client().calendar(url=str(cal.url)).get_object_by_uid(uids["three"])
        three.icalendar_component["SUMMARY"] = icalendar.vText("Interop vds three, changed on the server")
        three.save()
        sh(run, vds + ["sync"], env=env)
        tasks = json.loads(sh(run, todo + ["--porcelain", "list", "--status", "ANY"], env=env).stdout)
        got = sorted(t["summary"] for t in tasks)
        need("Interop vds three, changed on the server" in got, f"after the server-side edit todoman lists {got}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------------------------------------------------------
# caldav-server-tester


def check_tester(run):
    exe = tool("caldav-server-tester")
    need(Path(exe).exists() or shutil.which(exe), "caldav-server-tester is not installed")
    argv = [exe, f"--caldav-url={run.base}", f"--caldav-user={run.user}", f"--caldav-pass={run.password}",
            "--format=hints"]
    t = time.monotonic()
    p = subprocess.run(argv, capture_output=True, text=True, timeout=900)
    # It exits 1 whenever a feature differs from its defaults (a task-only server has no VEVENT or VJOURNAL): the
    # features required are named with --tester-require; no feature list at all is a failure.
    start = p.stdout.find("{")
    need(start >= 0, f"caldav-server-tester exited {p.returncode} with no feature list: {short(p.stderr, 800)}")
    features = ast.literal_eval(p.stdout[start:])
    levels = Counter(v.get("support", "?") for v in features.values())
    run.always(f"caldav-server-tester: {len(features)} features in {time.monotonic() - t:.0f} s: " +
               ", ".join(f"{n} {k}" for k, n in levels.most_common()))
    for k in sorted(features):
        v = features[k]
        if v.get("support", "?") != "full":
            extra = "; ".join(f"{a}={b}" for a, b in v.items() if a != "support")
            run.always(f"{k}: {v.get('support', '?')}" + (f" ({extra})" if extra else ""))
    required = [x for x in (run.args.tester_require or "").split(",") if x]
    bad = [f"{k}={features.get(k, {}).get('support', 'absent')}" for k in required
           if features.get(k, {}).get("support") != "full"]
    need(not bad, "required features not full: " + ", ".join(bad))


# ---------------------------------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", required=True, help="the server's bare address, e.g. http://127.0.0.1:8080/")
    ap.add_argument("--user", required=True)
    ap.add_argument("--password", default=os.environ.get("CALDAV_PASSWORD"),
                    help="the password (default: $CALDAV_PASSWORD, kept off the command line)")
    ap.add_argument("--checks", default=",".join(ALL_CHECKS), help="comma-separated, from: " + ",".join(ALL_CHECKS))
    ap.add_argument("--tester-require", default="", help="caldav-server-tester features that must be 'full'")
    ap.add_argument("--trace", help="append python-caldav's requests and the answers to this file")
    ap.add_argument("-v", "--verbose", action="store_true", help="details under each check")
    args = ap.parse_args()
    if not args.password:
        ap.error("give --password or $CALDAV_PASSWORD")
    checks = [x.strip() for x in args.checks.split(",") if x.strip()]
    unknown = [x for x in checks if x not in ALL_CHECKS]
    if unknown:
        ap.error(f"unknown checks {unknown}; known: {ALL_CHECKS}")

    run = Run(args)
    passed = failed = 0
    try:  # the calendars there before, to tell afterwards whether the checks left any behind
        before = set(listed(run.client().principal()))
    except Exception:  # noqa: BLE001 - discovery's own failure is reported by its check
        before = None
    for name in checks:
        run.made, run.lines = [], []
        run.detail = (lambda line: run.lines.append(line)) if args.verbose else (lambda line: None)
        run.always = run.lines.append
        run.notes = []
        t = time.monotonic()
        check_start = len(run.exchanges)
        reason = None
        try:
            globals()["check_" + name](run)
        except Fail as e:
            reason = str(e)
        except Exception as e:  # noqa: BLE001 - any exception is that check's failure, the others still run
            tb = traceback.extract_tb(e.__traceback__)
            where = next((f"line {f.lineno}" for f in reversed(tb) if f.filename == __file__), "")
            reason = f"{type(e).__name__}: {short(e, 600)} ({where})"
        if reason is not None:  # what the server said last, for the reader of a failure
            for e in run.exchanges[max(check_start, len(run.exchanges) - 3):]:
                run.always(f"last: {e.method} {e.path} -> {e.status} {short(e.resp_body, 200)}")
        problems = delete_made(run)
        if problems and reason is None:
            reason = "cleanup failed: " + "; ".join(problems)
        if reason is None:
            passed += 1
            print(f"ok {name}", flush=True)
        else:
            failed += 1
            print(f"FAIL {name}: {reason}", flush=True)
        for line in run.lines + [f"note: {n}" for n in run.notes]:
            print(textwrap.indent(line, "    "), flush=True)
        if args.verbose:
            print(f"    ({time.monotonic() - t:.1f} s)", flush=True)
    if before is not None:
        try:
            left = sorted(set(listed(run.client().principal())) - before)
        except Exception as e:  # noqa: BLE001
            left = [f"(could not list: {e})"]
        if left:
            failed += 1
            print(f"FAIL cleanup: calendars left behind: {left}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
