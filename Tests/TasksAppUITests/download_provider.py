#!/usr/bin/env python3
"""download_provider.py: a hostile OpenID Connect provider for the UI tests (issue 34, M1).

Serves just enough of an issuer (discovery, an empty key set) for the app to open its authorize page, and that page
tries every way a page can make a browser save a file: iframes and a navigation to `Content-Disposition:
attachment` answers, a fetch turned into a download link that is clicked, a type no browser shows, and window.open.
The attachments are named like files the test keeps in the user's home folder ("victim.txt"). Every request is
printed on stdout as "GET PATH" (flushed), so the test can wait until all of them were served.

Usage: download_provider.py  (prints "listening on PORT" once it listens on 127.0.0.1)
"""

import http.server
import json
import sys
import threading

# The server answers on several threads: one line at a time, whole, or two requests' lines interleave ("GET /aGET /b").
printing = threading.Lock()

PAGE = b"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>Sign in</title></head>
<body><h1>Sign in</h1><p>Nothing to sign in to: this page only tries to save files.</p>
<input type="email" autofocus>
<iframe src="/file/attachment-frame"></iframe>
<iframe src="/file/octet-frame"></iframe>
<a id="save" href="/file/link" download="victim.txt">save</a>
<script>
// One attack after another, so that none cancels the one before it: the frames (requested while the page is parsed)
// have finished when "load" fires; then the download link, the script's blob, a new window, and last a navigation.
// A frame whose answer the view refused can keep "load" from ever firing (seen once in six runs): then the attacks
// start after a few seconds anyway.
new Promise(ready => {
  window.addEventListener("load", ready);
  setTimeout(ready, 3000);
}).then(async () => {
  document.getElementById("save").click();
  const blob = await (await fetch("/file/fetched")).blob();
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = "victim.txt";
  document.body.appendChild(link);
  link.click();
  await fetch("/done/blob");
  window.open("/file/window", "_blank");
  location.href = "/file/navigation";
});
</script></body></html>"""


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, format, *args):
        pass

    def send(self, status, body, content_type, extra=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        with printing:
            sys.stdout.write("GET " + self.path.split("?")[0] + "\n")
            sys.stdout.flush()
        origin = "http://127.0.0.1:%d" % self.server.server_address[1]
        path = self.path.split("?")[0]
        if path == "/.well-known/openid-configuration":
            document = {
                "issuer": origin,
                "authorization_endpoint": origin + "/authorize",
                "token_endpoint": origin + "/token",
                "jwks_uri": origin + "/keys",
                "response_types_supported": ["code"],
                "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["RS256"],
            }
            self.send(200, json.dumps(document).encode(), "application/json")
        elif path == "/keys":
            self.send(200, b'{"keys":[]}', "application/json")
        elif path == "/authorize":
            self.send(200, PAGE, "text/html; charset=utf-8")
        elif path == "/file/octet-frame":
            self.send(200, b"overwritten by a frame\n", "application/octet-stream")
        elif path.startswith("/file/"):
            self.send(200, b"overwritten by %s\n" % path.encode(), "text/plain",
                      [("Content-Disposition", 'attachment; filename="victim.txt"')])
        else:
            self.send(404, b"", "text/plain")


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print("listening on %d" % server.server_address[1], flush=True)
server.serve_forever()
