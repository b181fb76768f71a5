"""Where Golois looks for data it does not ship: one place for every default path.

The KGS archives, the Tygem games, the tsumego collections and GNU Go's regression files live in a data folder
outside the repository: `$GOLOIS_DATA` when it is set, else `../shared/data` beside the
repository (the checkout's parent folder).  Every command takes its own path option too.
"""

from __future__ import annotations

import os

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.environ.get("GOLOIS_DATA") or os.path.normpath(os.path.join(REPO, "..", "shared", "data"))
KGS = os.path.join(DATA, "kgs")                           # KGS 6d+ archives (.tar.gz), one per year
TYGEM = os.path.join(DATA, "tygem")                       # Tygem 9d games of 2008, monthly, with an index of results
TSUMEGO = os.path.join(DATA, "tsumego")                   # tsumego collections, a folder each
REGRESSION = os.path.join(DATA, "gnugo-regression")       # GNU Go's .tst regression files
