# callgrind-order.py PROFILE PROGRAM: prints PROGRAM's own functions that a callgrind profile saw run, each once, in
# the order callgrind first reports them, and only those the program defines (nm): an order file for LLD's
# --symbol-ordering-file (startup-order.sh, reminders-order.sh).
import subprocess
import sys

profile, program = sys.argv[1:]
ordered, seen, current = [], set(), None
with open(profile, errors="replace") as lines:
    for line in lines:
        if line.startswith("ob="):
            current = line[3:].strip()
        elif line.startswith("fn=") and current == program:
            name = line[3:].strip()
            if name not in seen:
                seen.add(name)
                ordered.append(name)
symbols = set(subprocess.run(["nm", "--defined-only", "--format=just-symbols", program], capture_output=True,
                             text=True, check=True).stdout.split())
print("\n".join(name for name in ordered if name in symbols))
