"""Input-plane speed: positions per second per core from SGF to planes, and loader throughput.

    PYTHONPATH=. python bench/features_speed.py [--archive ../shared/data/kgs/KGS-2001-19-2298-.tar.gz]
                                                [--games 300] [--shards data/shards]

Rows (one process, so figures are per core):
- "SGF -> planes (paper11)": parse, filter, replay and encode every kept position of the first
  --games games of the archive (the builder's path: C stone planes for the whole game, packing);
- "... (golois)": the same with the tactical ladder planes (needs tactics.ladder);
- "... (golois_ld)": the same with the life planes too (capture search, Benson);
- "life planes: ...": what each kind of life plane costs a position (the capture search at the
  set's LIFE_LIMITS, and Benson alone), on the positions of the play-time row;
- "encode(board) (play time)": one position at a time through `encode`;
- "loader": batches/s of `make_loader` over built shards (if --shards exists), 256 per batch.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from golois.datasets.features import FEATURE_SETS, encode
from golois.datasets.shards import encode_game
from golois.datasets.sources import FilterConfig, GameStats, game_positions, read_members

from golois import paths

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sgf_to_planes(records, fset) -> tuple[int, float]:
    t0 = time.perf_counter()
    n = 0
    for name, data in records:
        g = game_positions(data, name, FilterConfig(), GameStats())
        if g is not None:
            n += len(encode_game(g, fset, 19))
    return n, time.perf_counter() - t0


def _boards(records, limit):
    from golois.sgf import parse_game
    boards = []
    for name, data in records:
        g = game_positions(data, name, FilterConfig(), GameStats())
        if g is None:
            continue
        game = parse_game(data, name)
        boards += [game.board_at(int(k)) for k in g.kept[::20]]
        if len(boards) >= limit:
            break
    return boards


def play_time_encode(records, fset, limit=2000) -> tuple[int, float]:
    boards = _boards(records, limit)
    t0 = time.perf_counter()
    for b in boards:
        encode(b, fset)
    return len(boards), time.perf_counter() - t0


def life_costs(records, limit=2000) -> list[tuple]:
    """Rows: microseconds a position for the capture planes and for Benson's (life_planes with
    max_libs 0 reads no string: Benson and the scan alone)."""
    import numpy as np
    from tactics import features as cf
    from golois.datasets.features import LIFE_LIMITS
    boards = _boards(records, limit)
    out = np.empty((cf.N_LIFE_PLANES, 19, 19), np.uint8)
    times = {}
    for label, libs in (("benson", 0), ("all", LIFE_LIMITS["max_libs"])):
        t0 = time.perf_counter()
        for b in boards:
            cf.life_planes(b, out, libs, LIFE_LIMITS["max_nodes"])
        times[label] = (time.perf_counter() - t0) / len(boards) * 1e6
    lim = f"max_libs {LIFE_LIMITS['max_libs']}, max_nodes {LIFE_LIMITS['max_nodes']}"
    return [("life planes: capture search (4 planes)", f"{times['all'] - times['benson']:,.0f} us/position", lim),
            ("life planes: Benson (2 planes)", f"{times['benson']:,.0f} us/position", f"{len(boards)} positions")]


def loader_speed(path, batches=200, workers=0, batch_size=256) -> tuple[int, float]:
    from golois.datasets.loader import make_loader, open_dataset
    ds = open_dataset(path, split="train")
    it = iter(make_loader(ds, batch_size=batch_size, workers=workers))
    next(it)
    t0 = time.perf_counter()
    n = 0
    for _ in range(batches):
        next(it)
        n += 1
    return n, time.perf_counter() - t0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--archive", default=os.path.join(paths.KGS, "KGS-2001-19-2298-.tar.gz"))
    p.add_argument("--games", type=int, default=1000, help="games read from the archive")
    p.add_argument("--shards", default=os.path.join(REPO, "data", "shards"))
    p.add_argument("--workers", type=int, default=0, help="loader worker processes (0: in process)")
    args = p.parse_args()
    records = []
    for name, data in read_members(args.archive):
        records.append((name, data))
        if len(records) >= args.games:
            break
    if not records:
        sys.exit(f"no games in {args.archive}")
    rows, base = [], None
    for fs in ("paper11", "golois", "golois_ld"):
        fset = FEATURE_SETS[fs]
        try:
            n, t = sgf_to_planes(records, fset)
            base = base or n / t
            rows.append((f"SGF -> planes ({fs}, {fset.planes} planes)", f"{n / t:,.0f} positions/s",
                         f"{n} positions in {t:.2f} s; {n / t / base:.2f} x paper11"))
        except ImportError as e:
            rows.append((f"SGF -> planes ({fs}, {fset.planes} planes)", "n/a", str(e).split(";")[0]))
        try:
            n, t = play_time_encode(records, fset)
            rows.append((f"encode(board) ({fs}, play time)", f"{n / t:,.0f} positions/s", f"{n} positions in {t:.2f} s"))
        except ImportError:
            pass
    rows += life_costs(records)
    if os.path.isdir(args.shards):
        n, t = loader_speed(args.shards, workers=args.workers)
        rows.append((f"loader, 256/batch, {args.workers} workers", f"{n / t:,.1f} batches/s",
                     f"{n * 256 / t:,.0f} positions/s"))
    else:
        rows.append(("loader", "n/a", f"no shards at {args.shards}"))
    w = max(len(r[0]) for r in rows)
    print(f"{'what':<{w}}  {'speed':>20}  detail")
    for r in rows:
        print(f"{r[0]:<{w}}  {r[1]:>20}  {r[2]}")


if __name__ == "__main__":
    main()
