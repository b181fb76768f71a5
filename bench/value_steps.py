"""The value head trained in steps (each step's run started from the shipped model, the last step's
when it shipped), end to
end: a table of the held-out winner predicted at moves 100-199 and the held-out value MSE at each
evaluation, each step's gain, and a PNG with the goals as lines.

    python bench/value_steps.py runs/value-1 runs/value-2 [--plot docs/value_steps_small.png]

Each argument is a step's out-dir (its log.csv) or a log.csv itself, in the order they were
trained.  The gain of a step is its last held-out winner less the previous step's last: the stop
rule of docs/training.md ("Training in steps") reads it.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from golois.nn.curves import chain_steps, log_paths, plot_value_steps, read_log

#: the held-out winner (moves 100-199, %) the issue aims at, and the rollouts' on the same positions
GOALS = {"goal 65%": 65.0, "rollouts 68.3%": 68.3}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("steps", nargs="+", help="out-dirs or log.csv files, in training order")
    p.add_argument("--plot", help="write the curves to this PNG")
    p.add_argument("--title", default="")
    args = p.parse_args(argv)
    try:
        paths = log_paths(args.steps)
    except FileNotFoundError as e:
        print(e, file=sys.stderr)
        return 2
    rows = chain_steps([read_log(q) for q in paths])
    if not rows:
        print("no held-out value evaluations in these logs", file=sys.stderr)
        return 2
    print("| step | examples | held-out winner 100-199 | held-out MSE |")
    print("|---|---|---|---|")
    last: dict[int, float] = {}
    for r in rows:
        win = r.get("heldout_winner_100_199")
        mse = r.get("heldout_value_mse")
        print(f"| {r['step']} | {r['examples'] / 1e6:.2f}M | {'' if win is None else f'{100 * win:.1f}%'} | "
              f"{'' if mse is None else f'{mse:.3f}'} |")
        if win is not None:
            last[r["step"]] = 100 * win
    print()
    for step in sorted(last):
        if step - 1 in last:
            print(f"step {step}: {last[step] - last[step - 1]:+.1f} points of held-out winner")
    if args.plot:
        plot_value_steps(rows, args.plot, GOALS, args.title)
        print(f"wrote {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
