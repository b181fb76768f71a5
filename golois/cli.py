"""The `golois` command: one subcommand per job.

    golois gtp                 GTP engine on stdin/stdout (same as `python play.py`)
    golois solve ...           life-and-death and ladder problems (golois/tsumego/cli.py)
    golois accuracy ...        move-prediction accuracy (golois/eval/accuracy_cli.py)
    golois value ...           how well the value head predicts the winner (golois/eval/value_cli.py)
    golois match ...           matches between GTP engines (golois/eval/match.py)
    golois dataset ...         build training/test shards from KGS and Tygem archives (golois/datasets)
    golois train ...           train a policy network (same as `python train.py`)
    golois rollout ...         train and measure the fast rollout policy (golois/eval/rollout_cli.py)

Each subcommand module exposes `add_parser(subparsers)` (which sets `func`); `main` only
dispatches.  Subcommand modules keep heavy imports (torch) inside their `run` functions, so
building the parser stays cheap.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

SUBCOMMAND_MODULES = [
    "golois.gtp.engine",
    "golois.tsumego.cli",
    "golois.eval.accuracy_cli",
    "golois.eval.value_cli",
    "golois.eval.match",
    "golois.datasets.cli",
    "golois.nn.train_cli",
    "golois.eval.rollout_cli",
]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(prog="golois", description="Golois: a tactics-aware Go policy player.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `golois` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        # the reader of our output went away (`golois solve DIR | head`): stop quietly, as Unix
        # tools do, and keep Python from reporting the failed flush of stdout at exit
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 1


if __name__ == "__main__":
    sys.exit(main())
