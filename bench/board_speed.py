"""Board speed: our Cython board against sgfmill's pure-Python board, in one run, on one core.

    python bench/board_speed.py [--games 20] [--playouts 2000] [--seconds 3]

Rows:
- play+undo: replay random 19x19 games (captures included) move by move and take every move
  back.  Ours in one C loop (`play_many`/`undo_many`: what searches see); sgfmill has no undo, so
  its figure is play alone on a fresh board (generous to sgfmill).
- play via the Python API: one `Board.play` call per move (what Python callers see).
- random playouts: from the empty 19x19 board, random legal moves that fill no own true eye,
  until both pass.  sgfmill's playout uses the same rule with its own board (copy-and-play for
  legality).
"""

from __future__ import annotations

import argparse
import os
import random
import time

from sgfmill import boards as sgfmill_boards

from tactics import coords
from tactics.board import Board


def random_games(n_games: int, size: int, seed: int) -> list[list[int]]:
    """Random legal games (no own-eye filling, until two passes) as flat move lists."""
    rng = random.Random(seed)
    games = []
    for _ in range(n_games):
        b, moves, passes = Board(size), [], 0
        while passes < 2 and len(moves) < 3 * size * size:
            colour = b.to_move
            legal = [m for m in b.legal_moves() if b.eye(m, colour) != 2]
            m = rng.choice(legal) if legal else None
            b.play(m)
            moves.append(-1 if m is None else m)
            passes = passes + 1 if m is None else 0
        games.append(moves)
    return games


def timed(fn, min_seconds: float) -> tuple[int, float]:
    """Run fn() (returning a work count) until min_seconds have passed; (work, seconds)."""
    work, start = 0, time.perf_counter()
    while True:
        work += fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return work, elapsed


def ours_play_undo(games, size):
    b = Board(size)

    def run():
        n = 0
        for g in games:
            b.play_many(g)
            b.undo_many(len(g))
            n += len(g)
        return n
    return run


def ours_python_play(games, size):
    def run():
        n = 0
        for g in games:
            b = Board(size)
            for m in g:
                b.play(None if m < 0 else m)
            n += len(g)
        return n
    return run


def sgfmill_play(games, size):
    plays = [[None if m < 0 else coords.to_sgfmill(divmod(m, size), size) for m in g] for g in games]

    def run():
        n = 0
        for g in plays:
            sb = sgfmill_boards.Board(size)
            colour = "b"
            for m in g:
                if m is not None:
                    sb.play(m[0], m[1], colour)
                colour = "w" if colour == "b" else "b"
            n += len(g)
        return n
    return run


def ours_playout(size, seed=[0]):
    empty = Board(size)

    def run():
        seed[0] += 1
        b = empty.copy()
        b.random_playout(seed=seed[0])
        return 1
    return run


def _sgfmill_is_eye(sb, r, c, colour, size):
    other = "w" if colour == "b" else "b"
    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= rr < size and 0 <= cc < size and sb.get(rr, cc) != colour:
            return False
    bad = edge = 0
    for rr, cc in ((r - 1, c - 1), (r - 1, c + 1), (r + 1, c - 1), (r + 1, c + 1)):
        if not (0 <= rr < size and 0 <= cc < size):
            edge = 1
        elif sb.get(rr, cc) == other:
            bad += 1
    return bad + edge < 2


def sgfmill_playout(size, rng=random.Random(7)):
    def run():
        sb, colour, passes, ko, moves = sgfmill_boards.Board(size), "b", 0, None, 0
        while passes < 2 and moves < 3 * size * size:
            empties = [(r, c) for r in range(size) for c in range(size) if sb.get(r, c) is None]
            rng.shuffle(empties)
            chosen = None
            for r, c in empties:
                if (r, c) == ko or _sgfmill_is_eye(sb, r, c, colour, size):
                    continue
                trial = sb.copy()
                new_ko = trial.play(r, c, colour)
                if trial.get(r, c) is not None:
                    sb, ko, chosen = trial, new_ko, (r, c)
                    break
            if chosen is None:
                ko = None
            passes = passes + 1 if chosen is None else 0
            colour = "w" if colour == "b" else "b"
            moves += 1
        return 1
    return run


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20, help="random 19x19 games to replay")
    ap.add_argument("--seconds", type=float, default=3.0, help="minimum time per measurement")
    ap.add_argument("--size", type=int, default=19)
    args = ap.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    games = random_games(args.games, args.size, seed=1)
    total = sum(len(g) for g in games)
    print(f"{args.games} random {args.size}x{args.size} games, {total} moves; one core\n")
    rows = [
        ("play+undo, moves/s", ours_play_undo(games, args.size), sgfmill_play(games, args.size)),
        ("play via Python API, moves/s", ours_python_play(games, args.size), sgfmill_play(games, args.size)),
        ("random playouts/s", ours_playout(args.size), sgfmill_playout(args.size)),
    ]
    print(f"| {'measure':<30} | {'golois':>12} | {'sgfmill':>10} | {'ratio':>8} |")
    print(f"|{'-' * 32}|{'-' * 14}|{'-' * 12}|{'-' * 10}|")
    for name, ours, theirs in rows:
        w1, t1 = timed(ours, args.seconds)
        w2, t2 = timed(theirs, args.seconds)
        a, b = w1 / t1, w2 / t2
        print(f"| {name:<30} | {a:>12,.0f} | {b:>10,.1f} | {a / b:>7,.0f}x |", flush=True)


if __name__ == "__main__":
    main()
