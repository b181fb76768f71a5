"""`golois rollout eval`: how good the fast rollout policy is, in the three measures that matter
for the search's leaves.

- `top1`: its top-1 and top-5 move prediction on the canonical KGS 2015 sample (the positions of
  every accuracy figure);
- `speed`: rollouts a second from the empty board and microseconds a move, one core, side by side
  with the uniform random playouts of `Board.random_playout` in the same run;
- `winner`: the share of positions whose winner K rollouts predict (their mean result has the
  sign of the game's result; a rollout's result is the sign of its margin, with a tenth of
  tanh(margin / 10) to break ties), on the positions `golois value` draws from a held-out Tygem
  month, by move bucket, next to K random playouts counted the same way on the same positions.

Start with `run`.
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np


def top1(policy, kgs: str, every: int = 1, progress=None) -> dict:
    """Top-1 / top-5 of the policy's probabilities on the canonical sample (every `every`-th);
    equal probabilities count as ties broken at random (the expected hits)."""
    from golois.datasets.sample import iter_sample
    n = hit1 = hit5 = k = 0
    for board, target, _ in iter_sample(kgs):
        k += 1
        if (k - 1) % every:
            continue
        p = policy.probabilities(board)
        n += 1
        if p[target] > 0:                   # ties broken at random: expected hits
            rank, ties = int((p > p[target]).sum()), int((p == p[target]).sum()) - 1
            hit1 += min(1.0, max(0.0, (1 - rank) / (ties + 1)))
            hit5 += min(1.0, max(0.0, (5 - rank) / (ties + 1)))
        if progress is not None:
            progress(1)
    return {"positions": n, "top1": hit1 / max(n, 1), "top5": hit5 / max(n, 1)}


def speed(policy, rollouts: int = 500, size: int = 19, seed: int = 1) -> dict:
    """Rollouts a second and microseconds a move from the empty board, the policy's and the
    random playouts', on this thread."""
    from tactics.board import Board
    empty = Board(size)
    t = time.perf_counter()
    _, _, _, moves = policy.rollouts(empty, n=rollouts, komi=7.5, seed=seed)
    dt = time.perf_counter() - t
    t = time.perf_counter()
    played = 0
    for i in range(rollouts):
        played += empty.copy().random_playout(seed=seed + i)
    dr = time.perf_counter() - t
    return {"rollouts": rollouts,
            "policy": {"per_second": rollouts / dt, "moves": moves, "us_per_move": 1e6 * dt / (rollouts * moves)},
            "random": {"per_second": rollouts / dr, "moves": played / rollouts,
                       "us_per_move": 1e6 * dr / max(played, 1)}}


def random_value(board, k: int, komi: float, seed: int, score_weight: float = 0.1, score_scale: float = 10.0) -> float:
    """Mean result of k random playouts for the board's player to move, each counted as the
    rollouts count theirs (RolloutPolicy.values: the sign of the margin, and a tenth of
    tanh(margin / 10))."""
    from golois.search.leaves import filled_area_score
    from tactics.board import BLACK
    total = 0.0
    for i in range(k):
        c = board.copy()
        c.random_playout(seed=seed + i)
        s = filled_area_score(c, komi) * (1 if board.to_move == BLACK else -1)
        total += (1 - score_weight) * float(np.sign(s)) + score_weight * float(np.tanh(s / score_scale))
    return total / k


def winner(policy, archive: str, positions: int, k: int, komi: float, seed: int = 1, progress=None) -> dict:
    """ValueReports of the policy's rollouts and of random playouts on the same positions."""
    from golois.eval.value import ValueReport
    from golois.eval.value_cli import tygem_positions
    reports = {"rollouts": ValueReport(), "random playouts": ValueReport()}
    seconds = {"rollouts": 0.0, "random playouts": 0.0}
    for i, (_, board, outcome, number, *_) in enumerate(tygem_positions(archive, positions)):
        t = time.perf_counter()
        v = policy.values([board], n=k, komi=komi, seed=seed + i)[0]
        seconds["rollouts"] += time.perf_counter() - t
        t = time.perf_counter()
        r = random_value(board, k, komi, seed + 7919 * i)
        seconds["random playouts"] += time.perf_counter() - t
        for name, value in (("rollouts", v), ("random playouts", r)):
            reports[name].add(np.array([value]), np.array([outcome]), np.array([number]))
        if progress is not None:
            progress(1)
    for name in reports:
        reports[name].seconds = seconds[name]
    return reports


def run(args) -> int:
    """`golois rollout eval`: each part asked for, as tables (or one JSON object)."""
    import os
    from tqdm import tqdm

    from golois.rollout.weights import RolloutWeightsError, load, policy_of
    try:
        weights, meta = load(args.weights)
    except RolloutWeightsError as e:
        print(f"golois rollout eval: {e}", file=sys.stderr)
        return 2
    policy = policy_of(weights, meta, args.temperature)
    out = {"weights": args.weights, "temperature": policy.temperature}
    if "speed" in args.parts:
        out["speed"] = speed(policy, args.speed_rollouts, seed=args.seed)
    if "winner" in args.parts:
        if not os.path.exists(args.tygem):
            print(f"golois rollout eval: no Tygem archive at {args.tygem}", file=sys.stderr)
            return 1
        with tqdm(total=args.positions, desc="winner", unit="pos", disable=args.json) as bar:
            reports = winner(policy, args.tygem, args.positions, args.rollouts, args.komi, args.seed, bar.update)
        out["winner"] = {name: r.to_dict() for name, r in reports.items()}
    if "top1" in args.parts:
        with tqdm(desc="canonical sample", unit="pos", disable=args.json) as bar:
            try:
                out["top1"] = top1(policy, args.kgs, args.sample_every, bar.update)
            except (FileNotFoundError, ValueError) as e:
                print(f"golois rollout eval: the canonical sample: {e}", file=sys.stderr)
                return 1
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"# rollout policy {args.weights} (temperature {policy.temperature:g})\n")
    if "speed" in out:
        s = out["speed"]
        print(f"| from the empty board, one core ({s['rollouts']} each) | rollouts/s | moves a rollout | us a move |")
        print("|---|---|---|---|")
        for name in ("policy", "random"):
            r = s[name]
            label = "rollout policy" if name == "policy" else "random playouts"
            print(f"| {label} | {r['per_second']:,.0f} | {r['moves']:.0f} | {r['us_per_move']:.2f} |")
        print(f"\nratio: the policy's rollouts take {s['random']['per_second'] / s['policy']['per_second']:.1f}x "
              f"the random playouts' time\n")
    if "winner" in out:
        w = out["winner"]
        print(f"| winner predicted, {os.path.basename(args.tygem)}, {args.rollouts} a position | "
              + " | ".join(w) + " |")
        print("|---|" + "---|" * len(w))
        names = list(w)
        for i, cell in enumerate(w[names[0]]["by_move_number"]):
            print(f"| moves {cell['label']} ({cell['positions']}) | "
                  + " | ".join(f"{100 * (w[n]['by_move_number'][i]['accuracy'] or 0):.1f}%" for n in names) + " |")
        print("| moves 100-199 | " + " | ".join(f"{100 * (w[n]['accuracy_100_199'] or 0):.1f}%" for n in names) + " |")
        print("| all | " + " | ".join(f"{100 * w[n]['accuracy']:.1f}%" for n in names) + " |")
        print("| seconds | " + " | ".join(f"{w[n]['seconds']:.1f}" for n in names) + " |\n")
    if "top1" in out:
        t = out["top1"]
        print(f"canonical KGS 2015 sample ({t['positions']:,} positions): top-1 {100 * t['top1']:.2f}%, "
              f"top-5 {100 * t['top5']:.2f}%")
    return 0
