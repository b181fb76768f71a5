"""Tests for golois.player.ladder_adjust: log-softmax, masking and the paper's ladder adjustments."""

import numpy as np
import pytest

from golois.player import ladder_adjust as adjust


def test_log_softmax():
    x = np.array([[1.0, 2.0, 3.0], [0.0, -np.inf, 0.0]], dtype=np.float32)
    lp = adjust.log_softmax(x)
    assert np.allclose(np.exp(lp).sum(-1), 1)
    assert lp[1, 1] == -np.inf and np.isclose(lp[1, 0], np.log(0.5))
    assert np.allclose(adjust.softmax(x)[0], np.exp(x[0]) / np.exp(x[0]).sum())


def test_ladder_threshold_and_scale():
    logits = np.zeros((1, 9), dtype=np.float32)
    cap = np.zeros((1, 9), int); cap[0, 1] = 5; cap[0, 2] = 4
    save = np.zeros((1, 9), int); save[0, 3] = 7
    push = np.zeros((1, 9), int); push[0, 4] = 6; push[0, 5] = 4
    out = adjust.ladder_adjust(logits, cap, save, push)
    base = np.log(1 / 9)
    expected = np.full(9, base); expected[1] += 5; expected[3] += 7; expected[4] -= 6
    assert np.allclose(out[0], expected, atol=1e-5)  # 4 stones (== threshold) change nothing
    half = adjust.ladder_adjust(logits, cap, save, push, scale=0.5)
    assert np.isclose(half[0, 1] - half[0, 0], 2.5)
    norm = adjust.ladder_adjust(logits, cap, save, push, normalize=True)
    assert np.isclose(np.exp(norm).sum(), 1, atol=1e-5)


def test_ladder_changes_choice_and_accepts_boards():
    rng = np.random.default_rng(0)
    logits = rng.normal(size=(2, 81)).astype(np.float32)
    best = logits.argmax(-1)
    pushes = np.zeros((2, 9, 9), int)
    pushes.reshape(2, -1)[np.arange(2), best] = 12  # the favourite pushes a 12-stone ladder
    caps = np.zeros((2, 9, 9), int)
    caps[:, 4, 4] = 30
    out = adjust.ladder_adjust(logits, captures_n=caps, pushes_n=pushes)
    assert (out.argmax(-1) == 40).all()
    assert (out.reshape(2, -1)[np.arange(2), best] < adjust.log_softmax(logits)[np.arange(2), best]).all()


def test_ladder_with_pass_entry_and_mask():
    logits = np.zeros((1, 10), dtype=np.float32)  # 3x3 board + pass
    caps = np.zeros((1, 3, 3)); caps[0, 0, 0] = 5
    masked = adjust.mask_illegal(logits, np.array([[False] + [True] * 9]))
    out = adjust.ladder_adjust(masked, captures_n=caps)
    assert out[0, 0] == -np.inf and out.shape == (1, 10)
    with pytest.raises(ValueError):
        adjust.ladder_adjust(logits, captures_n=np.zeros((1, 4)))
