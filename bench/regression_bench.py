"""GNU Go's GTP regression files against our engine and GNU Go 3.8, side by side.

Runs each .tst file (numbered GTP commands with `#? [regex]` expectations: owl_attack,
owl_defend, unconditional_status, attack, ...) through `../shared/tools/gtp_regress.py`'s `run`
against `python play.py --solver-time S` (or `--solver-nodes N`: a node limit, the same answers
on any machine and under any load; the checks after a first answer, which share the time left,
then take the positions left, so the answers are not those of a time limit) and against
`gnugo --mode gtp`, and prints a small
table: passes and seconds per file and engine, the seconds per owl answer (median and 90th
percentile, each engine run through bench/gtp_timer.py), and our failures.  The figures:

    PYTHONPATH=. python bench/regression_bench.py [vie.tst unconditional.tst] [--solver-time 10 |
        --solver-nodes 20000000]
        [--data ../shared/data/gnugo-regression] [--tools ../shared/tools] [--no-gnugo]

Start reading at `main`.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile

from golois.gtp.client import find_gnugo

from golois import paths

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gtp_timer import percentile, times        # noqa: E402  (bench/ is not a package)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_TIME = 10.0     # seconds per owl search
NODES_TIME = 600.0      # ... a cap no search reaches when a node limit is given


def load_runner(tools: str):
    """The `run(tst, engine_argv) -> (passed, total, failures, seconds)` of gtp_regress.py."""
    path = os.path.join(tools, "gtp_regress.py")
    spec = importlib.util.spec_from_file_location("gtp_regress", path)
    if spec is None or not os.path.exists(path):
        raise SystemExit(f"regression_bench: no {path} (give --tools)")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.run


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", default=["vie.tst", "unconditional.tst"])
    ap.add_argument("--data", default=paths.REGRESSION)
    ap.add_argument("--tools", default=os.path.join(ROOT, "..", "shared", "tools"))
    ap.add_argument("--solver-time", type=float, default=None,
                    help=f"seconds per owl search ({DEFAULT_TIME:g}; {NODES_TIME:g} with --solver-nodes)")
    ap.add_argument("--solver-nodes", type=int, default=None,
                    help="positions per owl search: deterministic answers (the time limit then only a cap)")
    ap.add_argument("--no-gnugo", action="store_true", help="our engine only")
    args = ap.parse_args(argv)
    run = load_runner(args.tools)
    seconds = args.solver_time or (NODES_TIME if args.solver_nodes else DEFAULT_TIME)
    ours = [sys.executable, os.path.join(ROOT, "play.py"), "--solver-time", str(seconds)]
    if args.solver_nodes:
        ours += ["--solver-nodes", str(args.solver_nodes)]
    engines = {"golois": ours}
    gnugo = None if args.no_gnugo else find_gnugo()
    if gnugo is not None:
        engines["GNU Go"] = [gnugo, "--mode", "gtp"]
    rows, failures = [], {}
    timer = os.path.join(ROOT, "bench", "gtp_timer.py")
    logs = tempfile.TemporaryDirectory(prefix="regression_bench.")
    for name in args.files:
        tst = os.path.join(args.data, name)
        if not os.path.exists(tst):
            raise SystemExit(f"regression_bench: no {tst} (give --data)")
        row = [name]
        for engine, cmd in engines.items():
            log = os.path.join(logs.name, f"{name}.{engine.replace(' ', '_')}.log")
            passed, total, fails, seconds = run(tst, [sys.executable, timer, log, "--"] + cmd)
            owl = times(log)
            row.append(f"{passed}/{total} ({seconds:.1f} s)")
            row.append(f"{percentile(owl, 0.5):.2f} / {percentile(owl, 0.9):.2f}" if owl else "-")
            if engine == "golois":
                failures[name] = fails
        rows.append(row)
    logs.cleanup()
    heads = [h for e in engines for h in (e, f"{e} s per owl answer (median / 90%)")]
    print("| file | " + " | ".join(heads) + " |")
    print("|---" * (len(heads) + 1) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    for name, fails in failures.items():
        for f in fails:
            print(f"  {name} {f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
