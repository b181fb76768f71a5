"""Ladder parity with GNU Go: our `ladder_capture` against GNU Go's GTP `ladder_attack`.

Samples positions from the KGS 2015 archive (read in place with tarfile + sgfmill, fixed seed),
asks both programs about every string with exactly two liberties, and prints the agreement, the
confusion table, how often the capturing moves agree, and examples of each disagreement.

    PYTHONPATH=. python bench/ladder_parity.py [--data ../shared/data] [--strings 5000] [--seed 1]

GNU Go answers 0, 1 MOVE (captured), 2 or 3 MOVE (ko); `loadsgf FILE N` gives it the position
before move N, and we replay the same moves on our board.  Games with setup stones other than
black handicap stones at the root, non-19 boards, or moves either side finds illegal are skipped.
Start reading at `main`.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tarfile
import tempfile
import time
from collections import Counter

from sgfmill import sgf

from golois.gtp.client import GtpClient, GtpError, find_gnugo
from tactics import coords
from tactics.board import Board, IllegalMove
from tactics.ladder import CAPTURED, ESCAPED, KO, UNKNOWN, ladder_capture, ladder_escape

from golois import paths

ARCHIVE = "kgs/KGS-2015-19-8133-.tar.gz"
OURS = {ESCAPED: "escaped", CAPTURED: "captured", KO: "ko", UNKNOWN: "unknown"}
THEIRS = {"0": "escaped", "1": "captured", "2": "ko", "3": "ko"}


def load_game(data: bytes):
    """(handicap points, [(colour, (row, col) or None)]) of a clean 19x19 game, or None."""
    try:
        game = sgf.Sgf_game.from_bytes(data)
    except ValueError:
        return None
    if game.get_size() != 19:
        return None
    root = game.get_root()
    if root.has_property("AW") or root.has_property("AE"):
        return None
    stones = []
    if root.has_property("AB"):
        stones = [coords.from_sgfmill(p, 19) for p in root.get("AB")]
    moves = []
    for node in game.get_main_sequence()[1:]:
        if any(node.has_property(p) for p in ("AB", "AW", "AE")):
            return None
        colour, point = node.get_move()
        if colour is None:
            continue
        moves.append((1 if colour == "b" else 2, coords.from_sgfmill(point, 19)))
    return stones, moves


def replay(stones, moves, upto: int) -> Board | None:
    """Our board after the first `upto` moves (None if a move is illegal)."""
    board = Board(19)
    for rc in stones:
        board.place(rc, 1)
    try:
        for colour, rc in moves[:upto]:
            board.play(rc, colour)
    except IllegalMove:
        return None
    if upto < len(moves):
        board.to_move = moves[upto][0]
    return board


def two_liberty_strings(board: Board) -> list[int]:
    """One stone (the lowest flat index) of every string with exactly two liberties."""
    seen, out = set(), []
    arr = board.to_array().ravel()
    for p in range(board.size * board.size):
        if arr[p] and p not in seen:
            stones = board.string(p)
            seen.update(stones)
            if board.liberties(p) == 2:
                out.append(stones[0])
    return out


def move_kind(board: Board, s: int, ours, theirs: str) -> str:
    """'same move', or whether GNU Go's other capturing move also works in our search."""
    if vertex(ours) == theirs.upper():
        return "same move"
    work = board.copy()
    attacker = 3 - board.get(s)
    try:
        work.play(theirs, attacker)
    except IllegalMove:
        return "other move, illegal for us"
    res, _, _ = ladder_escape(work, s, sequence=False)
    return "other move, also works for us" if res == CAPTURED else f"other move, {OURS[res]} for us"


def vertex(flat, size=19) -> str:
    return "pass" if flat is None else coords.format_vertex(divmod(flat, size), size)


def kgs_positions(data_dir: str, seed: int, per_game: int, gnugo, counters: Counter):
    """Random positions of the KGS 2015 games (fixed seed), each also set in GNU Go with
    `loadsgf`; counters["positions"] and counters["skipped"] (games that
    could not be used) are kept up to date; yields (board, game file, move number N: the position
    before move N, as loadsgf FILE N).  Shared by ladder_parity and capture_parity."""
    rng = random.Random(seed)
    tar = tarfile.open(os.path.join(data_dir, ARCHIVE))
    members = sorted((m for m in tar.getmembers() if m.isfile() and m.name.endswith(".sgf")),
                     key=lambda m: m.name)
    rng.shuffle(members)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "game.sgf")
        for member in members:
            data = tar.extractfile(member).read()
            game = load_game(data)
            if game is None or len(game[1]) < 20:
                counters["skipped"] += 1
                continue
            stones, moves = game
            with open(path, "wb") as f:
                f.write(data)
            for upto in sorted(rng.sample(range(10, len(moves)), min(per_game, len(moves) - 10))):
                board = replay(stones, moves, upto)
                if board is None:
                    counters["skipped"] += 1
                    break
                try:
                    gnugo.send(f"loadsgf {path} {upto + 1}")
                except GtpError:
                    counters["skipped"] += 1
                    break
                counters["positions"] += 1
                yield board, member.name, upto + 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=paths.DATA)
    ap.add_argument("--strings", type=int, default=5000, help="stop after this many strings")
    ap.add_argument("--per-game", type=int, default=3, help="positions sampled per game")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--examples", type=int, default=3, help="examples printed per disagreement kind")
    ap.add_argument("--gnugo", default=find_gnugo())
    args = ap.parse_args(argv)
    if not args.gnugo:
        print("GNU Go not found", file=sys.stderr)
        return 2
    confusion = Counter()
    move_stats = Counter()
    examples: dict[tuple[str, str], list[str]] = {}
    t_ours = t_gnugo = 0.0
    counters = Counter()
    with GtpClient([args.gnugo, "--mode", "gtp"]) as gg:
        for board, name, number in kgs_positions(args.data, args.seed, args.per_game, gg, counters):
            if sum(confusion.values()) >= args.strings:
                break
            for s in two_liberty_strings(board):
                t0 = time.perf_counter()
                res, move, _ = ladder_capture(board, s, sequence=False)
                t1 = time.perf_counter()
                answer = gg.send(f"ladder_attack {vertex(s)}").split()
                t2 = time.perf_counter()
                t_ours += t1 - t0
                t_gnugo += t2 - t1
                ours, theirs = OURS[res], THEIRS[answer[0]]
                confusion[(ours, theirs)] += 1
                if ours == theirs == "captured":
                    move_stats[move_kind(board, s, move, answer[1])] += 1
                if ours != theirs:
                    ex = examples.setdefault((ours, theirs), [])
                    if len(ex) < args.examples:
                        ex.append(f"{name} before move {number}, string {vertex(s)}: "
                                  f"ours {ours} {vertex(move)}, GNU Go {' '.join(answer)}\n{board}")
    total = sum(confusion.values())
    agree = sum(n for (a, b), n in confusion.items() if a == b)
    print(f"positions {counters['positions']} (games skipped {counters['skipped']}), two-liberty strings {total}")
    print(f"agreement {agree}/{total} = {100.0 * agree / max(total, 1):.2f}%")
    print(f"time: ours {1e6 * t_ours / max(total, 1):.1f} us/query in-process, "
          f"GNU Go {1e6 * t_gnugo / max(total, 1):.1f} us/query (GTP round trip included)")
    kinds = ["escaped", "captured", "ko", "unknown"]
    print("\n| ours \\ GNU Go | " + " | ".join(kinds[:3]) + " |")
    print("|---|" + "---|" * 3)
    for a in kinds:
        print(f"| {a} | " + " | ".join(str(confusion[(a, b)]) for b in kinds[:3]) + " |")
    print(f"\nboth captured: {dict(move_stats)}")
    for (a, b), ex in sorted(examples.items()):
        print(f"\n=== ours {a}, GNU Go {b}: {confusion[(a, b)]} cases")
        for e in ex:
            print(e)
    return 0


if __name__ == "__main__":
    sys.exit(main())
