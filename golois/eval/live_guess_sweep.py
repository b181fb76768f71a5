"""How an unfinished search to live should guess: the weight of the network's prior against the
playouts, measured on the problems where the guess answers.

    PYTHONPATH=. python bench/live_guess_sweep.py ../shared/data/tsumego --jobs 2
    PYTHONPATH=. python bench/live_guess_sweep.py ../shared/data/tsumego --only LIST --time-limit 10
    PYTHONPATH=. python bench/live_guess_sweep.py --records guesses.jsonl   (the table again, no solving)

Each problem is solved as `golois solve` does (tactics.problem.solve, the network's prior,
`--time-limit` seconds).  Where the answer is a guess (the goal is to live and the search ended
unfinished: tactics.guess `live_guess`, as tactics.problem calls it), the guess's inputs are recorded: the unrefuted
first moves, their playout survival shares with `--seeds` seeds (tactics.playouts
`survival_rates`, the shipped seed first) and the network's scores.  The table then counts,
for each weight of the prior (`--weights`) and each seed, how many guesses are the book's
move, as `live_guess` ranks them (`PRIOR_WEIGHT` is the shipped weight; a huge weight is the
network alone, 0 the playouts alone).  The records go to `--out` (JSON lines) so the table can
be made again with other weights (`--records`).  LIST: one path per line relative to the root,
as `bench/tsumego_bench.py --per-problem` rows prefixed with their collection (a run's unknown
lives).  The set of unfinished lives moves with the clock: compare weights within one run's
records, not across runs.  Start with `main`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys


WEIGHTS = (0, 0.01, 0.02, 0.025, 0.03, 0.05, 0.1, 1000)


def record(path, time_limit=10.0, seeds=4, prior=None) -> dict:
    """Solves `path` (an SGF problem) and returns {"path", "goal", "result", "move", "rights"} and,
    when its answer is a guess to live, "moves" (the unrefuted first moves, flat), "rates" (their
    playout shares, one list per seed) and "scores" (the prior's, or None)."""
    import tactics.problem as problem
    from tactics.guess import GUESS_PLAYOUTS
    from golois.tsumego.problem_sgf import load_problem, right_answers
    from tactics.coords import vertex_to_flat
    from tactics.playouts import survival_rates
    board, mover = load_problem(path)
    n = board.size
    rec = {}
    guess = problem.live_guess

    def spy(b, who, region, candidates, fallback, scores=None):
        moves = [m for m in candidates if m is not None]
        rec["moves"] = moves
        rec["rates"] = [[float(r) for r in survival_rates(b, region, moves, who,
                                                          GUESS_PLAYOUTS, seed=s)]
                        for s in range(1, seeds + 1)] if moves else []
        rec["scores"] = [float(scores[m]) for m in moves] if scores is not None else None
        return guess(b, who, region, candidates, fallback, scores)

    problem.live_guess = spy
    try:
        sol = problem.solve(board, mover, time_limit=time_limit, prior=prior)
    finally:
        problem.live_guess = guess
    rights = [vertex_to_flat(v, n) for v in right_answers(path) if isinstance(v, str)]
    rec.update(path=path, goal=sol.goal, result=sol.result, move=sol.move,
               rights=[p for p in rights if p is not None])
    return rec


def pick(rec, weight, seed) -> int:
    """The move `_live_guess` answers with this prior weight and the playouts of this seed
    (index into rec["rates"]): tactics.guess.guess_pick, its own ranking."""
    from tactics.guess import guess_pick
    return guess_pick(rec["moves"], rec["rates"][seed], rec["scores"], weight)


def table(records, weights=WEIGHTS) -> str:
    """The right guesses per weight and seed, with a total row, over the records that guessed."""
    guesses = [r for r in records if r.get("moves") and r["goal"] == "live" and r["result"] == "unknown"]
    seeds = min((len(r["rates"]) for r in guesses), default=0)
    among = sum(any(m in r["rights"] for m in r["moves"]) for r in guesses)
    lines = [f"{len(guesses)} guesses to live (the book's move among the candidates in {among})",
             "| weight | " + " | ".join(f"{w:g}" for w in weights) + " |",
             "|---" * (len(weights) + 1) + "|"]
    for s in range(seeds):
        lines.append(f"| seed {s + 1} | " + " | ".join(
            str(sum(pick(r, w, s) in r["rights"] for r in guesses)) for w in weights) + " |")
    lines.append("| total | " + " | ".join(
        str(sum(pick(r, w, s) in r["rights"] for r in guesses for s in range(seeds)))
        for w in weights) + " |")
    return "\n".join(lines)


_PRIOR = []


def _start(network):
    from golois.tsumego.cli import network_prior
    _PRIOR[:] = [network_prior(network)]


def _record_one(task):
    path, time_limit, seeds = task
    return record(path, time_limit, seeds, _PRIOR[0])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("root", nargs="?", help="folder of collections, one collection, or an SGF file")
    p.add_argument("--only", metavar="LIST", help="the problems to solve, one path per line relative to root")
    p.add_argument("--time-limit", type=float, default=10.0, help="seconds per problem (10)")
    p.add_argument("--seeds", type=int, default=4, help="playout seeds per guess (4)")
    p.add_argument("--weights", default=",".join(f"{w:g}" for w in WEIGHTS),
                   help="the prior's weights to compare, comma-separated")
    p.add_argument("--network", default="full", help="the prior: full, small, a .pt file or none")
    p.add_argument("--jobs", type=int, default=1, help="problems at once, one per process (a core each)")
    p.add_argument("--out", default="live_guesses.jsonl", help="where the records go (JSON lines)")
    p.add_argument("--records", metavar="FILE", help="make the table from these records; solve nothing")
    args = p.parse_args(argv)
    weights = [float(w) for w in args.weights.split(",")]
    if args.records:
        with open(args.records) as f:
            print(table([json.loads(line) for line in f if line.strip()], weights))
        return 0
    if not args.root:
        p.error("give a root folder or --records FILE")
    from golois.tsumego.batch import ordered_map
    from golois.tsumego.problem_sgf import collection_folders, problem_names
    if args.only:
        with open(args.only) as f:
            files = [os.path.join(args.root, line.strip()) for line in f if line.strip()]
    else:
        files = list(problem_names(collection_folders(args.root)))
    from tqdm import tqdm
    records = []
    results = ordered_map(_record_one, [(f, args.time_limit, args.seeds) for f in files],
                          args.jobs, _start, (args.network,))
    results = tqdm(results, total=len(files), file=sys.stderr)
    with open(args.out, "w") as out:
        for rec in results:
            records.append(rec)
            out.write(json.dumps(rec) + "\n")
            out.flush()
    print(table(records, weights))
    return 0


if __name__ == "__main__":
    sys.exit(main())
