#!/usr/bin/env python3
"""broker_client.py COMMAND …: another desktop app using B2C Tasks' sign-in broker over D-Bus (PyGObject), as the
UI tests drive it. Prints one JSON object per answer; a D-Bus error prints {"error": NAME, "message": TEXT}, exit 2.

  accounts                     the signed-in accounts
  token ACCOUNT [KIND]         a token (KIND: access_token or id_token), then GET TASK_API/api/tasks with it
                               when $TASK_API is set ("status" in the answer)
  sign-in                      asks B2C Tasks to sign in; prints the account id
  sign-out ACCOUNT             signs out
  watch                        prints {"signal": "AccountsChanged"} for each change, after {"watching": true}
  reachable                    what answers under the broker's name: every object path with its interfaces (by
                               introspection), and what org.gtk.Actions.List at the app's path answers
"""
import json
import os
import sys
import urllib.error
import urllib.request

from gi.repository import Gio, GLib

NAME, PATH, INTERFACE = "io.github.b2ctasks.Broker", "/io/github/b2ctasks/Broker", "io.github.b2ctasks.Broker1"


def say(answer):
    print(json.dumps(answer), flush=True)


def reachable():
    bus = Gio.bus_get_sync(Gio.BusType.SESSION)

    def ask(path, interface, method, answer_type):
        try:
            return bus.call_sync(NAME, path, interface, method, None, GLib.VariantType(answer_type),
                                 Gio.DBusCallFlags.NONE, 30_000, None).unpack()
        except GLib.Error as error:
            return {"error": Gio.DBusError.get_remote_error(error) or error.message}

    objects = {}

    def walk(path):
        answer = ask(path, "org.freedesktop.DBus.Introspectable", "Introspect", "(s)")
        if isinstance(answer, dict):
            objects[path] = answer
            return
        node = Gio.DBusNodeInfo.new_for_xml(answer[0])
        objects[path] = sorted(interface.name for interface in node.interfaces)
        for child in node.nodes:
            walk(path.rstrip("/") + "/" + child.path)

    walk("/")
    actions = ask("/io/github/b2ctasks/B2CTasks", "org.gtk.Actions", "List", "(as)")
    return {"objects": objects, "actions": actions if isinstance(actions, dict) else {"listed": actions[0]}}


def main(command, *arguments):
    broker = Gio.DBusProxy.new_for_bus_sync(Gio.BusType.SESSION, Gio.DBusProxyFlags.NONE, None, NAME, PATH, INTERFACE)
    # The user may take a while to answer the question: no 25-second default.
    def call(method, signature=None, *values):
        parameters = GLib.Variant(signature, values) if signature else None
        return broker.call_sync(method, parameters, Gio.DBusCallFlags.NONE, 600_000, None).unpack()

    try:
        if command == "accounts":
            say({"accounts": call("GetAccounts")[0]})
        elif command == "token":
            options = {"kind": GLib.Variant("s", arguments[1])} if len(arguments) > 1 else {}
            token, expires = call("GetToken", "(sasa{sv})", arguments[0], [], options)
            answer = {"expires": expires, "length": len(token)}
            if os.environ.get("TASK_API"):
                request = urllib.request.Request(os.environ["TASK_API"] + "/api/tasks")
                request.add_header("Authorization", "Bearer " + token)
                try:
                    with urllib.request.urlopen(request, timeout=30) as response:
                        answer["status"] = response.status
                        answer["tasks"] = len(json.load(response))
                except urllib.error.HTTPError as error:
                    answer["status"] = error.code
            say(answer)
        elif command == "sign-in":
            say({"account": call("SignIn", "(a{sv})", {})[0]})
        elif command == "sign-out":
            call("SignOut", "(s)", arguments[0])
            say({"signedOut": True})
        elif command == "reachable":
            say(reachable())
        elif command == "watch":
            loop = GLib.MainLoop()
            broker.connect("g-signal", lambda _proxy, _sender, signal, _parameters: say({"signal": signal}))
            say({"watching": True})
            loop.run()
        else:
            sys.exit(__doc__)
    except GLib.Error as error:
        name = Gio.DBusError.get_remote_error(error) or "local"
        Gio.DBusError.strip_remote_error(error)
        say({"error": name, "message": error.message})
        sys.exit(2)


if __name__ == "__main__":
    main(*sys.argv[1:])
