#!/usr/bin/python3
"""broker-measure.py, for broker.sh (inside its D-Bus session, with the broker running and Ann signed in):

  allow PID DRIVER                 asks the broker (process PID) for the accounts and clicks Allow on its question
                                   with DRIVER (atspi_driver.py), as the user would
  measure CALLS GROUP              GetToken on the broker, and the session read from the keyring, CALLS times each
  settle                           waits until the broker answers a GetAccounts (it is idle after it)
"""
import json
import statistics
import subprocess
import sys
import threading
import time

from gi.repository import Gio, GLib

BROKER = ("io.github.b2ctasks.Broker", "/io/github/b2ctasks/Broker", "io.github.b2ctasks.Broker1")
SECRETS = ("org.freedesktop.secrets", "/org/freedesktop/secrets", "org.freedesktop.Secret.Service")


def proxy(name, path, interface):
    return Gio.DBusProxy.new_for_bus_sync(Gio.BusType.SESSION, Gio.DBusProxyFlags.NONE, None, name, path, interface)


def accounts(broker):
    for _ in range(300):  # the broker may still be starting
        try:
            return broker.call_sync("GetAccounts", None, Gio.DBusCallFlags.NONE, 30000, None).unpack()[0]
        except GLib.Error:
            time.sleep(0.1)
    sys.exit("broker-measure: the broker never answered")


def allow(pid, driver):
    """The first GetAccounts brings the question (who is signed in is told only to an allowed app)."""
    answer = {}
    asking = threading.Thread(target=lambda: answer.update(accounts=accounts(proxy(*BROKER))))
    asking.start()
    subprocess.run([sys.executable, driver, "press-when-enabled", pid, "push button", "Allow"], check=True,
                   stdout=subprocess.DEVNULL)
    asking.join()
    if not answer.get("accounts"):
        sys.exit("broker-measure: allowed, but the broker lists no account")


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def measure(calls, group):
    broker = proxy(*BROKER)
    account = accounts(broker)[0]["id"]
    secrets = proxy(*SECRETS)
    _, session = secrets.call_sync("OpenSession", GLib.Variant("(sv)", ("plain", GLib.Variant("s", ""))),
                                   Gio.DBusCallFlags.NONE, 30000, None).unpack()

    def from_broker():
        token, _ = broker.call_sync("GetToken", GLib.Variant("(sasa{sv})", (account, [], {})),
                                    Gio.DBusCallFlags.NONE, 30000, None).unpack()
        return token

    def from_keyring():
        unlocked, _ = secrets.call_sync("SearchItems", GLib.Variant("(a{ss})", ({"keychain-group": group},)),
                                        Gio.DBusCallFlags.NONE, 30000, None).unpack()
        found = secrets.call_sync("GetSecrets", GLib.Variant("(aoo)", (unlocked, session)),
                                  Gio.DBusCallFlags.NONE, 30000, None).unpack()[0]
        return json.loads(bytes(next(iter(found.values()))[2]))["accessToken"]

    if from_broker() != from_keyring():
        sys.exit("broker-measure: the broker's token is not the keyring's")
    timings = {"broker": [], "keyring": []}
    for _ in range(20):  # warm both
        from_broker()
        from_keyring()
    for round_start in range(0, calls, 100):  # alternated in rounds of 100, as the machine's speed drifts
        for name, call in (("broker", from_broker), ("keyring", from_keyring)):
            for _ in range(min(100, calls - round_start)):
                start = time.perf_counter_ns()
                call()
                timings[name].append((time.perf_counter_ns() - start) / 1e6)
    for name in ("broker", "keyring"):
        print(f"{name:8} GetToken {calls} calls: median {statistics.median(timings[name]):.3f} ms, "
              f"p99 {percentile(timings[name], 0.99):.3f} ms" if name == "broker" else
              f"{name:8} read     {calls} calls: median {statistics.median(timings[name]):.3f} ms, "
              f"p99 {percentile(timings[name], 0.99):.3f} ms")
    ratio = percentile(timings["broker"], 0.99) / percentile(timings["keyring"], 0.99)
    median_ratio = statistics.median(timings["broker"]) / statistics.median(timings["keyring"])
    print(f"broker : keyring = p99 {ratio:.2f}×, median {median_ratio:.2f}× "
          f"(target: broker p99 ≤ 5 ms: {percentile(timings['broker'], 0.99):.3f} ms)")


def settle():
    accounts(proxy(*BROKER))  # the broker's last work before it is measured idle


if __name__ == "__main__":
    command, *arguments = sys.argv[1:]
    if command == "allow":
        allow(*arguments)
    elif command == "measure":
        measure(int(arguments[0]), arguments[1])
    elif command == "settle":
        settle()
    else:
        sys.exit(__doc__)
