"""`golois value`: how well a network's value head predicts the winner, on the canonical 2015
test sample and on a held-out Tygem month.

    golois value [--model full|small|PATH] [--kgs DIR] [--tygem MONTH.zip] [--tygem-positions N]
                 [--every K] [--symmetries 1|8] [--precision ...] [--plot PNG] [--json]
                 [--temperature T | --fit-temperature [--store-temperature SET]]

The sets:
- `kgs2015`: the canonical test sample's positions (golois/datasets/test_sample.json.gz, the same
  100,000 positions as every accuracy figure) whose game result counts for the value
  (golois.datasets.results.ValueConfig: resignation or score, komi 5.5 to 7.5);
- `kgs2015 komi 0.5`: the sample's positions of decided games at komi 0.5, which the value never
  trains on: how far a value trained at the usual komi is from them;
- `tygem`: N positions (`--tygem-positions`, drawn with a fixed seed) of the held-out Tygem month
  (`--tygem`, default ../shared/data/tygem/2008-12.zip, the `heldout` split of the shards); for a
  head with an ownership map, also the share of the decided points of counted games whose final
  owner (judged by the rollout policy, golois.datasets.ownership) the map predicts.

Each prints the share of positions whose winner the value predicts by move-number bucket, the
mean squared error (and for a head with an ownership map, the winners its score predicts:
golois.eval.value.map_score) and the calibration by tenth of predicted win probability; `--plot` draws the
calibration of every set on one PNG.  Start with `run`.

The value is read at the temperature the model file carries (golois.nn.model.temper; 1 where it
carries none), or at `--temperature T`.  `--fit-temperature` reads it at 1, fits on each set the
temperature of least log loss (golois.eval.value.fit_temperature) and reports the set again at
it; `--store-temperature SET` writes SET's into the model file: fit it on games the network
never trained on and other than those it is measured on (docs/training.md, "Calibration").
The worst calibration gap is printed beside the gap a perfectly calibrated head would show on
the same positions (`ValueReport.calibration_noise`): on 5,000 positions that floor is about 5
points, on 20,000 about 2.5.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Iterator

import numpy as np

from golois import paths
from golois.nn.registry import PRECISIONS

DEFAULT_TYGEM = os.path.join(paths.TYGEM, "2008-12.zip")
TYGEM_SEED = 2008


def add_parser(subparsers) -> None:
    """Register `golois value`."""
    p = subparsers.add_parser("value", help="how well the value head predicts the winner",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", default="full", help="network weights: full, small (shipped) or a .pt file")
    p.add_argument("--sets", nargs="+", default=["kgs2015", "tygem"], choices=("kgs2015", "tygem"))
    p.add_argument("--kgs", default=paths.KGS, help="KGS archives, for the canonical sample")
    p.add_argument("--tygem", default=DEFAULT_TYGEM, help="the held-out Tygem month archive")
    p.add_argument("--tygem-positions", type=int, default=20_000, help="positions drawn from the Tygem month")
    p.add_argument("--every", type=int, default=1, help="every K-th position of each set (a spread subset)")
    p.add_argument("--symmetries", type=int, choices=(1, 4, 8), default=1)
    p.add_argument("--precision", choices=PRECISIONS, default="fp32")
    p.add_argument("--threads", type=int, default=0, help="CPU threads (0: torch's default)")
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--plot", help="write the calibration of every set as a PNG")
    p.add_argument("--json", action="store_true", help="one JSON object per set on stdout")
    t = p.add_mutually_exclusive_group()
    t.add_argument("--temperature", type=float, help="read the value at this temperature, not the file's")
    t.add_argument("--fit-temperature", action="store_true",
                   help="fit on each set the temperature of least log loss and report the set at it")
    p.add_argument("--store-temperature", metavar="SET",
                   help="with --fit-temperature: write SET's (e.g. 'tygem 2008-11') into the model file")
    p.set_defaults(func=run)


KGS_SETS = ("kgs2015", "kgs2015 komi 0.5")


def kgs_positions(kgs: str) -> Iterator[tuple]:
    """(set, board, outcome for the player to move, move number, black to move, komi) of the canonical sample's
    positions whose result counts (set `kgs2015`) or that come from its decided games at komi 0.5
    (`kgs2015 komi 0.5`), in one pass over the archive."""
    from golois.datasets.results import ValueConfig, parse_result, kind_code
    from golois.datasets.sample import iter_sample_games
    from tactics.board import BLACK
    configs = dict(zip(KGS_SETS, (ValueConfig(), ValueConfig(komi=(0.5, 0.5)))))
    for game, board, _, number in iter_sample_games(kgs):
        winner, kind = parse_result(game.result)
        facts = np.array([winner]), np.array([kind_code(kind)]), np.array([game.komi])
        for name, cfg in configs.items():
            if cfg.counts(*facts)[0]:
                mover = game.to_move_at(number - 1)
                yield name, board, winner * (1 if mover == BLACK else -1), number, mover == BLACK, game.komi, None


def tygem_positions(archive: str, n: int, seed: int = TYGEM_SEED, policy=None) -> Iterator[tuple]:
    """("tygem 2008-MM", board, outcome, move number, black to move, komi, final owner) of n
    positions drawn among the kept positions of a Tygem month whose result counts; the final
    owner of each point (black's frame) where the game was counted and `policy`'s rollouts agree
    with its record (golois.datasets.ownership.judged_ownership), else None."""
    from golois.datasets.ownership import judged_ownership
    from golois.datasets.results import kind_code
    from golois.datasets.results import ValueConfig
    from golois.datasets.sources import FilterConfig, GameStats, game_positions, read_members
    from golois.sgf import parse_game
    from tactics.board import BLACK
    name_of_set = "tygem " + os.path.basename(archive)[:-len(".zip")]
    cfg, stats, population, winners, komis, records = ValueConfig(), GameStats(), [], {}, {}, {}
    for name, data in read_members(archive, None, stats):
        g = game_positions(data, name, FilterConfig(), stats)
        if g is not None and cfg.counts(np.array([g.winner]), np.array([g.result_kind]), np.array([g.komi]))[0]:
            population += [(name, int(k) + 1) for k in g.kept]
            winners[name], komis[name] = g.winner, g.komi
            if g.result_kind == kind_code("score"):
                records[name] = (g.points, g.colours)
    if not population:
        raise ValueError(f"no position with a counted result in {archive}")
    chosen = np.random.default_rng(seed).choice(len(population), min(n, len(population)), replace=False)
    wanted: dict[str, set] = {}
    for i in chosen:
        wanted.setdefault(population[i][0], set()).add(population[i][1])
    for name, data in read_members(archive, set(wanted)):
        owner = None
        if policy is not None and name in records:
            owner = judged_ownership(policy, *records[name], komis[name], winners[name])
        for board, number, event in parse_game(data, name).replay():
            if number in wanted[name]:
                black = event.colour == BLACK
                yield name_of_set, board, winners[name] * (1 if black else -1), number, black, komis[name], owner


def batches(positions: Iterator[tuple], feature_set, size: int, every: int = 1) -> Iterator[tuple[str, dict]]:
    """(set, dict batch of planes, outcome, move_number, black (to move), komi, final_owner,
    owned) for golois.eval.value.evaluate_value, every `every`-th position of each set."""
    from golois.datasets.features import encode
    rows: dict[str, dict[str, list]] = {}
    seen: dict[str, int] = {}
    for name, board, outcome, number, black, komi, owner in positions:
        seen[name] = seen.get(name, -1) + 1
        if seen[name] % every:
            continue
        r = rows.setdefault(name, {"planes": [], "outcome": [], "move_number": [], "black": [], "komi": [],
                                   "final_owner": [], "owned": []})
        r["planes"].append(encode(board, feature_set))
        r["outcome"].append(outcome)
        r["move_number"].append(number)
        r["black"].append(black)
        r["komi"].append(komi)
        r["owned"].append(owner is not None)
        r["final_owner"].append(np.zeros(board.size ** 2, np.float32) if owner is None else owner)
        if len(r["planes"]) == size:
            yield name, {k: np.stack(v) for k, v in r.items()}
            rows.pop(name)
    for name, r in rows.items():
        yield name, {k: np.stack(v) for k, v in r.items()}


def fit_temperatures(reports: dict) -> dict:
    """Each set's report, then the same set read at the temperature fitted on it."""
    from golois.eval.value import fit_temperature
    out = {}
    for name, report in reports.items():
        out[name] = report
        out[f"{name} at its temperature"] = report.tempered(fit_temperature(*report.arrays()[:2]))
    return out


def run(args) -> int:
    """Measure each set and print its report."""
    from tqdm import tqdm

    from golois.eval.value import evaluate_value, plot_calibration
    from golois.nn.model import load_network
    try:
        network = load_network(args.model, args.threads, args.precision)
    except (FileNotFoundError, ValueError) as e:
        print(f"golois value: {e}", file=sys.stderr)
        return 2
    if not network.has_value:
        print(f"golois value: {args.model} has no value head", file=sys.stderr)
        return 2
    if args.store_temperature and not args.fit_temperature:
        print("golois value: --store-temperature needs --fit-temperature", file=sys.stderr)
        return 2
    if args.fit_temperature or args.temperature is not None:
        network.value_temperature = 1.0 if args.fit_temperature else args.temperature
    sources = []
    if "kgs2015" in args.sets:
        sources.append((KGS_SETS, lambda: kgs_positions(args.kgs)))
    if "tygem" in args.sets:
        if not os.path.exists(args.tygem):
            print(f"golois value: no Tygem archive at {args.tygem}", file=sys.stderr)
            return 1
        from golois.rollout.weights import load_policy
        judge = load_policy(log=None) if network.config.value_kind == "conv" else None
        sources.append((("tygem " + os.path.basename(args.tygem)[:-len(".zip")],),
                        lambda: tygem_positions(args.tygem, args.tygem_positions, policy=judge)))
    reports = {}
    for names, positions in sources:
        with tqdm(desc=" and ".join(names), unit="pos", disable=args.json) as bar:
            found = evaluate_value(network, batches(positions(), network.feature_set, args.batch, args.every),
                                   args.symmetries, progress=bar)
        for name in names:
            if name not in found:
                print(f"golois value: no position in {name}", file=sys.stderr)
                return 1
            reports[name] = found[name]
    if args.fit_temperature:
        reports = fit_temperatures(reports)
        if args.store_temperature:
            fitted = reports.get(f"{args.store_temperature} at its temperature")
            if fitted is None:
                print(f"golois value: no set {args.store_temperature!r} measured to store", file=sys.stderr)
                return 2
            from golois.nn.model import store_value_temperature
            from golois.nn.registry import resolve_model
            path = resolve_model(args.model)
            store_value_temperature(path, fitted.temperature,
                                    f"{args.store_temperature}, {fitted.total.positions} positions")
            print(f"golois value: stored temperature {fitted.temperature:.3f} in {path}", file=sys.stderr)
    for name, report in reports.items():
        if args.json:
            print(json.dumps({"set": name, "model": args.model, "precision": network.precision, **report.to_dict()}))
        else:
            print(f"\n## {name} ({args.model}, {network.precision}, {args.symmetries} symmetries, "
                  f"temperature {report.temperature:.3f})\n")
            print(report.summary())
    if args.plot:
        plot_calibration(reports, args.plot, title=f"value of {args.model} ({network.precision}, "
                                                   f"{args.symmetries} symmetries, "
                                                   f"temperature {network.value_temperature:.3g})")
    return 0
