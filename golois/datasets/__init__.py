"""golois.datasets: KGS archives to training and test data, and the network's input planes.

Start here:
- `features.py`: the registry of input planes (`FEATURE_SETS`, `encode(board, feature_set)`);
- `sources.py`: reading archives and the game/position filters (`FilterConfig`);
- `shards.py`: the on-disk format and the resumable multiprocess build (`BuildConfig`, `build`);
- `loader.py`: `open_dataset(path, split, symmetries)` (a torch Dataset) and `make_loader`;
- `sample.py`: the canonical 100,000-position test sample;
- `cli.py`: `golois dataset build|sample|info`.

Heavy modules (torch) load on first use, so `golois.datasets.features` stays light for the player.
"""

from golois.datasets.features import (DEFAULT_FEATURE_SET, FEATURE_SETS, FEATURES, FeatureSet,
                                      FeatureSetMismatch, check_same, encode, get_feature_set)
from golois.datasets.sources import FilterConfig


def open_dataset(path, split="train", symmetries=True, **kwargs):
    """See golois.datasets.loader.open_dataset."""
    from golois.datasets.loader import open_dataset as _open
    return _open(path, split, symmetries, **kwargs)


def build(config):
    """See golois.datasets.shards.build."""
    from golois.datasets.shards import build as _build
    return _build(config)


__all__ = ["DEFAULT_FEATURE_SET", "FEATURE_SETS", "FEATURES", "FeatureSet", "FeatureSetMismatch",
           "FilterConfig", "build", "check_same", "encode", "get_feature_set", "open_dataset"]
