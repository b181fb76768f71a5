"""Move-prediction accuracy of the shipped network, side by side with other model files, on the
canonical 2015 test sample (100,000 positions), with 1 and 8 symmetries.

    python bench/accuracy.py [--baseline OLD.pt ...] [--precisions fp32 bf16 int8] [--symmetries 1 8]
                             [--max-positions N] [--kgs DIR]

Each cell is one `golois accuracy --json` run (a subprocess, so every model is measured the same
way); the last column is the difference from the first model.  Prints a Markdown table.
Start with `main`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from golois.eval.accuracy_cli import DEFAULT_KGS, default_model_path
from golois.nn.registry import PRECISIONS


def measure(model: str, symmetries: int, max_positions: int | None, kgs: str, precision: str = "fp32") -> dict:
    """One `golois accuracy` report for model at the given symmetries and precision."""
    cmd = [sys.executable, "-m", "golois.cli", "accuracy", "--model", model, "--symmetries", str(symmetries),
           "--kgs", kgs, "--json", "--precision", precision]
    if max_positions:
        cmd += ["--max-positions", str(max_positions)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return json.loads(out.splitlines()[0])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", default=default_model_path(), help="the model measured first (default: shipped)")
    p.add_argument("--baseline", nargs="*", default=[], help="other model files, e.g. a previous version")
    p.add_argument("--symmetries", type=int, nargs="+", default=[1, 8], choices=(1, 4, 8))
    p.add_argument("--max-positions", type=int, default=None, help="the first N positions only")
    p.add_argument("--precisions", nargs="+", default=["fp32"], choices=PRECISIONS,
                   help="each model at each precision (golois.nn.precision), the first the base")
    p.add_argument("--kgs", default=DEFAULT_KGS, help="KGS archives, for the canonical sample")
    args = p.parse_args(argv)
    cells = [(m, q) for m in [args.model, *args.baseline] for q in args.precisions]
    print("| model | precision | symmetries | positions | top-1 | top-5 | positions/s | top-1 vs first |")
    print("|---|---|---|---|---|---|---|---|")
    for k in args.symmetries:
        first = None
        for m, q in cells:
            r = measure(m, k, args.max_positions, args.kgs, q)
            first = r["top1"] if first is None else first
            print(f"| {m} | {r.get('precision', q)} | {k} | {r['positions']} | {100 * r['top1']:.2f}% | "
                  f"{100 * r['top5']:.2f}% | {r['positions_per_s']:.0f} | {100 * (r['top1'] - first):+.2f} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
