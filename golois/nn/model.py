"""The policy network (Cazenave's Golois network) and the narrow ``Network`` interface.

Start reading at :class:`ModelConfig` and :data:`PRESETS`, then
:class:`PolicyNet` (the ``nn.Module``), then :class:`Network` (what search and
evaluation code uses: numpy in, numpy out, never torch), then
:func:`save_model` / :func:`load_model`.

The paper's network (preset ``golois``): 12 convolutional layers of 256
filters, the first 5x5 and the others 3x3, 'same' padding, ReLU after every
layer but the last; the last layer has ONE filter whose output plane is the
vector of move logits (361 on 19x19).  The network is fully convolutional so
it runs on any board size.  An optional value head reads the trunk (the
activations entering the last policy conv) and predicts whether the player to
move wins, in [-1, 1] (`VALUE_KINDS`: ``pool`` is 1x1 conv, ReLU, global average
pooling, fc, ReLU, fc, tanh; ``conv`` puts a 3x3 conv and batch norms before it,
pools the mean and the max, and adds a per-point ownership map: `ValueHead`).  With
``value_inputs`` the head also reads the colour to move and the komi, given as two
constant planes after the feature planes (golois.datasets.features.value_input_planes;
`Network.evaluate(batch, black_to_move, komi)` appends them); the trunk never reads them,
so the policy is the same function of the features as without a head.  A file may carry a
temperature the value is read at (`temper`, fitted on held-out games so the win probabilities
are calibrated).

Bagging (``Network.evaluate_symmetric``): for each symmetry ``k`` of the
chosen set, the network is evaluated on the transformed board, its output is
mapped back to the original frame, and log-softmax outputs are AVERAGED over
the symmetries.  The average of log-probabilities is the log of the geometric
mean of the probabilities; it ranks moves exactly like the paper's sum over
symmetries, and it keeps the log-probability scale (one nat is one nat), which
the ladder adjustments in :mod:`golois.player.ladder_adjust` rely on.  Values are averaged.
The 1/4/8 sets are groups (identity / rotations / all), so bagging with 4 is
exactly equivariant to rotations and bagging with 8 to every symmetry.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from golois import symmetry
from golois.nn import precision as precisions
from golois.nn.registry import resolve_model
from golois.datasets.features import FeatureSetMismatch  # noqa: F401  (re-exported: one error type)
from golois.datasets.features import VALUE_INPUTS, value_input_planes

FORMAT_NAME = "golois-policy"
FORMAT_VERSION = 1
VALUE_KINDS = ("pool", "conv")


# --------------------------------------------------------------------------- config


@dataclass(frozen=True)
class ModelConfig:
    """Shape of a :class:`PolicyNet`; ``layers`` counts every conv including the last."""

    in_planes: int
    layers: int = 12
    filters: int = 256
    first_kernel: int = 5
    kernel: int = 3
    value_head: bool = False
    value_channels: int = 32
    value_hidden: int = 64
    value_kind: str = "pool"
    value_inputs: int = 0           # the value head's global inputs (0, or VALUE_INPUTS: colour, komi)
    preset: str = "custom"

    def __post_init__(self):
        if self.layers < 2:
            raise ValueError("a PolicyNet needs at least 2 conv layers")
        if self.in_planes < 1 or self.filters < 1:
            raise ValueError("in_planes and filters must be positive")
        if self.first_kernel % 2 == 0 or self.kernel % 2 == 0:
            raise ValueError("kernel sizes must be odd for 'same' padding")
        if self.value_kind not in VALUE_KINDS:
            raise ValueError(f"value_kind must be one of {VALUE_KINDS}, not {self.value_kind!r}")
        if self.value_inputs not in (0, VALUE_INPUTS):
            raise ValueError(f"value_inputs must be 0 or {VALUE_INPUTS}, not {self.value_inputs}")

    def to_dict(self) -> dict:
        """Plain dict (for checkpoints and model files)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "ModelConfig":
        """Inverse of :meth:`to_dict`, ignoring unknown keys."""
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})


#: name -> (layers, filters).  ``golois`` is the paper's network.
PRESETS: dict[str, tuple[int, int]] = {
    "golois": (12, 256),
    "medium": (10, 128),
    "small": (6, 64),
    "tiny": (3, 16),
}


def make_config(preset: str, in_planes: int, value_head: bool = False, **overrides) -> ModelConfig:
    """Build the :class:`ModelConfig` for a named preset (see :data:`PRESETS`)."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}; choose one of {sorted(PRESETS)}")
    layers, filters = PRESETS[preset]
    base = dict(in_planes=in_planes, layers=layers, filters=filters, value_head=value_head, preset=preset)
    base.update(overrides)
    return ModelConfig(**base)


# --------------------------------------------------------------------------- module


class ValueHead(nn.Module):
    """``pool``: 1x1 conv -> ReLU -> global average pool -> fc -> ReLU -> fc -> tanh.
    ``conv``: 3x3 conv (2 x channels) -> batch norm -> ReLU -> 1x1 conv -> batch norm -> ReLU,
    then a per-point ownership map (1x1 conv, tanh: +1 the player to move owns the point at the
    end); the mean and max of the channels and the mean ownership -> fc -> ReLU -> fc -> tanh.
    The batch norms make the head learn at one rate whatever the scale of the trunk's features;
    the ownership mean is a score estimate.  With `inputs` (VALUE_INPUTS: the colour to move and
    the komi, see `value_input_planes`) the inputs bias the 3x3 conv's channels (KataGo's global
    inputs) and enter the first linear layer."""

    def __init__(self, filters: int, channels: int, hidden: int, kind: str = "pool", inputs: int = 0):
        super().__init__()
        self.kind, self.inputs = kind, inputs
        if kind == "conv":
            self.conv3 = nn.Conv2d(filters, 2 * channels, 3, padding=1, bias=False)
            self.bn3 = nn.BatchNorm2d(2 * channels)
            self.conv = nn.Conv2d(2 * channels, channels, 1, bias=False)
            self.bn = nn.BatchNorm2d(channels)
            self.owner = nn.Conv2d(channels, 1, 1)
            self.fc1 = nn.Linear(2 * channels + 1 + inputs, hidden)
            if inputs:
                self.bias = nn.Linear(inputs, 2 * channels)
        else:
            self.conv = nn.Conv2d(filters, channels, 1)
            self.fc1 = nn.Linear(channels + inputs, hidden)
        self.fc2 = nn.Linear(hidden, 1)

    def forward(self, trunk: torch.Tensor, inputs: torch.Tensor | None = None):
        """``trunk[B,F,H,W], inputs[B,inputs] -> (value[B] in [-1, 1], ownership[B,H*W] in
        [-1, 1] or None)``."""
        owner = None
        if self.kind == "conv":
            h = self.bn3(self.conv3(trunk))
            if self.inputs:
                h = h + self.bias(inputs)[:, :, None, None]
            h = F.relu(self.bn(self.conv(F.relu(h))))
            owner = torch.tanh(self.owner(h)).flatten(1)
            v = torch.cat([h.mean(dim=(-2, -1)), h.amax(dim=(-2, -1)), owner.mean(dim=1, keepdim=True)], dim=1)
        else:
            v = F.relu(self.conv(trunk)).mean(dim=(-2, -1))
        if self.inputs:
            v = torch.cat([v, inputs], dim=1)
        return torch.tanh(self.fc2(F.relu(self.fc1(v)))).squeeze(-1), owner


class PolicyNet(nn.Module):
    """Plain stack of 'same' convs; ``forward(x) -> (logits[B, H*W], value[B] | None)``."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        self.config = config
        c = config
        convs = [nn.Conv2d(c.in_planes, c.filters, c.first_kernel, padding=c.first_kernel // 2)]
        for _ in range(c.layers - 2):
            convs.append(nn.Conv2d(c.filters, c.filters, c.kernel, padding=c.kernel // 2))
        convs.append(nn.Conv2d(c.filters, 1, c.kernel, padding=c.kernel // 2))
        self.convs = nn.ModuleList(convs)
        self.value = (ValueHead(c.filters, c.value_channels, c.value_hidden, c.value_kind, c.value_inputs)
                      if c.value_head else None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """He init for the ReLU layers, a small init for the linear last layer, zero biases."""
        for conv in self.convs[:-1]:
            nn.init.kaiming_normal_(conv.weight, nonlinearity="relu")
            nn.init.zeros_(conv.bias)
        last = self.convs[-1]
        nn.init.normal_(last.weight, std=0.01 / max(1, last.weight[0].numel()) ** 0.5)
        nn.init.zeros_(last.bias)

    def trunk(self, x: torch.Tensor) -> torch.Tensor:
        """Activations entering the last (policy) conv: every layer there ends in ReLU."""
        for conv in self.convs[:-1]:
            x = F.relu(conv(x))
        return x

    def _read(self, x: torch.Tensor):
        """(x as floats, the trunk's output on its feature planes): what both heads start from."""
        x = x.float() if not torch.is_floating_point(x) else x
        return x, self.trunk(x[:, :self.config.in_planes])

    def policy(self, x: torch.Tensor) -> torch.Tensor:
        """``x[B,C,H,W] -> policy_logits[B,H*W]``, the value head left out (C may hold the value
        head's input planes after the features; they are not read)."""
        return self.convs[-1](self._read(x)[1]).flatten(1)

    def heads(self, x: torch.Tensor):
        """``x[B,C,H,W] -> (policy_logits[B,H*W], value[B] or None, ownership[B,H*W] or None)``;
        C is in_planes, plus value_inputs constant planes (`value_input_planes`) when the value
        head has global inputs (without them the head reads zeros: a value for no side in
        particular).  No ReLU on the last policy layer."""
        x, h = self._read(x)
        c = self.config.in_planes
        logits = self.convs[-1](h).flatten(1)
        if self.value is None:
            return logits, None, None
        inputs = None
        if self.config.value_inputs:
            inputs = x[:, c:, 0, 0] if x.shape[1] > c else x.new_zeros(len(x), self.config.value_inputs)
        value, owner = self.value(h, inputs)
        return logits, value, owner

    def forward(self, x: torch.Tensor, ownership: bool = False):
        """``x[B,C,H,W] -> (policy_logits[B,H*W], value[B] or None)``, and the ownership map
        (or None) third when asked (see `heads`)."""
        logits, value, owner = self.heads(x)
        return (logits, value, owner) if ownership else (logits, value)


# --------------------------------------------------------------------------- interface


class Network:
    """What search and evaluation code uses: numpy batches in, numpy logits out.

    ``evaluate(batch[B,C,H,W]) -> (logits[B,H*W] float32, value[B] float32 | None)``.
    `precision` (golois.nn.precision) says how it runs: fp32, bf16 or int8 (`auto` picks the
    fastest this machine runs natively); `calibration` is what int8 needs.
    """

    def __init__(self, model: PolicyNet, device: str | torch.device = "cpu",
                 meta: Mapping[str, Any] | None = None, precision: str = "fp32",
                 calibration: dict | None = None, log=sys.stderr):
        self.device = torch.device(device)
        self.model = model.to(self.device, torch.float32).eval()
        self.meta = dict(meta or {})
        self.precision, note = precisions.choose(precision, self.device, calibration is not None)
        if note and log is not None:
            print(f"golois: --precision {precision}: {note}", file=log)
        elif precision == "auto" and log is not None:
            print(f"golois: --precision auto: {self.precision}", file=log)
        self._forward = precisions.runner(self.model, self.precision, self.device, calibration)
        #: the value is read at this temperature (`temper`; 1: as the head gives it)
        self.value_temperature = float((self.meta.get("extra") or {}).get("value_temperature", 1.0))

    @property
    def config(self) -> ModelConfig:
        """The model's :class:`ModelConfig`."""
        return self.model.config

    @property
    def feature_set(self) -> dict | None:
        """The feature set dict the model was trained with (from its metadata)."""
        return self.meta.get("feature_set")

    @property
    def has_value(self) -> bool:
        """Whether the model has a value head."""
        return self.model.value is not None

    @property
    def has_value_inputs(self) -> bool:
        """Whether the value head reads the colour to move and the komi."""
        return self.has_value and self.config.value_inputs > 0

    def with_inputs(self, batch: np.ndarray, black_to_move=None, komi=None) -> np.ndarray:
        """The feature planes `batch` [B,C,H,W] with the value head's input planes appended when
        the head has global inputs (`value_input_planes`; `black_to_move` a bool or one per
        position, `komi` the game's).  Without them a head with inputs reads zeros: its value
        is then for no side in particular, which policy-only callers never look at."""
        batch = np.asarray(batch)
        if batch.ndim == 3:
            raise ValueError("evaluate expects a batch [B,C,H,W]; add a leading axis")
        if not self.has_value_inputs or batch.shape[1] != self.config.in_planes:
            return batch
        if black_to_move is None:
            extra = np.zeros((len(batch), self.config.value_inputs, *batch.shape[2:]), np.float32)
        else:
            black = np.broadcast_to(np.asarray(black_to_move, bool), (len(batch),))
            extra = value_input_planes(black, 0.0 if komi is None else komi, batch.shape[2:])
        return np.concatenate([batch.astype(np.float32, copy=False), extra], axis=1)

    def _run(self, batch: np.ndarray):
        x = torch.as_tensor(np.asarray(batch)).to(self.device, torch.float32)
        if x.ndim == 3:
            raise ValueError("evaluate expects a batch [B,C,H,W]; add a leading axis")
        with torch.inference_mode():
            return self._forward(x)

    def evaluate(self, batch: np.ndarray, black_to_move=None, komi=None):
        """Raw policy logits ``[B,H*W]`` and value ``[B]`` (or None, read at `value_temperature`)
        as float32 numpy; a value head with global inputs reads `black_to_move` and `komi`
        (`with_inputs`)."""
        logits, value = self._run(self.with_inputs(batch, black_to_move, komi))
        return logits.cpu().numpy(), (self._tempered(value) if value is not None else None)

    def _tempered(self, value: torch.Tensor) -> np.ndarray:
        return temper(value.cpu().numpy(), self.value_temperature)

    @property
    def has_ownership(self) -> bool:
        """Whether the value head has an ownership map (a ``conv`` head)."""
        return self.has_value and self.config.value_kind == "conv"

    def value_ownership(self, batch: np.ndarray, black_to_move=None, komi=None):
        """The value ``[B]`` and the ownership map ``[B,H*W]`` (+1: the player to move owns the
        point at the end) of one fp32 pass; the map is None for a head without one (``pool``)."""
        if not self.has_value:
            raise ValueError("the network has no value head")
        x = torch.as_tensor(self.with_inputs(batch, black_to_move, komi)).to(self.device, torch.float32)
        with torch.inference_mode():
            _, value, owner = self.model.heads(x)
        return self._tempered(value), (owner.cpu().numpy() if owner is not None else None)

    def ownership(self, batch: np.ndarray, black_to_move=None, komi=None) -> np.ndarray | None:
        """The value head's ownership map ``[B,H*W]`` (see `value_ownership`); None when the
        network has none (no head, or a ``pool`` head)."""
        if not self.has_ownership:
            return None
        return self.value_ownership(batch, black_to_move, komi)[1]

    def evaluate_symmetric(self, batch: np.ndarray, symmetries: int = 8, black_to_move=None, komi=None):
        """Bagged evaluation over 1, 4 (rotations) or 8 symmetries.

        Returns ``(scores[B,H*W], value[B] | None)`` where ``scores`` is the mean over
        the symmetries of the log-softmax of the network's output, mapped back to the
        original frame (a log-probability scale; argmax equals the paper's sum).
        """
        batch = self.with_inputs(batch, black_to_move, komi)
        ks = symmetry.symmetry_set(symmetries)
        n = len(batch)
        # every symmetry of every position in one forward pass: [k0 of all, k1 of all, ...]
        logits, value = self._run(np.concatenate([symmetry.apply(batch, k) for k in ks]))
        logp = torch.log_softmax(logits, dim=-1)
        total = sum(symmetry.inverse_logits(logp[i * n:(i + 1) * n], k) for i, k in enumerate(ks))
        scores = (total / len(ks)).cpu().numpy()
        if value is None:
            return scores, None
        return scores, self._tempered(value).reshape(len(ks), n).mean(0)


def temper(value: np.ndarray, temperature: float) -> np.ndarray:
    """The value in [-1, 1] read at a temperature: tanh(atanh(value) / temperature), float32.
    Below 1 it sharpens the head's win probabilities, above 1 it softens them; the sign (the
    predicted winner) never changes.  `golois value --fit-temperature` fits it on held-out games
    (golois.eval.value.fit_temperature) and stores it in the file (meta.extra.value_temperature)."""
    value = np.asarray(value, np.float32)
    if temperature == 1.0:
        return value
    logit = np.arctanh(np.clip(value, -1 + 1e-6, 1 - 1e-6))
    return np.tanh(logit / temperature).astype(np.float32)


# --------------------------------------------------------------------------- files


@dataclass
class ModelMeta:
    """What a model file says about itself besides its weights."""

    feature_set: dict
    trained_on: str = ""
    examples: int = 0
    accuracy: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)

    def __post_init__(self):
        check_feature_set(self.feature_set)


def check_feature_set(fs: Mapping) -> None:
    """Raise ValueError unless ``fs`` is ``{"name": str, "version": int, "planes": int}``."""
    if not isinstance(fs, Mapping) or not {"name", "version", "planes"} <= set(fs):
        raise ValueError(f"feature set must be a dict with name, version, planes; got {fs!r}")


def same_features(a: Mapping, b: Mapping) -> bool:
    """Feature sets are the same when name, version and plane count agree."""
    return all(a.get(k) == b.get(k) for k in ("name", "version", "planes"))


def atomic_torch_save(obj: Any, path: str | os.PathLike) -> None:
    """``torch.save`` to a temporary file in the same folder, then ``os.replace``."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".pt", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            torch.save(obj, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def save_model(path: str | os.PathLike, model: PolicyNet | Network, meta: ModelMeta | Mapping,
               fp16: bool = False) -> None:
    """Write weights, config and metadata to ``path`` atomically (fp16 weights if asked)."""
    net = model.model if isinstance(model, Network) else model
    if isinstance(model, nn.parallel.DistributedDataParallel):
        net = model.module
    meta = meta if isinstance(meta, ModelMeta) else ModelMeta(**dict(meta))
    dtype = torch.float16 if fp16 else torch.float32
    state = {k: v.detach().to("cpu", dtype) if torch.is_floating_point(v) else v.detach().cpu()
             for k, v in net.state_dict().items()}
    atomic_torch_save({
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "config": net.config.to_dict(),
        "preset": net.config.preset,
        "weights_dtype": "float16" if fp16 else "float32",
        "state_dict": state,
        "meta": dataclasses.asdict(meta),
    }, path)


def read_model_file(path: str | os.PathLike, map_location: str = "cpu") -> dict:
    """The raw dict stored by :func:`save_model` (checked for format)."""
    return check_model_blob(torch.load(os.fspath(path), map_location=map_location, weights_only=True), path)


def check_model_blob(blob: Any, path: str | os.PathLike = "") -> dict:
    """``blob`` (what torch.load read from ``path``) if it is a :func:`save_model` dict of a
    format version this code reads; ValueError otherwise."""
    if not isinstance(blob, dict) or blob.get("format") != FORMAT_NAME:
        raise ValueError(f"{path} is not a {FORMAT_NAME} file")
    if blob.get("format_version", 0) > FORMAT_VERSION:
        raise ValueError(f"{path} has format version {blob['format_version']}, newer than {FORMAT_VERSION}")
    return blob


def load_model(path: str | os.PathLike, map_location: str = "cpu",
               expect_features: Mapping | None = None, precision: str = "fp32", log=sys.stderr) -> Network:
    """Load a model file as a :class:`Network` on ``map_location``, run at ``precision``
    (golois.nn.precision; int8 reads the calibration file beside the weights).

    Raises :class:`FeatureSetMismatch` when ``expect_features`` differs from the file's.
    """
    blob = read_model_file(path, map_location="cpu")
    meta = blob["meta"]
    if expect_features is not None and not same_features(meta.get("feature_set") or {}, expect_features):
        raise FeatureSetMismatch(meta.get("feature_set"), expect_features, os.fspath(path), what="model")
    config = ModelConfig.from_dict(blob["config"])
    net = PolicyNet(config)
    net.load_state_dict({k: v.float() if torch.is_floating_point(v) else v
                         for k, v in blob["state_dict"].items()})
    calibration = None
    if precision in ("auto", "int8") and torch.device(map_location).type == "cpu":
        calibration = precisions.load_calibration(path)
    return Network(net, device=map_location, meta=meta, precision=precision, calibration=calibration, log=log)


def store_value_temperature(path: str | os.PathLike, temperature: float, fitted_on: str) -> None:
    """Write the temperature the value is read at (`temper`) into a model file's meta
    (extra.value_temperature, and what it was fitted on), atomically; the weights stay as they are."""
    blob = read_model_file(path)
    extra = blob["meta"]["extra"] = blob["meta"].get("extra") or {}     # (extra may be None, as Network reads it)
    extra["value_temperature"] = float(temperature)
    extra["value_temperature_fitted_on"] = fitted_on
    atomic_torch_save(blob, path)


def load_network(model: str | os.PathLike, threads: int = 1, precision: str = "fp32") -> Network:
    """The network of a --model value (golois.nn.registry: full, small or a path) at a precision
    (fp32, bf16, int8 or auto: golois.nn.precision), run on `threads` CPU threads (0: torch's
    default)."""
    if threads > 0:
        torch.set_num_threads(threads)
    return load_model(str(resolve_model(model)), precision=precision)
