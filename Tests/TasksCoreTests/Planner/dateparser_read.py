#!/usr/bin/env python3
"""dateparser_read.py: what PyPI's dateparser (software nobody here wrote) reads in each phrase, for the date
parser's agreement test. Reads the JSON lines {"language", "text"} of the file named; writes one JSON line each:
{"date": "YYYY-MM-DD" or null, "time": "HH:MM" or null}, with today 2026-11-25 (midnight, so that a time it reads
is a time it was told) and dates preferred from the future, as a due date is."""
import datetime
import json
import sys

import dateparser

base = datetime.datetime(2026, 11, 25, 0, 0, 0)
for line in open(sys.argv[1], encoding="utf-8"):
    phrase = json.loads(line)
    found = dateparser.parse(phrase["text"], languages=[phrase["language"]],
                             settings={"RELATIVE_BASE": base, "PREFER_DATES_FROM": "future"})
    answer = {"date": None, "time": None}
    if found is not None:
        answer["date"] = found.strftime("%Y-%m-%d")
        if (found.hour, found.minute) != (0, 0):
            answer["time"] = found.strftime("%H:%M")
    print(json.dumps(answer), flush=True)
