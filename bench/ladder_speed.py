"""Ladder speed: queries per second in-process against GNU Go's `ladder_attack`, and the
whole-board ladder facts in milliseconds per KGS position (one core).

    PYTHONPATH=. python bench/ladder_speed.py [--data ../shared/data] [--positions 300] [--seed 2]

Positions are sampled from the KGS 2015 archive as in bench/ladder_parity.py (same loader); the
queries are every two-liberty string of those positions, asked of both programs.  Our figure is
the Python call `ladder_capture(board, point, sequence=False)` (call overhead included); GNU Go's
is the GTP round trip through a pipe (`ladder_attack VERTEX`, process switch included: say so
when quoting it).  Start reading at `main`.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tarfile
import tempfile
import time

from ladder_parity import ARCHIVE, load_game, replay, two_liberty_strings, vertex
from golois.gtp.client import GtpClient, find_gnugo
from tactics.ladder import ladder_capture, ladder_facts

from golois import paths


def sample_positions(data_dir, count, seed):
    """[(sgf bytes, move number, board)] from the archive, fixed seed."""
    rng = random.Random(seed)
    tar = tarfile.open(os.path.join(data_dir, ARCHIVE))
    members = sorted((m for m in tar.getmembers() if m.isfile() and m.name.endswith(".sgf")),
                     key=lambda m: m.name)
    rng.shuffle(members)
    out = []
    for member in members:
        if len(out) >= count:
            break
        data = tar.extractfile(member).read()
        game = load_game(data)
        if game is None or len(game[1]) < 30:
            continue
        upto = rng.randrange(20, len(game[1]))
        board = replay(game[0], game[1], upto)
        if board is not None:
            out.append((data, upto, board))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=paths.DATA)
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--gnugo", default=find_gnugo())
    args = ap.parse_args(argv)
    positions = sample_positions(args.data, args.positions, args.seed)
    queries = [(board, s) for _, _, board in positions for s in two_liberty_strings(board)]

    # ours: in-process queries, best of 3 passes
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for board, s in queries:
            ladder_capture(board, s, sequence=False)
        best = min(best, time.perf_counter() - t0)
    ours_qps = len(queries) / best

    # whole-board facts: ms per position, best of 3 passes
    best_f = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for _, _, board in positions:
            ladder_facts(board)
        best_f = min(best_f, time.perf_counter() - t0)
    facts_ms = 1000 * best_f / len(positions)
    worst = 0.0
    for _, _, board in positions:
        t0 = time.perf_counter()
        ladder_facts(board)
        worst = max(worst, time.perf_counter() - t0)

    gg_qps = None
    if args.gnugo:
        with tempfile.TemporaryDirectory() as tmp, GtpClient([args.gnugo, "--mode", "gtp"]) as gg:
            path = os.path.join(tmp, "game.sgf")
            elapsed, asked = 0.0, 0
            for data, upto, board in positions:
                with open(path, "wb") as f:
                    f.write(data)
                gg.send(f"loadsgf {path} {upto + 1}")
                cmds = [f"ladder_attack {vertex(s)}" for s in two_liberty_strings(board)]
                t0 = time.perf_counter()
                for c in cmds:
                    gg.send(c)
                elapsed += time.perf_counter() - t0
                asked += len(cmds)
            gg_qps = asked / elapsed

    print(f"{len(positions)} KGS positions, {len(queries)} two-liberty strings\n")
    print("| measure | Golois (in-process) | GNU Go 3.8 (GTP round trip) | ratio |")
    print("|---|---|---|---|")
    ratio = f"{ours_qps / gg_qps:.1f}x" if gg_qps else "n/a"
    print(f"| ladder queries/s | {ours_qps:,.0f} | {gg_qps:,.0f} | {ratio} |" if gg_qps else
          f"| ladder queries/s | {ours_qps:,.0f} | n/a | n/a |")
    print(f"| whole-board facts, ms/position (mean) | {facts_ms:.3f} | - | - |")
    print(f"| whole-board facts, ms/position (worst) | {1000 * worst:.3f} | - | - |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
