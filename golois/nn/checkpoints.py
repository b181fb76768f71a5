"""Model files made from training checkpoints: export one, or average several.

Start with :func:`export_checkpoint` (``train.py --export CHECKPOINT MODEL``: a model file from a
checkpoint, e.g. of a run still going on), then :func:`average_weights` (``train.py --average
MODEL INPUT...``: the element-wise mean of the weights of several checkpoints or model files of
one network, as in stochastic weight averaging, Izmailov et al. 2018, "Averaging weights leads
to wider optima and better generalization").

Averaging is meant for snapshots of one run taken along a stretch at a constant learning rate
(copies of ``checkpoint.pt``); the policy network has no batch normalisation, so the mean
weights need no statistics pass.  Inputs must share the model config and the feature set.
"""

from __future__ import annotations

import os
from typing import Sequence

import torch

from golois.nn.model import (ModelConfig, ModelMeta, PolicyNet, check_model_blob, read_model_file, same_features,
                             save_model)
from golois.nn.train_config import LRSchedule

CHECKPOINT_FORMAT = "golois-checkpoint"


def _is_checkpoint(blob) -> bool:
    return isinstance(blob, dict) and blob.get("format") == CHECKPOINT_FORMAT


def _load_weights(path: str) -> tuple[dict, dict, dict, int, dict]:
    """(state dict in float32, model config dict, feature set, examples, train config) of a
    training checkpoint or of a model file (read once)."""
    blob = torch.load(os.fspath(path), map_location="cpu", weights_only=True)
    if _is_checkpoint(blob):
        state, config = blob["model"], blob["model_config"]
        features, examples = blob["feature_set"], int(blob["progress"]["examples"])
        train = blob.get("train_config") or {}
    else:
        blob = check_model_blob(blob, path)
        state, config, meta = blob["state_dict"], blob["config"], blob["meta"]
        features, examples = meta.get("feature_set") or {}, int(meta.get("examples") or 0)
        train = (meta.get("extra") or {}).get("train_config") or {}
    state = {k: v.float() if torch.is_floating_point(v) else v for k, v in state.items()}
    return state, config, features, examples, train


def export_checkpoint(checkpoint: str, out: str, fp16: bool = True) -> ModelMeta:
    """Write a model file (golois.nn.model.save_model) from a training checkpoint, e.g. of a run
    still going on; returns its metadata."""
    blob = torch.load(checkpoint, map_location="cpu", weights_only=True)
    if not _is_checkpoint(blob):
        raise ValueError(f"{checkpoint} is not a training checkpoint")
    net = PolicyNet(ModelConfig.from_dict(blob["model_config"]))
    net.load_state_dict(blob["model"])
    progress, train = blob["progress"], blob["train_config"]
    accuracy = {}
    if progress.get("history"):
        examples, top1, top5 = progress["history"][-1][:3]
        accuracy = {"top1": top1, "top5": top5, "at_examples": examples,
                    "positions": train.get("eval_positions"), "test_data": train.get("test_data") or
                    f"test split of {train.get('data')}"}
    meta = ModelMeta(feature_set=blob["feature_set"], trained_on=str(train.get("data") or ""),
                     examples=int(progress["examples"]), accuracy=accuracy,
                     extra={"train_config": train, "lineage": lineage(train, int(progress["examples"]))})
    save_model(out, net, meta, fp16=fp16)
    return meta


def lineage(train_config: dict, examples: int, lr_at_end: float | None = None) -> dict:
    """The runs behind a model: its `init_from` file's lineage (or that file's examples as one
    earlier step) and this run (examples, schedule, the rate it ended at), so that the next
    step started from the model goes on with the schedule where this one left it."""
    init = train_config.get("init_from")
    prior = {"examples_total": 0, "steps": []}
    if init and os.path.exists(init):
        meta = read_model_file(init)["meta"]
        prior = (meta.get("extra") or {}).get("lineage") or \
            {"examples_total": int(meta.get("examples") or 0),
             "steps": [{"examples": int(meta.get("examples") or 0), "model": os.path.basename(init)}]}
    if lr_at_end is None and train_config.get("lr_schedule"):
        lr_at_end = LRSchedule.parse(train_config["lr_schedule"]).lr_at(examples)
    step = {"examples": examples, "lr_schedule": train_config.get("lr_schedule"), "lr_at_end": lr_at_end,
            "value_weight": train_config.get("value_weight"), "ownership_weight": train_config.get("ownership_weight"),
            "init_from": os.path.basename(init) if init else None, "data": train_config.get("data")}
    return {"examples_total": int(prior["examples_total"]) + examples, "steps": list(prior["steps"]) + [step]}


def average_weights(inputs: Sequence[str], out: str, fp16: bool = True) -> ModelMeta:
    """Write a model file whose weights are the mean of those of ``inputs`` (training
    checkpoints or model files of the same network); returns its metadata.  ``examples`` is the
    largest of the inputs'; the inputs are listed in ``meta.extra["averaged"]``; the accuracy is
    left empty (measure it with ``golois accuracy``).  Raises ValueError for fewer than two
    inputs or inputs of different networks."""
    if len(inputs) < 2:
        raise ValueError("averaging needs at least two inputs")
    total, first_config, first_features, train = None, None, None, {}
    listed = []
    for path in inputs:
        state, config, features, examples, train_config = _load_weights(path)
        if first_config is None:
            first_config, first_features, train = config, features, train_config
            total = {k: v.clone() for k, v in state.items()}
        else:
            if ModelConfig.from_dict(config) != ModelConfig.from_dict(first_config):
                raise ValueError(f"{path} is a different model from {inputs[0]}")
            if not same_features(features, first_features):
                raise ValueError(f"{path} has other input features than {inputs[0]}")
            for k, v in state.items():
                total[k] += v
        listed.append({"path": os.path.basename(os.fspath(path)), "examples": examples})
    net = PolicyNet(ModelConfig.from_dict(first_config))
    net.load_state_dict({k: v / len(inputs) if torch.is_floating_point(v) else v for k, v in total.items()})
    meta = ModelMeta(feature_set=first_features, trained_on=str(train.get("data") or ""),
                     examples=max(x["examples"] for x in listed), accuracy={},
                     extra={"train_config": train, "averaged": listed})
    save_model(out, net, meta, fp16=fp16)
    return meta
