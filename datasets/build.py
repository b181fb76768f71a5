"""Build training/test shards from the KGS archives: a thin wrapper over `golois dataset build`.

    PYTHONPATH=. python datasets/build.py --features paper11 --workers 2 --out data/shards

Defaults: sources golois.paths.KGS ($GOLOIS_DATA/kgs, or ../shared/data/kgs beside the
repository), out data/shards.  See datasets/README.md and golois/datasets/shards.py.
"""

import sys

from golois.cli import main

if __name__ == "__main__":
    sys.exit(main(["dataset", "build", *sys.argv[1:]]))
