#!/usr/bin/env python3
"""notification_server.py: the tests' own desktop notification server (org.freedesktop.Notifications on the session
bus, PyGObject), as GNOME Shell or a notification daemon would be, for GLib's GNotification.

Prints one JSON object per line: {"ready": true} once it owns the name, then each call it gets:
  {"call": "Notify", "id": N, "app": APP_NAME, "summary": TEXT, "body": TEXT, "actions": {KEY: LABEL}, "hints": {...}}
  {"call": "CloseNotification", "id": N}
and what it was asked to do. Pressing a button is a method of its own, for the tests:
  gdbus call --session --dest org.freedesktop.Notifications --object-path /org/freedesktop/Notifications \
    --method org.b2ctasks.TestNotifications.Press ID ACTION_KEY
emits ActionInvoked(ID, ACTION_KEY) then NotificationClosed(ID, 2), as a server does when a button is clicked.
With --capabilities a,b,c it answers GetCapabilities with those (body-markup: it reads bodies as markup, as GNOME
Shell's server does); by default "actions,body,persistence".
"""
import json
import sys
import time

from gi.repository import Gio, GLib

XML = """
<node>
  <interface name="org.freedesktop.Notifications">
    <method name="Notify">
      <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
      <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
      <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>
    </method>
    <method name="CloseNotification"><arg type="u" direction="in"/></method>
    <method name="GetCapabilities"><arg type="as" direction="out"/></method>
    <method name="GetServerInformation">
      <arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/>
      <arg type="s" direction="out"/>
    </method>
    <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
    <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
  </interface>
  <interface name="org.b2ctasks.TestNotifications">
    <method name="Press"><arg type="u" direction="in"/><arg type="s" direction="in"/></method>
  </interface>
</node>
"""
PATH = "/org/freedesktop/Notifications"
CAPABILITIES = ["actions", "body", "persistence"]
last_id = 0
connection = None


def say(record):
    print(json.dumps(record), flush=True)


def plain(value):
    """A hint's value as JSON can say it."""
    unpacked = value.unpack() if isinstance(value, GLib.Variant) else value
    return unpacked if isinstance(unpacked, (str, int, float, bool)) else repr(unpacked)


def emit(name, parameters):
    connection.emit_signal(None, PATH, "org.freedesktop.Notifications", name, parameters)


def on_call(conn, sender, path, interface, method, parameters, invocation):
    global last_id
    args = parameters.unpack()
    if method == "Notify":
        app, replaces, _icon, summary, body, actions, hints, _timeout = args
        if replaces:
            number = replaces
        else:
            last_id += 1
            number = last_id
        pairs = dict(zip(actions[0::2], actions[1::2]))
        say({"call": "Notify", "time": time.time(), "id": number, "app": app, "summary": summary, "body": body, "actions": pairs,
             "hints": {key: plain(value) for key, value in hints.items()}})
        invocation.return_value(GLib.Variant("(u)", (number,)))
    elif method == "CloseNotification":
        say({"call": "CloseNotification", "id": args[0]})
        invocation.return_value(None)
        emit("NotificationClosed", GLib.Variant("(uu)", (args[0], 3)))
    elif method == "GetCapabilities":
        say({"call": "GetCapabilities"})
        invocation.return_value(GLib.Variant("(as)", (CAPABILITIES,)))
    elif method == "GetServerInformation":
        invocation.return_value(GLib.Variant("(ssss)", ("b2c-tasks-tests", "b2ctasks", "1", "1.2")))
    elif method == "Press":
        number, key = args
        say({"pressed": number, "action": key})
        emit("ActionInvoked", GLib.Variant("(us)", (number, key)))
        emit("NotificationClosed", GLib.Variant("(uu)", (number, 2)))
        invocation.return_value(None)


def on_bus(conn, name):
    global connection
    connection = conn
    node = Gio.DBusNodeInfo.new_for_xml(XML)
    for interface in node.interfaces:
        conn.register_object(PATH, interface, on_call, None, None)


def main():
    global CAPABILITIES
    if len(sys.argv) == 3 and sys.argv[1] == "--capabilities":
        CAPABILITIES = sys.argv[2].split(",")
    loop = GLib.MainLoop()
    Gio.bus_own_name(
        Gio.BusType.SESSION, "org.freedesktop.Notifications", Gio.BusNameOwnerFlags.DO_NOT_QUEUE, on_bus,
        lambda conn, name: say({"ready": True}), lambda conn, name: (say({"lost": name}), loop.quit()))
    loop.run()
    sys.exit(1)


if __name__ == "__main__":
    main()
