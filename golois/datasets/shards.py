"""Shards on disk: the build (multiprocess, resumable, idempotent) and the memory-mapped reader.

Start with `build` (archives -> chunks of `BuildConfig.games_per_shard` games -> one shard each,
in worker processes), then `write_shard` (the format) and `Shard` (reading it back).

A shard is a folder `OUT/shards/<archive>-<chunk>/`:

    meta.json     format version, feature set dict, filter config, source, counts (written last)
    planes.npy    uint8 [N, P, ceil(size*size/8)]  the P packed planes of the feature set (stone
                  and tactical features, in feature-set order), np.packbits over the flat board
    index.npy     int32 [N, 3]  (game within the shard, move index from 0, target flat point)
    moves.npy     int16 [M]     every move of every kept game, -1 = pass (for last-move planes)
    colours.npy   int8  [M]     their colours
    games.npy     int64 [G + 1] offsets of each game's moves in moves.npy
    years.npy     int16 [G]     year of each game (split: test years vs the rest)
    winners.npy   int8  [G]     each game's winner: +1 black, -1 white, 0 none (golois.datasets.results)
    kinds.npy     int8  [G]     the kind of its result (index into results.KINDS: resign, score, time...)
    komi.npy      float32 [G]   its komi
    games.txt     G member names, one a line

It is written into a temporary folder and renamed into place, so a shard folder exists only when
complete: an interrupted build resumes by skipping finished shards, and rebuilding with the same
configuration does nothing.  A shard of another configuration is refused (`--force` rebuilds).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from golois import paths
from golois.datasets.features import (DEFAULT_FEATURE_SET, LIFE_LIMITS, FeatureSet, check_same,
                                      get_feature_set, life_rows, stone_rows)
from golois.datasets import tygem
from golois.datasets.sources import (FilterConfig, GameStats, find_sources, game_positions,
                                     list_members, read_members)

FORMAT_VERSION = 2


@dataclass
class BuildConfig:
    """What to build and how."""
    sources: tuple[str, ...] = (paths.KGS,)  # each a folder of archives, an archive, a folder of SGF or of Tygem months
    out: str = "data/shards"
    feature_set: str = DEFAULT_FEATURE_SET
    filters: FilterConfig = field(default_factory=FilterConfig)
    games_per_shard: int = 1000
    workers: int = max(1, (os.cpu_count() or 1))
    force: bool = False                    # rebuild shards of another configuration
    progress: bool = True


def source_name(source: str) -> str:
    """An archive's name without its suffix: `KGS-2015-19-8133-`, `2008-12` (a Tygem month)."""
    base = os.path.basename(os.path.normpath(source))
    for suffix in (".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar", ".zip"):
        if base.endswith(suffix):
            base = base[: -len(suffix)]
    return base


def _shard_name(source: str, chunk: int) -> str:
    prefix = "tygem-" if tygem.is_tygem(source) else ""
    return f"{prefix}{source_name(source).strip('-')}-{chunk:03d}"


def _config_key(fset: FeatureSet, filters: FilterConfig) -> dict:
    return {"format": FORMAT_VERSION, "feature_set": fset.as_dict(), "filters": filters.to_dict()}


def encode_game(g, fset: FeatureSet, size: int) -> np.ndarray:
    """Packed planes uint8 [len(g.kept), P, ceil(size*size/8)] of a game's kept positions."""
    rows = stone_rows(fset)
    tactical = life = None
    if fset.planes_of("tactical") or fset.planes_of("life"):
        from tactics import features as _cf
        facts = (np.zeros((len(g.kept), 4, size * size), dtype=np.uint8)
                 if fset.planes_of("tactical") else None)
        block = (np.zeros((len(g.kept), _cf.N_LIFE_PLANES, size * size), dtype=np.uint8)
                 if fset.planes_of("life") else None)
        _cf.game_tactical_planes(size, g.points.astype(np.int32), g.colours, g.kept, facts, block,
                                 LIFE_LIMITS["max_libs"], LIFE_LIMITS["max_nodes"])
        if facts is not None:
            tactical = facts[:, [_cf.LADDER_PLANES.index(k) for f in fset.packed_features
                                 if f.kind == "tactical" for k in f.ladder_keys]]
        if block is not None:
            life = block[:, life_rows(fset)]
    parts, r, t, v = [], 0, 0, 0
    for f in fset.packed_features:
        if f.kind == "stone":
            parts.append(g.stones[:, rows[r:r + f.planes]])
            r += f.planes
        elif f.kind == "life":
            parts.append(life[:, v:v + f.planes])
            v += f.planes
        else:
            parts.append(tactical[:, t:t + f.planes])
            t += f.planes
    planes = np.concatenate(parts, axis=1) if len(parts) > 1 else parts[0]
    return np.packbits(planes, axis=-1)


def write_shard(folder: str, games: list, packed: list, meta: dict) -> None:
    """Write a shard atomically: into a temporary sibling folder, then rename."""
    parent = os.path.dirname(os.path.abspath(folder))
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".tmp-" + os.path.basename(folder) + "-", dir=parent)
    try:
        offsets = np.zeros(len(games) + 1, dtype=np.int64)
        index = []
        for gi, g in enumerate(games):
            offsets[gi + 1] = offsets[gi] + len(g.points)
            targets = g.points[g.kept].astype(np.int32)
            index.append(np.stack([np.full(len(g.kept), gi, np.int32), g.kept, targets], axis=1))
        nbytes = (meta["size"] ** 2 + 7) // 8
        P = meta["packed_planes"]
        np.save(os.path.join(tmp, "planes.npy"), np.concatenate(packed) if packed else
                np.zeros((0, P, nbytes), np.uint8))
        np.save(os.path.join(tmp, "index.npy"), np.concatenate(index) if index else np.zeros((0, 3), np.int32))
        np.save(os.path.join(tmp, "moves.npy"), np.concatenate([g.points for g in games]) if games
                else np.zeros(0, np.int16))
        np.save(os.path.join(tmp, "colours.npy"), np.concatenate([g.colours for g in games]) if games
                else np.zeros(0, np.int8))
        np.save(os.path.join(tmp, "games.npy"), offsets)
        np.save(os.path.join(tmp, "years.npy"), np.array([g.year or 0 for g in games], np.int16))
        np.save(os.path.join(tmp, "winners.npy"), np.array([g.winner for g in games], np.int8))
        np.save(os.path.join(tmp, "kinds.npy"), np.array([g.result_kind for g in games], np.int8))
        np.save(os.path.join(tmp, "komi.npy"), np.array([g.komi for g in games], np.float32))
        with open(os.path.join(tmp, "games.txt"), "w") as f:
            f.write("".join(g.name + "\n" for g in games))
        with open(os.path.join(tmp, "meta.json"), "w") as f:
            json.dump(meta, f, indent=1)
        if os.path.exists(folder):
            shutil.rmtree(folder)
        os.rename(tmp, folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _build_unit(args) -> dict:
    """Worker: one chunk of one archive to one shard.  Returns its meta dict."""
    source, chunk, names, folder, fset_name, filters = args
    fset = get_feature_set(fset_name)
    stats, games, packed = GameStats(), [], []
    t0 = time.perf_counter()
    for name, data in read_members(source, set(names), stats):
        g = game_positions(data, name, filters, stats)
        if g is None:
            continue
        games.append(g)
        packed.append(encode_game(g, fset, filters.size))
    meta = {**_config_key(fset, filters), "size": filters.size, "packed_planes": fset.packed_planes,
            "source": source_name(source), "shard": os.path.basename(folder), "chunk": chunk,
            "members": len(names), "stats": stats.to_dict(), "seconds": round(time.perf_counter() - t0, 3)}
    write_shard(folder, games, packed, meta)
    return meta


def plan(cfg: BuildConfig) -> list[tuple]:
    """The build's units: (source, chunk, member names, shard folder, feature set, filters)."""
    units = []
    roots = [cfg.sources] if isinstance(cfg.sources, str) else list(cfg.sources)
    for source in [s for root in roots for s in find_sources(root)]:
        names = list_members(source)
        for chunk in range(0, max(1, (len(names) + cfg.games_per_shard - 1) // cfg.games_per_shard)):
            part = names[chunk * cfg.games_per_shard:(chunk + 1) * cfg.games_per_shard]
            units.append((source, chunk, part, os.path.join(cfg.out, "shards", _shard_name(source, chunk)),
                          cfg.feature_set, cfg.filters))
    return units


def read_meta(folder: str) -> dict | None:
    try:
        with open(os.path.join(folder, "meta.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def build(cfg: BuildConfig) -> dict:
    """Build (or resume) every shard of cfg; returns the summary written to OUT/build.json."""
    fset = get_feature_set(cfg.feature_set)
    if fset.needs_ladder:
        from golois.datasets.features import ladder_module
        ladder_module()                               # fail before starting workers
    key = _config_key(fset, cfg.filters)
    os.makedirs(os.path.join(cfg.out, "shards"), exist_ok=True)
    for leftover in os.listdir(os.path.join(cfg.out, "shards")):
        if leftover.startswith(".tmp-"):
            shutil.rmtree(os.path.join(cfg.out, "shards", leftover), ignore_errors=True)
    t0 = time.perf_counter()
    units, todo, metas = plan(cfg), [], []
    for u in units:
        meta = read_meta(u[3])
        if meta is not None and all(meta.get(k) == v for k, v in key.items()) and meta.get("members") == len(u[2]):
            metas.append(meta)                        # complete and identical: skip
        elif meta is not None and not cfg.force:
            check_same(meta.get("feature_set"), fset, u[3])
            raise ValueError(f"{u[3]} was built with another configuration ({meta.get('filters')}); "
                             "use another --out or --force to rebuild it")
        else:
            todo.append(u)
    bar = None
    if cfg.progress:
        from tqdm import tqdm
        bar = tqdm(total=sum(len(u[2]) for u in todo), unit="game", desc="shards", smoothing=0.05)
    if todo:
        if cfg.workers > 1 and len(todo) > 1:
            import multiprocessing as mp
            with mp.get_context("fork").Pool(min(cfg.workers, len(todo))) as pool:
                for meta in pool.imap_unordered(_build_unit, todo):
                    metas.append(meta)
                    if bar:
                        bar.update(meta["members"])
        else:
            for u in todo:
                metas.append(_build_unit(u))
                if bar:
                    bar.update(metas[-1]["members"])
    if bar:
        bar.close()
    summary = summarize(cfg.out, metas)
    summary.update({"built_shards": len(todo), "skipped_shards": len(units) - len(todo),
                    "seconds": round(time.perf_counter() - t0, 1), "workers": cfg.workers})
    with open(os.path.join(cfg.out, "build.json"), "w") as f:
        json.dump(summary, f, indent=1)
    return summary


def summarize(out: str, metas: list[dict]) -> dict:
    """Totals over shards: games, drops by reason, positions per split."""
    total = GameStats()
    for m in metas:
        total.add(GameStats.from_dict(m["stats"]))
    split = {"train": 0, "test": 0, "heldout": 0}
    for m in metas:
        s = Shard(os.path.join(out, "shards", m["shard"]))
        t, h = s.test_mask(), s.heldout_mask()
        split["test"] += int(t.sum())
        split["heldout"] += int(h.sum())
        split["train"] += int(len(t) - t.sum() - h.sum())
    return {"feature_set": metas[0]["feature_set"] if metas else None, **total.to_dict(),
            "positions_by_split": split, "shards": len(metas)}


class Shard:
    """One shard, memory-mapped."""

    def __init__(self, folder: str):
        self.folder = folder
        self.meta = read_meta(folder)
        if self.meta is None:
            raise FileNotFoundError(f"{folder} is not a complete shard (no meta.json)")
        if self.meta.get("format") != FORMAT_VERSION:
            raise ValueError(f"{folder}: shard format {self.meta.get('format')}, expected {FORMAT_VERSION}")

    def _load(self, name):
        return np.load(os.path.join(self.folder, name), mmap_mode="r")

    @cached_property
    def planes(self):
        return self._load("planes.npy")

    @cached_property
    def index(self):
        return np.asarray(self._load("index.npy"))

    @cached_property
    def moves(self):
        return np.asarray(self._load("moves.npy"))

    @cached_property
    def colours(self):
        return np.asarray(self._load("colours.npy"))

    @cached_property
    def games(self):
        return np.asarray(self._load("games.npy"))

    @cached_property
    def years(self):
        return np.asarray(self._load("years.npy"))

    @cached_property
    def winners(self):
        return np.asarray(self._load("winners.npy"))

    @cached_property
    def kinds(self):
        return np.asarray(self._load("kinds.npy"))

    @cached_property
    def komi(self):
        return np.asarray(self._load("komi.npy"))

    @cached_property
    def names(self) -> list[str]:
        with open(os.path.join(self.folder, "games.txt")) as f:
            return f.read().splitlines()

    def __len__(self):
        return len(self.index)

    def test_mask(self) -> np.ndarray:
        """Per position: its game's year is a test year."""
        years = tuple(self.meta["filters"]["test_years"])
        return np.isin(self.years, years)[self.index[:, 0]] if len(self.index) else np.zeros(0, bool)

    def heldout_mask(self) -> np.ndarray:
        """Per position: its archive is held out of training (FilterConfig.heldout_sources) and
        its year is not a test year."""
        held = self.meta["source"] in self.meta["filters"].get("heldout_sources", ())
        return np.full(len(self.index), held, bool) & ~self.test_mask()
