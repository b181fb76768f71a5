"""Does the book's answer work in our frame?  A diagnosis of wrong tsumego answers.

    PYTHONPATH=. python bench/book_move_check.py ../shared/data/tsumego/maeda-10k-5k [--time-limit 10]
    PYTHONPATH=. python bench/book_move_check.py ../shared/data/tsumego --only LIST --per-problem [--far 5]

For every problem (or those named in LIST, one path per line relative to the root, as the
first column of `bench/tsumego_bench.py --per-problem` rows prefixed with their collection), the
problem is set up as `golois solve` does (tactics.problem.prepare: the inferred target, region
and grown frame, `--far` points from the defender), the book's first right move is played, and
one df-pn search (simple ko, the group goal of `solve`) runs with the opponent to move.  Each
problem is counted as:

- holds: the book's move is proven to reach its goal in our frame (the search could find it;
  a wrong answer there is the search's time or move order);
- refuted: the opponent proves the book's move wrong in our frame (the frame, or our rules,
  decide against the book: no search time fixes it);
- open: the search after the book's move does not finish either (the search is too slow);
- walled: the book's point is a frame stone, or illegal, in our frame.

Prints a table per collection (counts and the median seconds of the settled searches), with
`--per-problem` one line per problem.  Start with `check`.
"""

from __future__ import annotations

import argparse
import glob
import os
import sys
import time

import numpy as np


KINDS = ("holds", "refuted", "open", "walled")


def check(board, mover, move, time_limit=10.0, far=None, max_nodes=10 ** 9):
    """(kind, nodes, seconds, pv) for the book's `move` (flat) of `mover` on the problem `board`:
    one of KINDS (module docstring); pv: the search's principal variation after the move
    (flat points, None = pass)."""
    from tactics import solver
    from tactics.problem import ESCAPE_OUT, FAR, prepare
    info = {}
    b, attacker, target, region, targets = prepare(board, group="live", mover=mover,
                                                 far=FAR if far is None else far, info=info)
    escape_out = ESCAPE_OUT if info["outside"] else 0     # as solve: joining one is an escape
    b.to_move = mover
    if move is None or b.get(move) != 0 or not b.is_legal(move, mover):
        return "walled", 0, 0.0, []
    b.play(move, mover)
    alive = [t for t in targets if b.get(t) != 0]
    if not alive:                                   # the move captured the whole group
        return ("holds" if mover == attacker else "refuted"), 0, 0.0, []
    lead = target if b.get(target) != 0 else alive[0]
    t0 = time.monotonic()
    r = solver.dfpn(b, attacker, lead, region, 0, max_nodes, time_limit, 22, 2, 0, alive,
                    escape_out)
    seconds = time.monotonic() - t0
    kind = {1: "refuted", -1: "holds", 0: "open"}[r["value"]]   # value: for the opponent, to move
    return kind, r["nodes"], seconds, r["pv"]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("root", help="a tsumego collection, or a folder of collections")
    p.add_argument("--time-limit", type=float, default=10.0, help="seconds per search (default 10)")
    p.add_argument("--far", type=int, default=None, help="the grown wall's distance (default: solve's)")
    p.add_argument("--only", help="a file of problem paths relative to the root, one per line")
    p.add_argument("--per-problem", action="store_true", help="one line per problem too")
    args = p.parse_args(argv)
    from golois.tsumego.problem_sgf import load_problem, right_answers
    from tactics.coords import format_vertex, from_flat, parse_vertex, to_flat
    from tactics.problem import ProblemError
    files = sorted(glob.glob(os.path.join(args.root, "*.sgf")) + glob.glob(os.path.join(args.root, "*", "*.sgf")))
    if args.only:
        wanted = {line.split()[0] for line in open(args.only) if line.strip()}
        files = [f for f in files if os.path.relpath(f, args.root) in wanted]
    if not files:
        print(f"no problems under {args.root}", file=sys.stderr)
        return 1
    try:
        from tqdm import tqdm
    except ImportError:                             # pragma: no cover
        tqdm = lambda x, **_: x                     # noqa: E731
    rows = {}
    for f in tqdm(files, desc="book moves", disable=args.per_problem or None):
        coll = os.path.basename(os.path.dirname(f))
        board, mover = load_problem(f)
        n = board.size
        right = right_answers(f)
        rc = parse_vertex(right[0], n) if right else None          # None: no answer, or a pass
        try:
            kind, nodes, secs, pv = check(board, mover, None if rc is None else to_flat(*rc, n),
                                          args.time_limit, args.far)
            line = " ".join(format_vertex(None if p is None else from_flat(p, n), n) for p in pv[:10])
        except ProblemError as e:
            kind, nodes, secs, line = "walled", 0, 0.0, str(e)
        rows.setdefault(coll, []).append((kind, secs))
        if args.per_problem:
            print(f"  {coll}/{os.path.basename(f)}\t{right[0] if right else '-'}\t{kind}\t{nodes}\t{secs:.2f}\t{line}",
                  flush=True)
    print(f"{'collection':20s} {'problems':>8s} " + " ".join(f"{k:>8s}" for k in KINDS)
          + f" {'median s':>9s}   ({args.time_limit:g} s per search)")
    for coll, rs in sorted(rows.items()):
        settled = [s for k, s in rs if k in ("holds", "refuted")]
        med = f"{np.median(settled):9.2f}" if settled else f"{'-':>9s}"
        print(f"{coll:20s} {len(rs):8d} " + " ".join(f"{sum(k == kk for k, _ in rs):8d}" for kk in KINDS) + f" {med}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
