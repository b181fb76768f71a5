"""genmove latency on one CPU core: median and 95th percentile over positions from real play.

    python bench/genmove_latency.py                       # the configured policy (network if shipped, else fallback)
    python bench/genmove_latency.py --policy fallback --size 19 --positions 60
    python bench/genmove_latency.py --model golois/weights/X.pt --symmetries 8   # the shipped network, tactics on
    python bench/genmove_latency.py --no-tactics
    python bench/genmove_latency.py --precision int8      # the network at another precision (golois.nn.precision)

Positions: a game the player plays against itself (temperature 1 for variety), timing every
genmove through the GTP engine (`engine.handle("genmove ...")`), so the figure includes the
policy, the tactics hooks, the legality/eye/superko filter and -- late in the game -- the playout
estimates for pass and resign.  torch is limited to one thread.  Start with `main`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of the measure: positions, board size, and the player's (play.py's)."""
    from golois.gtp.play import add_player_arguments
    p.add_argument("--size", type=int, default=19)
    p.add_argument("--positions", type=int, default=100, help="genmoves timed (one self-play game, restarted as needed)")
    p.add_argument("--late-fill", type=float, default=0.5, help="also report the genmoves from this board fill on")
    add_player_arguments(p)


def one_core() -> None:
    """torch on one thread, the process on one core."""
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        pass
    if hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
        except OSError:
            pass


def measure(args):
    """(player, genmove seconds, board fill before each) over args.positions genmoves of a self-play game."""
    from golois.gtp.engine import build_engine
    from golois.gtp.protocol import EngineConfig
    from golois.gtp.play import install_player, make_player, options_from_args
    args.temperature = args.temperature or 1.0
    engine = build_engine(EngineConfig(size=args.size))
    player = make_player(options_from_args(args))
    install_player(engine, player)
    engine.handle(f"boardsize {args.size}")
    times, fills, colour, passes = [], [], "b", 0
    engine.handle("genmove b")       # warm-up (lazy imports, caches)
    engine.handle("clear_board")
    while len(times) < args.positions:
        fills.append(float((engine.board.to_array() != 0).mean()))
        t = time.perf_counter()
        answer = engine.handle(f"genmove {colour}")
        times.append(time.perf_counter() - t)
        move = answer[2:].strip().lower()
        passes = passes + 1 if move == "pass" else 0
        if move == "resign" or passes >= 2 or len(engine.moves) > 2 * args.size * args.size:
            engine.handle("clear_board")
            passes = 0
        colour = "w" if colour == "b" else "b"
    return player, times, fills


def percentiles(times) -> tuple[float, float]:
    """(median, 95th percentile) in ms."""
    s = sorted(times)
    return statistics.median(s) * 1e3, s[min(len(s) - 1, int(0.95 * len(s)))] * 1e3


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(p)
    args = p.parse_args(argv)
    one_core()
    player, times, fills = measure(args)
    late = [t for t, f in zip(times, fills) if f >= args.late_fill]
    med, p95 = percentiles(times)
    print(f"policy: {player.policy_name}; tactics {'on' if player.config.tactics else 'off'}; {player.hooks.describe()}")
    print(f"{args.size}x{args.size}, {len(times)} genmoves on one core: median {med:.1f} ms, "
          f"95th percentile {p95:.1f} ms, max {max(times) * 1e3:.1f} ms")
    if late:
        lmed, lp95 = percentiles(late)
        print(f"  of which {len(late)} at board fill >= {args.late_fill}: median {lmed:.1f} ms, 95th percentile {lp95:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
