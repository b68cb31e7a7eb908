#!/usr/bin/env python3
"""msal-client.py: a desktop app written the way Microsoft's documentation shows, with MSAL Python, against a tenant.

Run with the interop virtualenv's python (Tests/Interop/venv.sh). Reads:
  MSAL_AUTHORITY      the authority, as PublicClientApplication takes it
  MSAL_CLIENT_ID      the app's client id
  MSAL_SCOPES         space-separated scopes to ask for (MSAL adds openid, profile and offline_access itself)
  MSAL_INSTANCE_DISCOVERY  "0" for an authority Microsoft's instance discovery does not know (a custom domain)
  TASK_APIS           space-separated base URLs of task APIs to call with the access token MSAL holds
  TASK_TEXT           the text of the task to add through each of them
and, for MSAL itself, REQUESTS_CA_BUNDLE and BROWSER (a stand-in that signs in on the provider's page).

Signs in with acquire_token_interactive (MSAL's own loopback listener, response_mode=form_post), lists the accounts,
refreshes with acquire_token_silent(force_refresh=True), calls the task APIs with the access token, and last replays
the refresh token the refresh replaced. Prints one JSON report on standard output: outcomes, error codes, claims and
account names, never a token.
"""
import json
import os
import sys

import msal
import requests


def outcome(result):
    """What a token result says, without its tokens."""
    if "access_token" in result:
        return {"ok": True, "scope": result.get("scope"), "source": result.get("token_source")}
    return {"ok": False, "error": result.get("error"), "error_description": result.get("error_description")}


def refresh_tokens(app):
    return [entry["secret"] for entry in app.token_cache.search(msal.TokenCache.CredentialType.REFRESH_TOKEN)]


def main():
    report = {"msal": msal.__version__}
    app = msal.PublicClientApplication(
        os.environ["MSAL_CLIENT_ID"],
        authority=os.environ["MSAL_AUTHORITY"],
        instance_discovery=os.environ.get("MSAL_INSTANCE_DISCOVERY") != "0",
    )
    scopes = os.environ["MSAL_SCOPES"].split()
    result = app.acquire_token_interactive(scopes, timeout=120)
    report["interactive"] = outcome(result)
    if "access_token" not in result:
        print(json.dumps(report))
        return
    claims = result.get("id_token_claims", {})
    report["id_token_claims"] = {name: claims.get(name) for name in ("name", "oid", "sub", "emails", "preferred_username")}
    report["accounts"] = [
        {name: account.get(name) for name in ("username", "home_account_id", "local_account_id", "environment")}
        for account in app.get_accounts()
    ]
    account = app.get_accounts()[0]

    before = refresh_tokens(app)
    refreshed = app.acquire_token_silent(scopes, account=account, force_refresh=True) or {}
    report["silent_refresh"] = outcome(refreshed)
    after = refresh_tokens(app)
    report["refresh_token_rotated"] = len(before) == 1 and len(after) == 1 and before != after
    cached = app.acquire_token_silent(scopes, account=account) or {}
    report["silent_cached"] = outcome(cached)

    token = cached.get("access_token") or refreshed.get("access_token")
    text = os.environ.get("TASK_TEXT", "added with MSAL Python")
    report["apis"] = []
    for base in os.environ.get("TASK_APIS", "").split():
        headers = {"Authorization": "Bearer " + token}
        added = requests.post(base.rstrip("/") + "/api/tasks", json={"Text": text}, headers=headers, timeout=30)
        listed = requests.get(base.rstrip("/") + "/api/tasks", headers=headers, timeout=30)
        anonymous = requests.get(base.rstrip("/") + "/api/tasks", timeout=30)
        texts = [task.get("Text") for task in listed.json()] if listed.status_code == 200 else None
        report["apis"].append(
            {"base": base, "add": added.status_code, "list": listed.status_code, "texts": texts,
             "without_token": anonymous.status_code})

    # The refresh token the refresh replaced, used again: refused, and (RFC 9700) its family with it.
    replay = requests.post(
        app.authority.token_endpoint,
        data={"grant_type": "refresh_token", "client_id": os.environ["MSAL_CLIENT_ID"], "refresh_token": before[0],
              "scope": " ".join(scopes + ["openid", "offline_access"])},
        timeout=30)
    answer = replay.json() if replay.headers.get("Content-Type", "").startswith("application/json") else {}
    report["replayed_refresh_token"] = {
        "status": replay.status_code, "error": answer.get("error"),
        "code": (answer.get("error_description") or "").split(":")[0]}
    after_replay = app.acquire_token_silent_with_error(scopes, account=account, force_refresh=True) or {}
    report["refresh_after_replay"] = outcome(after_replay)
    print(json.dumps(report))


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # the report says what broke; the test prints it
        print(json.dumps({"exception": type(error).__name__, "message": str(error)}))
        sys.exit(1)
