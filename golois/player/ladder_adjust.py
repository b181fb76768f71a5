"""Pure functions on policy outputs: log-softmax, legal-move masking, ladder adjustments.

Start with :func:`ladder_adjust`, the paper's use of tactical ladder search to
correct the network: a move that pushes a string of MORE than ``threshold``
(4) stones further into a lost ladder loses that many; a move that captures,
or saves, more than ``threshold`` stones in a ladder gains that many.

Scale: the adjustment is applied to log-probabilities (the log-softmax of the
logits), ``scale`` nats per stone (default 1.0: one stone = one nat, so a
5-stone ladder capture multiplies the move's probability by e^5 ~ 148 before
renormalisation).  Everything here works on numpy arrays whose last axis is
the flat move index ``r*size+c`` (a trailing pass entry is allowed); per-move
count arrays may be given flat or as boards ``[..., H, W]``.
"""

from __future__ import annotations

import numpy as np

#: Stones strictly above this count trigger the paper's ladder adjustment.
LADDER_THRESHOLD = 4
#: Nats of log-probability per stone.
LADDER_SCALE = 1.0


def log_softmax(logits: np.ndarray, axis: int = -1) -> np.ndarray:
    """Numerically stable log-softmax along ``axis`` (``-inf`` entries stay ``-inf``)."""
    x = np.asarray(logits, dtype=np.float64)
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    z = x - m
    total = np.sum(np.exp(z), axis=axis, keepdims=True)
    with np.errstate(divide="ignore"):
        return (z - np.log(np.where(total > 0, total, 1.0))).astype(np.float32)


def softmax(logits: np.ndarray, axis: int = -1) -> np.ndarray:
    """Softmax along ``axis``."""
    return np.exp(log_softmax(logits, axis))


def _like(counts, logits: np.ndarray) -> np.ndarray:
    """Per-move values reshaped to ``logits.shape`` (boards are flattened; a pass entry gets 0)."""
    if counts is None:
        return np.zeros(logits.shape, dtype=np.float32)
    c = np.asarray(counts, dtype=np.float32)
    lead, n = logits.shape[:-1], logits.shape[-1]
    rows = int(np.prod(lead, dtype=np.int64))
    if c.size == rows * n:
        return c.reshape(logits.shape)
    if c.size == rows * (n - 1):  # logits carry a pass entry, the counts do not
        c = c.reshape(*lead, n - 1)
        return np.concatenate([c, np.zeros((*lead, 1), np.float32)], axis=-1)
    raise ValueError(f"per-move array of shape {np.shape(counts)} does not fit logits {logits.shape}")


def ladder_bonus(captures_n=None, saves_n=None, pushes_n=None, threshold: int = LADDER_THRESHOLD):
    """Stones gained (positive) or lost (negative) per move; counts <= threshold give 0."""
    def over(c):
        if c is None:
            return np.float32(0)
        c = np.asarray(c, dtype=np.float32)
        return np.where(c > threshold, c, np.float32(0))

    return over(captures_n) + over(saves_n) - over(pushes_n)


def ladder_adjust(logits, captures_n=None, saves_n=None, pushes_n=None,
                  threshold: int = LADDER_THRESHOLD, scale: float = LADDER_SCALE,
                  normalize: bool = False) -> np.ndarray:
    """Log-probabilities of ``logits`` plus ``scale`` * (captured + saved - pushed) stones.

    Only counts strictly above ``threshold`` count.  The result is an unnormalised
    log-probability score (renormalised with ``normalize=True``); its argmax is the
    adjusted move choice.  ``-inf`` (masked) entries stay ``-inf``.
    """
    logits = np.asarray(logits, dtype=np.float32)
    logp = log_softmax(logits)
    bonus = ladder_bonus(_like(captures_n, logp), _like(saves_n, logp), _like(pushes_n, logp), threshold)
    out = logp + np.float32(scale) * bonus
    return log_softmax(out) if normalize else out


def mask_illegal(logits, legal) -> np.ndarray:
    """Copy of ``logits`` with ``-inf`` wherever the boolean ``legal`` mask is False."""
    logits = np.asarray(logits, dtype=np.float32)
    legal = _like(legal, logits).astype(bool)
    return np.where(legal, logits, np.float32(-np.inf))
