"""Wins of one engine over finished match SGFs, each distinct game counted once.

    python bench/match_tally.py 'runs/gg-off-*/*.sgf' [more globs] [--player Golois]

Games are told apart by their moves: two copies of one game (matches run side by side that
replayed the same games: GNU Go seeds its random numbers from the clock, so two matches started
in the same second against a deterministic engine play the same games) count once, and the
copies are reported.  Prints wins, the win rate with its 95% Wilson interval, the Elo
difference, the split by colour, and how the games ended (resignation or score).  SGFs are
read with golois.sgf; an unreadable file is skipped and counted.
"""

from __future__ import annotations

import argparse
import glob
import sys

from golois.eval.match import elo, wilson
from golois.sgf import SgfError, load_game


def tally(paths, player="Golois"):
    """(wins, games, wins as black, games as black, resignations, copies, bad files) over the
    distinct finished games (an SGF with a B+ or W+ result)."""
    seen = set()
    wins = games = wins_b = games_b = resigned = copies = bad = 0
    for path in paths:
        try:
            game = load_game(path)
        except SgfError as e:
            print(f"{path}: skipped ({e})", file=sys.stderr)
            bad += 1
            continue
        if game.result[:2] not in ("B+", "W+"):
            continue
        moves = tuple((e.colour, e.point) for e in game.events)
        if moves in seen:
            copies += 1
            continue
        seen.add(moves)
        colour = "B" if game.black_name.startswith(player) else "W"
        won = game.result[0] == colour
        games += 1
        wins += won
        resigned += game.result[2:3] == "R"
        if colour == "B":
            games_b += 1
            wins_b += won
    return wins, games, wins_b, games_b, resigned, copies, bad


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("globs", nargs="+", help="SGF files or globs (quote them)")
    p.add_argument("--player", default="Golois", help="the engine counted (start of its PB/PW name)")
    args = p.parse_args(argv)
    paths = sorted({f for g in args.globs for f in (glob.glob(g) or [g])})
    wins, games, wins_b, games_b, resigned, copies, bad = tally(paths, args.player)
    if not games:
        print("no finished games")
        return 1
    lo, hi = wilson(wins, games)
    print(f"{args.player}: {wins}/{games} = {100 * wins / games:.1f}% (95% Wilson {100 * lo:.1f} .. "
          f"{100 * hi:.1f}), Elo {elo(wins / games):+.0f} ({elo(lo):+.0f} .. {elo(hi):+.0f}); as black "
          f"{wins_b}/{games_b}, as white {wins - wins_b}/{games - games_b}; {resigned} resigned, "
          f"{games - resigned} scored; {copies} copies left out; {bad} unreadable files skipped")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
