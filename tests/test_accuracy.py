"""Tests for golois.eval.accuracy: top-k, masking, ladders, buckets, bagging, report output."""

import json

import numpy as np
import pytest
import torch

from golois.eval.accuracy import AccuracyReport, evaluate_accuracy, plot_by_move_number
from golois.nn.model import Network, PolicyNet, make_config

torch.set_num_threads(1)


class FixedNet:
    """Duck-typed Network returning the logits stored in plane 0."""

    def evaluate(self, planes):
        planes = np.asarray(planes)
        return planes[:, 0].reshape(len(planes), -1).astype(np.float32), None

    def evaluate_symmetric(self, planes, symmetries=8):
        return self.evaluate(planes)


def batch_from(logits, moves, **extra):
    logits = np.asarray(logits, dtype=np.float32)
    planes = logits.reshape(len(logits), 1, 3, 3)
    return {"planes": planes, "move": np.asarray(moves), **extra}


def test_top1_top5_and_buckets():
    logits = np.tile(np.arange(9, dtype=np.float32)[::-1], (4, 1))  # ranking 0,1,2,...
    moves = np.array([0, 3, 7, 9])  # top1, top5, miss, pass (never predicted)
    rep = evaluate_accuracy(FixedNet(), [batch_from(logits[:2], moves[:2], move_number=np.array([5, 25])),
                                         (logits[2:].reshape(2, 1, 3, 3), moves[2:], np.array([250, 7]))])
    assert rep.positions == 4 and rep.correct1 == 1 and rep.correctk == 2
    assert rep.top1 == 0.25 and rep.top5 == 0.5
    by = {b.label: b for b in rep.buckets}
    assert list(by) == ["0-19", "20-49", "50-99", "100-149", "150-199", "200+"]
    assert by["0-19"].positions == 2 and by["0-19"].correct1 == 1
    assert by["20-49"].correctk == 1 and by["200+"].positions == 1 and by["50-99"].positions == 0
    assert rep.positions_per_s > 0


def test_legal_mask_never_predicts_occupied():
    logits = np.zeros((1, 9), np.float32); logits[0, 4] = 10; logits[0, 2] = 5
    legal = np.ones((1, 9), bool); legal[0, 4] = False
    rep = evaluate_accuracy(FixedNet(), [batch_from(logits, [2], legal=legal)])
    assert rep.correct1 == 1
    rep = evaluate_accuracy(FixedNet(), [batch_from(logits, [4], legal=legal.reshape(1, 3, 3))])
    assert rep.correctk == 0  # the target itself is masked: never counted as predicted


def test_ladder_adjust_flips_prediction():
    logits = np.zeros((1, 9), np.float32); logits[0, 0] = 3
    caps = np.zeros((1, 9), int); caps[0, 8] = 6
    b = batch_from(logits, [8], ladder_captures=caps)
    assert evaluate_accuracy(FixedNet(), [b]).correct1 == 0
    assert evaluate_accuracy(FixedNet(), [b], ladder_adjust=True).correct1 == 1
    with pytest.raises(ValueError):
        evaluate_accuracy(FixedNet(), [batch_from(logits, [8])], ladder_adjust=True)


@pytest.mark.parametrize("n", [1, 4, 8])
def test_real_network_with_bagging_and_torch_inputs(n):
    torch.manual_seed(0)
    net = Network(PolicyNet(make_config("tiny", in_planes=2)))
    planes = torch.randint(0, 2, (6, 2, 9, 9), dtype=torch.uint8)
    moves = torch.randint(0, 81, (6,))
    rep = evaluate_accuracy(net, [(planes, moves)], symmetries=n, max_positions=5)
    assert rep.positions == 5 and rep.symmetries == n and rep.unknown_move_number == 5
    assert 0 <= rep.top1 <= rep.top5 <= 1


def test_json_and_plot(tmp_path):
    logits = np.tile(np.arange(9, dtype=np.float32), (3, 1))
    rep = evaluate_accuracy(FixedNet(), [batch_from(logits, [8, 8, 0], move_number=np.array([1, 60, 300]))])
    data = json.loads(rep.to_json())
    assert data["positions"] == 3 and data["by_move_number"][1]["top1"] is None
    assert "top-1" in rep.summary()
    png = tmp_path / "acc.png"
    plot_by_move_number(rep, str(png))
    assert png.stat().st_size > 1000
    assert np.isnan(AccuracyReport().top1)
