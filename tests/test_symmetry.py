"""Tests for golois.symmetry: the 8 board symmetries on arrays, tensors, moves, logits."""

import numpy as np
import pytest
import torch

from golois import symmetry as sym


def onehot(move, size):
    b = np.zeros(size * size, dtype=np.float32)
    b[move] = 1
    return b.reshape(size, size)


@pytest.mark.parametrize("k", range(8))
def test_identity_and_inverse(k):
    x = np.random.default_rng(k).random((2, 3, 5, 5))
    assert np.array_equal(sym.apply(sym.apply(x, k), sym.inverse(k)), x)
    assert sym.compose(k, sym.inverse(k)) == 0


def test_eight_distinct_and_identity():
    x = np.arange(49).reshape(7, 7)
    assert np.array_equal(sym.apply(x, 0), x)
    images = {sym.apply(x, k).tobytes() for k in range(8)}
    assert len(images) == 8
    # k=1 is a counter-clockwise quarter turn, k=4 the transpose
    assert np.array_equal(sym.apply(x, 1), np.rot90(x))
    assert np.array_equal(sym.apply(x, 4), x.T)


@pytest.mark.parametrize("k", range(8))
def test_torch_matches_numpy(k):
    x = np.random.default_rng(0).random((4, 2, 9, 9)).astype(np.float32)
    t = sym.apply(torch.from_numpy(x), k)
    assert isinstance(t, torch.Tensor)
    assert np.array_equal(t.numpy(), sym.apply(x, k))


@pytest.mark.parametrize("size", [5, 19])
@pytest.mark.parametrize("k", range(8))
def test_map_moves_matches_apply(k, size):
    for move in range(size * size):
        assert np.array_equal(sym.apply(onehot(move, size), k),
                              onehot(sym.map_moves(move, k, size), size))
    assert sym.map_moves(size * size, k, size) == size * size  # pass unchanged


def test_map_moves_arrays_and_tensors():
    moves = np.array([0, 5, 360, 361])
    out = sym.map_moves(moves, 3)
    assert out.shape == (4,) and out[-1] == 361
    t = sym.map_moves(torch.tensor(moves), 3)
    assert t.tolist() == out.tolist()
    with pytest.raises(ValueError):
        sym.map_moves(362, 1)


@pytest.mark.parametrize("k", range(8))
def test_apply_logits(k):
    rng = np.random.default_rng(k)
    board = rng.random((3, 19, 19))
    flat = board.reshape(3, -1)
    assert np.array_equal(sym.apply_logits(flat, k), sym.apply(board, k).reshape(3, -1))
    with_pass = np.concatenate([flat, rng.random((3, 1))], axis=1)
    out = sym.apply_logits(with_pass, k)
    assert np.array_equal(out[:, -1], with_pass[:, -1])
    assert np.array_equal(sym.inverse_logits(out, k), with_pass)
    tt = sym.apply_logits(torch.from_numpy(flat), k)
    assert np.array_equal(tt.numpy(), sym.apply_logits(flat, k))


def test_compose_consistent():
    x = np.arange(25).reshape(5, 5)
    for a in range(8):
        for b in range(8):
            assert np.array_equal(sym.apply(sym.apply(x, a), b), sym.apply(x, sym.compose(a, b)))


def test_symmetry_sets_are_groups():
    for n in (1, 4, 8):
        s = set(sym.symmetry_set(n))
        assert all(sym.compose(a, b) in s for a in s for b in s)
    with pytest.raises(ValueError):
        sym.symmetry_set(2)
    with pytest.raises(ValueError):
        sym.apply(np.zeros((3, 3)), 8)
