#!/usr/bin/python3
"""Inside a clean Debian root with B2C Tasks installed from its packages: starts the app as GNOME's launcher does
(gtk4-launch), signs in to the b2c-playground already running by typing into its page, adds a task with the quick
entry, and checks that b2c-tasks-cli lists it (the sign-in is shared); adds a reminder with b2c-tasks-cli, after which
the window writes the reminder service's autostart entry and starts it, and the entry's command starts it too; quits
the app and asks the sign-in broker,
which D-Bus starts from the package's service file, for the accounts: it asks whether this script may use the sign-in,
and Allow is clicked. Prints each step; exits non-zero on failure.

Runs under Xvfb in a D-Bus session with an unlocked keyring (try-debs.sh sets them up), as an unprivileged user.
"""
import os
import statistics
import struct
import subprocess
import sys
import threading
import time

import pyatspi
from gi.repository import Gio, GLib

TASK = "bought in a clean Debian"


def log(text):
    print(f"launcher-check: {text}", flush=True)


def wait(what, condition, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = condition()
        except Exception as error:  # the tree changes under us while the app works
            print(f"  ({what}: {error})", flush=True)
            value = None
        if value:
            log(f"{what}: yes")
            return value
        time.sleep(0.25)
    root = app()
    if root is not None:  # what was on screen instead
        for node, shown in nodes(root):
            if shown and (node.name or node.getRoleName() in ("entry", "text", "document web", "label")):
                print(f"  on screen: {node.getRoleName()} {node.name!r}", flush=True)
    sys.exit(f"launcher-check: {what}: not within {timeout} s")


def app():
    for candidate in pyatspi.Registry.getDesktop(0):
        try:
            if candidate is not None and candidate.name == "b2c-tasks":
                return candidate
        except Exception:
            continue
    return None


def nodes(root):
    """The tree in document order: where libadwaita 1.2's message dialog keeps a second, unmapped set of response
    buttons (for its vertical layout) after the one on screen, which AT-SPI also calls visible, the first is the one
    a person sees."""
    stack = [(root, True)]
    while stack:
        node, on_screen = stack.pop()
        visible = node.getState().contains(pyatspi.STATE_VISIBLE) or node.getRole() == pyatspi.ROLE_APPLICATION
        shown = on_screen and visible
        yield node, shown
        for child in reversed([child for child in node if child is not None]):
            stack.append((child, shown))


# Role names that changed between the AT-SPI of Debian 12 and 13.
ROLES = {"push button": {"push button", "button"}}


def find(role, name):
    root = app()
    if root is None:
        return None
    for node, shown in nodes(root):
        if shown and node.getRoleName() in ROLES.get(role, {role}) and node.name == name:
            return node
    return None


def window():
    """The X11 id of the app's largest visible window titled B2C Tasks (the toplevel)."""
    ids = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^B2C Tasks$"], capture_output=True,
                         text=True).stdout.split()
    best = None
    for ident in ids:
        shell = subprocess.run(["xdotool", "getwindowgeometry", "--shell", ident], capture_output=True,
                               text=True).stdout
        values = dict(line.split("=", 1) for line in shell.split() if "=" in line)
        area = int(values.get("WIDTH", 0)) * int(values.get("HEIGHT", 0))
        if area > 1 and (best is None or area > best[1]):
            best = (ident, area)
    return best[0] if best else None


def painted():
    """Whether the web view's part of the screen shows a page (its pixels vary), read from `xwd -root`: keys typed
    before WebKit has drawn the page can be lost."""
    dump = subprocess.run(["xwd", "-root", "-silent"], capture_output=True).stdout
    with open("/tmp/screen.xwd", "wb") as screen:  # for a person to look at when the check fails
        screen.write(dump)
    header = struct.unpack(">25I", dump[:100])
    size, width, height = header[0], header[4], header[5]
    bits, line, colours = header[11], header[12], header[19]
    if bits not in (24, 32):
        raise RuntimeError(f"xwd gave {bits} bits a pixel")
    step = bits // 8
    pixels = dump[size + colours * 12:]
    values = []
    for y in range(90, min(height, 450), 6):  # below the header bar, where the page is
        row = y * line
        for x in range(40, min(width, 680), 6):
            at = row + step * x
            values.append((pixels[at] + pixels[at + 1] + pixels[at + 2]) / 765)
    return statistics.pstdev(values) > 0.02


def typed(ident, *steps):
    subprocess.run(["xdotool", "windowfocus", "--sync", ident], check=True)
    for kind, text in steps:
        if kind == "type":
            subprocess.run(["xdotool", "type", "--delay", "30", text], check=True)
        else:
            subprocess.run(["xdotool", "key", "--clearmodifiers", text], check=True)


def main():
    subprocess.Popen(["gtk4-launch", "io.github.b2ctasks.B2CTasks"])
    ident = wait("the window is on screen", window)
    sign_in = wait("the welcome page offers Sign In", lambda: find("push button", "Sign In"))
    sign_in.queryAction().doAction(0)
    # The playground's page, in the window's web view, as the accessibility tree shows it.
    wait("the sign-in page is shown", lambda: find("label", "Sign in"))
    wait("the page is drawn", painted, timeout=90)
    typed(ident, ("type", "ann@example.com"), ("key", "Tab"), ("type", "Tasks-Demo-1"), ("key", "Return"))
    wait("the task list is shown, empty", lambda: find("label", "No Tasks"), timeout=90)
    typed(ident, ("key", "ctrl+n"), ("type", TASK), ("key", "Return"))
    wait("the new task is in the list", lambda: find("check box", TASK))
    listed = wait("b2c-tasks-cli lists it (the sign-in is shared)", lambda: TASK in subprocess.run(
        ["b2c-tasks-cli", "list"], capture_output=True, text=True).stdout)
    reminders = reminder_service(ident)
    # The sign-in broker, started by D-Bus from the package's service file once the app has quit.
    typed(ident, ("key", "ctrl+q"))
    wait("the app has quit", lambda: not running("b2c-tasks"))
    broker = Gio.DBusProxy.new_for_bus_sync(
        Gio.BusType.SESSION, Gio.DBusProxyFlags.DO_NOT_AUTO_START_AT_CONSTRUCTION, None,
        "io.github.b2ctasks.Broker", "/io/github/b2ctasks/Broker", "io.github.b2ctasks.Broker1")
    answer = {}

    def ask():
        try:
            answer["accounts"] = broker.call_sync("GetAccounts", None, Gio.DBusCallFlags.NONE, 300000, None).unpack()[0]
        except Exception as error:
            answer["error"] = error

    asking = threading.Thread(target=ask, daemon=True)
    asking.start()
    # Who is signed in is told only to an app the user allowed: the broker asks first, with no window of its own.
    name = os.path.basename(__file__)
    wait("the broker asks about this script", lambda: find("label", f"Allow \u201c{name}\u201d to Use Your Sign-In?"))
    wait("it offers Allow", lambda: find("push button", "Allow"))
    clicks = 0
    while asking.is_alive() and clicks < 10:
        try:
            allow = find("push button", "Allow")
        except Exception:  # the tree changes under us as the question closes
            allow = None
        if allow is None:  # answered: the broker's reply is on its way
            asking.join(timeout=120)
            break
        if allow.getState().contains(pyatspi.STATE_SENSITIVE):
            # Clicked again while the question stays: a click in its first half second is no answer, as for a person.
            allow.queryAction().doAction(0)
            clicks += 1
            log(f"Allow clicked ({clicks})")
        asking.join(timeout=3)
    if "accounts" not in answer:
        sys.exit(f"launcher-check: the broker answered {answer.get('error', 'nothing')}")
    accounts = answer["accounts"]
    log(f"the broker, D-Bus activated, lists {[account.get('email') for account in accounts]}")
    brokered = [account.get("email") for account in accounts] == ["ann@example.com"] and running("b2c-tasks")
    return 0 if listed and brokered and reminders else 1


REMINDERS = "io.github.b2ctasks.B2CTasks.Reminders"


def reminder_service(ident):
    """A reminder set in the terminal: the window's next read writes the reminder service's autostart entry and starts
    the service; ended, it starts again from the entry's command, as the session does at login."""
    bus = Gio.bus_get_sync(Gio.BusType.SESSION)

    def runs():
        return bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                             GLib.Variant("(s)", (REMINDERS,)), None, Gio.DBusCallFlags.NONE, -1, None).unpack()[0]

    subprocess.run(["b2c-tasks-cli", "add", "water the plants", "--remind", "in 2 days"], check=True,
                   capture_output=True)
    typed(ident, ("key", "F5"))
    entry = os.path.expanduser("~/.config/autostart/" + REMINDERS + ".desktop")
    wait("the window wrote the reminder service's autostart entry", lambda: os.path.exists(entry))
    with open(entry) as text:
        log("its command: " + next(line.strip() for line in text if line.startswith("Exec=")))
    wait("the window started the reminder service", runs)
    bus.call_sync(REMINDERS, "/" + REMINDERS.replace(".", "/"), "org.freedesktop.Application", "ActivateAction",
                  GLib.Variant("(sava{sv})", ("quit", [], {})), None, Gio.DBusCallFlags.NONE, -1, None)
    wait("the reminder service ended when asked", lambda: not runs())
    Gio.DesktopAppInfo.new_from_filename(entry).launch([], None)
    wait("the autostart entry's command started it again", runs)
    return running("b2c-tasks-remin")  # /proc's comm: the first 15 bytes of b2c-tasks-reminders


def running(name):
    """Whether a process of that name runs (procps is not in the clean root)."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/comm") as comm:
                if comm.read().strip() == name:
                    return True
        except OSError:
            continue
    return False


if __name__ == "__main__":
    sys.exit(main())
