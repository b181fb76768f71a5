"""The eye-space rules for life (tactics.eyes: `eyes_alive`, one string; `linked_alive`, strings
linked by miai pairs) checked against the df-pn search without them, on random lines of the
tsumego collections.

    PYTHONPATH=. python bench/eye_rules_check.py [../shared/data/tsumego] [--lines 300] [--seed 21]

For each problem (framed as `golois solve` frames it), random legal lines of up to 30 moves in
its region; the first position of a line where a rule says a target string lives and Benson
does not is checked: the attacker to move, `dfpn(static_life=False)` (only Benson and captures
decide life) with every region point as a move and `--nodes` nodes.  A proven capture of the
group contradicts the rule.  Prints a table per collection: positions claimed by each rule,
confirmed (the search proves the group lives), contradicted, unknown (out of nodes).  A line
stops at its first claim, and a problem after `--per-problem` claims.  Start with `main`.
"""

from __future__ import annotations

import argparse
import glob
import os
import random
import sys

from tqdm import tqdm

from golois.tsumego.problem_sgf import load_problem
from tactics import solver as S
from tactics.benson import unconditional
from tactics.coords import format_vertex
from tactics.eyes import two_eyes, two_eyes_linked
from tactics.problem import prepare

from golois import paths


def claims(board, mover, lines, per_problem, rng):
    """(rule, board, attacker, live targets, region, moves) for the claimed positions of one
    problem's random lines (`mover` to play first; the problem framed as `golois solve` does);
    at most `per_problem` of them.  tests/test_eyes.py runs it on problems of its own."""
    b0, attacker, target, region, targets = prepare(board, mover=mover)
    defender = 3 - attacker
    found = []
    for _ in range(lines):
        b = b0.copy()
        color = mover
        moves = []
        for _ in range(30):
            legal = [p for p in region if b.get(p) == 0 and b.is_legal(p, color)]
            if not legal:
                break
            p = rng.choice(legal)
            b.play(p, color)
            moves.append(p)
            color = 3 - color
            live = [t for t in targets if b.get(t) == defender]
            if not live:
                break
            if not any(two_eyes_linked(b, t) for t in live):
                continue
            alive = unconditional(b, defender)
            if not any(alive[divmod(t, b.size)] == 1 for t in live):
                rule = "eyes_alive" if any(two_eyes(b, t) for t in live) else "linked_alive"
                found.append((rule, b, attacker, live, region, moves))
            break
        if len(found) >= per_problem:
            break
    return found


def check(board, attacker, live, region, nodes, time_limit=600):
    """The search without the eye rules on a claimed position, the attacker to move: 1 it
    captures the group (the claim is wrong), -1 the group lives, 0 out of nodes."""
    board.to_move = attacker
    return S.dfpn(board, attacker, live[0], region, targets=live, max_nodes=nodes,
                  time_limit=time_limit, static_life=False)["value"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="?", default=paths.TSUMEGO)
    ap.add_argument("--lines", type=int, default=300, help="random lines per problem")
    ap.add_argument("--per-problem", type=int, default=6, help="claims checked per problem")
    ap.add_argument("--nodes", type=int, default=300_000, help="nodes of each check")
    ap.add_argument("--seed", type=int, default=21)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    folders = sorted(d for d in glob.glob(os.path.join(args.data, "*")) if os.path.isdir(d))
    if not folders:
        folders = [args.data]
    print(f"{'collection':20} {'rule':13} {'claims':>7} {'confirmed':>10} {'contradicted':>13} {'unknown':>8}")
    bad = []
    for folder in folders:
        files = sorted(glob.glob(os.path.join(folder, "*.sgf")))
        tally = {}
        for path in tqdm(files, desc=os.path.basename(folder), leave=False):
            try:
                found = claims(*load_problem(path), args.lines, args.per_problem, rng)
            except Exception as e:                     # a problem the solver cannot set up
                print(f"{path}: {e}", file=sys.stderr)
                continue
            for rule, b, attacker, live, region, moves in found:
                value = check(b, attacker, live, region, args.nodes)
                t = tally.setdefault(rule, [0, 0, 0, 0])
                t[0] += 1
                t[{-1: 1, 1: 2, 0: 3}[value]] += 1
                if value == 1:
                    n = b.size
                    bad.append(f"{path} {rule}: {' '.join(format_vertex(divmod(p, n), n) for p in moves)}")
        for rule in sorted(tally):
            c, ok, no, unk = tally[rule]
            print(f"{os.path.basename(folder):20} {rule:13} {c:7} {ok:10} {no:13} {unk:8}")
    for line in bad:
        print("contradicted:", line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
