#!/usr/bin/env python
"""Side-by-side tsumego benchmark: our solver (through our GTP engine, play.py) and GNU Go 3.8
(`gnugo --mode gtp --level 10`), both driven as ../shared/tools/gtp_tsumego.py does with RESTRICT=1
(`loadsgf FILE 1`, then `restricted_genmove COLOR <empty points of the stones' box grown by 1>`).

The code is golois.eval.tsumego_bench (`python bench/tsumego_bench.py --help`)."""

import sys

from golois.eval.tsumego_bench import main

if __name__ == "__main__":
    sys.exit(main())
