#!/usr/bin/env python
"""Does the book's answer work in our frame?  A diagnosis of wrong tsumego answers.

The code is golois.eval.book_move_check (`python bench/book_move_check.py --help`)."""

import sys

from golois.eval.book_move_check import main

if __name__ == "__main__":
    sys.exit(main())
