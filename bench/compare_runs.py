"""Training runs side by side: test top-1 at each evaluation and the training loss, as a table
and as one PNG (the feature-set experiment of docs/results.md compares two runs this way).

    python bench/compare_runs.py runs/exp-g runs/exp-ld [--labels golois golois_ld] [--plot runs.png]

Each argument is a run's out-dir (its log.csv) or a log.csv itself.  The table has one row per
number of examples at which every run was evaluated, and the difference of the last run from the
first.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from golois.nn.curves import log_paths, plot_runs, read_log


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", nargs="+", help="out-dirs or log.csv files")
    p.add_argument("--labels", nargs="+", help="one per run (default: the folder names)")
    p.add_argument("--plot", help="write the curves to this PNG")
    p.add_argument("--title", default="")
    args = p.parse_args(argv)
    try:
        paths = log_paths(args.runs)
    except FileNotFoundError as e:
        print(e, file=sys.stderr)
        return 1
    labels = args.labels or [os.path.basename(os.path.dirname(os.path.abspath(q))) for q in paths]
    if len(labels) != len(paths):
        p.error("give one label per run")
    logs = {label: read_log(q) for label, q in zip(labels, paths)}
    evals = {label: {int(r["examples"] // 1000): r["test_top1"] for r in rows if r.get("test_top1") is not None}
             for label, rows in logs.items()}
    common = sorted(set.intersection(*(set(e) for e in evals.values())))
    if not common:
        print("the runs share no evaluation point", file=sys.stderr)
        return 1
    print("| examples | " + " | ".join(labels) + f" | {labels[-1]} - {labels[0]} |")
    print("|---|" + "---|" * (len(labels) + 1))
    for k in common:
        vals = [evals[label][k] for label in labels]
        print(f"| {k:,}k | " + " | ".join(f"{100 * v:.2f}%" for v in vals) + f" | {100 * (vals[-1] - vals[0]):+.2f} |")
    if args.plot:
        plot_runs(logs, args.plot, args.title)
        print(f"wrote {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
