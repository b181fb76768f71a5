#!/usr/bin/env python
"""A policy network as a tsumego guesser, and problems labelled by our solver to train one.

The code is golois.eval.tsumego_prior (`python bench/tsumego_prior.py --help`)."""

import sys

from golois.eval.tsumego_prior import main

if __name__ == "__main__":
    sys.exit(main())
