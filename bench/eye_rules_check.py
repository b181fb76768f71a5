#!/usr/bin/env python
"""The eye-space rules for life (tactics.eyes: `eyes_alive`, one string; `linked_alive`, strings
linked by miai pairs) checked against the df-pn search without them, on random lines of the
tsumego collections.

The code is golois.eval.eye_rules_check (`python bench/eye_rules_check.py --help`)."""

import sys

from golois.eval.eye_rules_check import main

if __name__ == "__main__":
    sys.exit(main())
