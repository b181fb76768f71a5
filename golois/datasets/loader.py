"""Reading shards for training: a map-style PyTorch Dataset and a DataLoader helper.

Start with `open_dataset(path, split, symmetries)`, then `ShardDataset.batch` (indices -> planes
and moves: unpack bits, rebuild the last-move planes from the moves, apply symmetries).

Items are ``(planes float32 tensor [C, 19, 19], move int64 tensor)`` (float32 because the paper's
last-move planes carry exp(-0.1 k); every other plane is 0.0/1.0).  With a `ValueConfig`
(golois.datasets.results) items gain ``(value target, value weight)``: +1/-1 for the player to move
winning/losing, and 1.0 where the game's result counts (0.0 elsewhere), or only on about
`value_per_game` positions of each game (a deterministic draw): the positions of one game share one
outcome, so fewer of them per game is the anchors' guard against memorising games;
`value_from_move` leaves the opening's positions out of the value.  With `value_inputs` the planes
gain the value head's two constant input planes (the colour to move and the komi:
golois.datasets.features.value_input_planes); with `ownership`, items end with the final owner of each point
for the player to move (float32 [n*n] in [-1, 1], under the item's symmetry) and its weight (1.0
for a position whose value counts in a game with a judged ownership: golois.datasets.ownership).
Splits:

- ``train``: positions of games outside the test years and the held-out archives;
- ``heldout``: positions of the held-out archives (`FilterConfig.heldout_sources`: a Tygem month);
- ``test``: the canonical test sample (golois/datasets/test_sample.json.gz), checked against its
  checksum, so every accuracy figure is measured on the same 100,000 positions;
- ``test-all``: every position of the test years; ``all``: everything.

With ``symmetries=True`` each item gets one of the 8 symmetries, drawn as a function of
(seed, epoch, index) (`set_epoch` changes it), so a resumed run sees the same draws.
"""

from __future__ import annotations

import os

import numpy as np
import torch

from golois.datasets.features import HISTORY, FEATURES, check_same, get_feature_set, value_input_planes
from golois.datasets.results import ValueConfig, value_targets
from golois.datasets.ownership import OWNED_FILE, OWNERSHIP_FILE
from golois.datasets.shards import Shard
from golois.symmetry import apply as apply_symmetry, map_moves
from tactics import features as _cf
from tactics.board import BLACK

SPLITS = ("train", "test", "test-all", "heldout", "all")


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64 finaliser, vectorised: a cheap hash of uint64 keys."""
    x = x.astype(np.uint64)
    with np.errstate(over="ignore"):
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))


def shard_folders(path: str) -> list[str]:
    """The complete shards under path (path/shards/*, or path itself when it is a shard)."""
    if os.path.exists(os.path.join(path, "meta.json")):
        return [path]
    root = os.path.join(path, "shards") if os.path.isdir(os.path.join(path, "shards")) else path
    if not os.path.isdir(root):
        raise FileNotFoundError(f"no shards at {path}; build them with `golois dataset build`")
    return sorted(os.path.join(root, d) for d in os.listdir(root)
                  if not d.startswith(".") and os.path.exists(os.path.join(root, d, "meta.json")))


class ShardDataset(torch.utils.data.Dataset):
    """Positions of a set of shards, one split, decoded on access."""

    def __init__(self, path: str, split: str = "train", symmetries: bool = True,
                 feature_set=None, seed: int = 0, sample: str | None = None,
                 value: ValueConfig | None = None, value_per_game: int = 0, value_from_move: int = 0,
                 value_inputs: bool = False, ownership: bool = False):
        if split not in SPLITS:
            raise ValueError(f"split must be one of {SPLITS}, not {split!r}")
        self.path, self.split, self.symmetries, self.seed, self.epoch = path, split, symmetries, seed, 0
        self.value, self.value_per_game, self.value_from_move = value, value_per_game, value_from_move
        self.value_inputs, self.ownership = value is not None and value_inputs, value is not None and ownership
        self._owners: dict[int, tuple[np.ndarray, np.ndarray]] = {}   # shard -> (ownership, owned)
        self._game_facts: dict[int, tuple[np.ndarray, np.ndarray]] = {}   # shard -> (counted, positions) per game
        self.shards = [Shard(f) for f in shard_folders(path)]
        if not self.shards:
            raise FileNotFoundError(f"no complete shard under {path}")
        found = self.shards[0].meta["feature_set"]
        expected = found if feature_set is None else feature_set
        for s in self.shards:
            check_same(s.meta["feature_set"], expected, s.folder)
        self.fset = get_feature_set(expected)
        self.feature_set = self.fset.as_dict()
        self.size = self.shards[0].meta["size"]
        rows = []
        if split == "test":
            from golois.datasets.sample import select_in_shards
            rows = select_in_shards(self.shards, sample)
        else:
            for i, s in enumerate(self.shards):
                if split == "all":
                    r = np.arange(len(s))
                elif split == "train":
                    r = np.flatnonzero(~s.test_mask() & ~s.heldout_mask())
                else:
                    r = np.flatnonzero(s.test_mask() if split == "test-all" else s.heldout_mask())
                rows.append(np.stack([np.full(len(r), i, np.int64), r], axis=1))
            rows = np.concatenate(rows) if rows else np.zeros((0, 2), np.int64)
        self.refs = rows                                  # (shard, row) per item

    def __len__(self) -> int:
        return len(self.refs)

    def set_epoch(self, epoch: int) -> None:
        """Change the symmetry draws (the trainer calls it each epoch)."""
        self.epoch = int(epoch)

    def describe(self) -> str:
        return (f"{len(self)} {self.split} positions from {len(self.shards)} shards at {self.path} "
                f"({self.fset.name} v{self.fset.version}, {self.fset.planes} planes"
                f"{', 8 symmetries' if self.symmetries else ''})")

    def symmetry_of(self, indices: np.ndarray) -> np.ndarray:
        """The symmetry (0..7) item i gets this epoch; 0 when symmetries are off."""
        if not self.symmetries:
            return np.zeros(len(indices), np.int64)
        key = (np.asarray(indices, np.uint64) * np.uint64(0x9E3779B1) + np.uint64(self.seed * 1000003 + self.epoch))
        return (_mix(key) % np.uint64(8)).astype(np.int64)

    def values(self, indices) -> tuple[np.ndarray, np.ndarray]:
        """float32 value targets [B] (+1: the player to move won) and weights [B] (1.0 where the
        result counts under self.value and the position is drawn for the value) at `indices`."""
        refs = self.refs[np.asarray(indices, np.int64)]
        target, weight = np.zeros(len(refs), np.float32), np.zeros(len(refs), np.float32)
        for si in np.unique(refs[:, 0]):
            sel = np.flatnonzero(refs[:, 0] == si)
            s, rows = self.shards[si], refs[sel, 1]
            games = s.index[rows, 0]
            counted, positions = self._facts(si)
            movers = s.colours[s.games[games] + s.index[rows, 1]]
            target[sel], ok = value_targets(s.winners[games], counted[games], movers, BLACK)
            if self.value_per_game > 0:
                per_game = positions[games]
                key = _mix(np.uint64(si) * np.uint64(1 << 32) + rows.astype(np.uint64) + np.uint64(self.seed))
                ok &= (key % np.uint64(1 << 20)).astype(np.float64) < (1 << 20) * self.value_per_game / per_game
            if self.value_from_move > 0:
                ok &= s.index[rows, 1] >= self.value_from_move
            weight[sel] = ok
        return target, weight

    def move_numbers(self, indices) -> np.ndarray:
        """int64 [B]: how many moves were played before each item's position."""
        refs = self.refs[np.asarray(indices, np.int64)]
        out = np.zeros(len(refs), np.int64)
        for si in np.unique(refs[:, 0]):
            sel = np.flatnonzero(refs[:, 0] == si)
            out[sel] = self.shards[si].index[refs[sel, 1], 1]
        return out

    def owners(self, indices, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """float32 final owners [B, n*n] for the player to move (in the items' symmetries) and
        their weights [B]: `weights` (the value's) where the game has a judged ownership."""
        indices = np.asarray(indices, np.int64)
        refs, nn = self.refs[indices], self.size * self.size
        own, w = np.zeros((len(refs), nn), np.float32), np.zeros(len(refs), np.float32)
        for si in np.unique(refs[:, 0]):
            sel = np.flatnonzero(refs[:, 0] == si)
            s, rows = self.shards[si], refs[sel, 1]
            table, owned = self._owner_table(si)
            games = s.index[rows, 0]
            movers = s.colours[s.games[games] + s.index[rows, 1]]
            sign = np.where(movers == BLACK, 1.0, -1.0).astype(np.float32)
            own[sel] = table[games].astype(np.float32) / 100.0 * sign[:, None]
            w[sel] = owned[games] * weights[sel]
        ks = self.symmetry_of(indices)
        for k in np.unique(ks):
            if k:
                sel = np.flatnonzero(ks == k)
                own[sel] = apply_symmetry(own[sel].reshape(-1, 1, self.size, self.size), int(k)).reshape(-1, nn)
        return own, w

    def _owner_table(self, si: int) -> tuple[np.ndarray, np.ndarray]:
        """(ownership int8 [G, n*n], owned bool [G]) of shard `si`; none owned when the shard has
        no ownership files."""
        if si not in self._owners:
            s = self.shards[si]
            if os.path.exists(os.path.join(s.folder, OWNED_FILE)):
                self._owners[si] = (np.load(os.path.join(s.folder, OWNERSHIP_FILE), mmap_mode="r"),
                                    np.load(os.path.join(s.folder, OWNED_FILE)))
            else:
                g = len(s.winners)
                self._owners[si] = (np.zeros((g, self.size * self.size), np.int8), np.zeros(g, bool))
        return self._owners[si]

    def _facts(self, si: int) -> tuple[np.ndarray, np.ndarray]:
        """Per game of shard `si`: its result counts under self.value, and its kept positions
        (computed once a shard)."""
        if si not in self._game_facts:
            s = self.shards[si]
            self._game_facts[si] = (self.value.counts(s.winners, s.kinds, s.komi),
                                    np.bincount(s.index[:, 0], minlength=len(s.winners)))
        return self._game_facts[si]

    def batch(self, indices) -> tuple[np.ndarray, np.ndarray]:
        """float32 planes [B, C, n, n] and int64 moves [B] of the items at `indices`."""
        indices = np.asarray(indices, np.int64)
        n, C = self.size, self.fset.planes
        out = np.zeros((len(indices), C, n, n), np.float32)
        moves = np.empty(len(indices), np.int64)
        refs = self.refs[indices]
        for si in np.unique(refs[:, 0]):
            sel = np.flatnonzero(refs[:, 0] == si)
            self._decode(self.shards[si], refs[sel, 1], out, moves, sel)
        ks = self.symmetry_of(indices)
        for k in np.unique(ks):
            if k:
                sel = np.flatnonzero(ks == k)
                out[sel] = apply_symmetry(out[sel], int(k))
                moves[sel] = map_moves(moves[sel], int(k), n)
        return out, moves

    def _decode(self, shard: Shard, rows: np.ndarray, out, moves, sel) -> None:
        n, nn = self.size, self.size * self.size
        order = np.argsort(rows)                          # sequential reads of the memory map
        rows, sel = rows[order], sel[order]
        index = shard.index[rows]
        moves[sel] = index[:, 2]
        bits = np.unpackbits(np.asarray(shard.planes[rows]), axis=-1, count=nn)
        bits = bits.reshape(len(rows), -1, n, n)
        p = 0
        for fname, count in self.fset.features:
            f, s = FEATURES[fname], self.fset.slice(fname)
            if f.packed:
                out[sel, s] = bits[:, p:p + count]
                p += count
            else:                                         # history: the last-move planes
                starts = shard.games[index[:, 0]]
                ends = starts + index[:, 1]
                hist = np.empty((2 * len(rows), n, n), np.float32)
                _cf.last_move_planes(shard.moves, shard.colours, starts, ends,
                                     np.ascontiguousarray(shard.colours[ends]), HISTORY, hist)
                out[sel, s] = hist.reshape(len(rows), 2, n, n)

    def _tensors(self, indices) -> tuple:
        planes, moves = self.batch(indices)
        if self.value_inputs:
            planes = np.concatenate([planes, self.input_planes(indices)], axis=1)
        out = (torch.from_numpy(planes), torch.from_numpy(moves))
        if self.value is not None:
            target, weight = self.values(indices)
            out += (torch.from_numpy(target), torch.from_numpy(weight))
            if self.ownership:
                out += tuple(torch.from_numpy(a) for a in self.owners(indices, weight))
        return out

    def input_planes(self, indices) -> np.ndarray:
        """float32 [B, 2, n, n]: the value head's input planes (colour to move, komi) of the items."""
        refs = self.refs[np.asarray(indices, np.int64)]
        black, komi = np.zeros(len(refs), bool), np.zeros(len(refs), np.float32)
        for si in np.unique(refs[:, 0]):
            sel = np.flatnonzero(refs[:, 0] == si)
            s, rows = self.shards[si], refs[sel, 1]
            games = s.index[rows, 0]
            black[sel] = s.colours[s.games[games] + s.index[rows, 1]] == BLACK
            komi[sel] = s.komi[games]
        return value_input_planes(black, komi, (self.size, self.size))

    def __getitem__(self, i):
        if isinstance(i, (list, tuple, np.ndarray, torch.Tensor)):
            return self._tensors(np.asarray(i))
        return tuple(t[0] for t in self._tensors(np.array([i])))

    def __getitems__(self, indices):
        """Batched fetch (torch calls it with a whole batch of indices): decoded in one go."""
        tensors = self._tensors(np.asarray(indices))
        return [tuple(t[j] for t in tensors) for j in range(len(indices))]


def open_dataset(path: str, split: str = "train", symmetries: bool = True, feature_set=None,
                 seed: int = 0, sample: str | None = None, value: ValueConfig | None = None,
                 value_per_game: int = 0, value_from_move: int = 0, value_inputs: bool = False,
                 ownership: bool = False) -> ShardDataset:
    """The positions of `split` in the shards at `path` (see the module docstring).  With
    `feature_set` given, shards of another feature set raise FeatureSetMismatch; with `value`,
    items carry value targets and weights (and the value's input planes, the ownership)."""
    return ShardDataset(path, split, symmetries and split == "train", feature_set, seed, sample,
                        value, value_per_game, value_from_move, value_inputs, ownership)


def make_loader(dataset: ShardDataset, batch_size: int = 256, shuffle: bool = True, workers: int = 2,
                seed: int = 0, drop_last: bool = True) -> torch.utils.data.DataLoader:
    """A DataLoader yielding (planes [B, C, n, n], moves [B]) batches decoded whole in worker
    processes (one `batch` call per batch, no per-item collation)."""
    gen = torch.Generator().manual_seed(seed)
    base = torch.utils.data.RandomSampler(dataset, generator=gen) if shuffle else \
        torch.utils.data.SequentialSampler(dataset)
    sampler = torch.utils.data.BatchSampler(base, batch_size, drop_last)
    return torch.utils.data.DataLoader(dataset, batch_size=None, sampler=sampler, num_workers=workers,
                                       persistent_workers=workers > 0, pin_memory=torch.cuda.is_available(),
                                       prefetch_factor=4 if workers > 0 else None)
