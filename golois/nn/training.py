"""Supervised training of the policy network on expert moves (the paper's SGD).

Start reading at :class:`golois.nn.train_config.TrainConfig` (every setting, with its CLI
flag in golois.nn.train_cli), then :class:`Trainer`: ``Trainer(config).train()``
opens the data, builds the model, and loops over minibatches, writing
checkpoints, a CSV log and a learning-curve PNG under ``config.out_dir``, and
finally the model file (``model.pt``, see :func:`golois.nn.model.save_model`).
``train.py`` and ``golois train`` call :func:`golois.nn.train_cli.main`.

Decisions worth knowing:

* Learning rate.  The paper uses plain SGD, one example at a time (a sum
  loss), with rate 0.2, then 0.1, 0.05, 0.025 as examples accumulate.  Here the
  schedule is a setting in *examples learned* (``"0.2@0,0.1@20M,..."``) and the
  loss is the MEAN over the minibatch.  The rate applied is
  ``schedule(examples) * scale(B)`` with ``--lr-scaling``: ``none`` (default,
  scale 1), ``sqrt`` (sqrt(B)) or ``linear`` (B).  ``--batch-size 1`` reproduces
  the paper under any rule.  ``linear`` is the sum-loss equivalent (each
  example gets the paper's step) but 0.2*B diverges once B is more than a few;
  ``none`` keeps each update the size of one paper step, computed from a less
  noisy gradient.  Measured on a synthetic task (tests/synthetic_data.py, 19x19,
  presets small and medium): plain SGD at 0.2 diverged for B=64 and even for
  B=1 (and at 0.05 with B=1) with our He initialisation, while the same runs
  with the gradient norm clipped at 1.0 trained to ~99% top-1.  So the
  default is mean loss, ``none`` scaling, and ``--clip-grad 1.0`` (a cap on
  the gradient's global L2 norm, i.e. on the update size lr*1.0); pass
  ``--batch-size 1 --clip-grad 0`` for the paper's literal SGD.  Momentum,
  Nesterov and weight decay are options (off by default, as in the paper).
  The default schedule's thresholds (20M/40M/60M examples) are placeholders,
  not the paper's: set them with ``--lr-schedule``.
* Loss.  ``xent``: cross-entropy of the softmax of the 361 logits with the
  played move.  ``mse`` (``--no-softmax``): our reading of the paper's "faster
  learning without a final softmax": the raw outputs of the last conv are
  regressed onto the one-hot move, loss = sum over points of
  (output - onehot)^2, averaged over the batch.  Both predict with the argmax,
  so their accuracies compare directly.  The sum of squares has much larger
  gradients: on the synthetic test it needs a rate near 0.001 (0.01 diverged
  without clipping), so compare the two losses each at its own best rate.
* Exact resume.  Data order comes from :class:`EpochSampler`: a permutation of
  the dataset seeded by (seed, epoch), read from a start index.  The trainer
  tracks (epoch, index, examples); a checkpoint taken after any step therefore
  resumes on exactly the batches the uninterrupted run would have seen.
  Augmentation by the 8 symmetries is, by default, done here
  (``--augment trainer``): each example's symmetry is drawn from a generator
  seeded by (seed, epoch, batch start, rank), so it also resumes exactly; the
  dataset is then opened with ``symmetries=False``.  ``--augment dataset``
  leaves it to the dataset (exact only if the dataset's draw is a function of
  the index; the trainer calls ``dataset.set_epoch(epoch)`` when it exists).
* Value.  With ``--value-weight W > 0`` the model gets a value head and the
  loss is policy cross-entropy + W * mean squared error of the value (tanh) on
  the outcome for the player to move (+1/-1), over the positions whose game
  result counts (golois.datasets.results.ValueConfig) and, with
  ``--value-per-game K``, only about K positions a game.  The positions of one
  game share one outcome and human games are few, so the held-out value loss
  (the canonical test sample and the ``heldout`` split, a Tygem month) is
  measured at every evaluation, ``best.pt`` keeps the model of the lowest one,
  and ``--value-patience N`` stops a run after N evaluations without
  improvement.  ``--freeze-trunk`` trains the value head alone on the trunk of
  ``--init-from`` (its policy untouched; on a CPU the frozen trunk runs in
  bf16 where the CPU has it).  ``--value-inputs`` gives the head the colour to
  move and the komi (two constant planes after the features, which the trunk
  does not read); ``--ownership-weight W`` adds W * the mean squared error of
  the conv head's ownership map on each point's final owner (the games judged
  by ``golois rollout ownership``); positions before ``--value-from-move``
  carry no value target.
* Several GPUs: launch with ``torchrun``; WORLD_SIZE/RANK/LOCAL_RANK are read
  at Trainer construction (never at import).  NCCL on CUDA, gloo on CPU.
  Each step consumes ``batch_size * world_size`` examples; rank 0 alone
  evaluates and writes files.
"""

from __future__ import annotations

import csv
import dataclasses
import os
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Iterator, Sequence

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, Sampler

from golois import symmetry
from golois.datasets.features import VALUE_INPUTS, FeatureSetMismatch, extends
from golois.nn.checkpoints import CHECKPOINT_FORMAT, lineage
from golois.nn.curves import plot_learning_curve
from golois.nn.train_config import LRSchedule, TrainConfig, lr_scale
from golois.nn.model import (ModelConfig, ModelMeta, PolicyNet, atomic_torch_save, load_model, make_config,
                          same_features, save_model)

CHECKPOINT_VERSION = 1
CSV_FIELDS = ("examples", "loss", "lr", "test_top1", "wall_time", "value_loss", "test_value_mse",
              "heldout_value_mse", "heldout_winner_100_199", "ownership_loss")


# --------------------------------------------------------------------------- data


class EpochSampler(Sampler[int]):
    """Seeded permutation of ``range(n)`` per epoch, read from ``start``, split among ranks.

    Global position ``p`` of the epoch goes to rank ``p % world``; the tail that
    does not divide by ``world`` is dropped so every rank sees as many items.
    """

    def __init__(self, n: int, seed: int, epoch: int = 0, start: int = 0, rank: int = 0, world: int = 1):
        self.n, self.seed, self.epoch, self.start, self.rank, self.world = n, seed, epoch, start, rank, world
        if start % world:
            raise ValueError("start must be a multiple of the world size")

    @staticmethod
    def epoch_length(n: int, world: int = 1) -> int:
        """Global positions per epoch."""
        return n - n % world

    def permutation(self) -> torch.Tensor:
        """The epoch's permutation (identical on every rank)."""
        g = torch.Generator().manual_seed(_mix(self.seed, self.epoch))
        return torch.randperm(self.n, generator=g)

    def __iter__(self) -> Iterator[int]:
        perm = self.permutation()[self.start + self.rank:self.epoch_length(self.n, self.world):self.world]
        return iter(perm.tolist())

    def __len__(self) -> int:
        return max(0, (self.epoch_length(self.n, self.world) - self.start) // self.world)


def _mix(*values: int) -> int:
    """Deterministic 63-bit seed from a few ints."""
    h = 0x9E3779B97F4A7C15
    for v in values:
        h = (h ^ (int(v) + 0x9E3779B97F4A7C15 + (h << 6) + (h >> 2))) & 0x7FFFFFFFFFFFFFFF
    return h


def _worker_init(worker_id: int) -> None:
    """Seed numpy and random in a DataLoader worker from torch's per-worker seed."""
    seed = torch.initial_seed() % 2**32
    np.random.seed(seed)
    random.seed(seed)


def unpack_batch(batch) -> tuple[torch.Tensor, torch.Tensor]:
    """``(planes, move)`` from a collated tuple/list ``(planes, move, ...)`` or dict."""
    if isinstance(batch, dict):
        return batch["planes"], batch["move"]
    return batch[0], batch[1]


def unpack_value(batch) -> tuple[torch.Tensor, torch.Tensor] | None:
    """``(value target, value weight)`` of a batch ``(planes, move, target, weight)``, or None."""
    if isinstance(batch, dict):
        return (batch["value"], batch["value_weight"]) if "value" in batch else None
    return (batch[2], batch[3]) if len(batch) >= 4 else None


def unpack_ownership(batch) -> tuple[torch.Tensor, torch.Tensor] | None:
    """``(final owners [B, n*n], weights [B])`` of a batch that ends with them, or None."""
    if isinstance(batch, dict):
        return (batch["ownership"], batch["ownership_weight"]) if "ownership" in batch else None
    return (batch[4], batch[5]) if len(batch) >= 6 else None


def ownership_loss(owner: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """Weighted mean over positions of the mean squared error over points (0 when no weight)."""
    w = weight.float()
    per = ((owner.float() - target.float()) ** 2).mean(dim=1)
    return (w * per).sum() / w.sum().clamp_min(1.0)


def value_loss(value: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """Weighted mean squared error of the value on the outcome (0 when no weight)."""
    w = weight.float()
    return (w * (value.float() - target.float()) ** 2).sum() / w.sum().clamp_min(1.0)


def augment_batch(planes: torch.Tensor, moves: torch.Tensor, gen: torch.Generator):
    """Apply one random symmetry per example (planes and moves consistently)."""
    size = planes.shape[-1]
    if planes.shape[-2] != size:
        return planes, moves
    ks = torch.randint(0, symmetry.NUM_SYMMETRIES, (len(moves),), generator=gen)
    planes, moves = planes.clone(), moves.clone()
    for k in range(1, symmetry.NUM_SYMMETRIES):
        sel = ks == k
        if sel.any():
            planes[sel] = symmetry.apply(planes[sel], k)
            moves[sel] = symmetry.map_moves(moves[sel], k, size)
    return planes, moves


def open_datasets(config: TrainConfig):
    """Train and test datasets through ``golois.datasets.open_dataset`` (imported lazily)."""
    if not config.data:
        raise ValueError("no training data: give --data PATH")
    from golois.datasets import open_dataset  # provided by the datasets package
    value = value_options(config)
    train = open_dataset(config.data, split="train", symmetries=config.augment == "dataset", **value,
                         **({"value_per_game": config.value_per_game} if value else {}))
    test = open_dataset(config.test_data or config.data, split=config.test_split, symmetries=False, **value)
    return train, test


def value_options(config: TrainConfig) -> dict:
    """open_dataset's value arguments for a run (none without a value head)."""
    from golois.datasets.results import ValueConfig
    if config.value_weight <= 0:
        return {}
    return {"value": ValueConfig(), "value_from_move": config.value_from_move,
            "value_inputs": config.value_inputs, "ownership": config.ownership_weight > 0}


def open_heldout(config: TrainConfig):
    """The ``heldout`` split of the data with value targets (None without value training or
    without held-out positions)."""
    if config.value_weight <= 0:
        return None
    from golois.datasets import open_dataset
    try:
        held = open_dataset(config.test_data or config.data, split="heldout", symmetries=False,
                            **value_options(config))
    except (FileNotFoundError, TypeError):
        return None
    return held if len(held) else None


def describe(dataset, fallback: str = "") -> str:
    """The dataset's ``describe()`` if it has one, else ``fallback``."""
    fn = getattr(dataset, "describe", None)
    return str(fn()) if callable(fn) else fallback


# --------------------------------------------------------------------------- helpers


def policy_loss(logits: torch.Tensor, moves: torch.Tensor, kind: str) -> torch.Tensor:
    """Mean over the batch of the per-example loss (``xent`` or ``mse`` on raw logits)."""
    logits = logits.float()
    if kind == "xent":
        return F.cross_entropy(logits, moves)
    target = F.one_hot(moves, logits.shape[-1]).float()
    return ((logits - target) ** 2).sum(dim=1).mean()


@dataclass
class DistInfo:
    """Distributed context read from torchrun's environment variables."""

    rank: int = 0
    local_rank: int = 0
    world: int = 1

    @classmethod
    def from_env(cls, env=None) -> "DistInfo":
        """WORLD_SIZE/RANK/LOCAL_RANK from ``env`` (default ``os.environ``)."""
        env = os.environ if env is None else env
        return cls(int(env.get("RANK", 0)), int(env.get("LOCAL_RANK", 0)), int(env.get("WORLD_SIZE", 1)))

    @property
    def enabled(self) -> bool:
        return self.world > 1

    @property
    def is_main(self) -> bool:
        return self.rank == 0


def rng_state() -> dict:
    """Every RNG state the run depends on, in a form ``torch.load(weights_only=True)`` accepts."""
    name, keys, pos, has_gauss, cached = np.random.get_state()
    state = {"torch": torch.get_rng_state(), "python": random.getstate(),
             "numpy": [name, torch.from_numpy(keys.astype(np.int64)), pos, has_gauss, cached]}
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def set_rng_state(state: dict) -> None:
    """Inverse of :func:`rng_state`."""
    torch.set_rng_state(state["torch"])
    v, internal, gauss = state["python"]
    random.setstate((v, tuple(internal), gauss))
    name, keys, pos, has_gauss, cached = state["numpy"]
    np.random.set_state((name, keys.numpy().astype(np.uint32), pos, has_gauss, cached))
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])


def crossed(before: int, after: int, every: int) -> bool:
    """True when a multiple of ``every`` lies in ``(before, after]``."""
    return every > 0 and after // every > before // every


@dataclass
class Progress:
    """Where the run stands; saved in checkpoints."""

    examples: int = 0
    step: int = 0
    epoch: int = 0
    index: int = 0
    wall: float = 0.0
    history: list = field(default_factory=list)  # [(examples, top1, top5, test value MSE, held-out value MSE)]
    best_value: float = float("inf")             # the lowest held-out value MSE so far (best.pt)
    stale: int = 0                               # evaluations since it was reached


# --------------------------------------------------------------------------- trainer


class Trainer:
    """Owns model, optimizer, data order and files for one training run."""

    def __init__(self, config: TrainConfig, train_set: Dataset | None = None,
                 test_set: Dataset | None = None, dist: DistInfo | None = None):
        self.config = config
        self.dist = dist or DistInfo.from_env()
        self.device = self._pick_device()
        self._init_distributed()
        if train_set is None:
            train_set, opened_test = open_datasets(config)
            test_set = test_set if test_set is not None else opened_test
        self.train_set, self.test_set = train_set, test_set
        self.heldout_set = open_heldout(config) if config.data else None
        self.feature_set = dict(train_set.feature_set)
        planes, _ = unpack_batch(train_set[0])
        self.board_shape = tuple(planes.shape[-2:])
        self.schedule = LRSchedule.parse(config.lr_schedule)
        torch.manual_seed(config.seed)
        self.model_config = make_config(config.preset, in_planes=int(self.feature_set["planes"]),
                                        value_head=config.value_weight > 0, value_kind=config.value_kind,
                                        value_inputs=VALUE_INPUTS if config.value_inputs else 0)
        self.memory_format = torch.channels_last if config.channels_last else torch.contiguous_format
        self.net = PolicyNet(self.model_config).to(self.device, memory_format=self.memory_format)
        if config.freeze_trunk:
            for conv in self.net.convs:
                conv.requires_grad_(False)
        self.model = self._wrap(self.net)
        trainable = [q for q in self.net.parameters() if q.requires_grad]
        if config.optimizer == "adam":
            self.optimizer = torch.optim.Adam(trainable, lr=self.schedule.lr_at(0), weight_decay=config.weight_decay)
        else:
            self.optimizer = torch.optim.SGD(trainable, lr=self.schedule.lr_at(0),
                                             momentum=config.momentum, nesterov=config.nesterov,
                                             weight_decay=config.weight_decay)
        self.use_amp = config.amp and self.device.type == "cuda"
        from golois.nn.precision import missing_instructions
        # a frozen trunk only runs forward: bf16 on a CPU that has it, as at play time
        self.trunk_bf16 = (config.freeze_trunk and self.device.type == "cpu" and config.amp
                           and missing_instructions("bf16") is None)
        if self.device.type == "cuda":
            torch.backends.cudnn.benchmark = True  # one input shape throughout: let cuDNN time its kernels once
        self.scaler = torch.amp.GradScaler("cuda", enabled=self.use_amp)
        self.progress = Progress()
        self.last_loss = float("nan")
        self.last_value_loss = float("nan")
        self.last_ownership_loss = float("nan")
        self._value_sum = [0.0, 0]
        self._ownership_sum = [0.0, 0]
        self._checkpointed_at = -1
        if config.resume:
            self.load_checkpoint(self.checkpoint_path if config.resume == "auto" else config.resume)
            if self.dist.is_main:
                self._truncate_log()
        else:
            if os.path.exists(self.checkpoint_path):
                # a fresh run would overwrite it at its first checkpoint, and mix its log rows in
                raise FileExistsError(f"{self.checkpoint_path} holds another run: continue it with --resume, "
                                      "or give this run another --out-dir")
            if self.dist.is_main:
                self._truncate_log()        # a log without a checkpoint: its rows belong to no run
            if config.init_from:
                self.load_weights(config.init_from)

    # -- setup

    def _pick_device(self) -> torch.device:
        want = self.config.device
        if want == "auto":
            want = "cuda" if torch.cuda.is_available() else "cpu"
        if want == "cuda" and self.dist.enabled:
            return torch.device("cuda", self.dist.local_rank)
        return torch.device(want)

    def _init_distributed(self) -> None:
        if not self.dist.enabled or torch.distributed.is_initialized():
            return
        if self.device.type == "cuda":
            torch.cuda.set_device(self.device)
        backend = "nccl" if self.device.type == "cuda" else "gloo"
        torch.distributed.init_process_group(backend, rank=self.dist.rank, world_size=self.dist.world)

    def _wrap(self, net: PolicyNet) -> torch.nn.Module:
        if not self.dist.enabled:
            return net
        ids = [self.device.index] if self.device.type == "cuda" else None
        # a value head read from an --init-from file gets no gradient from the policy loss
        return torch.nn.parallel.DistributedDataParallel(net, device_ids=ids,
                                                         find_unused_parameters=net.value is not None)

    # -- paths

    @property
    def checkpoint_path(self) -> str:
        return os.path.join(self.config.out_dir, "checkpoint.pt")

    @property
    def model_path(self) -> str:
        return os.path.join(self.config.out_dir, "model.pt")

    @property
    def best_path(self) -> str:
        return os.path.join(self.config.out_dir, "best.pt")

    @property
    def csv_path(self) -> str:
        return os.path.join(self.config.out_dir, "log.csv")

    @property
    def png_path(self) -> str:
        return os.path.join(self.config.out_dir, "learning_curve.png")

    # -- data

    def current_lr(self) -> float:
        """Learning rate for the next step."""
        return self.schedule.lr_at(self.progress.examples) * lr_scale(self.config.batch_size,
                                                                      self.config.lr_scaling)

    def _loader(self) -> DataLoader:
        p = self.progress
        if hasattr(self.train_set, "set_epoch"):
            self.train_set.set_epoch(p.epoch)
        sampler = EpochSampler(len(self.train_set), self.config.seed, p.epoch, p.index,
                               self.dist.rank, self.dist.world)
        gen = torch.Generator().manual_seed(_mix(self.config.seed, p.epoch, p.index, self.dist.rank, 1))
        return DataLoader(self.train_set, batch_size=self.config.batch_size, sampler=sampler,
                          num_workers=self.config.workers, pin_memory=self.device.type == "cuda",
                          worker_init_fn=_worker_init, generator=gen,
                          persistent_workers=False, drop_last=False)

    def _prepare(self, batch) -> tuple:
        """(planes, moves, value) on the device: value is (target, weight), with (owners,
        weights) after them when the data has the ownership, or None without value data."""
        planes, moves = unpack_batch(batch)
        value, owners = unpack_value(batch), unpack_ownership(batch)
        moves = torch.as_tensor(moves).long().reshape(-1)
        if self.config.augment == "trainer":
            p = self.progress
            gen = torch.Generator().manual_seed(_mix(self.config.seed, p.epoch, p.index, self.dist.rank, 2))
            planes, moves = augment_batch(torch.as_tensor(planes), moves, gen)
        points = self.board_shape[0] * self.board_shape[1]
        keep = (moves >= 0) & (moves < points)  # a pass target has no output: skip it
        if not bool(keep.all()):
            planes, moves = planes[keep], moves[keep]
            value = None if value is None else (value[0][keep], value[1][keep])
            owners = None if owners is None else (owners[0][keep], owners[1][keep])
        nb = self.device.type == "cuda"
        planes = planes.to(self.device, non_blocking=nb).float().contiguous(memory_format=self.memory_format)
        if value is not None:
            value = tuple(torch.as_tensor(v).float().to(self.device, non_blocking=nb) for v in value)
        if owners is not None:
            value += tuple(torch.as_tensor(v).float().to(self.device, non_blocking=nb) for v in owners)
        return planes, moves.to(self.device, non_blocking=nb), value

    # -- one step

    def _forward(self, planes: torch.Tensor):
        """(policy logits or None with a frozen trunk, value or None, ownership map or None)."""
        if self.config.freeze_trunk:
            c = self.net.config.in_planes
            with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.trunk_bf16):
                trunk = self.net.trunk(planes[:, :c])
            inputs = planes[:, c:, 0, 0] if self.net.config.value_inputs else None
            return (None, *self.net.value(trunk.float(), inputs))
        with torch.autocast(self.device.type, dtype=torch.float16, enabled=self.use_amp):
            return self.model(planes, ownership=True)

    def train_step(self, planes: torch.Tensor, moves: torch.Tensor, lr: float, value=None) -> float:
        """One SGD step on a minibatch at rate ``lr``; returns the loss (policy plus weighted
        value, or the value's alone with a frozen trunk)."""
        for group in self.optimizer.param_groups:
            group["lr"] = lr
        self.optimizer.zero_grad(set_to_none=True)
        logits, v, owner = self._forward(planes)
        loss = policy_loss(logits, moves, self.config.loss) if logits is not None else 0.0
        if v is not None and value is not None:
            vl = value_loss(v, *value[:2])
            self.last_value_loss = float(vl.detach())
            loss = loss + self.config.value_weight * vl if logits is not None else vl
            if owner is not None and len(value) == 4 and self.config.ownership_weight > 0:
                ol = ownership_loss(owner, *value[2:])
                self.last_ownership_loss = float(ol.detach())
                loss = loss + self.config.ownership_weight * ol
        self.scaler.scale(loss).backward()
        if self.config.clip_grad > 0:
            self.scaler.unscale_(self.optimizer)
            torch.nn.utils.clip_grad_norm_(self.net.parameters(), self.config.clip_grad)
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return float(loss.detach())

    # -- main loop

    def train(self, max_steps: int | None = None) -> dict:
        """Train to ``config.max_examples`` (or stop after ``max_steps`` steps, as if killed).

        Returns a summary dict; writes the final model only when the run completes.
        """
        cfg, p = self.config, self.progress
        main = self.dist.is_main
        if main:
            os.makedirs(cfg.out_dir, exist_ok=True)
        bar = self._bar()
        loss_sum, loss_n, steps_done = 0.0, 0, 0
        t0 = time.perf_counter() - p.wall
        epoch_len = EpochSampler.epoch_length(len(self.train_set), self.dist.world)
        if epoch_len == 0:
            raise ValueError("the training set is smaller than the number of processes")
        while p.examples < cfg.max_examples:
            for batch in self._loader():
                planes, moves, value = self._prepare(batch)
                consumed = len(unpack_batch(batch)[1]) * self.dist.world
                lr = self.current_lr()
                self.last_value_loss = self.last_ownership_loss = float("nan")
                loss = self.train_step(planes, moves, lr, value) if len(moves) else float("nan")
                if self.last_value_loss == self.last_value_loss:
                    self._value_sum = [self._value_sum[0] + self.last_value_loss, self._value_sum[1] + 1]
                if self.last_ownership_loss == self.last_ownership_loss:
                    self._ownership_sum = [self._ownership_sum[0] + self.last_ownership_loss,
                                           self._ownership_sum[1] + 1]
                before = p.examples
                p.examples += consumed
                p.index += consumed
                p.step += 1
                p.wall = time.perf_counter() - t0
                steps_done += 1
                if loss == loss:
                    loss_sum, loss_n = loss_sum + loss, loss_n + 1
                    self.last_loss = loss if self.last_loss != self.last_loss else 0.98 * self.last_loss + 0.02 * loss
                if bar is not None:
                    bar.update(consumed)
                    bar.set_postfix(loss=f"{self.last_loss:.3f}", lr=f"{lr:.3g}", refresh=False)
                if p.index >= epoch_len:
                    p.epoch, p.index = p.epoch + 1, 0
                done = p.examples >= cfg.max_examples
                top1 = None
                if crossed(before, p.examples, cfg.eval_every) or (done and self.test_set is not None):
                    top1 = self.evaluate_and_record()
                if main and (top1 is not None or crossed(before, p.examples, cfg.log_every) or done):
                    self._log_row(loss_sum / loss_n if loss_n else float("nan"), lr, top1)
                    loss_sum, loss_n = 0.0, 0
                if crossed(before, p.examples, cfg.checkpoint_every):
                    self.save_checkpoint()
                if top1 is not None and self.stop_for_value():
                    done = True
                    cfg = dataclasses.replace(cfg, max_examples=p.examples)
                    self.config = cfg
                if done or (max_steps is not None and steps_done >= max_steps):
                    break
            if max_steps is not None and steps_done >= max_steps:
                break
        if bar is not None:
            bar.close()
        completed = p.examples >= cfg.max_examples
        if completed:
            if self._checkpointed_at != p.examples:
                self.save_checkpoint()
            self.save_final_model()
        self._barrier()
        return {"examples": p.examples, "steps": p.step, "completed": completed,
                "loss": self.last_loss, "history": list(p.history)}

    def _bar(self):
        if not (self.config.progress and self.dist.is_main):
            return None
        from tqdm import tqdm

        return tqdm(total=self.config.max_examples, initial=self.progress.examples, unit="ex",
                    unit_scale=True, dynamic_ncols=True, desc="train")

    def _barrier(self) -> None:
        if self.dist.enabled and torch.distributed.is_initialized():
            torch.distributed.barrier()

    # -- evaluation

    def evaluate(self, max_positions: int | None = None, dataset=None) -> tuple[float, float, int]:
        """(top-1, top-5, positions) of the current model on the test set (or `dataset`); the
        value's mean squared error on its counted positions goes to ``self.last_value_mse``, the
        share of them at moves 100-199 whose winner it predicts to ``self.last_winner``."""
        dataset = self.test_set if dataset is None else dataset
        self.last_value_mse = self.last_winner = float("nan")
        if dataset is None:
            return float("nan"), float("nan"), 0
        limit = min(len(dataset), max_positions or self.config.eval_positions)
        picked = np.linspace(0, len(dataset) - 1, limit).astype(int) if limit < len(dataset) else np.arange(len(dataset))
        subset = torch.utils.data.Subset(dataset, picked.tolist()) if limit < len(dataset) else dataset
        middle = None
        if hasattr(dataset, "move_numbers"):
            numbers = dataset.move_numbers(picked)
            middle = torch.as_tensor((numbers >= 100) & (numbers < 200))
        loader = DataLoader(subset, batch_size=max(self.config.batch_size, 256), shuffle=False,
                            num_workers=min(self.config.workers, 2))
        was_training = self.net.training
        self.net.eval()
        hit1 = hit5 = n = 0
        sq, weight, won, mid = 0.0, 0.0, 0.0, 0.0
        with torch.inference_mode():
            for batch in loader:
                planes, moves = unpack_batch(batch)
                planes = planes.to(self.device).float().contiguous(memory_format=self.memory_format)
                moves = torch.as_tensor(moves).long().reshape(-1).to(self.device)
                with torch.autocast(self.device.type, dtype=torch.float16, enabled=self.use_amp):
                    logits, v = self.net(planes)
                top = logits.float().topk(min(5, logits.shape[-1]), dim=-1).indices
                hit1 += int((top[:, 0] == moves).sum())
                hit5 += int((top == moves[:, None]).any(dim=1).sum())
                target = unpack_value(batch)
                if v is not None and target is not None:
                    w = target[1].float().to(self.device)
                    t = target[0].float().to(self.device)
                    sq += float((w * (v.float() - t) ** 2).sum())
                    weight += float(w.sum())
                    if middle is not None:
                        m = w * middle[n:n + len(moves)].to(self.device).float()
                        won += float((m * (torch.sign(v.float()) == t).float()).sum())
                        mid += float(m.sum())
                n += len(moves)
        self.net.train(was_training)
        if weight:
            self.last_value_mse = sq / weight
        if mid:
            self.last_winner = won / mid
        return (hit1 / n, hit5 / n, n) if n else (float("nan"), float("nan"), 0)

    def evaluate_and_record(self) -> float | None:
        """Rank 0 evaluates (the test set, and the held-out split for the value), stores the
        point in the history, keeps best.pt and redraws the curve."""
        top1 = None
        if self.dist.is_main and self.test_set is not None:
            top1, top5, n = self.evaluate()
            test_mse = self.last_value_mse
            held_mse = held_winner = float("nan")
            if self.heldout_set is not None:
                self.evaluate(dataset=self.heldout_set)
                held_mse, held_winner = self.last_value_mse, self.last_winner
            row = [self.progress.examples, top1, top5]
            self.progress.history.append(row + ([test_mse, held_mse, held_winner] if self.net.value is not None else []))
            watched = held_mse if held_mse == held_mse else test_mse
            if watched == watched:
                if watched < self.progress.best_value:
                    self.progress.best_value, self.progress.stale = watched, 0
                    self.save_final_model(self.best_path)
                else:
                    self.progress.stale += 1
            self._plot()
        self._barrier()
        return top1

    def stop_for_value(self) -> bool:
        """Early stopping: `value_patience` evaluations without a lower held-out value loss."""
        n = self.config.value_patience
        return n > 0 and self.progress.stale >= n

    # -- files

    def _log_row(self, loss: float, lr: float, top1: float | None) -> None:
        new = not os.path.exists(self.csv_path)
        vsum, vn = self._value_sum
        osum, on = self._ownership_sum
        self._value_sum, self._ownership_sum = [0.0, 0], [0.0, 0]
        last = self.progress.history[-1] if top1 is not None and self.progress.history else []

        def cell(x):
            return "" if x is None or x != x else f"{x:.6f}"
        with open(self.csv_path, "a", newline="") as f:
            w = csv.writer(f)
            if new:
                w.writerow(CSV_FIELDS)
            w.writerow([self.progress.examples, f"{loss:.6f}", f"{lr:.6g}",
                        "" if top1 is None else f"{top1:.6f}", f"{self.progress.wall:.2f}",
                        cell(vsum / vn if vn else None), cell(last[3] if len(last) > 3 else None),
                        cell(last[4] if len(last) > 4 else None), cell(last[5] if len(last) > 5 else None),
                        cell(osum / on if on else None)])

    def _truncate_log(self) -> None:
        """On resume, drop CSV rows written after the checkpoint (they will be redone)."""
        if not os.path.exists(self.csv_path):
            return
        with open(self.csv_path, newline="") as f:
            rows = list(csv.reader(f))
        keep = [r for r in rows[1:] if r and int(r[0]) <= self.progress.examples]
        with open(self.csv_path, "w", newline="") as f:
            csv.writer(f).writerows([list(CSV_FIELDS)] + keep)

    def _plot(self) -> None:
        plot_learning_curve(self.progress.history, self.png_path,
                            title=f"{self.model_config.preset} on {describe(self.train_set, self.config.data or '')}")

    def checkpoint_dict(self) -> dict:
        """Everything needed to continue the run exactly."""
        return {
            "format": CHECKPOINT_FORMAT, "version": CHECKPOINT_VERSION,
            "model_config": self.model_config.to_dict(), "feature_set": self.feature_set,
            "train_config": dataclasses.asdict(self.config),
            "model": self.net.state_dict(), "optimizer": self.optimizer.state_dict(),
            "scaler": self.scaler.state_dict(), "progress": dataclasses.asdict(self.progress),
            "last_loss": self.last_loss, "rng": rng_state(), "train_len": len(self.train_set),
        }

    def save_checkpoint(self) -> None:
        """Atomically write ``checkpoint.pt`` (rank 0 only)."""
        if self.dist.is_main:
            atomic_torch_save(self.checkpoint_dict(), self.checkpoint_path)
        self._checkpointed_at = self.progress.examples
        self._barrier()

    def load_checkpoint(self, path: str) -> None:
        """Restore weights, optimizer, scaler, progress and RNG states from ``path``."""
        blob = torch.load(path, map_location="cpu", weights_only=True)
        if blob.get("format") != CHECKPOINT_FORMAT:
            raise ValueError(f"{path} is not a training checkpoint")
        if ModelConfig.from_dict(blob["model_config"]) != self.model_config:
            raise ValueError(f"{path} holds a different model ({blob['model_config']}) "
                             f"than configured ({self.model_config.to_dict()})")
        if not same_features(blob["feature_set"], self.feature_set):
            raise ValueError(f"{path} was trained on features {blob['feature_set']}, "
                             f"the data has {self.feature_set}")
        if blob.get("train_len", len(self.train_set)) != len(self.train_set):
            raise ValueError(f"{path} was trained on {blob['train_len']} examples per epoch, the data has "
                             f"{len(self.train_set)}: the data order cannot be resumed")
        self.net.load_state_dict(blob["model"])
        self.optimizer.load_state_dict(blob["optimizer"])
        self.scaler.load_state_dict(blob["scaler"])
        self.progress = Progress(**blob["progress"])
        self.last_loss = blob.get("last_loss", float("nan"))
        self._checkpointed_at = self.progress.examples
        set_rng_state(blob["rng"])

    def load_weights(self, path: str) -> None:
        """Start from a saved model's weights (a fresh optimizer and schedule): how training
        goes on from a shipped network when no checkpoint of its run is at hand."""
        network = load_model(path)
        theirs_fs = network.feature_set or {}
        widen = not same_features(theirs_fs, self.feature_set) and extends(theirs_fs, self.feature_set)
        if not widen and not same_features(theirs_fs, self.feature_set):
            raise FeatureSetMismatch(theirs_fs, self.feature_set, path, what="model")
        trunk_keys = ("layers", "filters", "first_kernel", "kernel") + (() if widen else ("in_planes",))
        theirs, ours = network.model.config, self.model_config
        if any(getattr(theirs, k) != getattr(ours, k) for k in trunk_keys):
            raise ValueError(f"{path} holds a different model ({theirs.to_dict()}) "
                             f"than configured ({ours.to_dict()})")
        state = {k: v.float() for k, v in network.model.state_dict().items()}
        if widen:                                 # the new planes enter with zero weights
            first = state["convs.0.weight"]
            pad = first.new_zeros(first.shape[0], ours.in_planes - theirs.in_planes, *first.shape[2:])
            state["convs.0.weight"] = torch.cat([first, pad], dim=1)
            if self.dist.is_main:
                print(f"golois: {os.path.basename(path)} has the features {theirs_fs.get('name')}: "
                      f"the {ours.in_planes - theirs.in_planes} planes {self.feature_set.get('name')} "
                      "adds start with zero weights", file=sys.stderr)
        if (theirs.value_head, theirs.value_kind, theirs.value_inputs) != \
                (ours.value_head, ours.value_kind, ours.value_inputs):
            state = {k: v for k, v in state.items() if not k.startswith("value.")}
            if ours.value_head and self.dist.is_main:
                inputs = " with the colour and komi inputs" if ours.value_inputs else ""
                print(f"golois: {os.path.basename(path)} has no {ours.value_kind} value head{inputs}: "
                      "the value head starts from scratch", file=sys.stderr)
        missing, unexpected = self.net.load_state_dict(state, strict=False)
        if unexpected or any(not k.startswith("value.") for k in missing):
            raise ValueError(f"{path} does not fit the model: missing {missing}, unexpected {unexpected}")

    def accuracy_meta(self) -> dict:
        """The last measured test accuracy, for the model file."""
        if not self.progress.history:
            return {}
        examples, top1, top5 = self.progress.history[-1][:3]
        extra = {}
        if len(self.progress.history[-1]) > 4:
            extra = {k: v for k, v in zip(("test_value_mse", "heldout_value_mse", "heldout_winner_100_199"),
                                          self.progress.history[-1][3:6]) if v == v}
        return {"top1": top1, "top5": top5, "at_examples": examples, **extra,
                "positions": min(len(self.test_set), self.config.eval_positions) if self.test_set else 0,
                "test_data": describe(self.test_set, self.config.test_data or self.config.data or "")}

    def save_final_model(self, path: str | None = None) -> None:
        """Write ``model.pt`` (or `path`) with :func:`golois.nn.model.save_model` (rank 0 only)."""
        if not self.dist.is_main:
            return
        meta = ModelMeta(feature_set=self.feature_set,
                         trained_on=describe(self.train_set, self.config.data or ""),
                         examples=self.progress.examples, accuracy=self.accuracy_meta(),
                         extra={"train_config": dataclasses.asdict(self.config),
                                "lineage": lineage(dataclasses.asdict(self.config), self.progress.examples,
                                                   self.current_lr())})
        save_model(path or self.model_path, self.net, meta, fp16=self.config.fp16_weights)

