#!/usr/bin/env python3
"""Golois as a GTP engine on stdin/stdout (for GUIs, kgsGtp, GNU Go matches).  See README.md."""

import sys

from golois.gtp.engine import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
