"""How a Network runs: its precision (fp32, bf16, int8, or `auto`) and the forward pass of each.

`runner(model, precision, device, calibration)` returns the function `x[B,C,H,W] -> (logits,
value)` that golois.nn.model.Network calls; nothing outside golois.nn knows which one runs.

- `fp32`: the model as trained (channels-last on the CPU, where oneDNN is faster so).
- `bf16`: autocast to bfloat16 (the weights stay fp32; convolutions run in bf16 where the
  CPU has AVX-512 BF16 or AMX, and CUDA as usual).
- `int8`: PyTorch's static post-training quantization for the x86 backend (FX graph mode:
  per-channel int8 weights, activations quantized with ranges calibrated on KGS training
  positions).  The ranges ship beside the weights (`golois-full.int8.pt` beside
  `golois-full.pt`, made by `python -m golois.nn.calibrate full ARCHIVES`), so quantizing at
  load time is deterministic and takes about two seconds; the kernels need AVX-512 VNNI or
  AVX-VNNI.  The small network ships none: int8 lost 1.1 points of its top-1 on 1,000
  sample positions (the full network: none lost, its top-1 move differs on 4.4%).
- `auto`: on the CPU the fastest precision the processor runs natively whose accuracy holds:
  int8 where VNNI and a calibration file are there, else bf16 where AVX-512 BF16 is, else
  fp32; on CUDA bf16 (fp16 where bf16 is not supported).

A precision the machine cannot run falls back (to fp32 on the CPU) with a message, never an
error.  Speeds and accuracies: docs/results.md (`python bench/network_speed.py`).
"""

from __future__ import annotations

import copy
import functools
import hashlib
import os
import sys
import warnings
from pathlib import Path
from typing import Callable, Iterable

import numpy as np
import torch
from torch import nn

from golois.nn.registry import PRECISIONS

CALIBRATION_FORMAT = "golois-int8-calibration"
CALIBRATION_VERSION = 1


# --------------------------------------------------------------------------- the machine


@functools.lru_cache(maxsize=None)
def cpu_flags() -> frozenset[str]:
    """The CPU's instruction-set flags (Linux /proc/cpuinfo; empty elsewhere)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return frozenset(line.split(":", 1)[1].split())
    except OSError:
        pass
    return frozenset()


def missing_instructions(precision: str) -> str | None:
    """Why this CPU does not run `precision` natively, or None when it does."""
    flags = cpu_flags()
    if precision == "bf16" and not flags & {"avx512_bf16", "amx_bf16"}:
        return "bf16 needs AVX-512 BF16 or AMX"
    if precision == "int8":
        if "x86" not in torch.backends.quantized.supported_engines:
            return "int8 needs PyTorch's x86 quantized engine"
        if not flags & {"avx512_vnni", "avx_vnni", "amx_int8"}:
            return "int8 needs AVX-512 VNNI or AVX-VNNI"
    return None


def calibration_path(weights: str | os.PathLike) -> Path:
    """The int8 calibration file beside a weights file: golois-full.pt -> golois-full.int8.pt."""
    p = Path(weights)
    return p.with_name(p.stem + ".int8.pt")


def choose(precision: str, device: torch.device, calibrated: bool) -> tuple[str, str | None]:
    """(the precision that will run, a message saying why it differs from the request, or None)."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {PRECISIONS}, not {precision!r}")
    if device.type == "cuda":
        half = "bf16" if torch.cuda.is_bf16_supported() else "fp16"
        if precision in ("auto", "bf16"):
            return half, None if precision == "auto" or half == "bf16" else "bf16 is not supported here: fp16"
        if precision == "int8":
            return half, f"int8 runs on the CPU only: {half} on CUDA"
        return "fp32", None
    if precision == "auto":
        if calibrated and missing_instructions("int8") is None:
            return "int8", None
        return ("bf16" if missing_instructions("bf16") is None else "fp32"), None
    why = missing_instructions(precision)
    if why is None and precision == "int8" and not calibrated:
        why = "int8 needs a calibration file beside the weights (python -m golois.nn.calibrate)"
    return ("fp32", f"{why}: fp32") if why else (precision, None)


# --------------------------------------------------------------------------- forward passes


class Traceable(nn.Module):
    """The model's forward without data-dependent branches (for FX quantization):
    ``x -> logits`` or ``(logits, value)``."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.convs, self.value = model.convs, model.value
        self.planes, self.inputs = model.config.in_planes, model.config.value_inputs

    def forward(self, x: torch.Tensor):
        g = x[:, self.planes:, 0, 0] if self.inputs else None
        x = x[:, :self.planes]
        for conv in self.convs[:-1]:
            x = torch.relu(conv(x))
        logits = self.convs[-1](x).flatten(1)
        return logits if self.value is None else (logits, self.value(x, g)[0])


def _pair(out) -> tuple[torch.Tensor, torch.Tensor | None]:
    return out if isinstance(out, tuple) else (out, None)


def runner(model: nn.Module, precision: str, device: torch.device,
           calibration: dict | None = None) -> Callable[[torch.Tensor], tuple]:
    """The forward pass of `model` (fp32, in eval mode, on `device`) at a chosen precision (see
    `choose`): ``x[B,C,H,W] float32 -> (logits float32, value float32 | None)``."""
    model.eval()
    if precision == "int8":
        return _int8(model, calibration)
    cpu = device.type == "cpu"
    if cpu:
        model.to(memory_format=torch.channels_last)
    dtype = {"bf16": torch.bfloat16, "fp16": torch.float16}.get(precision)

    def forward(x: torch.Tensor):
        if cpu:
            x = x.contiguous(memory_format=torch.channels_last)
        if dtype is None:
            logits, value = model(x)
        else:
            with torch.autocast(device.type, dtype=dtype):
                logits, value = model(x)
        return logits.float(), (value.float() if value is not None else None)
    return forward


def _prepare(model: nn.Module):
    """The model with observers in front of every quantized op (x86 backend): per-channel
    symmetric int8 weights; activations quint8 over their full range, from histograms; the
    last conv (the logits, 1/200 of the work) and the value head in fp32.  On 1,000 sample positions the full
    network's top-1 agreed with fp32's on 94.1% with the x86 default (7-bit activations, for
    CPUs without VNNI) and on 95.6-96.7% with 8 bits.  ONNX Runtime's static int8 (QDQ,
    per-channel, percentile calibration, the last conv in fp32) ran at the same speed and
    agreed on 98.35% of 2,000: not taken, for the two dependencies it adds (onnx, onnxruntime)."""
    from torch.ao.quantization import QConfig, QConfigMapping
    from torch.ao.quantization.observer import HistogramObserver, PerChannelMinMaxObserver
    from torch.ao.quantization.quantize_fx import prepare_fx
    torch.backends.quantized.engine = "x86"
    qconfig = QConfig(activation=HistogramObserver.with_args(reduce_range=False),
                      weight=PerChannelMinMaxObserver.with_args(dtype=torch.qint8, qscheme=torch.per_channel_symmetric))
    example = torch.zeros(1, model.config.in_planes + model.config.value_inputs, 19, 19)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")               # the deprecation notes of torch.ao.quantization
        mapping = QConfigMapping().set_global(qconfig).set_module_name(f"convs.{len(model.convs) - 1}", None) \
            .set_module_name("value", None)
        return prepare_fx(Traceable(copy.deepcopy(model)).eval(), mapping, example_inputs=(example,))


def _int8(model: nn.Module, calibration: dict):
    from torch.ao.quantization.quantize_fx import convert_fx
    prepared = _prepare(model)
    missing, unexpected = prepared.load_state_dict(calibration["observers"], strict=False)
    if unexpected or any("activation_post_process" in k for k in missing):
        raise ValueError("the int8 calibration does not fit this network")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        quantized = convert_fx(prepared)

    def forward(x: torch.Tensor):
        logits, value = _pair(quantized(x.float()))
        return logits.float(), (value.float() if value is not None else None)
    return forward


# --------------------------------------------------------------------------- calibration


def weights_digest(path: str | os.PathLike) -> str:
    """sha256 of a weights file: a calibration file names the weights it was made for."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def calibrate(model: nn.Module, batches: Iterable[np.ndarray]) -> dict:
    """The activation ranges of `model` (fp32) over the batches (planes [B,C,H,W]): the
    observers' state, which `runner(..., "int8", calibration)` reads."""
    prepared = _prepare(model)
    with torch.inference_mode():
        for planes in batches:
            prepared(torch.as_tensor(np.asarray(planes, dtype=np.float32)))
    return {k: v for k, v in prepared.state_dict().items() if "activation_post_process" in k}


def write_calibration(weights: str | os.PathLike, observers: dict, **about) -> Path:
    """Write `calibrate`'s observers beside `weights` (calibration_path), with what they were
    made from (`about`: positions, archives...); returns the file's path."""
    out = calibration_path(weights)
    torch.save({"format": CALIBRATION_FORMAT, "version": CALIBRATION_VERSION,
                "weights_sha256": weights_digest(weights), "observers": observers, **about}, out)
    return out


def load_calibration(weights: str | os.PathLike) -> dict | None:
    """The calibration file beside `weights` if there is one made for these weights, else None."""
    path = calibration_path(weights)
    if not path.is_file():
        return None
    blob = torch.load(path, map_location="cpu", weights_only=True)
    if not isinstance(blob, dict) or blob.get("format") != CALIBRATION_FORMAT:
        raise ValueError(f"{path} is not a {CALIBRATION_FORMAT} file")
    if blob.get("weights_sha256") != weights_digest(weights):
        print(f"golois: {path.name} was made for other weights than {Path(weights).name}: not used",
              file=sys.stderr)
        return None
    return blob
