"""Golois against GNU Go 3.8, with tactics on and off: the issue's strength figures.

    python bench/match_gnugo.py --games 100                   # 19x19, komi 7.5, gnugo --level 10
    python bench/match_gnugo.py --games 4 --size 9 --level 0   # a quick end-to-end check
    python bench/match_gnugo.py --games 100 --model golois/weights/X.pt --only on

Each arm is one `golois match` (golois/eval/match.py) with Golois as engine A (black in odd-numbered
games) and `gnugo --mode gtp --level L` as engine B; SGFs and a JSON summary go to
`runs/match_gnugo/<arm>/`.  The equivalent command lines are printed before each arm, e.g.

    golois match --black "python play.py --size 19" --white "gnugo --mode gtp --level 10" \\
        --games 100 --size 19 --komi 7.5 --sgf-dir runs/match_gnugo/tactics-on
    golois match --black "python play.py --size 19 --no-tactics" --white "gnugo --mode gtp --level 10" \\
        --games 100 --size 19 --komi 7.5 --sgf-dir runs/match_gnugo/tactics-off

Start with `main`.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def main(argv=None) -> int:
    from golois.gtp.client import find_gnugo
    from golois.eval.match import MatchConfig, run_match

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--size", type=int, default=19)
    p.add_argument("--komi", type=float, default=7.5)
    p.add_argument("--level", type=int, default=10, help="GNU Go level")
    p.add_argument("--model", default=None, help="network weights for Golois (default: shipped / fallback)")
    p.add_argument("--only", choices=["on", "off"], default=None, help="run one arm only")
    p.add_argument("--out", default="runs/match_gnugo")
    p.add_argument("--max-moves", type=int, default=None)
    args = p.parse_args(argv)
    gnugo = find_gnugo()
    if gnugo is None:
        print("GNU Go not found (apt-get install gnugo)", file=sys.stderr)
        return 1
    golois = f"{shlex.quote(sys.executable)} play.py --size {args.size}"
    if args.model:
        golois += f" --model {shlex.quote(args.model)}"
    white = f"{gnugo} --mode gtp --level {args.level}"
    for arm in ("on", "off"):
        if args.only and arm != args.only:
            continue
        black = golois + ("" if arm == "on" else " --no-tactics")
        out = os.path.join(args.out, f"tactics-{arm}")
        print(f"\n## tactics {arm}\ngolois match --black {shlex.quote(black)} --white {shlex.quote(white)} "
              f"--games {args.games} --size {args.size} --komi {args.komi} --sgf-dir {out}")
        t = time.time()
        summary = run_match(MatchConfig(black=black, white=white, games=args.games, size=args.size,
                                        komi=args.komi, sgf_dir=out, max_moves=args.max_moves))
        print(summary.report("golois", "gnugo"))
        print(f"wall time {time.time() - t:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
