"""`golois accuracy`: move-prediction accuracy of a network on KGS positions.

    golois accuracy [DATA] [--model full|small|PATH] [--symmetries 1|4|8] [--ladder-adjust off|on|both]
                    [--max-positions N] [--device cpu|cuda] [--plot PNG] [--json]

DATA is an archive (tar.gz, tar.bz2, zip) or a folder of SGF files: every position of its games
that passes the dataset filters (golois.datasets.sources.FilterConfig).  Without DATA, the
canonical 2015 test sample (golois/datasets/test_sample.json.gz, rebuilt from the KGS-2015
archive under --kgs) is used, so every figure in the project is on the same 100,000 positions.
The model defaults to the shipped network in golois/weights/.

Batches carry the legal-move mask (never predict an occupied point), the move number (accuracy
by move-number bucket) and, for --ladder-adjust, the ladder facts of tactics.ladder.  Start with
`run`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Iterator

import numpy as np

from golois import paths
from golois.nn.registry import PRECISIONS
from golois.datasets.sources import FilterConfig

DEFAULT_KGS = paths.KGS


def add_parser(subparsers) -> None:
    """Register `golois accuracy`."""
    p = subparsers.add_parser("accuracy", help="move-prediction accuracy on KGS positions",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("data", nargs="?", help="archive or SGF folder (default: the canonical 2015 test sample)")
    p.add_argument("--model", help="network weights: full, small (shipped) or a .pt file (default: full)")
    p.add_argument("--symmetries", type=int, choices=(1, 4, 8), default=1, help="bagging over symmetries")
    p.add_argument("--ladder-adjust", choices=("off", "on", "both"), default="off",
                   help="the paper's post-hoc ladder logit adjustments (both: report each)")
    p.add_argument("--max-positions", type=int, help="stop after N positions")
    p.add_argument("--batch", type=int, default=256, help="positions per network batch")
    p.add_argument("--device", default="cpu", help="where the network runs: cpu, cuda, cuda:1, ...")
    p.add_argument("--precision", choices=PRECISIONS, default="fp32",
                   help="the network's arithmetic (golois.nn.precision): fp32, bf16, int8 or auto (default fp32)")
    p.add_argument("--threads", type=int, default=0, help="CPU threads for the network (0: torch's default)")
    p.add_argument("--kgs", default=DEFAULT_KGS, help="KGS archives, for the canonical sample")
    p.add_argument("--min-rank", type=int, default=FilterConfig.min_rank,
                   help=f"with DATA: games whose players are both at least this many dan (0: any; default {FilterConfig.min_rank})")
    p.add_argument("--plot", help="write accuracy by move number as a PNG")
    p.add_argument("--json", action="store_true", help="one JSON object per report on stdout")
    p.set_defaults(func=run)


def default_model_path() -> str:
    """The shipped network (first .pt in golois/weights/); FileNotFoundError if none."""
    from golois.nn.registry import default_model
    path = default_model()
    if path is None:
        raise FileNotFoundError("no network shipped in golois/weights/: pass --model")
    return str(path)


def positions_from_sample(kgs: str) -> Iterator[tuple]:
    """(board, target, move number) for the canonical test sample."""
    from golois.datasets.sample import iter_sample
    yield from iter_sample(kgs)


def positions_from_data(data: str, min_rank: int = FilterConfig.min_rank) -> Iterator[tuple]:
    """(board, target, move number) for every kept position of the games in an archive or folder
    (players of at least min_rank dan; 0: any)."""
    from golois.datasets.sources import kept_boards
    yield from kept_boards(data, FilterConfig(min_rank=min_rank),
                           on_skip=lambda e: print(f"golois accuracy: skipped {e}", file=sys.stderr))


def batches(positions: Iterator[tuple], feature_set, size: int, ladder: bool, max_positions: int | None):
    """Dict batches for golois.eval.accuracy.evaluate_accuracy."""
    from golois.datasets.features import encode
    ladder_facts = None
    if ladder:
        from tactics.ladder import ladder_facts
    rows: dict[str, list] = {k: [] for k in ("planes", "move", "move_number", "legal",
                                              "ladder_captures", "ladder_saves", "ladder_pushes")}
    seen = 0
    for board, target, number in positions:
        if max_positions is not None and seen >= max_positions:
            break
        seen += 1
        rows["planes"].append(encode(board, feature_set))
        rows["move"].append(target)
        rows["move_number"].append(number)
        rows["legal"].append(board.legal_mask().reshape(-1))
        if ladder:
            facts = ladder_facts(board)
            rows["ladder_captures"].append(facts["captures"].reshape(-1))
            rows["ladder_saves"].append(facts["saves"].reshape(-1))
            rows["ladder_pushes"].append(facts["pushes"].reshape(-1))
        if len(rows["move"]) == size:
            yield {k: np.stack(v) if v else None for k, v in rows.items()}
            rows = {k: [] for k in rows}
    if rows["move"]:
        yield {k: np.stack(v) if v else None for k, v in rows.items()}


def _check_device(device: str) -> None:
    """Raise ValueError for a device torch cannot use here (no CUDA, a bad name)."""
    import torch

    try:
        dev = torch.device(device)
    except RuntimeError as e:
        raise ValueError(f"bad --device {device!r}: {e}") from None
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"--device {device}: CUDA is not available on this machine")


def run(args) -> int:
    """Measure and print the report(s)."""
    from golois.eval.accuracy import evaluate_accuracy, plot_by_move_number
    from golois.nn.registry import resolve_model
    import torch

    from golois.nn.model import load_model
    try:
        model_path = str(resolve_model(args.model)) if args.model else default_model_path()
        _check_device(args.device)
        if args.threads > 0:
            torch.set_num_threads(args.threads)
        network = load_model(model_path, map_location=args.device, precision=args.precision)
    except (FileNotFoundError, ValueError) as e:
        print(f"golois accuracy: {e}", file=sys.stderr)
        return 2
    modes = {"off": [False], "on": [True], "both": [False, True]}[args.ladder_adjust]
    source = args.data or f"canonical 2015 test sample ({args.kgs})"
    for adjust in modes:
        positions = positions_from_data(args.data, args.min_rank) if args.data else positions_from_sample(args.kgs)
        report = evaluate_accuracy(network, batches(positions, network.feature_set, args.batch, adjust,
                                                    args.max_positions),
                                   symmetries=args.symmetries, ladder_adjust=adjust)
        if report.positions == 0:
            print(f"golois accuracy: no position of {source} passed the filters (19x19 games without handicap, "
                  f"both players at least {args.min_rank} dan; --min-rank 0 keeps unranked players)", file=sys.stderr)
            return 1
        if args.json:
            out = json.loads(report.to_json())
            out.update(model=model_path, data=source, precision=network.precision)
            print(json.dumps(out))
        else:
            print(f"model {model_path}; data {source}")
            print(report.summary())
        if args.plot:
            plot = args.plot if len(modes) == 1 else args.plot.replace(".png", f"-ladder-{'on' if adjust else 'off'}.png")
            plot_by_move_number(report, plot, title=f"{model_path}, x{args.symmetries}"
                                + (", ladder adjustments" if adjust else ""))
    return 0
