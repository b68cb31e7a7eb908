#!/usr/bin/env python3
"""interop-browser.py URL: the "system browser" of the interoperability tests (set as $BROWSER).

Opens URL with a cookie jar kept in $INTEROP_COOKIES, signs in on the provider's page with $INTEROP_USER and
$INTEROP_PASSWORD when it asks (django-oidc-provider's username/password form, or the playground's email/password
form), grants consent when it asks, follows the redirects to the app's loopback listener and submits a form_post
answer's form, as a person's browser (with script) would. Writes the path of every page it was given to
$INTEROP_BROWSER_LOG (never a query: it may carry tokens). Trusts $REQUESTS_CA_BUNDLE when set, as MSAL's requests
does. With $INTEROP_BROWSER_DETACH=1 it returns at once and goes on in the background, as a desktop browser does for
Python's webbrowser module, which otherwise waits for it.
"""
import html.parser
import http.cookiejar
import os
import re
import ssl
import sys
import urllib.error
import urllib.parse
import urllib.request


class Forms(html.parser.HTMLParser):
    """The forms of a page: action and input fields (name, value, type)."""

    def __init__(self):
        super().__init__()
        self.forms = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"action": attrs.get("action", ""), "method": attrs.get("method", "get"), "inputs": []})
        elif tag == "input" and self.forms:
            self.forms[-1]["inputs"].append((attrs.get("name"), attrs.get("value", ""), attrs.get("type", "text")))


def main(url):
    jar = http.cookiejar.LWPCookieJar(os.environ.get("INTEROP_COOKIES", "/dev/null"))
    if os.path.exists(jar.filename) and os.path.getsize(jar.filename) > 0:
        jar.load(ignore_discard=True)
    tls = ssl.create_default_context(cafile=os.environ.get("REQUESTS_CA_BUNDLE") or None)
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(jar), urllib.request.HTTPSHandler(context=tls))
    log = os.environ.get("INTEROP_BROWSER_LOG")
    if log:
        with open(log, "a") as file:
            file.write(urllib.parse.urlsplit(url).path + "\n")

    def open_page(target, fields=None):
        data = urllib.parse.urlencode(fields).encode() if fields is not None else None
        try:
            with opener.open(target, data=data, timeout=60) as answer:
                return answer.geturl(), answer.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as error:
            return error.geturl(), error.read().decode("utf-8", "replace")
        except urllib.error.URLError:
            return target, ""  # a redirect to a listener that has gone: the flow is over

    if urllib.parse.urlsplit(url).scheme in ("file", ""):  # the apps' hand-over page: follow its refresh
        with open(urllib.parse.unquote(urllib.parse.urlsplit(url).path), encoding="utf-8") as handed:
            refresh = re.search(r'http-equiv="refresh" content="0; url=([^"]*)"', handed.read())
        url = html.unescape(refresh.group(1)) if refresh else url
    here, page = open_page(url)
    for _ in range(4):
        parser = Forms()
        parser.feed(page)
        if not parser.forms:
            break
        form = parser.forms[0]
        fields = {name: value for name, value, kind in form["inputs"] if name and kind != "submit"}
        names = {name for name, _, _ in form["inputs"]}
        kinds = {kind for name, _, kind in form["inputs"] if name}
        login = "username" if "username" in names else "email"
        if login in names and "password" in names:
            fields[login] = os.environ.get("INTEROP_USER", "")
            fields["password"] = os.environ.get("INTEROP_PASSWORD", "")
        elif "allow" in names:
            fields["allow"] = "Authorize"
        elif form["method"].lower() != "post" or kinds - {"hidden", "submit"}:
            break  # not a form_post answer, which a page's script submits unseen
        here, page = open_page(urllib.parse.urljoin(here, form["action"]), fields)
    if jar.filename != "/dev/null":
        jar.save(ignore_discard=True)


if __name__ == "__main__":
    if os.environ.get("INTEROP_BROWSER_DETACH") == "1":
        if os.fork() != 0:
            sys.exit(0)
        quiet = os.open(os.devnull, os.O_RDWR)
        for stream in (0, 1, 2):  # the caller may be waiting for its pipes to close
            os.dup2(quiet, stream)
    main(sys.argv[1])
