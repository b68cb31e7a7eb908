#!/usr/bin/env python3
"""logproxy.py: a small HTTP reverse proxy for the CalDAV interop tests (standard library only).

It forwards every request to --target and, with --log FILE, writes each exchange (request line, headers, body;
status, headers, body) to FILE, so what real clients (python-caldav, vdirsyncer, todoman, Evolution) send can be
read afterwards. The Authorization header is logged as "Basic <user>:***".

With --mount /dav/ it also plays the address layout of our task service: the DAV tree lives under /dav/ of the
address (forwarded to the target's root with "X-Script-Name: /dav", which Radicale uses to write its hrefs), a
request for / is answered with a redirect to /dav/ (--root-redirect, 308 by default: 301/302 make niquests, and so
python-caldav, drop a PROPFIND's body or turn it into a GET), /.well-known/caldav with a 301 to /dav/, anything
else with 404.

With --fault NAME (repeatable) it breaks the server on purpose, so that radicale-selfcheck.sh --faults can show
that interop.py's checks fail when the server gets a thing wrong (see FAULTS).

Listens on 127.0.0.1, on --port or a free port; writes the port to --port-file once it listens.
"""
import argparse
import base64
import http.client
import http.server
import re
import socketserver
import sys
import threading
import time
import urllib.parse

FAULTS = {
    "drop-x-props": "PUT bodies lose their X-TEST-* lines (a server that drops what it does not model)",
    "drop-param": "PUT bodies lose the X-TEST-PARAM parameter (a server that rewrites modelled properties)",
    "ignore-if-match": "If-Match and If-None-Match are not passed on (a server without preconditions)",
    "no-sync-collection": "a sync-collection REPORT is answered 403 DAV:supported-report (no RFC 6578)",
    "unfiltered-query": "a calendar-query's filter is reduced to comp-filter VTODO (a server ignoring prop-filters)",
    "no-current-user-principal": "PROPFIND answers lose current-user-principal",
    "wrong-getcontenttype": "PROPFIND answers say getcontenttype text/plain (vdirsyncer then skips every item)",
    "weak-etag": "ETags are sent weak (W/...) in GET answers",
    "no-well-known": "/.well-known/caldav is 404",
}

METHODS = ("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PROPFIND", "PROPPATCH", "MKCOL", "MKCALENDAR",
           "REPORT", "MOVE", "COPY", "LOCK", "UNLOCK", "ACL")


def redact(name, value):
    if name.lower() != "authorization":
        return value
    scheme, _, cred = value.partition(" ")
    if scheme.lower() == "basic":
        try:
            user = base64.b64decode(cred).decode("utf-8", "replace").split(":", 1)[0]
        except Exception:
            user = "?"
        return f"Basic {user}:***"
    return f"{scheme} ***"


class Log:
    def __init__(self, path):
        self.file = open(path, "a", encoding="utf-8") if path else None
        self.lock = threading.Lock()
        self.count = 0

    def write(self, req, resp):
        if not self.file:
            return
        with self.lock:
            self.count += 1
            out = [f"### {self.count} {time.strftime('%H:%M:%S')}"]
            out.append(req)
            out.append(resp)
            self.file.write("\n".join(out) + "\n\n")
            self.file.flush()


def text(body):
    if not body:
        return ""
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return f"<{len(body)} bytes, not UTF-8>"


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "logproxy"

    def log_message(self, fmt, *args):  # quiet on stderr; the log file has everything
        pass

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().strip().split(b";")[0], 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            return b"".join(chunks)
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def describe_request(self, body):
        lines = [f">>> {self.command} {self.path} {self.request_version}"]
        lines += [f"{k}: {redact(k, v)}" for k, v in self.headers.items()]
        if body:
            lines += ["", text(body)]
        return "\n".join(lines)

    def answer(self, status, headers, body, req_text):
        self.send_response_only(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and body:
            self.wfile.write(body)
        lines = [f"<<< {status}"] + [f"{k}: {v}" for k, v in headers]
        if body:
            lines += ["", text(body)]
        self.server.log.write(req_text, "\n".join(lines))

    def handle_any(self):
        body = self.read_body()
        req_text = self.describe_request(body)
        cfg = self.server.cfg
        path = self.path
        script_name = ""
        if cfg.mount:
            mount = cfg.mount.rstrip("/")
            plain = urllib.parse.urlsplit(path).path
            if plain in ("/.well-known/caldav", "/.well-known/caldav/"):
                return self.answer(301, [("Location", mount + "/")], b"", req_text)
            if plain == "/":
                return self.answer(cfg.root_redirect, [("Location", mount + "/")], b"", req_text)
            if plain != mount and not plain.startswith(mount + "/"):
                return self.answer(404, [("Content-Type", "text/plain")], b"not found\n", req_text)
            path = path[len(mount):] or "/"
            script_name = mount
        faults = self.server.cfg.fault or []
        if "no-well-known" in faults and urllib.parse.urlsplit(self.path).path.startswith("/.well-known/caldav"):
            return self.answer(404, [("Content-Type", "text/plain")], b"not found\n", req_text)
        if "no-sync-collection" in faults and self.command == "REPORT" and b"sync-collection" in body:
            return self.answer(403, [("Content-Type", "application/xml; charset=utf-8")],
                               b'<?xml version="1.0" encoding="utf-8"?><D:error xmlns:D="DAV:"><D:supported-report/>'
                               b'</D:error>', req_text)
        if "drop-x-props" in faults and self.command == "PUT":
            body = re.sub(rb"(?m)^X-TEST-[^\r\n]*\r?\n", b"", body)
        if "drop-param" in faults and self.command == "PUT":
            body = re.sub(rb";X-TEST-PARAM=[^:;]*", b"", body)
        if "unfiltered-query" in faults and self.command == "REPORT" and b"calendar-query" in body:
            body = re.sub(rb"(<(\w+:)?comp-filter name=\"VTODO\"\s*)>.*?</(\w+:)?comp-filter>", rb"\1/>", body,
                          flags=re.S)
        target = self.server.target
        conn = http.client.HTTPConnection(target.hostname, target.port or 80, timeout=120)
        headers = {}
        for k, v in self.headers.items():
            if k.lower() in ("connection", "keep-alive", "transfer-encoding", "accept-encoding", "content-length",
                             "proxy-connection", "te", "upgrade", "x-script-name"):
                continue
            if "ignore-if-match" in faults and k.lower() in ("if-match", "if-none-match"):
                continue
            headers[k] = v
        if script_name:
            headers["X-Script-Name"] = script_name
        if body or self.command in ("PUT", "POST", "PROPFIND", "PROPPATCH", "REPORT", "MKCALENDAR", "MKCOL"):
            headers["Content-Length"] = str(len(body))
        try:
            conn.request(self.command, path, body=body or None, headers=headers)
            r = conn.getresponse()
            rbody = r.read()
            rheaders = [(k, v) for k, v in r.getheaders()
                        if k.lower() not in ("connection", "keep-alive", "transfer-encoding", "content-length")]
            status = r.status
            if "no-current-user-principal" in faults and self.command == "PROPFIND":
                rbody = re.sub(rb"<(\w+:)?current-user-principal\s*/>|<(\w+:)?current-user-principal>.*?"
                               rb"</(\w+:)?current-user-principal>", b"", rbody, flags=re.S)
            if "wrong-getcontenttype" in faults and self.command == "PROPFIND":
                rbody = re.sub(rb"(<(\w+:)?getcontenttype>)[^<]*(</(\w+:)?getcontenttype>)", rb"\1text/plain\3", rbody)
            if "weak-etag" in faults and self.command == "GET":
                rheaders = [(k, "W/" + v if k.lower() == "etag" and not v.startswith("W/") else v)
                            for k, v in rheaders]
        except Exception as e:  # the target is down or broke the connection
            status, rheaders, rbody = 502, [("Content-Type", "text/plain")], f"logproxy: {e}\n".encode()
        finally:
            conn.close()
        self.answer(status, rheaders, rbody, req_text)


for _m in METHODS:
    setattr(Handler, "do_" + _m, Handler.handle_any)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", required=True, help="the server to forward to, e.g. http://127.0.0.1:5232")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--port-file")
    ap.add_argument("--log")
    ap.add_argument("--mount", help="serve the target under this path (e.g. /dav/), with redirects from / and "
                                    "/.well-known/caldav")
    ap.add_argument("--root-redirect", type=int, default=308)
    ap.add_argument("--fault", action="append", choices=sorted(FAULTS), help="break the server on purpose")
    cfg = ap.parse_args()
    srv = Server(("127.0.0.1", cfg.port), Handler)
    srv.cfg = cfg
    srv.target = urllib.parse.urlsplit(cfg.target)
    srv.log = Log(cfg.log)
    port = srv.server_address[1]
    if cfg.port_file:
        with open(cfg.port_file + ".tmp", "w") as f:
            f.write(f"{port}\n")
        import os
        os.replace(cfg.port_file + ".tmp", cfg.port_file)
    print(f"logproxy: 127.0.0.1:{port} -> {cfg.target}" + (f" under {cfg.mount}" if cfg.mount else ""),
          file=sys.stderr, flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
