#!/usr/bin/python3
"""Reads and acts on a running app's accessibility tree over AT-SPI, as assistive technology does.

  atspi_driver.py dump PID            one JSON object per line: role, name, states, depth
  atspi_driver.py press PID ROLE NAME  performs the default action (click) of the first matching object on screen
  atspi_driver.py set-text PID ROLE NAME TEXT  replaces the text of the first matching editable object on screen
  atspi_driver.py extents PID ROLE NAME  prints the screen rectangle (x, y, width, height) of the first match
  atspi_driver.py press-when-enabled PID ROLE NAME  answers a question: waits (up to 120 s) until a matching object
                                      is on screen and sensitive, presses it, and again while it stays (a click in the
                                      consent question's first half second is no answer); for scripts (the Swift tests
                                      do the same themselves)

Exits 3 when the app is not (yet) on the accessibility bus, 4 when nothing matches.
"""
import json
import sys
import time

import pyatspi


def application(pid):
    desktop = pyatspi.Registry.getDesktop(0)
    for app in desktop:
        try:
            if app is not None and app.get_process_id() == pid:
                return app
        except Exception:  # an app that went away while we looked
            continue
    return None


def walk(node, depth=0, parent_on_screen=True):
    """Yields (node, depth, on_screen); a node is on screen when it and all its ancestors are visible."""
    visible = node.getState().contains(pyatspi.STATE_VISIBLE) or node.getRole() == pyatspi.ROLE_APPLICATION
    on_screen = parent_on_screen and visible
    yield node, depth, on_screen
    for child in node:
        if child is not None:
            yield from walk(child, depth + 1, on_screen)


def describe(node, depth, on_screen):
    states = [pyatspi.stateToString(s) for s in node.getState().getStates()]
    return {"role": node.getRoleName(), "name": node.name or "", "states": states, "depth": depth,
            "onScreen": on_screen}


def first(app, role, name):
    for node, _, on_screen in walk(app):
        if on_screen and node.getRoleName() == role and node.name == name:
            return node
    sys.exit(4)


def press_when_enabled(pid, role, name):
    def target():
        app = application(pid)
        for node, _, on_screen in walk(app) if app is not None else ():
            if on_screen and node.getRoleName() == role and node.name == name:
                return node
        return None

    deadline = time.monotonic() + 120
    pressed = None
    while time.monotonic() < deadline:
        try:
            node = target()
        except Exception:  # the app went away, or the tree changed under us
            node = None
        if node is None and pressed is not None:
            print(json.dumps({"pressed": name}))
            return
        if node is not None and node.getState().contains(pyatspi.STATE_SENSITIVE) and (
                pressed is None or time.monotonic() - pressed > 3):
            node.queryAction().doAction(0)
            pressed = time.monotonic()
        time.sleep(0.2)
    sys.exit(4)


def main():
    command, pid = sys.argv[1], int(sys.argv[2])
    if command == "press-when-enabled":
        return press_when_enabled(pid, sys.argv[3], sys.argv[4])
    app = application(pid)
    if app is None:
        sys.exit(3)
    if command == "extents":
        box = first(app, sys.argv[3], sys.argv[4]).queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        print(json.dumps({"x": box.x, "y": box.y, "width": box.width, "height": box.height}))
    elif command == "dump":
        for node, depth, on_screen in walk(app):
            print(json.dumps(describe(node, depth, on_screen)))
    elif command == "press":
        first(app, sys.argv[3], sys.argv[4]).queryAction().doAction(0)
        print(json.dumps({"pressed": sys.argv[4]}))
    elif command == "set-text":
        first(app, sys.argv[3], sys.argv[4]).queryEditableText().setTextContents(sys.argv[5])
        print(json.dumps({"set": sys.argv[4]}))
    elif command == "text":
        text = first(app, sys.argv[3], sys.argv[4]).queryText()
        print(json.dumps({"text": text.getText(0, -1)}))
    else:
        sys.exit(2)


if __name__ == "__main__":
    main()
