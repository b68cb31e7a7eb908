#!/usr/bin/python3
"""measure.py NAME COMMAND...: starts COMMAND, waits until a check box named NAME is on the accessibility bus (the
list is laid out and its rows exist), prints "seconds rss_kib", then stops the program. Exits 1 after 120 s.
MEASURE_ROLE=ROLE waits for another role than "check box" (a label, say). With SCROLL=PROGRAM in the environment it then runs `PROGRAM WINDOW TOP` on the program's window (scroll.c: frame
times while scrolling the list whose scroll bar starts TOP pixels down the window, found on the accessibility bus)
and appends its output to the file SCROLL_OUT. MEASURE_SMAPS=FILE copies the program's /proc/PID/smaps there when the
row appears. MEASURE_TIMEOUT=SECONDS replaces the 120 s limit; MEASURE_STOP=TERM stops the program with SIGTERM
(and waits for it) instead of SIGKILL, for a program run under a profiler that writes its findings at exit;
MEASURE_LINGER=SECONDS lets it run that long after the row appeared (what a start does just after its first frame).
MEASURE_WAIT_FILES=PATTERN lets it run, after the row appeared, until a file matches the glob PATTERN (the copy it
keeps for the next start, written once the first frame is out), and prints a third figure: the seconds from the spawn
to the last change of those files.
MEASURE_ALSO="ROLE|PREFIX": the start ends only once an object of ROLE whose name starts with PREFIX is there too
(the planner's sidebar entry of its last list, say)."""
import glob
import os
import signal
import subprocess
import sys
import tempfile
import time

import pyatspi


def find(pid, name):
    for app in pyatspi.Registry.getDesktop(0):
        try:
            if app is not None and app.get_process_id() == pid and search(app, name) and (
                    not ALSO or search(app, ALSO[1], ALSO[0], prefix=True, backwards=True)):
                return True
        except Exception:
            continue
    return False


def search(node, name, role=None, prefix=False, backwards=False):
    """Depth first, children in order (last first with `backwards`), asking for one child at a time: each question is
    a D-Bus round trip the program answers on its main thread, and the first row is near the start of the tree, so
    that looking costs the program (and the measurement) as little as it can, however many rows the list has. What
    MEASURE_ALSO names (the sidebar's last list) is sought from the end: GTK 4.8 puts the sidebar after the list's
    rows, and walking past 100 rows to reach it took the large start 0.1 s more than the small one's 20 (measured
    with perf: the program answering the walk on its main thread, after its last frame)."""
    try:
        found = node.getRoleName()
        if found == (role or ROLE):
            # Not asked for children either: what is sought does not nest in its own kind (a list item in a list
            # item), and walking each row's inside to reach a sidebar laid out after a list of 100 rows took
            # 0.9-3.6 s of D-Bus round trips (the measurement's time, not the program's).
            return node.name.startswith(name) if prefix else node.name == name
        if found in LEAVES:  # not asked for children
            return False
        count = node.childCount
        for index in (range(count - 1, -1, -1) if backwards else range(count)):
            child = node.getChildAtIndex(index)
            if child is not None and search(child, name, role, prefix, backwards):
                return True
    except Exception:
        pass
    return False


ROLE = os.environ.get("MEASURE_ROLE", "check box")
ALSO = os.environ["MEASURE_ALSO"].split("|", 1) if os.environ.get("MEASURE_ALSO") else None
LEAVES = {"check box", "label", "push button", "toggle button", "scroll bar", "image", "text", "separator"}


def scroll_bar_top(pid):
    """The top of the list's vertical scroll bar, in pixels from the top of the window (what is above it, a header
    bar, an entry, is not the list); 50 (under a header bar) when it cannot be found."""
    for app in pyatspi.Registry.getDesktop(0):
        try:
            if app is None or app.get_process_id() != pid:
                continue
            window = app.getChildAtIndex(0)
            top = window.queryComponent().getExtents(pyatspi.DESKTOP_COORDS).y
            bar = pyatspi.findDescendant(
                window, lambda n: n.getRoleName() == "scroll bar" and n.getState().contains(pyatspi.STATE_VERTICAL))
            if bar is not None:
                return bar.queryComponent().getExtents(pyatspi.DESKTOP_COORDS).y - top
        except Exception:
            continue
    return 50


def area(window):
    shell = subprocess.run(["xdotool", "getwindowgeometry", "--shell", window], capture_output=True, text=True,
                           timeout=30).stdout
    size = dict(line.split("=", 1) for line in shell.split() if "=" in line)
    return int(size.get("WIDTH", 0)) * int(size.get("HEIGHT", 0))


def scroll(pid):
    time.sleep(0.5)  # the first frames after the rows appear (an animation would count as scrolling's)
    windows = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(pid)],
                             capture_output=True, text=True, timeout=30).stdout.split()
    # The program's window is its largest: a tooltip under the pointer is a window of its own.
    window = max(windows, key=area)
    # Below the header bar (50 px), and below whatever sits above the list (the app's "New task…" entry). The
    # accessibility bus counts from the window's frame, a few pixels above its X window: 6 px more stay inside.
    top = max(50, scroll_bar_top(pid) + 6)
    with open(os.environ["SCROLL_OUT"], "a") as out:
        subprocess.run([os.environ["SCROLL"], window, str(top)], stdout=out, check=True, timeout=60)


def wait_for_files(pattern, child, start, spawned):
    """Until a file matches `pattern` (what a program writes once its start is over: the copy a later start reads),
    or the time is up; the seconds from `spawned` (the wall clock's, as files' times are) to the files' last change."""
    while not (files := glob.glob(pattern)):
        if child.poll() is not None or time.monotonic() - start > float(os.environ.get("MEASURE_TIMEOUT", "120")):
            sys.exit(f"nothing matched {pattern}")
        time.sleep(0.05)
    return max(os.stat(file).st_mtime_ns for file in files) / 1e9 - spawned


def main():
    name, command = sys.argv[1], sys.argv[2:]
    start, spawned = time.monotonic(), time.time()
    errors = tempfile.TemporaryFile()  # what it says, shown if it fails
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors)
    try:
        while time.monotonic() - start < float(os.environ.get("MEASURE_TIMEOUT", "120")):
            if find(child.pid, name):
                elapsed = time.monotonic() - start
                with open(f"/proc/{child.pid}/status") as status:
                    rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
                if not os.environ.get("MEASURE_WAIT_FILES"):
                    print(f"{elapsed:.3f} {rss}")
                if os.environ.get("MEASURE_SMAPS"):  # where the memory is, mapping by mapping
                    with open(f"/proc/{child.pid}/smaps") as smaps, open(os.environ["MEASURE_SMAPS"], "w") as out:
                        out.write(smaps.read())
                if os.environ.get("SCROLL"):
                    scroll(child.pid)
                if os.environ.get("MEASURE_WAIT_FILES"):
                    written = wait_for_files(os.environ["MEASURE_WAIT_FILES"], child, start, spawned)
                    print(f"{elapsed:.3f} {rss} {written:.3f}")
                time.sleep(float(os.environ.get("MEASURE_LINGER", "0")))
                return
            if child.poll() is not None:
                errors.seek(0)
                sys.stderr.write(errors.read().decode(errors="replace")[-2000:])
                sys.exit(f"{command[0]} exited with {child.returncode}")
            time.sleep(0.02)
        sys.exit("timed out")
    finally:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM if os.environ.get("MEASURE_STOP") == "TERM" else signal.SIGKILL)
            child.wait()


if __name__ == "__main__":
    main()
