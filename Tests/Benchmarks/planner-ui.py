#!/usr/bin/python3
"""planner-ui.py MODE COMMAND...: starts COMMAND (b2c-tasks, or baseline.c with BASELINE_PLANNER or BASELINE_ROWS),
waits until its sidebar shows every entry of the seeded planner, then, by MODE:

  switch LISTS  clicks sidebar entries in turn (Today, List 1, Upcoming, List 2, Tasks, List 3; PLANNER_ROUNDS
                rounds, default 5) with
                click.c ($CLICK), which times each click's answer: the release of the button to the window's next
                frame. After each click, checks over AT-SPI that the entry is selected and that the task rows on
                screen are all the entry's (tasks spread as environment.sh's `seed_planner` spreads them). Prints
                "switch ENTRY: MS" per click.
  scroll ENTRY  clicks ENTRY ("-": none, the list is already shown), waits for its rows, then runs scroll.c ($SCROLL)
                on the rightmost list (the planner's, not the sidebar), printing its figures.

PLANNER_ENTRIES=N: how many sidebar entries to wait for (rows named "NAME, K open task(s)"). Exits 1 on a failed
check or after PLANNER_TIMEOUT seconds (default 300) without the sidebar."""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

import pyatspi

ENTRY = re.compile(r"^(.+), (\d+) open tasks?(, .*)?$")
TASK = re.compile(r"^task number (\d+)(,|$)")


def application(pid):
    for app in pyatspi.Registry.getDesktop(0):
        try:
            if app is not None and app.get_process_id() == pid:
                return app
        except Exception:
            continue
    return None


def walk(node, on_screen=True):
    """Yields (node, on_screen) for every node under `node`; on screen: it and its ancestors are visible."""
    try:
        visible = node.getState().contains(pyatspi.STATE_VISIBLE) or node.getRole() == pyatspi.ROLE_APPLICATION
        on_screen = on_screen and visible
        yield node, on_screen
        for child in node:
            if child is not None:
                yield from walk(child, on_screen)
    except Exception:
        return


def snapshot(pid):
    """The sidebar's entries ({name: (node, selected)}) and the numbers of the task rows on screen."""
    app = application(pid)
    entries, tasks = {}, []
    for node, on_screen in walk(app) if app is not None else ():
        if not on_screen:
            continue
        role, name = node.getRoleName(), node.name or ""
        entry = ENTRY.match(name) if role == "list item" else None
        if entry:
            entries[entry.group(1)] = (node, node.getState().contains(pyatspi.STATE_SELECTED))
            continue
        task = TASK.match(name) if role in ("list item", "check box") else None
        if task:
            tasks.append(int(task.group(1)))
    return entries, tasks


def centre(node):
    box = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    return box.x + box.width // 2, box.y + box.height // 2


def belongs(entry, number, lists):
    if entry == "Today":
        return number % 4 == 0
    if entry == "Upcoming":
        return number % 4 == 1
    index = 0 if entry == "Tasks" else int(entry.split()[-1])
    return (number - 1) % lists == index


def wait_for(pid, child, test, what, seconds, must=True):
    """Waits until test(entries, task rows) holds; exits saying `what` did not come (or answers None: not `must`)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if child.poll() is not None:
            sys.exit(f"{what}: the program exited with {child.returncode}")
        found = snapshot(pid)
        if test(*found):
            return found
        time.sleep(0.1)
    if not must:
        return None
    entries, tasks = snapshot(pid)
    if os.environ.get("PLANNER_SHOT"):  # what the screen showed, for the one looking into it
        subprocess.run(["import", "-window", "root", os.environ["PLANNER_SHOT"]], check=False)
    sys.exit(f"{what}: not within {seconds} s (entries {sorted(entries)}, task rows {tasks[:10]})")


def window_of(pid):
    windows = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(pid)],
                             capture_output=True, text=True, timeout=30).stdout.split()

    def area(window):
        shell = subprocess.run(["xdotool", "getwindowgeometry", "--shell", window], capture_output=True, text=True,
                               timeout=30).stdout
        size = dict(line.split("=", 1) for line in shell.split() if "=" in line)
        return int(size.get("WIDTH", 0)) * int(size.get("HEIGHT", 0))

    return max(windows, key=area)  # a tooltip is a window of its own


def click(window, node):
    """Clicks `node`; answers the milliseconds from the button's release to the window's next frame, or None when
    no frame came within 2 s (a click that was lost: it changed nothing)."""
    x, y = centre(node)
    out = subprocess.run([os.environ["CLICK"], window, str(x), str(y)], capture_output=True, text=True, check=True,
                         timeout=60).stdout
    value = out.split(": ", 1)[1].strip()
    return None if value == "none" else float(value)


def click_until(pid, child, window, entry, test, what, attempts=5):
    """Clicks the sidebar's `entry` until test(entries, task rows) holds, as a person clicks again when a click did
    nothing: a click was seen lost now and then, soon after the window appeared and later on a quiet machine (the
    row only hovered), and a lost click times the frame of nothing. Each attempt waits for the effect (the last one
    up to 30 s, the others 10 s) before it clicks again. Answers the time of the click that took effect."""
    for attempt in range(attempts):
        last = attempt == attempts - 1
        entries, _ = snapshot(pid)
        if entry not in entries:
            wait_for(pid, child, lambda entries, tasks: entry in entries, f"the entry {entry}", 30)
            entries, _ = snapshot(pid)
        milliseconds = click(window, entries[entry][0])
        if wait_for(pid, child, test, what, 30 if last else 10, must=last) and milliseconds is not None:
            return milliseconds
        # (An effect with no frame timed: the click is made again, to be timed.)
    sys.exit(f"{what}: no click on {entry} was answered by a frame within 2 s")


def shows(entry, lists):
    """Whether `entry` is selected and every task row on screen is one of its tasks (lists 0: any task rows)."""
    def test(entries, tasks):
        return entry in entries and entries[entry][1] and tasks and (
            lists == 0 or all(belongs(entry, n, lists) for n in tasks))
    return test


def switch(pid, child, lists, entries):
    window = window_of(pid)
    order = ["Today", "List 1", "Upcoming", "List 2", "Tasks", "List 3"]
    # A first click, not measured.
    click_until(pid, child, window, "List 3", shows("List 3", lists), "the rows of List 3")
    for _ in range(int(os.environ.get("PLANNER_ROUNDS", "5"))):
        for entry in order:
            milliseconds = click_until(pid, child, window, entry, shows(entry, lists), f"the rows of {entry}")
            print(f"switch {entry}: {milliseconds:.1f}", flush=True)


def scroll(pid, child, entry, entries):
    window = window_of(pid)
    if entry != "-":
        click_until(pid, child, window, entry, shows(entry, 0), f"the rows of {entry}")
    app = application(pid)
    top_window = app.getChildAtIndex(0).queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    bars = [node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS) for node, on_screen in walk(app)
            if on_screen and node.getRoleName() == "scroll bar"
            and node.getState().contains(pyatspi.STATE_VERTICAL)]
    if not bars:
        sys.exit("no vertical scroll bar on screen")
    bar = max(bars, key=lambda box: box.x)  # the list's, right of the sidebar's
    time.sleep(0.5)  # the first frames after the rows appear (an animation would count as scrolling's)
    # The accessibility bus counts from the window's frame, a few pixels above its X window: 6 px more stay inside.
    result = subprocess.run([os.environ["SCROLL"], window, str(bar.y - top_window.y + 6)], capture_output=True,
                            text=True, check=True, timeout=120)
    sys.stdout.write(result.stdout)


def main():
    mode, argument, command = sys.argv[1], sys.argv[2], sys.argv[3:]
    wanted = int(os.environ.get("PLANNER_ENTRIES", "3"))
    errors = tempfile.TemporaryFile()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors)
    try:
        entries, _ = wait_for(child.pid, child, lambda entries, tasks: len(entries) >= wanted,
                              f"{wanted} sidebar entries", float(os.environ.get("PLANNER_TIMEOUT", "300")))
        if mode == "switch":
            switch(child.pid, child, int(argument), entries)
        else:
            scroll(child.pid, child, argument, entries)
    except SystemExit:
        errors.seek(0)
        sys.stderr.write(errors.read().decode(errors="replace")[-2000:])
        raise
    finally:
        if child.poll() is None:
            child.send_signal(signal.SIGKILL)
            child.wait()


if __name__ == "__main__":
    main()
