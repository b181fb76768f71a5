#!/usr/bin/env python
"""Train the Golois policy network: ``python train.py --help`` (all logic in golois.nn.training)."""

import sys

from golois.nn.train_cli import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
