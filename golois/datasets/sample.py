"""The canonical test sample: 100,000 positions of the 2015 KGS games, fixed once for the project.

Start with `load_manifest` (read and verify), then `iter_sample` (positions as boards; with their
games, for the results, `iter_sample_games`) and `iter_sample_planes` (as planes); `make_manifest` is how the file was made (`golois dataset
sample`).

The manifest `golois/datasets/test_sample.json.gz` lists, per game file (archive member name),
the move numbers N (1-based: the position before the N-th move, whose move is the target) and the
targets (flat r*19+c).  Positions were drawn uniformly without replacement (seed 2015) among all
positions the default `FilterConfig` keeps in KGS-2015-19-8133-.tar.gz, not mirrored.  Its
`checksum` is the sha256 of the lines "member<TAB>N<TAB>target\\n" in manifest order: loading
checks it, and datasets check their targets against it.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from typing import Iterator

import numpy as np

from golois import paths
from golois.datasets.sources import FilterConfig, GameStats, find_sources, game_positions, read_members

MANIFEST = os.path.join(os.path.dirname(__file__), "test_sample.json.gz")
SAMPLE_SIZE = 100_000
SEED = 2015


def _checksum(entries) -> str:
    h = hashlib.sha256()
    for name, number, target in entries:
        h.update(f"{name}\t{number}\t{target}\n".encode())
    return h.hexdigest()


def _entries(manifest: dict):
    for name, numbers, targets in manifest["games"]:
        for n, t in zip(numbers, targets):
            yield name, n, t


def make_manifest(source: str, n: int = SAMPLE_SIZE, seed: int = SEED,
                  filters: FilterConfig = FilterConfig(), year: int = 2015) -> dict:
    """Draw the sample from the kept positions of the `year` games in `source`."""
    stats, positions = GameStats(), []
    for path in find_sources(source):
        for name, data in read_members(path, None, stats):
            g = game_positions(data, name, filters, stats)
            if g is not None and g.year == year:
                positions += [(name, int(k) + 1, int(g.points[k])) for k in g.kept]
    positions.sort()
    if len(positions) < n:
        raise ValueError(f"only {len(positions)} positions in the {year} games, fewer than {n}")
    chosen = np.sort(np.random.default_rng(seed).choice(len(positions), n, replace=False))
    games: dict[str, tuple[list, list]] = {}
    for i in chosen:
        name, number, target = positions[i]
        games.setdefault(name, ([], []))[0].append(number)
        games[name][1].append(target)
    manifest = {"version": 1, "year": year, "seed": seed, "positions": n, "population": len(positions),
                "source": ", ".join(os.path.basename(p) for p in find_sources(source)),
                "filters": filters.to_dict(), "stats": stats.to_dict(),
                "games": [[name, nums, tgts] for name, (nums, tgts) in sorted(games.items())]}
    manifest["checksum"] = _checksum(_entries(manifest))
    return manifest


def save_manifest(manifest: dict, path: str = MANIFEST) -> None:
    with gzip.open(path, "wt", compresslevel=9) as f:
        json.dump(manifest, f, separators=(",", ":"))


def load_manifest(path: str | None = None) -> dict:
    """The manifest, its checksum verified (ValueError when it was altered)."""
    with gzip.open(path or MANIFEST, "rt") as f:
        manifest = json.load(f)
    entries = list(_entries(manifest))
    if len(entries) != manifest["positions"] or _checksum(entries) != manifest["checksum"]:
        raise ValueError(f"{path or MANIFEST}: checksum mismatch: the test sample was altered")
    return manifest


def select_in_shards(shards, path: str | None = None) -> np.ndarray:
    """(shard, row) of every sample position in the shards; raises when any is missing or a
    target disagrees (the shards were built from other archives or filters)."""
    manifest = load_manifest(path)
    wanted = {(name, n): t for name, n, t in _entries(manifest)}
    refs, found = [], 0
    for si, s in enumerate(shards):
        if not (s.years == manifest["year"]).any():
            continue
        names = s.names
        idx = s.index
        for row in range(len(idx)):
            key = (names[idx[row, 0]], int(idx[row, 1]) + 1)
            t = wanted.get(key)
            if t is not None:
                if t != int(idx[row, 2]):
                    raise ValueError(f"{s.folder}: {key} has target {idx[row, 2]}, the test sample says {t}")
                refs.append((si, row))
                found += 1
    if found != len(wanted):
        raise ValueError(f"the shards hold {found} of the {len(wanted)} positions of the canonical test "
                         "sample: build them from the KGS-2015 archive with the default filters")
    return np.array(refs, np.int64).reshape(-1, 2)


def iter_sample(source: str = paths.KGS, path: str | None = None) -> Iterator[tuple]:
    """Yield (board before the move, target flat, move number N) for every sample position, in
    archive order; the board is reused between steps (copy it to keep it)."""
    for _, board, target, number in iter_sample_games(source, path):
        yield board, target, number


def iter_sample_games(source: str = paths.KGS, path: str | None = None) -> Iterator[tuple]:
    """As `iter_sample`, with the game first: (golois.sgf.Game, board, target, N); the game
    gives the result and komi that value figures read."""
    from golois.sgf import parse_game
    manifest = load_manifest(path)
    todo = {name: (nums, tgts) for name, nums, tgts in manifest["games"]}
    for archive in find_sources(source):
        for name, data in read_members(archive, set(todo)):
            nums, tgts = todo.pop(name)
            pending = dict(zip(nums, tgts))
            game = parse_game(data, name)
            for board, number, event in game.replay():
                if number in pending:
                    if pending[number] != event.point:
                        raise ValueError(f"{name} move {number}: target {event.point}, sample says {pending[number]}")
                    yield game, board, pending.pop(number), number
                    if not pending:
                        break
    if todo:
        raise ValueError(f"{len(todo)} games of the test sample are not in {source}")


def iter_sample_planes(feature_set="golois", source: str = paths.KGS, batch: int = 1024,
                       path: str | None = None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The sample as batches (planes float32 [B, C, 19, 19], targets int64 [B]) through `encode`."""
    from golois.datasets.features import encode
    planes, targets = [], []
    for board, target, _ in iter_sample(source, path):
        planes.append(encode(board, feature_set))
        targets.append(target)
        if len(planes) == batch:
            yield np.stack(planes), np.array(targets, np.int64)
            planes, targets = [], []
    if planes:
        yield np.stack(planes), np.array(targets, np.int64)
