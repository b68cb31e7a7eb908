#!/bin/sh
# venv.sh: the pinned schemathesis from PyPI in .build/schemathesis-venv (../python-venv.sh; it brings jsonschema-rs,
# which validate.py uses). Prints the venv's path.
exec "$(dirname "$0")/../python-venv.sh" schemathesis-venv 'schemathesis==4.32.5'
