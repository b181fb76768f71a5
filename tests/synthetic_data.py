"""A tiny learnable stand-in for golois.datasets: the target move is marked in a plane.

Plane 0 holds random stones (noise), plane 1 a single marker on an empty point;
the "expert move" is the marked point.  The rule is invariant under the board
symmetries, so augmentation keeps it learnable; a small conv net learns it fast.
"""

import numpy as np
import torch
from torch.utils.data import Dataset

STONES, MARKER = 0, 1  # plane indices
FEATURES = {"name": "synthetic", "version": 1, "planes": 2}


class MarkedMoves(Dataset):
    """``n`` deterministic positions of ``size`` x ``size``; items are (uint8 planes, int64 move)."""

    feature_set = FEATURES

    def __init__(self, n=512, size=9, seed=0, density=0.3):
        rng = np.random.default_rng(seed)
        stones = (rng.random((n, size, size)) < density).reshape(n, -1)
        moves = np.array([rng.choice(np.flatnonzero(~row)) for row in stones])
        self.planes = np.zeros((n, 2, size * size), dtype=np.uint8)
        self.planes[:, STONES] = stones
        self.planes[np.arange(n), MARKER, moves] = 1
        self.planes = self.planes.reshape(n, 2, size, size)
        self.moves = moves.astype(np.int64)
        self.seed = seed

    def __len__(self):
        return len(self.moves)

    def __getitem__(self, i):
        return torch.from_numpy(self.planes[i]), torch.tensor(self.moves[i])

    def describe(self):
        return f"synthetic marked moves (n={len(self)}, seed={self.seed})"


class MarkedMovesWithValue(MarkedMoves):
    """MarkedMoves whose items also carry a value target and weight: +1 on a crowded board
    (stone density 0.45), -1 on a sparse one (0.15), a pooled fact a value head learns fast;
    every fifth item has weight 0 (a game whose result does not count)."""

    def __init__(self, n=512, size=9, seed=0):
        super().__init__(n, size, seed)
        rng = np.random.default_rng(seed + 1)
        crowded = rng.random(n) < 0.5
        for i in range(n):
            density = 0.45 if crowded[i] else 0.15
            stones = rng.random(size * size) < density
            stones[self.moves[i]] = False
            self.planes[i, 0] = stones.reshape(size, size)
        self.target = np.where(crowded, 1.0, -1.0).astype(np.float32)
        self.weight = (np.arange(n) % 5 != 0).astype(np.float32)

    def __getitem__(self, i):
        planes, move = super().__getitem__(i)
        return planes, move, torch.tensor(self.target[i]), torch.tensor(self.weight[i])
