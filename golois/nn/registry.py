"""The shipped networks: which file a `--model` value names, and the precisions a network runs at.

`--model full|small|PATH` everywhere (play.py, `golois gtp`, `golois accuracy`, `golois solve
--network`, the benches) goes through `resolve_model` (golois.nn.model.load_network loads one).
The files live in golois/weights/ (fp16; figures in docs/results.md).
"""

from __future__ import annotations

import os
from pathlib import Path

WEIGHTS_DIR = Path(__file__).resolve().parent.parent / "weights"
SHIPPED_NETWORKS = {                     # --model NAME -> file in golois/weights/
    "full": "golois-full.pt",            # 12x256: 52.1% top-1 with 8 symmetries, about 0.5 s a genmove on one core
    "small": "golois-small.pt",          # 6x64: 45.2% top-1 with 8 symmetries, about 25 ms a genmove
}
DEFAULT_NETWORK = "full"
PRECISIONS = ("auto", "fp32", "bf16", "int8")   # how a network runs: golois.nn.precision


def resolve_model(model: str | os.PathLike) -> Path:
    """The weights file of a --model value: a shipped network's name (SHIPPED_NETWORKS) or a path."""
    name = str(model)
    return WEIGHTS_DIR / SHIPPED_NETWORKS[name] if name in SHIPPED_NETWORKS else Path(model)


def default_model() -> Path | None:
    """The default shipped network's file, or None when it is missing."""
    path = resolve_model(DEFAULT_NETWORK)
    return path if path.is_file() else None
