#!/usr/bin/python3
"""eds.py: Evolution's own CalDAV backend (evolution-data-server, as Evolution and Endeavour use it) against a server.

    eds.py --url BASE --user USER --password PASS [--timeout S] [-v]

Runs with Debian's python3 and its PyGObject (python3-gi, gir1.2-ecal-2.0, gir1.2-edataserver-1.2,
evolution-data-server: meson-wrap/tools/install-deps.sh --tests installs them). It starts itself again inside a private D-Bus session
(dbus-run-session) with HOME and the XDG folders in a temporary folder, and starts evolution-source-registry and
evolution-calendar-factory on that bus, so nothing of the user's own Evolution is touched.

What it does, each step an assertion:
  1. makes a task list on the server with plain HTTP (PROPFIND current-user-principal and calendar-home-set from
     BASE, MKCALENDAR with VTODO, PUT of two VTODOs);
  2. EDS's WebDAV discovery (e_webdav_discover_sources_sync, what Evolution's "Find Calendars" does) from BASE
     with the user and password lists that task list, supporting tasks, with its display name;
  3. adds a CalDAV task-list source for it (ESourceTaskList backend "caldav", ESourceWebdav URL,
     ESourceAuthentication user), commits it to the registry, connects an ECalClient, answers the backend's
     credentials request with the password (ESource.invoke_authenticate), and lists the two tasks;
  4. creates a task through EDS and completes one of the two; the server (plain HTTP) shows the new task and the
     completed one;
  5. removes the source and DELETEs the task list.
Prints "ok eds" or "FAIL eds: reason", then "1 passed, 0 failed" or "0 passed, 1 failed"; exits 1 on failure.
"""
import argparse
import base64
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET

NS = {"D": "DAV:", "C": "urn:ietf:params:xml:ns:caldav"}
LIBEXEC = "/usr/libexec"


class Fail(Exception):
    pass


def need(cond, msg):
    if not cond:
        raise Fail(msg)


# ---------------------------------------------------------------------------------------------------------------
# plain HTTP, to set up and to look at the server independently of EDS

class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *a, **k):
        return None


class Http:
    def __init__(self, base, user, password):
        self.base, self.auth = base, "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
        self.opener = urllib.request.build_opener(NoRedirect)

    def __call__(self, method, url, body=None, headers=None, follow=True):
        url = urllib.parse.urljoin(self.base, url)
        for _ in range(5):
            h = {"Authorization": self.auth, "User-Agent": "b2c-interop-eds"}
            h.update(headers or {})
            req = urllib.request.Request(url, data=body.encode() if isinstance(body, str) else body, method=method,
                                         headers=h)
            try:
                r = self.opener.open(req, timeout=60)
                return r.status, dict(r.headers), r.read(), url
            except urllib.error.HTTPError as e:
                if follow and e.code in (301, 302, 307, 308) and e.headers.get("Location"):
                    url = urllib.parse.urljoin(url, e.headers["Location"])
                    continue
                return e.code, dict(e.headers), e.read(), url
        raise Fail(f"{method} {url}: too many redirects")

    def propfind(self, url, prop, depth="0"):
        body = (f'<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:" xmlns:C="{NS["C"]}">'
                f"<D:prop>{prop}</D:prop></D:propfind>")
        st, _, data, final = self(method="PROPFIND", url=url, body=body,
                                  headers={"Depth": depth, "Content-Type": "application/xml; charset=utf-8"})
        need(st == 207, f"PROPFIND {url} {prop}: {st} {data[:200]!r}")
        return ET.fromstring(data), final


def home_of(http):
    root, final = http.propfind(http.base, "<D:current-user-principal/>")
    href = root.find(".//D:current-user-principal/D:href", NS)
    need(href is not None, "no current-user-principal")
    principal = urllib.parse.urljoin(final, href.text.strip())
    root, final = http.propfind(principal, "<C:calendar-home-set/>")
    href = root.find(".//C:calendar-home-set/D:href", NS)
    need(href is not None, "no calendar-home-set")
    return urllib.parse.urljoin(final, href.text.strip())


def vtodo(uid, summary):
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//B2C Tasks//CalDAV interop//EN\r\nBEGIN:VTODO\r\n"
            f"UID:{uid}\r\nDTSTAMP:20260102T090000Z\r\nSUMMARY:{summary}\r\nDUE;VALUE=DATE:20300120\r\n"
            "STATUS:NEEDS-ACTION\r\nX-TEST-KEEP:eds\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")


def server_todos(http, cal_url):
    """{UID: VTODO text} of the task list, by a calendar-query (plain HTTP)."""
    body = (f'<?xml version="1.0" encoding="utf-8"?><C:calendar-query xmlns:D="DAV:" xmlns:C="{NS["C"]}">'
            '<D:prop><D:getetag/><C:calendar-data/></D:prop><C:filter><C:comp-filter name="VCALENDAR">'
            '<C:comp-filter name="VTODO"/></C:comp-filter></C:filter></C:calendar-query>')
    st, _, data, _ = http("REPORT", cal_url, body, {"Depth": "1", "Content-Type": "application/xml; charset=utf-8"})
    need(st == 207, f"calendar-query: {st}")
    out = {}
    for cd in ET.fromstring(data).iterfind(".//C:calendar-data", NS):
        text = re.sub(r"\r?\n[ \t]", "", cd.text or "")
        m = re.search(r"^UID:(.*?)\r?$", text, re.M)
        if m:
            out[m.group(1)] = text
    return out


# ---------------------------------------------------------------------------------------------------------------
# EDS, inside the private session


def wait_for(what, cond, timeout, loop_ctx):
    deadline = time.monotonic() + timeout
    while True:
        v = cond()
        if v:
            return v
        if time.monotonic() > deadline:
            raise Fail(f"timed out ({timeout} s) waiting for {what}")
        # let GLib deliver D-Bus signals and async results while we wait
        while loop_ctx.pending():
            loop_ctx.iteration(False)
        time.sleep(0.05)


def run_eds(args, log):
    import gi
    gi.require_version("ECal", "2.0")
    gi.require_version("EDataServer", "1.2")
    gi.require_version("ICalGLib", "3.0")
    from gi.repository import ECal, EDataServer, GLib, ICalGLib

    ctx = GLib.MainContext.default()
    http = Http(args.url, args.user, args.password)
    token = secrets.token_hex(4)
    name = f"Interop EDS {token}"

    home = home_of(http)
    cal_url = urllib.parse.urljoin(home, f"interop-eds-{token}/")
    body = (f'<?xml version="1.0" encoding="utf-8"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="{NS["C"]}"><D:set><D:prop>'
            f'<D:displayname>{name}</D:displayname><C:supported-calendar-component-set><C:comp name="VTODO"/>'
            '</C:supported-calendar-component-set></D:prop></D:set></C:mkcalendar>')
    st, _, data, _ = http("MKCALENDAR", cal_url, body, {"Content-Type": "application/xml; charset=utf-8"})
    need(st == 201, f"MKCALENDAR {cal_url}: {st} {data[:200]!r}")
    source = registry = None
    try:
        uids = {f"eds-one-{token}": "Interop EDS one", f"eds-two-{token}": "Interop EDS two"}
        for uid, summary in uids.items():
            st, _, data, _ = http("PUT", cal_url + uid + ".ics", vtodo(uid, summary),
                                  {"Content-Type": "text/calendar; charset=utf-8", "If-None-Match": "*"})
            need(st in (201, 204), f"PUT {uid}: {st}")

        # 2. discovery from the bare address, as Evolution's "Find Calendars"
        creds = EDataServer.NamedParameters.new()
        creds.set(EDataServer.SOURCE_CREDENTIAL_USERNAME, args.user)
        creds.set(EDataServer.SOURCE_CREDENTIAL_PASSWORD, args.password)
        probe = EDataServer.Source.new(None, None)
        probe.get_extension(EDataServer.SOURCE_EXTENSION_AUTHENTICATION).set_user(args.user)
        t = time.monotonic()
        ok, _pem, _errs, found, _addrs = EDataServer.webdav_discover_sources_sync(
            probe, args.url, EDataServer.WebDAVDiscoverSupports.NONE, creds, None)
        need(ok, "webdav_discover_sources_sync failed")
        mine = [d for d in found if urllib.parse.unquote(urllib.parse.urlsplit(d.href).path).rstrip("/")
                == urllib.parse.unquote(urllib.parse.urlsplit(cal_url).path).rstrip("/")]
        log(f"discovery from {args.url} ({time.monotonic() - t:.1f} s) found " +
            ", ".join(f"{d.display_name!r} {d.href} supports={int(d.supports)}" for d in found))
        need(mine, f"EDS discovery did not find {cal_url} among {[d.href for d in found]}")
        need(mine[0].display_name == name, f"EDS discovery named it {mine[0].display_name!r}")
        need(int(mine[0].supports) & int(EDataServer.WebDAVDiscoverSupports.TASKS),
             f"EDS discovery says it does not hold tasks (supports={int(mine[0].supports)})")
        href = mine[0].href

        # 3. a CalDAV task-list source, as Evolution's "New Task List" > CalDAV makes it
        registry = EDataServer.SourceRegistry.new_sync(None)
        source = EDataServer.Source.new(None, None)
        source.set_display_name(name)
        source.set_parent("caldav-stub")
        tl = source.get_extension(EDataServer.SOURCE_EXTENSION_TASK_LIST)
        tl.set_backend_name("caldav")
        auth = source.get_extension(EDataServer.SOURCE_EXTENSION_AUTHENTICATION)
        parts = urllib.parse.urlsplit(href)
        auth.set_host(parts.hostname)
        auth.set_port(parts.port or 80)
        auth.set_user(args.user)
        auth.set_method("plain/password")
        wd = source.get_extension(EDataServer.SOURCE_EXTENSION_WEBDAV_BACKEND)
        wd.set_uri(GLib.Uri.parse(href, GLib.UriFlags.NONE))
        wd.set_display_name(name)
        source.get_extension(EDataServer.SOURCE_EXTENSION_OFFLINE).set_stay_synchronized(True)
        registry.commit_source_sync(source, None)
        uid = source.get_uid()
        reg_source = wait_for("the registry to know the source", lambda: registry.ref_source(uid), 30, ctx)
        text = reg_source.to_string()
        log(f"source {uid}:\n" + (text[0] if isinstance(text, tuple) else text).strip())

        # the backend asks for credentials (no keyring here): answer with the password
        requests = []

        def on_required(src, reason, pem, errors, err):
            requests.append(reason)
            src.invoke_authenticate(creds, None, None, None)

        reg_source.connect("credentials-required", on_required)
        t = time.monotonic()
        # (guint32)-1: do not wait inside connect_sync for "connected" (its own loop would not deliver
        # credentials-required to us, and it then opens the backend offline when the wait ends)
        client = ECal.Client.connect_sync(reg_source, ECal.ClientSourceType.TASKS, 0xFFFFFFFF, None)
        Status = EDataServer.SourceConnectionStatus
        status = wait_for("the backend to connect or ask for credentials", lambda: (
            reg_source.get_connection_status() in (Status.CONNECTED, Status.AWAITING_CREDENTIALS, Status.SSL_FAILED)
            and reg_source.get_connection_status()), args.timeout, ctx)
        if status == Status.AWAITING_CREDENTIALS and not requests:
            reg_source.invoke_authenticate_sync(creds, None)
        wait_for("the backend to connect", lambda: reg_source.get_connection_status() == Status.CONNECTED,
                 args.timeout, ctx)
        log(f"ECalClient connected ({time.monotonic() - t:.1f} s; credentials asked {len(requests)} time(s))")

        def listed_summaries():
            try:
                client.refresh_sync(None)
            except GLib.Error:
                pass
            ok, comps = client.get_object_list_as_comps_sync("#t", None)
            return {c.get_uid(): c.get_summary().get_value() for c in comps} if ok else {}

        got = wait_for("EDS to list the two tasks", lambda: (lambda s: s if set(s) == set(uids) else None)(
            listed_summaries()), args.timeout, ctx)
        need(got == uids, f"EDS lists {got}, the server has {uids}")
        log(f"EDS lists {sorted(got.values())}")

        # 4. a new task and a completion through EDS
        comp = ECal.Component.new()
        comp.set_new_vtype(ECal.ComponentVType.TODO)
        comp.set_uid(f"eds-new-{token}")
        comp.set_summary(ECal.ComponentText.new("Interop EDS new", None))
        comp.set_due(ECal.ComponentDateTime.new(ICalGLib.Time.new_from_string("20300201"), None))
        comp.set_priority(1)
        ok, new_uid = client.create_object_sync(comp.get_icalcomponent(), ECal.OperationFlags.NONE, None)
        need(ok and new_uid, "create_object_sync failed")
        ok, one = client.get_object_sync(f"eds-one-{token}", None, None)
        need(ok, "get_object_sync of the first task")
        one_c = ECal.Component.new_from_icalcomponent(one)
        one_c.set_status(ICalGLib.PropertyStatus.COMPLETED)
        one_c.set_percent_complete(100)
        one_c.set_completed(ICalGLib.Time.new_current_with_zone(ICalGLib.Timezone.get_utc_timezone()))
        # as Evolution's editor does it: flags NONE, i.e. conflict resolution "keep local" (an unconditional PUT)
        client.modify_object_sync(one_c.get_icalcomponent(), ECal.ObjModType.ALL, ECal.OperationFlags.NONE, None)
        # and asking EDS to fail on a conflict (it then sends If-Match)
        ok, two = client.get_object_sync(f"eds-two-{token}", None, None)
        need(ok, "get_object_sync of the second task")
        two_c = ECal.Component.new_from_icalcomponent(two)
        two_c.set_summary(ECal.ComponentText.new("Interop EDS two edited", None))
        client.modify_object_sync(two_c.get_icalcomponent(), ECal.ObjModType.ALL,
                                  ECal.OperationFlags.CONFLICT_FAIL, None)

        def on_server():
            s = server_todos(http, cal_url)
            new = [t for t in s.values() if "SUMMARY:Interop EDS new" in t]
            done = s.get(f"eds-one-{token}", "")
            two = s.get(f"eds-two-{token}", "")
            return s if new and "STATUS:COMPLETED" in done and "SUMMARY:Interop EDS two edited" in two else None

        s = wait_for("the server to show EDS's new task and completion", on_server, args.timeout, ctx)
        new_text = [t for t in s.values() if "SUMMARY:Interop EDS new" in t][0]
        log("EDS wrote:\n" + new_text.strip())
        need("X-TEST-KEEP:eds" in s[f"eds-one-{token}"], "EDS's completion dropped X-TEST-KEEP")
        need(re.search(r"^COMPLETED:\d{8}T\d{6}Z\r?$", s[f"eds-one-{token}"], re.M),
             "the completion has no UTC COMPLETED: " + s[f"eds-one-{token}"])
        need("STATUS:COMPLETED" not in s[f"eds-two-{token}"], "the other task changed")
        client = None
    finally:
        if source is not None and registry is not None:
            try:
                rs = registry.ref_source(source.get_uid())
                if rs is not None:
                    rs.remove_sync(None)
            except Exception as e:  # noqa: BLE001
                log(f"removing the source: {e}")
        st, _, _, _ = http("DELETE", cal_url)
        if st not in (200, 204, 404):
            raise Fail(f"DELETE {cal_url}: {st}")


def inside(args):
    """In the private session: start the registry and the calendar factory, run, report."""
    # evolution-source-registry and evolution-calendar-factory start by D-Bus activation (their .service files
    # in /usr/share/dbus-1/services); starting them here as well only races with it
    import faulthandler
    faulthandler.dump_traceback_later(args.timeout * 6, exit=True)  # a hang in EDS shows where, then ends
    lines = []
    log = (lambda s: print("    " + s, flush=True)) if args.verbose else (lambda s: None)
    reason = None
    try:
        run_eds(args, log)
    except Fail as e:
        reason = str(e)
    except Exception as e:  # noqa: BLE001
        import traceback
        reason = f"{type(e).__name__}: {e} ({traceback.format_exc().strip().splitlines()[-3].strip()})"
    print("ok eds" if reason is None else f"FAIL eds: {reason}", flush=True)
    for line in lines:
        print("\n".join("    " + x for x in line.splitlines()), flush=True)
    print("1 passed, 0 failed" if reason is None else "0 passed, 1 failed")
    return 0 if reason is None else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", required=True)
    ap.add_argument("--user", required=True)
    ap.add_argument("--password", default=os.environ.get("CALDAV_PASSWORD"),
                    help="the password (default: $CALDAV_PASSWORD, kept off the command line)")
    ap.add_argument("--timeout", type=int, default=60, help="seconds to wait for EDS at each step")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    if not args.password:
        ap.error("give --password or $CALDAV_PASSWORD")
    if not args.url.endswith("/"):
        args.url += "/"
    if os.environ.get("INTEROP_EDS_INSIDE") == "1":
        sys.exit(inside(args))
    for exe in ("evolution-source-registry", "evolution-calendar-factory"):
        if not os.path.exists(os.path.join(LIBEXEC, exe)):
            sys.exit(f"eds.py: {LIBEXEC}/{exe} is missing (apt-get install evolution-data-server)")
    if not shutil.which("dbus-run-session"):
        sys.exit("eds.py: dbus-run-session is missing (apt-get install dbus)")
    tmp = tempfile.mkdtemp(prefix="interop-eds-")
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DBUS_", "XDG_"))}
        env.update(HOME=tmp, XDG_CONFIG_HOME=f"{tmp}/config", XDG_DATA_HOME=f"{tmp}/data",
                   XDG_CACHE_HOME=f"{tmp}/cache", XDG_RUNTIME_DIR=f"{tmp}/run", INTEROP_EDS_INSIDE="1",
                   GSETTINGS_BACKEND="memory")
        os.makedirs(f"{tmp}/run", mode=0o700)
        # the bus' and the EDS services' own messages go to a log, shown when the check failed
        with open(f"{tmp}/session.log", "w") as err:
            p = subprocess.run(["dbus-run-session", "--", sys.executable, os.path.abspath(__file__)] + sys.argv[1:],
                               env=env, stderr=err, timeout=args.timeout * 8 + 60)
        if p.returncode != 0:
            tail = open(f"{tmp}/session.log").read().splitlines()[-40:]
            print("    D-Bus session and EDS services (last lines):\n" + "\n".join("    | " + x for x in tail))
        sys.exit(p.returncode)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
