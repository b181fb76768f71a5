"""The settings of a training run: `TrainConfig`, every field with its default, and the
learning-rate schedule it names (`LRSchedule`).  golois.nn.train_cli builds one from the command
line; golois.nn.training.Trainer runs it.  No torch here, so the command line stays fast.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

LR_SCALINGS = ("none", "sqrt", "linear")
LOSSES = ("xent", "mse")
OPTIMIZERS = ("sgd", "adam")
AUGMENTS = ("trainer", "dataset", "none")
TEST_SPLITS = ("test", "test-all", "all")


# --------------------------------------------------------------------------- config


@dataclass
class TrainConfig:
    """Every training setting; built from the command line by :func:`config_from_args`."""

    data: str | None = None
    test_data: str | None = None
    test_split: str = "test"            # test: the canonical 2015 sample; test-all: every test-year position; all
    out_dir: str = "runs/golois"
    preset: str = "small"
    batch_size: int = 64
    lr_schedule: str = "0.2@0,0.1@20M,0.05@40M,0.025@60M"
    lr_scaling: str = "none"
    optimizer: str = "sgd"              # sgd (the paper's) or adam (the rate is Adam's step size)
    momentum: float = 0.0
    nesterov: bool = False
    weight_decay: float = 0.0
    clip_grad: float = 1.0
    loss: str = "xent"
    max_examples: int = 1_000_000
    checkpoint_every: int = 100_000
    eval_every: int = 100_000
    eval_positions: int = 10_000
    log_every: int = 10_000
    augment: str = "trainer"
    workers: int = 2
    seed: int = 0
    resume: str | None = None
    init_from: str | None = None
    device: str = "auto"
    amp: bool = True
    channels_last: bool = True          # NHWC activations: ~18% faster on CPU (oneDNN), the CUDA AMP idiom
    fp16_weights: bool = False
    progress: bool = True
    value_weight: float = 0.0           # >0: train a value head too, loss = policy + value_weight * value MSE
    value_per_game: int = 0             # value targets on about this many positions a game (0: every one)
    value_kind: str = "pool"            # the value head's shape (golois.nn.model.VALUE_KINDS)
    freeze_trunk: bool = False          # train the value head alone on the loaded network's trunk
    value_patience: int = 0             # stop after this many evaluations without a better held-out value (0: never)
    value_inputs: bool = False          # the value head reads the colour to move and the komi
    value_from_move: int = 30           # positions before this move number carry no value target
    ownership_weight: float = 0.0       # >0: the conv head's ownership map learns each point's final owner

    def __post_init__(self):
        if self.batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        for name, value, allowed in (("lr_scaling", self.lr_scaling, LR_SCALINGS),
                                     ("loss", self.loss, LOSSES), ("augment", self.augment, AUGMENTS),
                                     ("optimizer", self.optimizer, OPTIMIZERS),
                                     ("test_split", self.test_split, TEST_SPLITS)):
            if value not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, got {value!r}")
        LRSchedule.parse(self.lr_schedule)
        if self.value_weight < 0:
            raise ValueError("value_weight must be >= 0")
        if self.ownership_weight < 0:
            raise ValueError("ownership_weight must be >= 0")
        if self.ownership_weight > 0 and (self.value_weight <= 0 or self.value_kind != "conv"
                                          or self.augment != "dataset"):
            raise ValueError("the ownership target needs a conv value head (value_weight > 0, value_kind conv) "
                             "and augment dataset (the dataset turns the planes and the owners together)")
        if self.freeze_trunk and not (self.value_weight > 0 and (self.init_from or self.resume)):
            raise ValueError("freeze_trunk trains a value head on a loaded trunk: give value_weight > 0 "
                             "and init_from (or resume)")


def parse_count(text: str) -> int:
    """``"250k"``, ``"20M"``, ``"1.5G"``, ``"1e6"`` or ``"1000"`` -> an int."""
    m = re.fullmatch(r"\s*([0-9.eE+]+)\s*([kKmMgG]?)\s*", str(text))
    if not m:
        raise ValueError(f"not a count: {text!r}")
    mult = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9}[m.group(2).lower()]
    return int(round(float(m.group(1)) * mult))


@dataclass(frozen=True)
class LRSchedule:
    """Piecewise-constant learning rate by examples learned: ``[(start_examples, lr), ...]``."""

    steps: tuple[tuple[int, float], ...]

    @classmethod
    def parse(cls, text: str) -> "LRSchedule":
        """Parse ``"0.2@0,0.1@20M,0.05@40M"`` (rate@examples, first at 0)."""
        steps = []
        for part in str(text).split(","):
            rate, _, start = part.strip().partition("@")
            steps.append((parse_count(start or "0"), float(rate)))
        steps.sort()
        if not steps or steps[0][0] != 0:
            raise ValueError(f"learning-rate schedule must start at 0 examples: {text!r}")
        if any(r <= 0 for _, r in steps):
            raise ValueError(f"learning rates must be positive: {text!r}")
        return cls(tuple(steps))

    def lr_at(self, examples: int) -> float:
        """Rate in force once ``examples`` examples have been learned."""
        rate = self.steps[0][1]
        for start, r in self.steps:
            if examples >= start:
                rate = r
        return rate


def lr_scale(batch_size: int, rule: str) -> float:
    """Multiplier of the schedule's rate for a mean loss over ``batch_size`` examples."""
    return {"none": 1.0, "sqrt": math.sqrt(batch_size), "linear": float(batch_size)}[rule]
