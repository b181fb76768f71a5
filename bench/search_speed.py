"""The search's visits per second on one core, and where its time goes (network, tactics,
playouts, tree), for each network and precision, beside the fast bot's genmove.

    python bench/search_speed.py [--networks small full] [--precisions bf16 int8] [--visits 200]
        [--positions 8] [--playout-weight 0]

Positions: every 15th of a game the fast bot (small network, temperature 1) plays against
itself, the same for every row.  Each position is searched from a fresh tree with the visit
budget (no early stop); "tree" is the search's own Python time (selection, back-up, board
copies), what is left once the evaluator's parts are taken off.  torch runs on one thread, the
process on one core.  Start with `main`.
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


def measure(network: str, precision: str, boards, visits: int, playout_weight: float):
    """(visits/s, seconds per fast-bot genmove, shares of network / tactics / playouts / tree)."""
    from golois.gtp.play import PlayerOptions, make_player
    from golois.search.leaves import LeafConfig
    from golois.search.mcts import SearchConfig
    from golois.search.player import SearchPlayer, SearchSettings
    fast = make_player(PlayerOptions(model=network, symmetries=8, precision=precision), log=None)
    settings = SearchSettings(search=SearchConfig(visits=visits, early_stop=False, reuse=False),
                              leaves=LeafConfig(playout_weight=playout_weight))
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
    parts["tree"] = total - sum(parts.values())
    return made / total, genmove, {k: v / total for k, v in parts.items()}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--networks", nargs="+", default=["small", "full"])
    p.add_argument("--precisions", nargs="+", default=["bf16", "int8"])
    p.add_argument("--visits", type=int, default=200)
    p.add_argument("--positions", type=int, default=8)
    p.add_argument("--playout-weight", type=float, default=0.0)
    args = p.parse_args(argv)
    one_core()
    boards = positions(args.positions)
    if not boards:
        print("search_speed: the self-play game gave no positions", file=sys.stderr)
        return 1
    print(f"{len(boards)} positions, {args.visits} visits each, fresh trees, one core")
    print("| network | precision | visits/s | fast bot s/genmove | visits per fast-bot genmove "
          "| network | tactics | playouts | tree |")
    print("|---|---|---|---|---|---|---|---|---|")
    for net in args.networks:
        for prec in args.precisions:
            try:
                rate, genmove, parts = measure(net, prec, boards, args.visits, args.playout_weight)
            except Exception as e:  # noqa: BLE001 -- a precision this CPU lacks: say so, go on
                print(f"| {net} | {prec} | failed: {type(e).__name__}: {e} |")
                continue
            print(f"| {net} | {prec} | {rate:.0f} | {genmove:.3f} | {rate * genmove:.0f} | "
                  + " | ".join(f"{100 * parts[k]:.0f}%" for k in ("network", "tactics", "playouts", "tree")) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
