"""Tests for golois.nn.training: schedule, sampler, learning, exact resume, files, CLI."""

import csv
import dataclasses
import os
import subprocess
import sys
import types

import numpy as np
import pytest
import torch

from golois.nn import train_cli, training
from golois.datasets.features import FeatureSetMismatch
from golois.nn.model import load_model
from golois.nn.train_config import LRSchedule, TrainConfig, lr_scale, parse_count
from golois.nn.training import EpochSampler, Trainer, augment_batch
from tests.synthetic_data import FEATURES, MarkedMoves

torch.set_num_threads(1)


def cfg(tmp_path, **kw):
    base = dict(out_dir=str(tmp_path / "run"), preset="tiny", batch_size=32, lr_schedule="0.1@0",
                max_examples=640, checkpoint_every=160, eval_every=320, eval_positions=64,
                log_every=64, workers=0, progress=False, seed=3)
    base.update(kw)
    return TrainConfig(**base)


def weights(trainer):
    return {k: v.clone() for k, v in trainer.net.state_dict().items()}


def test_schedule_and_counts():
    s = LRSchedule.parse("0.2@0,0.1@1M,0.05@2.5M,0.025@3e6")
    assert [s.lr_at(x) for x in (0, 999_999, 1_000_000, 2_600_000, 10**9)] == [0.2, 0.2, 0.1, 0.05, 0.025]
    assert parse_count("250k") == 250_000 and parse_count("1G") == 10**9
    with pytest.raises(ValueError):
        LRSchedule.parse("0.1@5")
    assert lr_scale(64, "none") == 1 and lr_scale(64, "sqrt") == 8 and lr_scale(64, "linear") == 64
    with pytest.raises(ValueError):
        TrainConfig(loss="hinge")
    with pytest.raises(ValueError):
        TrainConfig(test_split="validation")


def test_sampler_resume_and_ranks():
    full = list(EpochSampler(10, seed=1, epoch=2))
    assert sorted(full) == list(range(10)) and full != list(range(10))
    assert list(EpochSampler(10, seed=1, epoch=2, start=4)) == full[4:]
    assert list(EpochSampler(10, seed=1, epoch=3)) != full
    r0 = list(EpochSampler(11, 1, 0, 2, rank=0, world=2))
    r1 = list(EpochSampler(11, 1, 0, 2, rank=1, world=2))
    perm = EpochSampler(11, 1, 0).permutation().tolist()
    assert len(r0) == len(r1) == 4 and r0 == perm[2:10:2] and r1 == perm[3:10:2]


def test_augment_batch_keeps_labels_consistent():
    ds = MarkedMoves(n=64, size=7)
    planes = torch.from_numpy(ds.planes)
    moves = torch.from_numpy(ds.moves)
    p2, m2 = augment_batch(planes, moves, torch.Generator().manual_seed(0))
    assert not torch.equal(p2, planes)
    marker = p2[:, 1].reshape(64, -1).argmax(-1)
    assert torch.equal(marker, m2)


@pytest.mark.parametrize("loss", ["xent", "mse"])
def test_loss_falls_and_files(tmp_path, loss):
    train, test = MarkedMoves(n=1024, seed=0), MarkedMoves(n=128, seed=1)
    lr = "0.1@0" if loss == "xent" else "0.001@0"  # the sum-of-squares loss needs a smaller rate
    c = cfg(tmp_path, max_examples=3072, lr_schedule=lr, momentum=0.9, eval_every=1024,
            checkpoint_every=1024, eval_positions=128, loss=loss, fp16_weights=True)
    trainer = Trainer(c, train, test)
    top1_before, _, _ = trainer.evaluate()
    out = trainer.train()
    assert out["completed"] and out["examples"] >= 3072
    top1_after = trainer.progress.history[-1][1]
    assert top1_after > max(0.5, top1_before + 0.3), (top1_before, top1_after)
    with open(trainer.csv_path) as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == list(training.CSV_FIELDS)
    losses = [float(r["loss"]) for r in rows]
    assert losses[-1] < 0.9 * losses[0]
    assert sum(1 for r in rows if r["test_top1"]) == 3
    assert (tmp_path / "run" / "learning_curve.png").stat().st_size > 1000
    net = load_model(trainer.model_path, expect_features=FEATURES)
    assert net.meta["examples"] == out["examples"] and net.meta["trained_on"].startswith("synthetic")
    assert net.meta["accuracy"]["top1"] == pytest.approx(top1_after)


def run_killed_then_resumed(tmp_path, name, **kw):
    train, test = MarkedMoves(n=300, seed=0), MarkedMoves(n=64, seed=1)
    c = cfg(tmp_path / name, momentum=0.9, **kw)
    Trainer(c, train, test).train(max_steps=8)  # "killed" at 256 examples; checkpoint at 160
    resumed = Trainer(dataclasses.replace(c, resume="auto"), train, test)
    assert resumed.progress.examples == 160
    resumed.train()
    return resumed


def test_resume_equals_uninterrupted(tmp_path):
    train, test = MarkedMoves(n=300, seed=0), MarkedMoves(n=64, seed=1)
    full = Trainer(cfg(tmp_path / "full", momentum=0.9), train, test)
    full.train()
    resumed = run_killed_then_resumed(tmp_path, "resumed")
    a, b = weights(full), weights(resumed)
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert resumed.progress.examples == full.progress.examples >= 640
    assert resumed.progress.epoch == full.progress.epoch == 2
    assert resumed.progress.history == full.progress.history
    with open(resumed.csv_path) as f:
        ex = [int(r["examples"]) for r in csv.DictReader(f)]
    assert ex == sorted(ex) and len(ex) == len(set(ex))  # rows after the checkpoint were redone once


def test_workers_give_same_batches(tmp_path):
    train, test = MarkedMoves(n=200, seed=0), MarkedMoves(n=32, seed=1)
    a = Trainer(cfg(tmp_path / "a", max_examples=256), train, test)
    a.train()
    b = Trainer(cfg(tmp_path / "b", max_examples=256, workers=2), train, test)
    b.train()
    wa, wb = weights(a), weights(b)
    assert all(torch.equal(wa[k], wb[k]) for k in wa)


def test_resume_rejects_other_model(tmp_path):
    train = MarkedMoves(n=64)
    c = cfg(tmp_path, max_examples=64, checkpoint_every=32)
    Trainer(c, train, None).train()
    with pytest.raises(ValueError, match="different model"):
        Trainer(dataclasses.replace(c, preset="small", resume="auto"), train, None)


def test_main_with_datasets_module(tmp_path, monkeypatch):
    fake = types.ModuleType("golois.datasets")
    calls = []

    def open_dataset(path, split="train", symmetries=True):
        calls.append((path, split, symmetries))
        return MarkedMoves(n=128 if split == "train" else 32, seed=0 if split == "train" else 1)

    fake.open_dataset = open_dataset
    monkeypatch.setitem(sys.modules, "golois.datasets", fake)
    out = tmp_path / "cli"
    rc = train_cli.main(["--data", "DATA", "--out-dir", str(out), "--preset", "tiny", "--batch-size", "16",
                        "--max-examples", "128", "--eval-every", "64", "--workers", "0", "--no-progress"])
    assert rc == 0 and (out / "model.pt").exists() and (out / "checkpoint.pt").exists()
    assert calls == [("DATA", "train", False), ("DATA", "test", False)]


def test_train_py_help():
    r = subprocess.run([sys.executable, "train.py", "--help"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "--lr-schedule" in r.stdout and "--no-softmax" in r.stdout


def test_export_checkpoint_and_init_from(tmp_path):
    """A checkpoint exports to a model file with its progress; a new run starts from its weights."""
    train, test = MarkedMoves(n=200, seed=0), MarkedMoves(n=64, seed=1)
    first = Trainer(cfg(tmp_path / "a", max_examples=320), train, test)
    first.train()
    assert train_cli.main(["--export", first.checkpoint_path, str(tmp_path / "snap.pt")]) == 0
    snap = load_model(str(tmp_path / "snap.pt"))
    assert snap.meta["examples"] == first.progress.examples
    assert snap.meta["accuracy"]["top1"] == first.progress.history[-1][1]
    warm = Trainer(cfg(tmp_path / "b", init_from=str(tmp_path / "snap.pt")), train, test)
    a, b = weights(first), weights(warm)
    assert all(torch.allclose(a[k], b[k].float(), atol=1e-2) for k in a)    # fp16 round trip
    assert warm.progress.examples == 0                                       # a fresh run
    with pytest.raises(ValueError, match="different model"):
        Trainer(cfg(tmp_path / "c", preset="small", init_from=str(tmp_path / "snap.pt")), train, test)


def test_a_fresh_run_never_overwrites_another_runs_checkpoint(tmp_path, capsys):
    """Without --resume, an out-dir holding a checkpoint is refused (the run would overwrite it and
    mix its log rows into the other's); a log left without a checkpoint is started again."""
    train, test = MarkedMoves(n=200, seed=0), MarkedMoves(n=64, seed=1)
    first = Trainer(cfg(tmp_path, max_examples=320), train, test)
    first.train()
    with pytest.raises(FileExistsError, match="--resume"):
        Trainer(cfg(tmp_path, max_examples=640), train, test)
    resumed = Trainer(cfg(tmp_path, max_examples=640, resume="auto"), train, test)
    assert resumed.progress.examples == first.progress.examples > 0
    os.remove(first.checkpoint_path)
    second = Trainer(cfg(tmp_path, max_examples=128), train, test)
    second.train()
    with open(second.csv_path) as f:
        examples = [int(r["examples"]) for r in csv.DictReader(f)]
    assert examples == sorted(examples) and examples[-1] == 128


def test_average_weights(tmp_path):
    """--average writes the element-wise mean of checkpoints' weights; other networks are refused."""
    train, test = MarkedMoves(n=200, seed=0), MarkedMoves(n=64, seed=1)
    runs = []
    for seed in (3, 4):
        t = Trainer(cfg(tmp_path / f"r{seed}", max_examples=160, seed=seed), train, test)
        t.train()
        runs.append(t)
    out = tmp_path / "mean.pt"
    assert train_cli.main(["--average", str(out), runs[0].checkpoint_path, runs[1].checkpoint_path]) == 0
    mean = load_model(str(out))
    a, b, m = weights(runs[0]), weights(runs[1]), mean.model.state_dict()
    assert any(not torch.allclose(a[k], b[k]) for k in a)
    assert all(torch.allclose(m[k], (a[k] + b[k]) / 2, atol=2e-3) for k in a)     # fp16 file
    assert [x["examples"] for x in mean.meta["extra"]["averaged"]] == [160, 160]
    other = Trainer(cfg(tmp_path / "small", preset="small", max_examples=32), train, test)
    other.train()
    with pytest.raises(ValueError, match="different model"):
        train_cli.main(["--average", str(out), runs[0].checkpoint_path, other.checkpoint_path])
    with pytest.raises(SystemExit):
        train_cli.main(["--average", str(out), runs[0].checkpoint_path])


# --- the value head ------------------------------------------------------------------------

def test_value_training_learns_and_keeps_the_best_model(tmp_path):
    from tests.synthetic_data import MarkedMovesWithValue
    train, test = MarkedMovesWithValue(n=512, seed=1), MarkedMovesWithValue(n=128, seed=2)
    t = Trainer(cfg(tmp_path, value_weight=1.0, value_kind="conv", max_examples=2560, eval_every=320,
                    eval_positions=128, checkpoint_every=10**9), train, test)
    assert t.net.value is not None
    t.train()
    mse = [h[3] for h in t.progress.history]
    assert mse[-1] < 0.3 < mse[0] and min(mse) == t.progress.best_value
    assert os.path.exists(t.best_path) and load_model(t.best_path).has_value
    with open(t.csv_path) as f:
        rows = list(csv.DictReader(f))
    assert rows[-1]["test_value_mse"] and float(rows[-1]["value_loss"]) < 1.0


def test_frozen_trunk_trains_only_the_value_head(tmp_path):
    from golois.nn.model import save_model
    from tests.synthetic_data import MarkedMovesWithValue
    train, test = MarkedMovesWithValue(n=256, seed=1), MarkedMovesWithValue(n=64, seed=2)
    policy_run = Trainer(cfg(tmp_path / "p", max_examples=320), train, test)
    policy_run.train()
    assert policy_run.net.value is None
    t = Trainer(cfg(tmp_path / "v", value_weight=1.0, freeze_trunk=True, init_from=policy_run.model_path,
                    max_examples=640), train, test)
    before = {k: v.clone() for k, v in t.net.state_dict().items() if k.startswith("convs.")}
    t.train()
    after = t.net.state_dict()
    assert all(torch.equal(before[k], after[k]) for k in before)
    assert t.progress.history[-1][3] < t.progress.history[0][3]
    with pytest.raises(ValueError, match="freeze_trunk"):
        TrainConfig(freeze_trunk=True)


def test_value_patience_stops_a_run_that_no_longer_improves(tmp_path):
    from tests.synthetic_data import MarkedMovesWithValue
    train, test = MarkedMovesWithValue(n=256, seed=1), MarkedMovesWithValue(n=64, seed=2)
    t = Trainer(cfg(tmp_path, value_weight=1.0, lr_schedule="1e-9@0", max_examples=100_000, eval_every=64,
                    value_patience=2), train, test)
    summary = t.train()
    assert summary["completed"] and summary["examples"] < 100_000 and t.progress.stale >= 2
    assert os.path.exists(t.model_path)


class _Widened(MarkedMoves):
    """MarkedMoves as a registered feature set: its two planes first, then zero planes up to
    `planes`, the extra ones (from `noise_from` on) random."""

    def __init__(self, name, noise_from=None, **kw):
        from golois.datasets.features import get_feature_set
        super().__init__(**kw)
        fs = get_feature_set(name)
        self.feature_set = fs.as_dict()
        n, _, size, _ = self.planes.shape
        planes = np.zeros((n, fs.planes, size, size), np.uint8)
        planes[:, :2] = self.planes
        if noise_from is not None:
            planes[:, noise_from:] = np.random.default_rng(5).random((n, fs.planes - noise_from, size, size)) < 0.5
        self.planes = planes


def test_init_from_a_network_of_fewer_planes_starts_the_new_planes_at_zero(tmp_path):
    """A golois network starts a golois_ld run: its weights are kept, the six life planes'
    weights are zero (the same function at the start), and they train from there."""
    base = _Widened("golois", n=200, seed=0)
    first = Trainer(cfg(tmp_path / "a", max_examples=160), base, _Widened("golois", n=64, seed=1))
    first.train()
    first.save_final_model()
    ld, ld_test = _Widened("golois_ld", noise_from=15, n=200, seed=0), _Widened("golois_ld", noise_from=15, n=64, seed=1)
    warm = Trainer(cfg(tmp_path / "b", max_examples=160, init_from=first.model_path), ld, ld_test)
    w = warm.net.convs[0].weight.detach()
    assert w.shape[1] == 21 and not w[:, 15:].any()
    x = torch.from_numpy(ld.planes[:8]).float()
    with torch.no_grad():
        a, _ = first.net.float()(x[:, :15])
        b, _ = warm.net.float()(x)
    assert torch.allclose(a, b, atol=1e-4)
    warm.train()
    assert warm.net.convs[0].weight.detach()[:, 15:].abs().sum() > 0
    with pytest.raises(FeatureSetMismatch):                                # never narrower
        Trainer(cfg(tmp_path / "c", init_from=first.model_path), _Widened("paper11", n=64, seed=0), None)


def test_ownership_and_komi_inputs_train_on_judged_games(walls_month, tmp_path):
    from golois.datasets import open_dataset, ownership
    from golois.datasets.loader import shard_folders
    from golois.rollout.weights import load_policy
    ownership.add_ownership(shard_folders(str(walls_month)), load_policy(), ownership.OwnershipConfig(rollouts=4),
                            progress=False)
    c = cfg(tmp_path, data=str(walls_month), value_weight=1.0, value_kind="conv", value_inputs=True,
            ownership_weight=1.0, augment="dataset", value_from_move=30, max_examples=1280, eval_every=640,
            checkpoint_every=10**9, log_every=320, lr_schedule="0.05@0")
    train = open_dataset(str(walls_month), value=training.value_options(c)["value"], value_from_move=30,
                         value_inputs=True, ownership=True, seed=3)
    t = Trainer(c, train, train)
    assert t.net.config.value_inputs == 2
    t.train()
    with open(t.csv_path) as f:
        losses = [float(r["ownership_loss"]) for r in csv.DictReader(f) if r["ownership_loss"]]
    assert len(losses) >= 3 and losses[-1] < 0.7 * losses[0]
    model = load_model(t.model_path)
    assert model.has_value_inputs
    steps = model.meta["extra"]["lineage"]["steps"]
    assert steps[-1]["examples"] == t.progress.examples and steps[-1]["ownership_weight"] == 1.0


def test_the_ownership_target_needs_a_conv_head_and_the_dataset_symmetries(tmp_path):
    with pytest.raises(ValueError, match="ownership"):
        cfg(tmp_path, value_weight=1.0, value_kind="pool", ownership_weight=1.0, augment="dataset")
    with pytest.raises(ValueError, match="ownership"):
        cfg(tmp_path, value_weight=1.0, value_kind="conv", ownership_weight=1.0, augment="trainer")
