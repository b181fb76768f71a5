"""`golois rollout`: train the fast rollout policy, and measure it.

    golois rollout train [--sources ARCHIVE ...] [--heldout ARCHIVE ...] [--out FILE] [--epochs N] ...
    golois rollout eval  [--weights FILE] [--kgs DIR] [--tygem MONTH.zip] [--positions N] [--rollouts K] ...
    golois rollout ownership --data data/shards-v [--rollouts 32] [--check-gnugo 200] [--force]

`train` learns the weights from Tygem months (default: 2008-01 to 2008-11; 2008-12 is held out)
or KGS archives, in C on two threads (golois/rollout/train.py), and writes the weight file
(default: the shipped golois/weights/rollout.npz).  `eval` measures the rollouts for the
search: the policy's top-1 and top-5 on the canonical KGS 2015 sample, rollouts a second from
the empty board against the random playouts, and the winner predicted by K rollouts against K
random playouts on the held-out Tygem month's positions, by move bucket (golois/eval/rollouts.py).
`ownership` judges the final positions of the counted games of built shards by rollouts, the value
head's ownership target (golois/datasets/ownership.py), and compares the dead stones it finds with
GNU Go's `final_status_list dead` on a sample of games.
The command lives here, above both, as the other subcommands' modules do.  Start with
`add_parser`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from golois import paths
from golois.rollout.train import RolloutTrainConfig

DEFAULTS = RolloutTrainConfig()


def _months(first: int, last: int) -> list[str]:
    return [os.path.join(paths.TYGEM, f"2008-{m:02d}.zip") for m in range(first, last + 1)]


def add_parser(subparsers) -> None:
    """Register `golois rollout` and its two subcommands."""
    from golois.rollout.weights import DEFAULT
    p = subparsers.add_parser("rollout", help="train and measure the fast rollout policy",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="rollout_command", metavar="{train,eval,ownership}")
    t = sub.add_parser("train", help="learn the rollout weights from game records")
    t.add_argument("--sources", nargs="+", default=_months(1, 11), help="Tygem months or KGS archives (or folders)")
    t.add_argument("--heldout", nargs="+", default=_months(12, 12), help="games measured after each epoch")
    t.add_argument("--out", default=DEFAULT, help="the weight file written")
    t.add_argument("--resume", help="a checkpoint (OUT.checkpoint.npz) to continue from")
    for name, value in vars(DEFAULTS).items():
        t.add_argument("--" + name.replace("_", "-"), type=type(value), default=value)
    t.set_defaults(func=run_train)
    e = sub.add_parser("eval", help="top-1, speed and winner prediction of the rollouts")
    e.add_argument("--weights", default=DEFAULT, help="the rollout weight file")
    e.add_argument("--parts", nargs="+", default=["top1", "speed", "winner"], choices=("top1", "speed", "winner"))
    e.add_argument("--kgs", default=paths.KGS, help="KGS archives, for the canonical sample")
    e.add_argument("--sample-every", type=int, default=1, help="every K-th position of the canonical sample")
    e.add_argument("--tygem", default=os.path.join(paths.TYGEM, "2008-12.zip"), help="a held-out Tygem month (its index beside it)")
    e.add_argument("--positions", type=int, default=1000, help="positions drawn from the Tygem month (moves 100-199 and the rest)")
    e.add_argument("--rollouts", type=int, default=32, help="rollouts (and random playouts) per position")
    e.add_argument("--speed-rollouts", type=int, default=500, help="rollouts timed from the empty board")
    e.add_argument("--komi", type=float, default=6.5, help="komi of the Tygem games")
    e.add_argument("--temperature", type=float, help="the rollouts' temperature (default: the file's)")
    e.add_argument("--seed", type=int, default=1)
    e.add_argument("--json", action="store_true", help="one JSON object on stdout")
    e.set_defaults(func=run_eval)
    from golois.datasets.ownership import OwnershipConfig
    own = OwnershipConfig()
    o = sub.add_parser("ownership", help="the final owner of every point of the shards' counted games")
    o.add_argument("--data", default="data/shards-v", help="built shards (golois dataset build)")
    o.add_argument("--weights", default=DEFAULT, help="the rollout weight file")
    o.add_argument("--rollouts", type=int, default=own.rollouts, help="rollouts from each final position")
    o.add_argument("--check-gnugo", type=int, default=0, metavar="GAMES",
                   help="compare the dead stones with GNU Go's final_status_list dead on this many games")
    o.add_argument("--force", action="store_true", help="judge shards that already have an ownership again")
    o.add_argument("--json", action="store_true", help="one JSON object on stdout")
    o.set_defaults(func=run_ownership)
    p.set_defaults(func=lambda args: p.print_help() or 2)


def run_ownership(args) -> int:
    from golois.datasets import ownership
    from golois.datasets.loader import shard_folders
    from golois.rollout.weights import load_policy
    policy = load_policy(args.weights)
    if policy is None:
        return 1
    folders = shard_folders(args.data)
    cfg = ownership.OwnershipConfig(rollouts=args.rollouts)
    out = ownership.add_ownership(folders, policy, cfg, force=args.force)
    if args.check_gnugo:
        from golois.gtp.client import find_gnugo
        gnugo = find_gnugo()
        if gnugo is None:
            print("golois: --check-gnugo needs GNU Go (apt-get install gnugo)", file=sys.stderr)
            return 1
        out["gnugo"] = ownership.check_with_gnugo(folders, [gnugo, "--mode", "gtp"], args.check_gnugo)
    print(json.dumps(out) if args.json else json.dumps(out, indent=1))
    return 0


def run_train(args) -> int:
    from golois.rollout.train import train
    cfg = RolloutTrainConfig(**{k: getattr(args, k) for k in vars(DEFAULTS)})
    missing = [s for s in args.sources + args.heldout if not os.path.exists(s)]
    if missing:
        print(f"golois rollout train: not found: {', '.join(missing)}", file=sys.stderr)
        return 1
    try:
        meta = train(args.sources, args.heldout, args.out, cfg, resume=args.resume,
                     log=lambda m: print(m, file=sys.stderr))
    except ValueError as e:
        print(f"golois rollout train: {e}", file=sys.stderr)
        return 1
    print(json.dumps({"out": args.out, **{k: meta[k] for k in ("games", "moves", "examples_seen", "history")}}))
    return 0


def run_eval(args) -> int:
    from golois.eval.rollouts import run
    return run(args)
