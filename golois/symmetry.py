"""The 8 symmetries of the square Go board (the dihedral group D4).

Start with :func:`apply`, which transforms anything whose last two axes are
(row, col): a single plane, a stack of feature planes, a batch of stacks; it
works on numpy arrays and on torch tensors.  Every other function is derived
from it, so all of them agree by construction:

* ``map_moves(moves, k, size)`` sends a flat move index ``r*size+c`` to the
  index of the same point after ``apply(..., k)``; the pass index
  ``size*size`` is unchanged.  Property: ``apply(onehot(m), k) ==
  onehot(map_moves(m, k))``.
* ``apply_logits(logits, k)`` transforms a flat per-point vector (last axis
  ``size*size``, optionally ``size*size+1`` with a pass entry at the end) the
  way ``apply`` transforms the corresponding board; ``inverse_logits`` undoes
  it.  Bagging uses them: evaluate the network on ``apply(x, k)`` and bring
  the answer back with ``inverse_logits(out, k)``.

Numbering: ``k`` in ``0..7``; ``k = 4*f + r`` means "transpose if ``f`` is 1,
then rotate ``r`` quarter turns counter-clockwise" (``np.rot90`` convention).
``k = 0`` is the identity, ``1..3`` are the rotations, ``4..7`` the
reflections (each is its own inverse).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

NUM_SYMMETRIES = 8
IDENTITY = 0
ROTATIONS = (0, 1, 2, 3)
ALL = tuple(range(NUM_SYMMETRIES))


def _check(k: int) -> int:
    """Return ``k`` as an int in 0..7 or raise ValueError."""
    k = int(k)
    if not 0 <= k < NUM_SYMMETRIES:
        raise ValueError(f"symmetry index must be in 0..7, got {k}")
    return k


def _is_torch(x) -> bool:
    """True when ``x`` is a torch tensor (without importing torch eagerly)."""
    return type(x).__module__.startswith("torch")


def apply(planes, k: int):
    """Return ``planes`` transformed by symmetry ``k`` on its last two axes.

    Numpy input gives a contiguous numpy copy, torch input a torch tensor.
    """
    k = _check(k)
    flip, rot = divmod(k, 4)
    if _is_torch(planes):
        import torch

        x = planes.transpose(-1, -2) if flip else planes
        if rot:
            x = torch.rot90(x, rot, dims=(-2, -1))
        return x.contiguous()
    x = np.asarray(planes)
    if x.ndim < 2:
        raise ValueError("apply needs at least 2 dimensions (row, col)")
    if flip:
        x = np.swapaxes(x, -1, -2)
    if rot:
        x = np.rot90(x, rot, axes=(-2, -1))
    return np.ascontiguousarray(x)


def inverse(k: int) -> int:
    """Return the symmetry index that undoes symmetry ``k``."""
    flip, rot = divmod(_check(k), 4)
    return k if flip else (4 - rot) % 4


def compose(a: int, b: int) -> int:
    """Return ``c`` with ``apply(x, c) == apply(apply(x, a), b)``."""
    return _compose_table()[_check(a)][_check(b)]


@lru_cache(maxsize=1)
def _compose_table() -> tuple:
    probe = np.arange(9).reshape(3, 3)
    images = [apply(probe, k) for k in ALL]
    table = []
    for a in ALL:
        row = []
        for b in ALL:
            target = apply(images[a], b)
            row.append(next(c for c in ALL if np.array_equal(images[c], target)))
        table.append(tuple(row))
    return tuple(table)


@lru_cache(maxsize=None)
def _gather_table(size: int, k: int) -> np.ndarray:
    """``src`` such that ``apply(board, k).ravel() == board.ravel()[src]``."""
    return apply(np.arange(size * size).reshape(size, size), k).ravel()


@lru_cache(maxsize=None)
def _move_table(size: int, k: int) -> np.ndarray:
    """``dst`` with ``dst[old] = new`` for points, plus pass -> pass."""
    src = _gather_table(size, k)
    dst = np.empty(size * size + 1, dtype=np.int64)
    dst[src] = np.arange(size * size)
    dst[size * size] = size * size
    dst.setflags(write=False)
    return dst


def map_moves(moves, k: int, size: int = 19):
    """Map flat move indices (``r*size+c``, pass ``size*size``) through ``k``.

    Accepts an int, a numpy array or a torch tensor; returns the same kind.
    """
    table = _move_table(int(size), _check(k))
    if _is_torch(moves):
        import torch

        return torch.tensor(table, device=moves.device)[moves.long()].to(moves.dtype)
    arr = np.asarray(moves)
    if arr.size and (arr.min() < 0 or arr.max() > size * size):
        raise ValueError(f"move index out of range for size {size}")
    out = table[arr]
    return int(out) if np.ndim(moves) == 0 else out


def _size_of(n: int) -> tuple[int, bool]:
    """Board size and whether a trailing pass entry is present for length ``n``."""
    for extra in (0, 1):
        s = int(round((n - extra) ** 0.5))
        if s * s + extra == n and s > 0:
            return s, bool(extra)
    raise ValueError(f"last axis {n} is not size*size or size*size+1")


def apply_logits(logits_flat, k: int):
    """Transform flat per-point values (last axis ``H*W`` or ``H*W+1``) by ``k``.

    Equals ``apply(logits.reshape(..., H, W), k).reshape(..., H*W)``; a pass
    entry at the end is kept in place.
    """
    k = _check(k)
    size, has_pass = _size_of(logits_flat.shape[-1])
    src = _gather_table(size, k)
    if has_pass:
        src = np.append(src, size * size)
    if _is_torch(logits_flat):
        import torch

        return logits_flat[..., torch.as_tensor(src, device=logits_flat.device)]
    return np.asarray(logits_flat)[..., src]


def inverse_logits(logits_flat, k: int):
    """Undo :func:`apply_logits` (bring per-point values back to the original frame)."""
    return apply_logits(logits_flat, inverse(k))


def symmetry_set(n: int) -> tuple[int, ...]:
    """The symmetries used for ``n``-fold bagging: 1 -> identity, 4 -> rotations, 8 -> all."""
    if n == 1:
        return (IDENTITY,)
    if n == 4:
        return ROTATIONS
    if n == 8:
        return ALL
    raise ValueError(f"symmetries must be 1, 4 or 8, got {n}")
