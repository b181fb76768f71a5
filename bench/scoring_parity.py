"""Final scoring parity with GNU Go: our dead stones and area score against GNU Go 3.8's on the
final positions of finished games (SGFs written by `golois match`, or any game played to the end).

For each game that did not end by resignation (or time), the final position is judged three
ways: GNU Go (`gnugo --mode gtp --chinese-rules`, `loadsgf FILE`, `final_status_list dead`,
`final_score`), our judgement with playouts and Benson alone (`golois.player.scoring.judge`, 256
playouts, as the player's final judgement), and the same with the life-and-death solver's check
of unsure strings (`JudgeConfig.owl` = `golois.player.hooks.owl_answer`, what `final_score` and
`final_status_list` use).  Prints a line per game and the totals: stones whose dead/alive
verdict differs from GNU Go's, scores equal to GNU Go's, and our seconds per judgement.

    python bench/scoring_parity.py runs/match_gnugo/tactics-on            # a folder of SGFs
    python bench/scoring_parity.py games/*.sgf --komi 7.5

Start reading at `main`.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # golois, tactics


def gnugo_verdict(gnugo: str, path: Path, size: int):
    """(bool array of GNU Go's dead stones, GNU Go's final score text) for the game's end."""
    import numpy as np
    from tactics.coords import parse_vertex
    out = subprocess.run([gnugo, "--mode", "gtp", "--chinese-rules"], capture_output=True, text=True,
                         input=f"loadsgf {path}\nfinal_status_list dead\nfinal_score\nquit\n").stdout
    blocks = [b.strip() for b in out.split("\n\n") if b.strip()]
    dead = np.zeros(size * size, dtype=bool)
    for v in blocks[1][1:].split():
        r, c = parse_vertex(v, size)
        dead[r * size + c] = True
    return dead, blocks[2][1:].strip()


def main(argv=None) -> int:
    import numpy as np
    from golois.gtp.client import find_gnugo
    from golois.player.player import PlayerConfig
    from golois.player.scoring import format_score, judge
    from golois.sgf import SgfError, parse_game
    from golois.player.hooks import owl_answer

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="+", help="SGF files or folders of them")
    p.add_argument("--komi", type=float, default=None, help="default: the game's KM[] (as GNU Go reads it)")
    args = p.parse_args(argv)
    gnugo = find_gnugo()
    if gnugo is None:
        print("GNU Go not found (apt-get install gnugo)", file=sys.stderr)
        return 1
    files = []
    for arg in args.paths:
        path = Path(arg)
        files += sorted(path.rglob("*.sgf")) if path.is_dir() else [path]
    ways = {"playouts": None, "playouts+solver": owl_answer}
    differ = {w: 0 for w in ways}
    equal = {w: 0 for w in ways}
    seconds = {w: [] for w in ways}
    games = skipped = 0
    print(f"{'game':40} {'GNU Go':>9} {'dead':>5} | " + " | ".join(f"{w}: score, stones differing" for w in ways))
    for path in files:
        try:
            data = path.read_bytes()
            game = parse_game(data, str(path))
            if b"+R" in data or b"+T" in data or b"RE[" not in data:
                skipped += 1                       # resigned or unfinished: no final position to score
                continue
            board = game.board_at(None)
        except (OSError, SgfError) as e:
            print(f"{path}: skipped ({e})", file=sys.stderr)
            skipped += 1
            continue
        komi = args.komi if args.komi is not None else game.komi
        gdead, gscore = gnugo_verdict(gnugo, path, board.size)
        games += 1
        row = [f"{str(path)[-40:]:40} {gscore:>9} {int(gdead.sum()):>5}"]
        for way, owl in ways.items():
            cfg = PlayerConfig().judge_config(None, 256, owl)
            t = time.perf_counter()
            j = judge(board, komi, cfg)
            seconds[way].append(time.perf_counter() - t)
            d = int((j.dead.ravel() != gdead).sum())
            differ[way] += d
            equal[way] += format_score(j.score) == gscore
            row.append(f"{format_score(j.score):>8} {d:>4}")
        print(" | ".join(row), flush=True)
    print(f"\n{games} games scored ({skipped} skipped: resigned, unfinished or unreadable)")
    print(f"{'judgement':18} {'scores = GNU Go':>16} {'stones differing':>17} {'median s':>9}")
    for way in ways:
        med = float(np.median(seconds[way])) if seconds[way] else 0.0
        print(f"{way:18} {equal[way]:>10}/{games:<5} {differ[way]:>17} {med:>9.3f}")
    return 0 if games else 1


if __name__ == "__main__":
    sys.exit(main())
