"""Side-by-side tsumego benchmark: our solver (through our GTP engine, play.py) and GNU Go 3.8
(`gnugo --mode gtp --level 10`), both driven as ../shared/tools/gtp_tsumego.py does with RESTRICT=1
(`loadsgf FILE 1`, then `restricted_genmove COLOR <empty points of the stones' box grown by 1>`).

    PYTHONPATH=. python bench/tsumego_bench.py ../shared/data/tsumego [--limit N] [--time-limit S] [--no-gnugo]
    PYTHONPATH=. python bench/tsumego_bench.py ../shared/data/tsumego --limit 30 --max-nodes 300000
    PYTHONPATH=. python bench/tsumego_bench.py ../shared/data/tsumego --max-nodes 2000000 --per-problem
    PYTHONPATH=. python bench/tsumego_bench.py ../shared/data/tsumego --in-process --time-limit 10 --per-problem
    PYTHONPATH=. python bench/tsumego_bench.py ../shared/data/tsumego --in-process --jobs 2   (a problem per core)
    PYTHONPATH=. python bench/tsumego_bench.py ../shared/data/tsumego/maeda-10k-5k --in-process   (one collection)

With `--max-nodes N` the solver runs in-process with a node limit instead of a clock (the same
answers on every run and machine, for comparing solver versions); it also splits the right
answers by the solver's result (proven wins, kos, fails, unfinished searches whose move is a
guess, setup errors), and `--per-problem` lists every problem.  `--in-process` does the same
with the clock (`--time-limit`): the GTP run's answers, split by result.  In process, GNU Go
answers the same problems through GTP before our solver starts (about 70 s for the 668 problems
of ../shared/data/tsumego, so it never shares a core with our timed runs), and each
collection's line ends with its count and ours over it (`--no-gnugo`: not run).  In
process, as in `golois solve`, an unfinished search to live answers the unrefuted move that
playouts and the policy network's scores like best (`--network full|small|PATH|none`, default
full; none: the playouts alone).

A file of several games (an SGF collection) counts one problem per game, `FILE#K`, as in
`golois solve` (golois.tsumego.cli `problems`); GNU Go and our engine get each game as a file of
its own.

Prints, per collection and engine: first-move accuracy, median and 90th percentile seconds per
problem, and (ours) nodes per second from the solver's own count (`solver_stats` is not a GTP
command: nodes come from solving the same problem in-process).  Start with `main`.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

import numpy as np

from golois.gtp.client import GtpClient, find_gnugo
from golois.tsumego.problem_sgf import collection_folders

COLS = "ABCDEFGHJKLMNOPQRST"


def gnugo_command(path):
    """GNU Go 3.8 as the peer of both modes: GTP, level 10 (gtp_tsumego.py's setting)."""
    return [path, "--mode", "gtp", "--level", "10"]


def problem(path):
    """(colour, right answers, region) exactly as gtp_tsumego.py computes them (path: a file,
    or a game of a collection, FILE#K)."""
    from sgfmill import sgf

    from golois.tsumego.problem_sgf import read_problem
    g = sgf.Sgf_game.from_bytes(read_problem(path))
    root = g.get_root()
    n = g.get_size()
    stones = set()
    for prop in ("AB", "AW"):
        if root.has_property(prop):
            stones |= set(root.get(prop))
    pl = {"b": "black", "w": "white"}[root.get("PL").lower()]
    right = []
    for ch in root:
        c = ch.get("C") if ch.has_property("C") else ""
        if "RIGHT" in c:
            _, mv = ch.get_move()
            if mv:
                right.append(f"{COLS[mv[1]]}{mv[0] + 1}")
    rs = [r for r, _ in stones]
    cs = [c for _, c in stones]
    region = [f"{COLS[c]}{r + 1}" for r in range(max(min(rs) - 1, 0), min(max(rs) + 1, n - 1) + 1)
              for c in range(max(min(cs) - 1, 0), min(max(cs) + 1, n - 1) + 1) if (r, c) not in stones]
    return pl, right, region


def run_engine(command, files, setup=()):
    """[(right, seconds)] of a GTP engine's first move on each problem; a problem it cannot
    load or answer (or that has no PL) counts as wrong, and the batch goes on."""
    out = []
    with GtpClient(command) as eng, tempfile.TemporaryDirectory() as tmp:
        for s in setup:
            eng.send(s)
        for f in files:
            t = time.monotonic()
            try:
                pl, right, region = problem(f)
                eng.send("loadsgf " + _loadable(f, tmp) + " 1")
                t = time.monotonic()
                mv = eng.send("restricted_genmove " + pl + " " + " ".join(region)).strip().upper()
            except Exception:
                mv, right = "?", []
            out.append((mv in right, time.monotonic() - t))
    return out


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("root", help="folder of collections (../shared/data/tsumego), or one collection")
    p.add_argument("--limit", type=int, default=None, help="problems per collection")
    p.add_argument("--time-limit", type=float, default=10.0, help="our seconds per problem")
    p.add_argument("--no-gnugo", action="store_true",
                   help="leave GNU Go 3.8 out (by default it answers the same problems: a row of "
                        "its own after ours in the GTP run; in process, first, its count and our "
                        "ratio to it ending each line)")
    p.add_argument("--max-nodes", type=int, default=None,
                   help="in-process, node-limited solves instead (deterministic answers)")
    p.add_argument("--in-process", action="store_true",
                   help="in-process solves with the clock (--time-limit), as --max-nodes does with a "
                        "node limit")
    p.add_argument("--per-problem", action="store_true",
                   help="with --max-nodes or --in-process: one line per problem (result, move, right "
                        "answers, goal, nodes, seconds)")
    p.add_argument("--network", default="full", metavar="MODEL",
                   help="with --max-nodes or --in-process: the policy prior of an unfinished search to live, "
                        "as golois solve --network (full, small, a .pt file, or none)")
    p.add_argument("--sim", type=int, default=None, metavar="N",
                   help="with --max-nodes or --in-process: positions per simulation of a refuted move's "
                        "proof on its siblings (tactics.solver.dfpn; 0: off; default: the solver's)")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="with --max-nodes or --in-process: problems solved at once, one per worker "
                        "process (give each its own core: every problem keeps its time limit)")
    args = p.parse_args(argv)
    if args.max_nodes or args.in_process:
        return _in_process(args.root, args.limit, args.max_nodes or 10 ** 9, args.per_problem,
                           args.time_limit if args.in_process else 3600.0, args.network, args.sim,
                           args.jobs, None if args.no_gnugo else find_gnugo())
    ours = [sys.executable, "-m", "golois.cli", "gtp"]          # the engine of play.py
    gnugo = find_gnugo()
    print(f"{'collection':20s} {'engine':8s} {'right':>12s} {'median s':>9s} {'p90 s':>7s} {'nodes/s':>9s}")
    for d in collection_folders(args.root):
        files = _problems(d, args.limit)
        if not files:
            continue
        engines = [("golois", ours, [f"solver_time {args.time_limit}"])]
        if gnugo and not args.no_gnugo:
            engines.append(("gnugo", gnugo_command(gnugo), []))
        for name, cmd, setup in engines:
            res = run_engine(cmd, files, setup)
            ok = sum(r for r, _ in res)
            secs = np.array([t for _, t in res])
            nps = ""
            if name == "golois":
                nps = f"{_nodes_per_second(files, args.time_limit):9.0f}"
            print(f"{os.path.basename(d):20s} {name:8s} {ok:4d}/{len(res):<4d}{100 * ok / len(res):5.1f}% "
                  f"{np.median(secs):9.2f} {np.percentile(secs, 90):7.2f} {nps}", flush=True)


KINDS = ("win", "ko", "fail", "unknown", "error")


def _problems(folder, limit=None):
    """A collection folder's problems, as golois solve takes them: its .sgf files by name, each
    file's games; at most `limit` (golois.tsumego.cli `problem_names`)."""
    from golois.tsumego.problem_sgf import problem_names
    return list(problem_names([folder], limit))


def _loadable(name, tmp):
    """A path GTP's loadsgf reads for a problem: the file itself, or a collection's game
    written alone into the folder tmp."""
    if os.path.isfile(name):
        return os.path.abspath(name)
    from golois.tsumego.problem_sgf import read_problem
    path = os.path.join(tmp, "game.sgf")
    with open(path, "wb") as f:
        f.write(read_problem(name))
    return path


def _in_process(root, limit, max_nodes, per_problem=False, time_limit=3600.0, network="full", sim=None,
                jobs=1, gnugo=None):
    """Right first moves per collection with at most max_nodes positions (and time_limit
    seconds) per problem, the same split by the solver's result (win, ko_a/ko_b, fail, unknown,
    error: right/answered), median and 90th percentile seconds and nodes per second; with
    per_problem, one line per problem too (file, right, result, move, right answers, goal,
    nodes, seconds); sim: tactics.problem.solve's (None: its default); jobs: problems solved
    at once, one per worker process (golois.tsumego.batch; each should have a core of its own);
    gnugo: GNU Go's path, or None: its right answers on the same problems (`_gnugo_counts`,
    before our runs) and our count over its end each collection's line."""
    from golois.tsumego.batch import ordered_map, oversubscribed
    from tactics.solver import SIM_NODES
    sim = SIM_NODES if sim is None else sim
    total = count = peer_total = 0
    batches = [(d, _problems(d, limit)) for d in collection_folders(root)]
    batches = [(d, files) for d, files in batches if files]
    peer = _gnugo_counts(gnugo, batches) if gnugo else None
    print(f"{'collection':20s} {'right':>12s}   " + " ".join(f"{k:>9s}" for k in KINDS)
          + f" {'median s':>9s} {'p90 s':>7s} {'nodes/s':>9s}" + (f" {'GNU Go':>9s} {'ratio':>6s}" if peer else "")
          + f"   ({max_nodes} nodes, {time_limit:g} s per problem)")
    warning = oversubscribed(jobs, sum(len(files) for _, files in batches))
    if warning:
        print(f"warning: {warning}; timed figures are not one core's", file=sys.stderr)
    results = ordered_map(_solve_one, [(f, max_nodes, time_limit, sim) for _, files in batches for f in files],
                          jobs, _start_worker, (network,))
    for d, files in batches:
        ok = 0
        kinds = {k: [0, 0] for k in KINDS}
        secs, nodes = [], 0
        for f in files:
            good, result, move, right, kind, extra, seconds, used = next(results)
            secs.append(seconds)
            nodes += used
            ok += good
            kinds[kind][0] += good
            kinds[kind][1] += 1
            if per_problem:
                print(f"  {os.path.basename(f)}\t{int(good)}\t{result}\t{move}\t{','.join(sorted(right))}\t{extra}"
                      f"\t{seconds:.2f}", flush=True)
        total += ok
        count += len(files)
        side = ""
        if peer:
            peer_total += peer[d]
            side = f" {f'{peer[d]}/{len(files)}':>9s} {_ratio(ok, peer[d]):>6s}"
        print(f"{os.path.basename(d):20s} {ok:4d}/{len(files):<4d}{100 * ok / len(files):5.1f}%   "
              + " ".join(f"{f'{r}/{n}':>9s}" for r, n in kinds.values())
              + f" {np.median(secs):9.2f} {np.percentile(secs, 90):7.2f} {nodes / max(sum(secs), 1e-9):9.0f}"
              + side, flush=True)
    print(f"{'total':20s} {total:4d}/{count:<4d}"
          + (f"   GNU Go {peer_total}/{count}, ratio {_ratio(total, peer_total)}" if peer else ""))
    return 0


def _gnugo_counts(gnugo, batches):
    """{collection folder: GNU Go 3.8's right first moves} (level 10, `restricted_genmove` as
    gtp_tsumego.py with RESTRICT=1), run before our solver so that it shares no core with our
    timed runs."""
    counts = {}
    for d, files in batches:
        print(f"GNU Go 3.8 on {os.path.basename(d)} ({len(files)} problems) ...", file=sys.stderr, flush=True)
        counts[d] = sum(good for good, _ in run_engine(gnugo_command(gnugo), files))
    return counts


def _ratio(ours, theirs):
    """Our right answers over a peer's, as '2.41x' ('-' when the peer has none)."""
    return f"{ours / theirs:.2f}x" if theirs else "-"


_PRIOR = []         # this process's policy prior (set by `_start_worker`)


def _start_worker(network):
    """golois.tsumego.batch.ordered_map's initializer: the policy prior of this process's solves."""
    from golois.tsumego.cli import network_prior
    _PRIOR[:] = [network_prior(network)]


def _solve_one(task):
    """(right, result, move, right answers, kind, extra, seconds, nodes) of one problem: task is
    (file, max_nodes, time_limit, sim)."""
    from golois.sgf import SgfError
    from golois.tsumego.problem_sgf import load_problem, right_answers
    from tactics.problem import ProblemError, solve
    f, max_nodes, time_limit, sim = task
    t0 = time.monotonic()
    used, right = 0, []
    try:
        board, mover = load_problem(f)
        right = right_answers(f)
        t0 = time.monotonic()
        sol = solve(board, mover, max_nodes=max_nodes, time_limit=time_limit, prior=_PRIOR[0], sim=sim)
        used = sol.nodes
        move, result = sol.vertex(), sol.result
        good = move in right
        kind = "ko" if result.startswith("ko") else result
        extra = f"{sol.goal}\t{sol.nodes}"
    except (ProblemError, SgfError) as e:        # counted as an error, and the batch goes on
        move, result, good, kind, extra = "-", "error", False, "error", str(e)
    return good, result, move, right, kind, extra, time.monotonic() - t0, used


def _nodes_per_second(files, time_limit):
    """Nodes per second of the solver on the first few problems (in-process)."""
    from golois.tsumego.problem_sgf import load_problem
    from tactics.problem import solve
    nodes = secs = 0.0
    for f in files[:5]:
        board, mover = load_problem(f)
        s = solve(board, mover, time_limit=min(time_limit, 1.0))
        nodes += s.nodes
        secs += s.seconds
    return nodes / max(secs, 1e-9)


if __name__ == "__main__":
    main()
