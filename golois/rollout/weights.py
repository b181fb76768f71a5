"""The rollout policy's weight file: `golois/weights/rollout.npz` ships with the package.

An `.npz` with the feature layout's `version` (tactics.rollout.VERSION), the non-zero weights
as `index` (int32) and `value` (float16), and `meta` (JSON: what it was trained on, examples
seen, its held-out top-1, and the `temperature` the rollouts play at).  `load_policy` is what the engine calls: a missing, truncated or
foreign file gives a message and None, and the search's leaves fall back to random playouts.
Start with `load_policy`.
"""

from __future__ import annotations

import json
import os
import sys
import zipfile

import numpy as np

from tactics.rollout import VERSION, WEIGHTS, RolloutPolicy

DEFAULT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "weights", "rollout.npz")


class RolloutWeightsError(ValueError):
    """A weight file that cannot be used, with the reason."""


def save(weights: np.ndarray, path: str, meta: dict | None = None) -> None:
    """Write the non-zero weights (float16) with the layout's version and `meta`; atomic."""
    index = np.flatnonzero(weights).astype(np.int32)
    tmp = path + ".tmp.npz"
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    np.savez_compressed(tmp, version=np.array(VERSION), index=index,
                        value=weights[index].astype(np.float16), meta=np.array(json.dumps(meta or {})))
    os.replace(tmp, path)


def load(path: str) -> tuple[np.ndarray, dict]:
    """(the dense float32 weights, meta) of a weight file; RolloutWeightsError says why not."""
    if not os.path.exists(path):
        raise RolloutWeightsError(f"no rollout weights at {path}")
    try:
        with np.load(path, allow_pickle=False) as f:
            version = str(f["version"])
            if version != VERSION:
                raise RolloutWeightsError(f"{path} holds pattern set {version!r}; this build reads {VERSION!r}")
            index, value = f["index"], f["value"]
            meta = json.loads(str(f["meta"])) if "meta" in f else {}
    except RolloutWeightsError:
        raise
    except (zipfile.BadZipFile, EOFError, OSError, KeyError, ValueError) as e:
        raise RolloutWeightsError(f"{path} is not a readable rollout weight file ({type(e).__name__}: {e})") from None
    if index.shape != value.shape or (index.size and (index.min() < 0 or index.max() >= WEIGHTS)):
        raise RolloutWeightsError(f"{path}: weight indices out of the layout's range")
    weights = np.zeros(WEIGHTS, np.float32)
    weights[index] = value.astype(np.float32)
    return weights, meta


def policy_of(weights: np.ndarray, meta: dict, temperature: float | None = None) -> RolloutPolicy:
    """The policy of loaded weights at `temperature` (default: the file's own)."""
    return RolloutPolicy(weights, temperature or float(meta.get("temperature", 1.0)))


def load_policy(path: str | None = None, log=True) -> RolloutPolicy | None:
    """The policy of a weight file (default: the shipped one), or None with a line on `log`
    (True: stderr; None: nothing) saying why and that random playouts stand in."""
    path = path or DEFAULT
    try:
        weights, meta = load(path)
    except RolloutWeightsError as e:
        if log:
            print(f"golois: {e}; the leaves use random playouts", file=sys.stderr if log is True else log)
        return None
    return policy_of(weights, meta)
