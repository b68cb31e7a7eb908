"""watch_command_lines.py (run as another local user, its code given with -c): reads every process's command line
over and over, as any user may (/proc/PID/cmdline), until SIGTERM, and tries to read each local sign-in page one
names. It opens no address it sees (other tests run beside it): an address of a sign-in on a command line is the
finding. Then prints one JSON object: the command lines seen that name sign-in things (with their process ids), each
process's parent (/proc/PID/stat, readable by all), the pages it read and those it could not."""
import json
import os
import re
import signal
import sys
import time

seen, read, unreadable, parents = [], [], [], {}
tried = set()


def report(*_):
    print(json.dumps({"seen": seen, "parents": parents, "read": read, "unreadable": unreadable}), flush=True)
    sys.exit(0)


signal.signal(signal.SIGTERM, report)
print(json.dumps({"watching": True, "uid": os.getuid()}), flush=True)
while True:
    for pid in filter(str.isdigit, os.listdir("/proc")):
        if pid not in parents:
            try:
                with open(f"/proc/{pid}/stat") as file:
                    parents[pid] = file.read().rsplit(")", 1)[1].split()[1]
            except (OSError, IndexError):
                continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as file:
                line = file.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if "watch_command_lines" in line or not re.search(r"127\.0\.0\.1|/authorize|sign-in-|b2c-tasks-sign-in", line):
            continue
        if {"pid": pid, "line": line} not in seen:
            seen.append({"pid": pid, "line": line})
        for page in re.findall(r"(?:file://)?(/\S*sign-in-\S*\.html)", line):
            if page in tried:
                continue
            tried.add(page)
            try:
                with open(page, encoding="utf-8") as file:
                    read.append({"page": page, "text": file.read()})
            except OSError as error:
                unreadable.append({"page": page, "error": error.strerror})
    time.sleep(0.005)
