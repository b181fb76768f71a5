#!/usr/bin/env python
"""How an unfinished search to live should guess: the weight of the network's prior against the
playouts, measured on the problems where the guess answers.

The code is golois.eval.live_guess_sweep (`python bench/live_guess_sweep.py --help`)."""

import sys

from golois.eval.live_guess_sweep import main

if __name__ == "__main__":
    sys.exit(main())
