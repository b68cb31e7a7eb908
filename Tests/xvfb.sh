#!/bin/sh
# xvfb.sh COMMAND...: runs COMMAND on a new Xvfb display, 1280×800 in 24-bit colour, as every test and benchmark here
# does. -noreset: the display lives as long as COMMAND, as a desktop's does; without it Xvfb tears the display down
# and sets it up again each time its last client leaves (here often a short-lived xdotool, import or AT-SPI probe).
exec xvfb-run --auto-servernum --server-args="-screen 0 1280x800x24 -noreset" "$@"
