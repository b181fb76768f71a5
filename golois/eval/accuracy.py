"""Move-prediction accuracy of a policy network: the core of ``golois accuracy``.

Start with :func:`evaluate_accuracy`: it feeds batches to a
:class:`golois.nn.model.Network` (optionally bagged over 4 or 8 symmetries,
optionally with the paper's ladder adjustments from :mod:`golois.player.ladder_adjust`),
never predicts an illegal move when the batch carries a legal-move mask, and
returns an :class:`AccuracyReport` with top-1, top-5, speed and accuracy by
move-number bucket.  :func:`plot_by_move_number` draws the buckets.

A batch is either a dict or a tuple:

* dict keys: ``planes`` [B,C,H,W] (required), ``move`` [B] flat ``r*W+c``
  (required), ``move_number`` [B], ``legal`` [B,H*W] or [B,H,W] bool,
  ``ladder_captures`` / ``ladder_saves`` / ``ladder_pushes`` [B,H*W] or
  [B,H,W] ints (needed when ``ladder_adjust=True``);
* tuple: ``(planes, move)``, ``(planes, move, move_number)`` or
  ``(planes, move, move_number, legal)``.

Arrays may be numpy or torch.  A target equal to the pass index (``H*W``) is
counted as a position and is never predicted (the network has no pass output).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from golois.player import ladder_adjust as adjust

#: Move-number buckets as half-open ``[lo, hi)`` ranges; ``None`` means no upper bound.
DEFAULT_BUCKETS: tuple[tuple[int, int | None], ...] = (
    (0, 20), (20, 50), (50, 100), (100, 150), (150, 200), (200, None))
TOP_K = 5


@dataclass
class BucketStats:
    """Counts for moves whose move number is in ``[lo, hi)``."""

    lo: int
    hi: int | None
    positions: int = 0
    correct1: int = 0
    correctk: int = 0

    @property
    def label(self) -> str:
        """Human label, e.g. ``0-19`` or ``200+``."""
        return f"{self.lo}+" if self.hi is None else f"{self.lo}-{self.hi - 1}"

    @property
    def top1(self) -> float:
        """Top-1 accuracy in the bucket (NaN when empty)."""
        return self.correct1 / self.positions if self.positions else float("nan")

    @property
    def topk(self) -> float:
        """Top-k accuracy in the bucket (NaN when empty)."""
        return self.correctk / self.positions if self.positions else float("nan")


@dataclass
class AccuracyReport:
    """Result of :func:`evaluate_accuracy`; ``to_json()`` for files and logs."""

    positions: int = 0
    correct1: int = 0
    correctk: int = 0
    k: int = TOP_K
    seconds: float = 0.0
    symmetries: int = 1
    ladder_adjust: bool = False
    buckets: list[BucketStats] = field(default_factory=list)
    unknown_move_number: int = 0

    @property
    def top1(self) -> float:
        """Fraction of positions where the best move is the played move."""
        return self.correct1 / self.positions if self.positions else float("nan")

    @property
    def top5(self) -> float:
        """Fraction of positions where the played move is among the ``k`` best (k=5 by default)."""
        return self.correctk / self.positions if self.positions else float("nan")

    @property
    def positions_per_s(self) -> float:
        """Evaluation speed."""
        return self.positions / self.seconds if self.seconds > 0 else float("nan")

    def to_dict(self) -> dict[str, Any]:
        """Plain dict with the derived rates included."""
        return {
            "positions": self.positions, "top1": self.top1, f"top{self.k}": self.top5,
            "correct1": self.correct1, f"correct{self.k}": self.correctk,
            "seconds": self.seconds, "positions_per_s": self.positions_per_s,
            "symmetries": self.symmetries, "ladder_adjust": self.ladder_adjust,
            "unknown_move_number": self.unknown_move_number,
            "by_move_number": [
                {"label": b.label, "lo": b.lo, "hi": b.hi, "positions": b.positions,
                 "top1": b.top1, f"top{self.k}": b.topk} for b in self.buckets],
        }

    def to_json(self, indent: int | None = 2) -> str:
        """JSON text (NaN written as null)."""
        def clean(x):
            if isinstance(x, float) and x != x:
                return None
            if isinstance(x, dict):
                return {k: clean(v) for k, v in x.items()}
            if isinstance(x, list):
                return [clean(v) for v in x]
            return x
        return json.dumps(clean(self.to_dict()), indent=indent)

    def summary(self) -> str:
        """One line for humans."""
        return (f"{self.positions} positions: top-1 {100 * self.top1:.2f}%, top-{self.k} "
                f"{100 * self.top5:.2f}% ({self.positions_per_s:.0f} pos/s, "
                f"{self.symmetries} symmetr{'y' if self.symmetries == 1 else 'ies'}"
                f"{', ladders' if self.ladder_adjust else ''})")


def _np(x) -> np.ndarray | None:
    """Numpy view of a numpy array, torch tensor, list or None."""
    if x is None:
        return None
    if type(x).__module__.startswith("torch"):
        return x.detach().cpu().numpy()
    return np.asarray(x)


def normalize_batch(batch: Mapping | Sequence) -> dict[str, np.ndarray | None]:
    """Turn a dict or tuple batch into a dict of numpy arrays (missing keys -> None)."""
    if isinstance(batch, Mapping):
        d = {k: _np(v) for k, v in batch.items()}
    else:
        names = ("planes", "move", "move_number", "legal")
        if not 2 <= len(batch) <= len(names):
            raise ValueError("a tuple batch is (planes, move[, move_number[, legal]])")
        d = {n: _np(v) for n, v in zip(names, batch)}
    if d.get("planes") is None or d.get("move") is None:
        raise ValueError("a batch needs 'planes' and 'move'")
    for key in ("move_number", "legal", "ladder_captures", "ladder_saves", "ladder_pushes"):
        d.setdefault(key, None)
    return d


def score_batch(network, b: Mapping[str, np.ndarray | None], symmetries: int = 1,
                ladder_adjust: bool = False, ladder_scale: float = adjust.LADDER_SCALE,
                ladder_threshold: int = adjust.LADDER_THRESHOLD) -> np.ndarray:
    """Final move scores ``[B,H*W]`` for a normalized batch (illegal moves are ``-inf``)."""
    planes = b["planes"]
    if symmetries == 1:
        scores, _ = network.evaluate(planes)
    else:
        scores, _ = network.evaluate_symmetric(planes, symmetries=symmetries)
    if b.get("legal") is not None:
        scores = adjust.mask_illegal(scores, b["legal"])
    if ladder_adjust:
        if all(b.get(k) is None for k in ("ladder_captures", "ladder_saves", "ladder_pushes")):
            raise ValueError("ladder_adjust=True needs ladder_captures/ladder_saves/ladder_pushes in batches")
        scores = adjust.ladder_adjust(scores, b.get("ladder_captures"), b.get("ladder_saves"),
                                      b.get("ladder_pushes"), threshold=ladder_threshold, scale=ladder_scale)
    return scores


def top_k_hits(scores: np.ndarray, moves: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Boolean arrays (top-1 hit, top-k hit) per row; ties broken by lowest index."""
    moves = moves.astype(np.int64)
    n = scores.shape[-1]
    valid = (moves >= 0) & (moves < n)
    safe = np.where(valid, moves, 0)
    target = np.take_along_axis(scores, safe[:, None], axis=1)[:, 0]
    finite = np.isfinite(target) & valid
    idx = np.arange(n)[None, :]
    # number of moves ranked strictly ahead of the target
    ahead = (scores > target[:, None]) | ((scores == target[:, None]) & (idx < safe[:, None]))
    rank = ahead.sum(axis=1)
    return finite & (rank == 0), finite & (rank < k)


def _bucket_index(buckets: Sequence[BucketStats], move_numbers: np.ndarray) -> np.ndarray:
    """Index of each move number's bucket, -1 when outside all buckets."""
    out = np.full(move_numbers.shape, -1, dtype=np.int64)
    for i, b in enumerate(buckets):
        hi = np.inf if b.hi is None else b.hi
        out[(move_numbers >= b.lo) & (move_numbers < hi)] = i
    return out


def evaluate_accuracy(network, batches_iterable: Iterable, symmetries: int = 1,
                      ladder_adjust: bool = False, k: int = TOP_K,
                      buckets: Sequence[tuple[int, int | None]] = DEFAULT_BUCKETS,
                      ladder_scale: float = adjust.LADDER_SCALE,
                      ladder_threshold: int = adjust.LADDER_THRESHOLD,
                      max_positions: int | None = None) -> AccuracyReport:
    """Top-1 / top-k accuracy of ``network`` over the batches (see module docstring for formats)."""
    report = AccuracyReport(k=k, symmetries=symmetries, ladder_adjust=ladder_adjust,
                            buckets=[BucketStats(lo, hi) for lo, hi in buckets])
    start = time.perf_counter()
    for raw in batches_iterable:
        b = normalize_batch(raw)
        if max_positions is not None:
            room = max_positions - report.positions
            if room <= 0:
                break
            b = {key: (v[:room] if v is not None else None) for key, v in b.items()}
        scores = score_batch(network, b, symmetries, ladder_adjust, ladder_scale, ladder_threshold)
        hit1, hitk = top_k_hits(scores, b["move"].reshape(-1), k)
        report.positions += len(hit1)
        report.correct1 += int(hit1.sum())
        report.correctk += int(hitk.sum())
        if b["move_number"] is None:
            report.unknown_move_number += len(hit1)
            continue
        which = _bucket_index(report.buckets, b["move_number"].reshape(-1))
        report.unknown_move_number += int((which < 0).sum())
        for i, bucket in enumerate(report.buckets):
            sel = which == i
            bucket.positions += int(sel.sum())
            bucket.correct1 += int(hit1[sel].sum())
            bucket.correctk += int(hitk[sel].sum())
    report.seconds = time.perf_counter() - start
    return report


def plot_by_move_number(report: AccuracyReport, png_path: str, title: str | None = None) -> None:
    """Bar chart of top-1 and top-k accuracy per move-number bucket, written to ``png_path``."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    labels = [b.label for b in report.buckets]
    x = np.arange(len(labels))
    fig = Figure(figsize=(7, 4))
    ax = fig.subplots()
    ax.bar(x - 0.2, [100 * b.top1 if b.positions else 0 for b in report.buckets], 0.4, label="top-1")
    ax.bar(x + 0.2, [100 * b.topk if b.positions else 0 for b in report.buckets], 0.4,
           label=f"top-{report.k}")
    for xi, b in zip(x, report.buckets):
        ax.text(xi, 1, f"n={b.positions}", ha="center", fontsize=7, rotation=90, va="bottom")
    ax.set_xticks(x, labels)
    ax.set_xlabel("move number")
    ax.set_ylabel("accuracy (%)")
    ax.set_ylim(0, 100)
    ax.set_title(title or f"Accuracy by move number (overall top-1 {100 * report.top1:.1f}%)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(png_path, dpi=100)
