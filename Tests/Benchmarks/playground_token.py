"""playground_token: an access token from the playground's B2C policy, got as a browser gets it (the authorize page,
the form posted, the code redeemed); the token stays in the calling process. Shared by the benchmarks' Python."""
import http.cookiejar
import json
import re
import sys
import urllib.error
import urllib.parse
import urllib.request

CLIENT = "6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10"
REDIRECT = "urn:ietf:wg:oauth:2.0:oob"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args):
        return None


def token(tenant, email, password, sign_up=False, client=CLIENT):
    """Signs `email` in at the policy `tenant` (with `sign_up`, makes the account first, named Bench)."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), _NoRedirect)
    query = urllib.parse.urlencode({"client_id": client, "response_type": "code", "redirect_uri": REDIRECT,
                                    "scope": f"openid {client}"})
    page = opener.open(f"{tenant}/oauth2/v2.0/authorize?{query}").read().decode()
    fields = {"tx": re.search(r'name="tx" value="([^"]*)"', page).group(1), "email": email}
    if sign_up:
        fields.update(step="signup", newPassword=password, reenterPassword=password, displayName="Bench")
    else:
        fields.update(step="signin", password=password)
    try:
        opener.open(f"{tenant}/SelfAsserted", data=urllib.parse.urlencode(fields).encode())
        sys.exit(f"the {fields['step']} page did not redirect")
    except urllib.error.HTTPError as redirect:
        location = redirect.headers["Location"]
    code = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)["code"][0]
    body = urllib.parse.urlencode({"grant_type": "authorization_code", "client_id": client, "code": code,
                                   "redirect_uri": REDIRECT}).encode()
    return json.loads(urllib.request.urlopen(f"{tenant}/oauth2/v2.0/token", data=body).read())["access_token"]
