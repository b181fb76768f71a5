"""The search's visits per second on one thread and on two, and where its time goes (network,
tactics, rollouts, tree), for each network and precision, beside the fast bot's genmove.

    python bench/search_speed.py [--networks small full] [--precisions bf16 int8] [--visits 200]
        [--positions 8] [--threads 1 2] [--leaf-playouts 8] [--rollouts FILE|random]

Positions: every 15th of a game the fast bot (small network, temperature 1) plays against
itself, the same for every row.  Each position is searched from a fresh tree with the visit
budget (no early stop).  One thread: the process on one core, the leaves' rollouts in turn with
the network.  Two threads: the process on two cores, the rollouts on a second thread while the
main thread evaluates the network (torch on one thread in both).  The shares are of the main
thread's time: "waiting" is its time blocked on the rollout thread, "tree" what is left (selection,
back-up, board copies); "rollout thread" is how busy the second thread was.  Start with `main`.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from genmove_latency import one_core        # noqa: E402  (bench/ is not a package)


def positions(count: int, every: int = 15):
    """Boards of one fast-bot self-play game (small network, temperature 1), every `every` moves."""
    from tactics.board import Board
    from golois.gtp.play import PlayerOptions, make_player
    from golois.player.player import PlayerConfig
    player = make_player(PlayerOptions(model="small", symmetries=1, config=PlayerConfig(temperature=1.0, seed=3)),
                         log=None)
    board, out = Board(19), []
    while len(out) < count and board.move_count < 400:
        d = player.genmove(board, board.to_move)
        if d.resign or d.move is None:
            break
        board.play(d.move, board.to_move)
        if board.move_count % every == 0:
            out.append(board.copy())
    return out


def cores(n: int) -> None:
    """The process on its first n cores (torch stays on one thread)."""
    if hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, set(sorted(os.sched_getaffinity(0) | set(range(os.cpu_count() or 1)))[:n]))
        except OSError:
            pass


def measure(network: str, precision: str, boards, visits: int, leaves):
    """(visits/s, seconds per fast-bot genmove, shares of the main thread's time)."""
    from golois.gtp.play import PlayerOptions, make_player
    from golois.search.leaves import LeafConfig
    from golois.search.mcts import SearchConfig
    from golois.search.player import SearchPlayer, SearchSettings
    fast = make_player(PlayerOptions(model=network, symmetries=8, precision=precision), log=None)
    settings = SearchSettings(search=SearchConfig(visits=visits, early_stop=False, reuse=False), leaves=leaves)
    search = SearchPlayer(fast, settings)
    fast.genmove(boards[0], boards[0].to_move)                     # warm-up
    t = time.monotonic()
    for b in boards:
        fast.genmove(b, b.to_move)
    genmove = (time.monotonic() - t) / len(boards)
    ev = search.evaluator
    search.search.run(boards[0], visits=16)                        # warm-up
    ev.seconds = dict.fromkeys(ev.seconds, 0.0)
    made, t = 0, time.monotonic()
    for b in boards:
        made += search.search.run(b).visits
    total = time.monotonic() - t
    parts = dict(ev.seconds)
    inline = leaves.threads == 1
    parts["tree"] = total - sum(v for k, v in parts.items() if inline or k != "rollouts")
    if not inline:
        parts["rollout thread"] = parts.pop("rollouts")
    return made / total, genmove, {k: v / total for k, v in parts.items()}


def main(argv=None) -> int:
    from golois.search.leaves import LeafConfig
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--networks", nargs="+", default=["small", "full"])
    p.add_argument("--precisions", nargs="+", default=["bf16", "int8"])
    p.add_argument("--visits", type=int, default=200)
    p.add_argument("--positions", type=int, default=8)
    p.add_argument("--threads", nargs="+", type=int, default=[1, 2], choices=(1, 2))
    p.add_argument("--leaf-playouts", type=int, default=LeafConfig().playouts)
    p.add_argument("--rollouts", default="", help="rollout weights (default the shipped ones; random: uniform)")
    args = p.parse_args(argv)
    one_core()
    boards = positions(args.positions)
    if not boards:
        print("search_speed: the self-play game gave no positions", file=sys.stderr)
        return 1
    print(f"{len(boards)} positions, {args.visits} visits each, fresh trees, "
          f"{args.leaf_playouts} rollouts a leaf ({args.rollouts or 'shipped weights'})")
    print("| network | precision | threads | visits/s | fast bot s/genmove | visits per fast-bot genmove "
          "| network | tactics | rollouts | waiting | tree | rollout thread |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for net in args.networks:
        for prec in args.precisions:
            for threads in args.threads:
                cores(threads)
                leaves = LeafConfig(playouts=args.leaf_playouts, rollouts=args.rollouts, threads=threads)
                try:
                    rate, genmove, parts = measure(net, prec, boards, args.visits, leaves)
                except Exception as e:  # noqa: BLE001 -- a precision this CPU lacks: say so, go on
                    print(f"| {net} | {prec} | {threads} | failed: {type(e).__name__}: {e} |")
                    continue
                print(f"| {net} | {prec} | {threads} | {rate:.0f} | {genmove:.3f} | {rate * genmove:.0f} | "
                      + " | ".join(f"{100 * parts[k]:.0f}%" if k in parts else "-" for k in
                                   ("network", "tactics", "rollouts", "waiting", "tree", "rollout thread")) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
