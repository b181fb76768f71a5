"""`python -m golois.nn.calibrate MODEL ARCHIVE...`: the int8 calibration file of a network
(golois.nn.precision), from every N-th kept position of KGS training games.

The shipped golois-full.int8.pt: `python -m golois.nn.calibrate full KGS-2006-19-10388-.tar.gz
KGS-2003-19-7582-.tar.gz --positions 2048 --every 40` (about two minutes on two cores).
Start with `main`.
"""

from __future__ import annotations

import os
import sys
from typing import Iterable

import numpy as np
import torch

from golois.nn import precision


def training_positions(archives: Iterable[str], positions: int, every: int, feature_set):
    """Planes of every `every`-th kept position of the archives' games (the dataset build's
    filters), up to `positions`, in batches of 64."""
    from golois.datasets.features import encode
    from golois.datasets.sources import FilterConfig, kept_boards
    batch, taken = [], 0
    boards = (b for archive in archives for b, _, _ in kept_boards(archive, FilterConfig()))
    for seen, board in enumerate(boards, 1):
        if seen % every:
            continue
        batch.append(encode(board, feature_set))
        taken += 1
        if len(batch) == 64 or taken == positions:
            yield np.stack(batch)
            batch = []
        if taken == positions:
            return
    if batch:
        yield np.stack(batch)


def main(argv=None) -> int:
    """`python -m golois.nn.calibrate MODEL ARCHIVE...`: write MODEL's int8 calibration file."""
    import argparse

    from tqdm import tqdm

    from golois.nn.model import load_model
    from golois.nn.registry import resolve_model
    p = argparse.ArgumentParser(prog="python -m golois.nn.calibrate",
                                description="Calibrate a network's int8 activations on KGS training positions.")
    p.add_argument("model", help="full, small or a .pt file")
    p.add_argument("archives", nargs="+", help="KGS archives of training years (not the 2015 test year)")
    p.add_argument("--positions", type=int, default=4096)
    p.add_argument("--every", type=int, default=50, help="take every N-th kept position (spread over many games)")
    args = p.parse_args(argv)
    missing = [a for a in args.archives if not os.path.exists(a)]
    if missing:
        p.error(f"no such archive: {', '.join(missing)}")
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    weights = resolve_model(args.model)
    network = load_model(weights)
    batches = tqdm(training_positions(args.archives, args.positions, args.every, network.feature_set),
                   total=-(-args.positions // 64), unit="batch", desc="calibrate")
    counted = []
    observers = precision.calibrate(network.model, (counted.append(len(b)) or b for b in batches))
    if sum(counted) < args.positions:
        print(f"golois: only {sum(counted)} positions of the {args.positions} asked for in {args.archives}: "
              "no calibration written", file=sys.stderr)
        return 1
    out = precision.write_calibration(weights, observers, positions=sum(counted), every=args.every,
                            archives=[os.path.basename(a) for a in args.archives])
    print(f"wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
