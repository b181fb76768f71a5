#!/usr/bin/env python
"""Wins of one engine over finished match SGFs, each distinct game counted once.

The code is golois.eval.tally (`python bench/match_tally.py --help`)."""

import sys

from golois.eval.tally import main

if __name__ == "__main__":
    sys.exit(main())
