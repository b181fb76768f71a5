"""Solver speed, side by side with another build: nodes per second of `tactics.problem.solve` at a
fixed node budget (the same search on both builds when they make the same moves, so the answers
must agree and the ratio is pure speed).

    git worktree add ../golois-prev HEAD~1 && (cd ../golois-prev && python setup.py build_ext --inplace -q)
    PYTHONPATH=. python bench/solver_speed.py --baseline ../golois-prev
    PYTHONPATH=. python bench/solver_speed.py ../shared/data/tsumego --every 4 --max-nodes 3000000

Each build solves in a subprocess of its own (its folder first on sys.path), the builds taking
turns problem by problem so that a noisy machine slows both alike.  Prints per build: problems,
nodes, seconds, nodes per second and the ratio to the baseline, and whether every answer
(result, move, nodes) is the same.  Start with `main`.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys

from golois import paths

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
try:
    from golois.tsumego.problem_sgf import load_problem
except ImportError:                      # a build with the older flat layout of golois/
    from golois.problem_sgf import load_problem
from tactics.problem import solve
for line in sys.stdin:
    path = line.strip()
    board, mover = load_problem(path)
    t = time.perf_counter()
    sol = solve(board, mover, time_limit=3600.0, max_nodes=int(sys.argv[2]))
    print(json.dumps([sol.result, sol.vertex(), sol.nodes, time.perf_counter() - t]), flush=True)
"""


class Build:
    """One build's solver in a subprocess fed one problem path per line."""

    def __init__(self, tree: str, max_nodes: int):
        self.tree = os.path.abspath(tree)
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER, self.tree, str(max_nodes)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     cwd=self.tree)
        self.answers, self.nodes, self.seconds = [], 0, 0.0

    def solve(self, path: str):
        self.proc.stdin.write(path + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the solver of {self.tree} stopped on {path}")
        result, move, nodes, seconds = json.loads(line)
        self.answers.append((result, move, nodes))
        self.nodes += nodes
        self.seconds += seconds

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("root", nargs="?", default=paths.TSUMEGO,
                   help="folder of collections (default ../shared/data/tsumego)")
    p.add_argument("--baseline", default=None, metavar="TREE",
                   help="a checkout of another version with its extensions built")
    p.add_argument("--every", type=int, default=8, help="every Nth problem of each collection (8)")
    p.add_argument("--max-nodes", type=int, default=2_000_000, help="node budget per problem (2 M)")
    args = p.parse_args(argv)
    from tqdm import tqdm
    files = []
    for d in sorted(glob.glob(os.path.join(args.root, "*"))):
        files += sorted(glob.glob(os.path.join(d, "*.sgf")))[:: args.every]
    if not files:
        print(f"no problems under {args.root}", file=sys.stderr)
        return 2
    builds = [Build(os.path.join(HERE, ".."), args.max_nodes)]
    if args.baseline:
        builds.append(Build(args.baseline, args.max_nodes))
    try:
        for i, path in enumerate(tqdm(files, desc="problems", file=sys.stderr)):
            for b in builds if i % 2 == 0 else builds[::-1]:
                b.solve(path)
    finally:
        for b in builds:
            b.close()
    base = builds[-1]
    print(f"{len(files)} problems, {args.max_nodes} nodes each")
    print(f"{'build':40s} {'nodes':>12s} {'seconds':>9s} {'nodes/s':>10s} {'ratio':>6s}")
    for b in builds:
        nps = b.nodes / max(b.seconds, 1e-9)
        ratio = nps / (base.nodes / max(base.seconds, 1e-9))
        print(f"{b.tree[-40:]:40s} {b.nodes:12d} {b.seconds:9.1f} {nps:10.0f} {ratio:6.2f}")
    if args.baseline:
        same = sum(a == b for a, b in zip(builds[0].answers, builds[1].answers))
        print(f"same answers (result, move, nodes): {same}/{len(files)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
