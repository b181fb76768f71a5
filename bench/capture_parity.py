"""Capture-search parity with GNU Go: our `capture_attack` / `capture_defend` against GNU Go's
GTP `attack` / `defend` on strings with 2-4 liberties of KGS 2015 positions.

Samples positions from the KGS 2015 archive (read in place, fixed seed; the game loading and
replay are bench/ladder_parity.py's), asks both programs about every string with 2 to 4
liberties, and prints the agreement on the result code (0, 1, 2, 3; ours may also be "unknown"),
the confusion tables, the queries per second of each side, and examples of disagreements.

    python bench/capture_parity.py [--data ../shared/data] [--strings 1000] [--seed 1]
        [--defend]  (also compare `defend`)  [--limit max_nodes=20000 ...]

Timing: ours is the in-process call; GNU Go's includes its GTP round trip (a pipe write and
read); the time of a trivial `countlib` round trip on the same string is printed beside it so
the reader can subtract it.
Start reading at `main`.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))                   # ladder_parity
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # golois, tactics

from ladder_parity import kgs_positions, vertex  # noqa: E402

from golois.gtp.client import GtpClient, find_gnugo  # noqa: E402
from tactics.capture import RESULT_NAMES, capture_attack, capture_defend  # noqa: E402

from golois import paths

CODES = ["0", "1", "2", "3", "unknown"]


def strings_2_4(board) -> list[int]:
    """One stone of every string with 2 to 4 liberties."""
    seen, out = set(), []
    arr = board.to_array().ravel()
    for p in range(board.size * board.size):
        if arr[p] and p not in seen:
            stones = board.string(p)
            seen.update(stones)
            if 2 <= board.liberties(p) <= 4:
                out.append(stones[0])
    return out


def table(title: str, confusion: Counter) -> None:
    total = sum(confusion.values())
    agree = sum(n for (a, b), n in confusion.items() if a == b)
    print(f"\n{title}: agreement {agree}/{total} = {100.0 * agree / max(total, 1):.2f}%")
    print("| ours \\ GNU Go | " + " | ".join(CODES[:4]) + " |")
    print("|---|" + "---|" * 4)
    for a in CODES:
        print(f"| {a} | " + " | ".join(str(confusion[(a, b)]) for b in CODES[:4]) + " |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=paths.DATA)
    ap.add_argument("--strings", type=int, default=1000, help="stop after this many strings")
    ap.add_argument("--per-game", type=int, default=2, help="positions sampled per game")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--defend", action="store_true", help="also compare defend")
    ap.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                    help="a capture_params_t limit (max_nodes, threelib_depth, ...), repeatable")
    ap.add_argument("--examples", type=int, default=2, help="examples printed per disagreement kind")
    ap.add_argument("--gnugo", default=find_gnugo())
    args = ap.parse_args(argv)
    limits = {k: int(v) for k, v in (item.split("=") for item in args.limit)}
    if not args.gnugo:
        print("GNU Go not found", file=sys.stderr)
        return 2
    conf = {"attack": Counter(), "defend": Counter()}
    by_libs = Counter()
    agree_libs = Counter()
    same_move = Counter()
    examples: dict[tuple, list[str]] = {}
    times = {"ours": 0.0, "gnugo": 0.0, "round_trip": 0.0}
    queries = round_trips = total_nodes = 0
    per_query: list[tuple[float, float]] = []
    commands = ["attack"] + (["defend"] if args.defend else [])
    counters = Counter()
    with GtpClient([args.gnugo, "--mode", "gtp"]) as gg:
        for board, name, number in kgs_positions(args.data, args.seed, args.per_game, gg, counters):
            if sum(conf["attack"].values()) >= args.strings:
                break
            for s in strings_2_4(board):
                nl = board.liberties(s)
                t0 = time.perf_counter()
                gg.send(f"countlib {vertex(s)}")          # a trivial command: the round trip
                times["round_trip"] += time.perf_counter() - t0
                round_trips += 1
                for cmd in commands:
                    fn = capture_attack if cmd == "attack" else capture_defend
                    t0 = time.perf_counter()
                    res, move, nodes = fn(board, s, **limits)
                    total_nodes += nodes
                    t1 = time.perf_counter()
                    answer = gg.send(f"{cmd} {vertex(s)}").split()
                    t2 = time.perf_counter()
                    times["ours"] += t1 - t0
                    times["gnugo"] += t2 - t1
                    per_query.append((t1 - t0, t2 - t1))
                    queries += 1
                    ours = "unknown" if RESULT_NAMES[res] == "unknown" else str(res)
                    theirs = answer[0]
                    conf[cmd][(ours, theirs)] += 1
                    if cmd == "attack":
                        by_libs[nl] += 1
                        agree_libs[nl] += ours == theirs
                    if ours == theirs and ours != "0":
                        same_move[cmd, vertex(move).upper() == answer[1].upper()] += 1
                    if ours != theirs:
                        ex = examples.setdefault((cmd, ours, theirs), [])
                        if len(ex) < args.examples:
                            ex.append(f"{name} before move {number}, {cmd} {vertex(s)} "
                                      f"({nl} liberties): ours {ours} {vertex(move)}, "
                                      f"GNU Go {' '.join(answer)}\n{board}")
    print(f"positions {counters['positions']} (games skipped {counters['skipped']}), strings {sum(conf['attack'].values())}, "
          f"queries {queries}, limits {limits or 'default'}")
    print(f"speed: ours {queries / max(times['ours'], 1e-9):.0f} queries/s in-process "
          f"({1e6 * times['ours'] / max(queries, 1):.0f} us/query), GNU Go "
          f"{queries / max(times['gnugo'], 1e-9):.0f} queries/s (GTP round trip included; "
          f"{1e6 * times['gnugo'] / max(queries, 1):.0f} us/query, of which a trivial `countlib` "
          f"round trip takes {1e6 * times['round_trip'] / max(round_trips, 1):.0f} us)")
    print(f"search effort: {total_nodes / max(queries, 1):.0f} moves played per query on average "
          f"({total_nodes} in all)")
    if per_query:
        ours_t = sorted(a for a, _ in per_query)
        theirs_t = sorted(b for _, b in per_query)
        med = len(per_query) // 2
        p99 = min(len(per_query) - 1, int(0.99 * len(per_query)))
        print(f"per query: ours median {1e6 * ours_t[med]:.0f} us, 99th percentile "
              f"{1e6 * ours_t[p99]:.0f} us, max {1e3 * ours_t[-1]:.1f} ms; GNU Go median "
              f"{1e6 * theirs_t[med]:.0f} us, 99th percentile {1e6 * theirs_t[p99]:.0f} us, "
              f"max {1e3 * theirs_t[-1]:.1f} ms (round trip included)")
    for cmd in commands:
        table(cmd, conf[cmd])
    print("\nattack agreement by liberties: " + ", ".join(
        f"{n}: {agree_libs[n]}/{by_libs[n]} = {100.0 * agree_libs[n] / max(by_libs[n], 1):.1f}%"
        for n in sorted(by_libs)))
    print(f"both succeed, same move: {dict((f'{c} {s}', n) for (c, s), n in same_move.items())}")
    for key, ex in sorted(examples.items()):
        print(f"\n=== {key[0]}: ours {key[1]}, GNU Go {key[2]}: {conf[key[0]][(key[1], key[2])]} cases")
        for e in ex:
            print(e)
    return 0


if __name__ == "__main__":
    sys.exit(main())
