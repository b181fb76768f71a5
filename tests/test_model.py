"""Tests for golois.nn.model: shapes, ReLU placement, equivariance, bagging, save/load."""

import numpy as np
import pytest
import torch

from golois import symmetry as sym
from golois.nn.model import (PRESETS, FeatureSetMismatch, ModelConfig, ModelMeta, Network, PolicyNet,
                          load_model, make_config, save_model)

torch.set_num_threads(1)
FS = {"name": "test", "version": 1, "planes": 3}


def tiny(value_head=False, seed=0):
    torch.manual_seed(seed)
    return PolicyNet(make_config("tiny", in_planes=3, value_head=value_head))


def test_presets():
    cfg = make_config("golois", in_planes=21)
    assert (cfg.layers, cfg.filters, cfg.first_kernel, cfg.kernel) == (12, 256, 5, 3)
    net = PolicyNet(cfg)
    assert len(net.convs) == 12
    assert net.convs[0].kernel_size == (5, 5) and net.convs[1].kernel_size == (3, 3)
    assert net.convs[-1].out_channels == 1
    assert {"golois", "small", "medium", "tiny"} <= set(PRESETS)
    with pytest.raises(ValueError):
        make_config("huge", in_planes=3)
    assert ModelConfig.from_dict(cfg.to_dict()) == cfg


@pytest.mark.parametrize("size", [9, 19])
def test_shapes(size):
    net = tiny(value_head=True)
    logits, value = net(torch.rand(2, 3, size, size))
    assert logits.shape == (2, size * size) and value.shape == (2,)
    assert value.abs().max() <= 1
    logits, value = tiny()(torch.zeros(2, 3, size, size, dtype=torch.uint8))
    assert value is None and logits.shape == (2, size * size)


def test_relu_placement():
    net = tiny()
    outs, ins = [], []
    for conv in net.convs:
        conv.register_forward_hook(lambda m, i, o: outs.append(o))
        conv.register_forward_pre_hook(lambda m, i: ins.append(i[0]))
    logits, _ = net(torch.randn(4, 3, 7, 7))
    for prev_out, next_in in zip(outs[:-1], ins[1:]):
        assert torch.equal(next_in, torch.relu(prev_out))  # ReLU after every layer but the last
    assert torch.equal(logits, outs[-1].flatten(1))  # last layer: raw logits, no ReLU
    assert (logits < 0).any()


def symmetrise_(net):
    """Make every conv kernel invariant under the 8 symmetries: the net becomes equivariant."""
    with torch.no_grad():
        for conv in net.convs:
            w = conv.weight
            w.copy_(sum(sym.apply(w, k) for k in range(8)) / 8)


def test_equivariance_with_symmetric_weights():
    net = tiny()
    symmetrise_(net)
    x = torch.rand(2, 3, 9, 9)
    ref, _ = net(x)
    for k in range(8):
        out, _ = net(sym.apply(x, k))
        assert torch.allclose(out, sym.apply_logits(ref, k), atol=1e-5)


@pytest.mark.parametrize("n,ks", [(4, sym.ROTATIONS), (8, sym.ALL)])
def test_bagging_is_equivariant(n, ks):
    network = Network(tiny(value_head=True, seed=1))
    x = np.random.default_rng(0).random((2, 3, 9, 9)).astype(np.float32)
    ref, vref = network.evaluate_symmetric(x, symmetries=n)
    for k in ks:
        out, v = network.evaluate_symmetric(sym.apply(x, k), symmetries=n)
        assert np.allclose(out, sym.apply_logits(ref, k), atol=1e-5)
        assert np.allclose(v, vref, atol=1e-6)
    # without bagging a random network is not equivariant
    plain, _ = network.evaluate(sym.apply(x, 1))
    assert not np.allclose(plain, sym.apply_logits(network.evaluate(x)[0], 1), atol=1e-3)


def test_bagging_one_is_log_softmax():
    network = Network(tiny())
    x = np.random.default_rng(2).integers(0, 2, (3, 3, 9, 9)).astype(np.uint8)
    logits, value = network.evaluate(x)
    scores, _ = network.evaluate_symmetric(x, symmetries=1)
    assert value is None and logits.dtype == np.float32
    assert np.allclose(scores, torch.log_softmax(torch.from_numpy(logits), -1).numpy(), atol=1e-6)


@pytest.mark.parametrize("fp16", [False, True])
def test_save_load_roundtrip(tmp_path, fp16):
    net = tiny(value_head=True)
    meta = ModelMeta(feature_set=FS, trained_on="synthetic", examples=1234, accuracy={"top1": 0.5})
    path = tmp_path / "m.pt"
    save_model(path, net, meta, fp16=fp16)
    loaded = load_model(path, expect_features=dict(FS))
    assert loaded.config == net.config
    assert loaded.meta["examples"] == 1234 and loaded.meta["accuracy"] == {"top1": 0.5}
    assert loaded.meta["trained_on"] == "synthetic" and loaded.feature_set == FS
    assert all(p.dtype == torch.float32 for p in loaded.model.parameters())
    x = np.random.default_rng(0).random((2, 3, 9, 9)).astype(np.float32)
    a, va = Network(net).evaluate(x)
    b, vb = loaded.evaluate(x)
    tol = 2e-2 if fp16 else 0
    assert np.allclose(a, b, atol=tol) and np.allclose(va, vb, atol=tol)
    if not fp16:
        assert np.array_equal(a, b)


def test_fp16_is_smaller(tmp_path):
    net = PolicyNet(make_config("small", in_planes=3))
    save_model(tmp_path / "a.pt", net, {"feature_set": FS})
    save_model(tmp_path / "b.pt", net, {"feature_set": FS}, fp16=True)
    assert (tmp_path / "b.pt").stat().st_size < 0.6 * (tmp_path / "a.pt").stat().st_size


def test_feature_mismatch(tmp_path):
    save_model(tmp_path / "m.pt", tiny(), ModelMeta(feature_set=FS))
    other = {"name": "test", "version": 2, "planes": 3}
    with pytest.raises(FeatureSetMismatch) as err:
        load_model(tmp_path / "m.pt", expect_features=other)
    assert isinstance(err.value, ValueError)
    assert "'version': 1" in str(err.value) and "'version': 2" in str(err.value)
    with pytest.raises(ValueError):
        ModelMeta(feature_set={"name": "x"})


def test_not_a_model_file(tmp_path):
    torch.save({"hello": 1}, tmp_path / "x.pt")
    with pytest.raises(ValueError):
        load_model(tmp_path / "x.pt")


# --- the value head's colour and komi inputs, its ownership map ---------------------------------

def komi_net(seed=0):
    torch.manual_seed(seed)
    net = PolicyNet(make_config("tiny", in_planes=3, value_head=True, value_kind="conv", value_inputs=2)).eval()
    with torch.no_grad():                          # make the inputs matter
        net.value.bias.weight.normal_(0, 2.0)
        net.value.fc1.weight.normal_(0, 1.0)
    return net


def test_value_inputs_are_planes_after_the_features():
    from golois.datasets.features import value_input_planes
    g = value_input_planes([True, False], 6.5, (5, 5))
    assert g.shape == (2, 2, 5, 5) and (g[0, 0] == 1).all() and (g[1, 0] == -1).all()
    assert np.allclose(g[0, 1], -6.5 / 20) and np.allclose(g[1, 1], 6.5 / 20)   # white receives the komi


def test_the_head_reads_colour_and_komi_but_the_policy_does_not():
    network = Network(komi_net())
    x = np.random.default_rng(0).random((2, 3, 9, 9)).astype(np.float32)
    lb, vb = network.evaluate(x, black_to_move=True, komi=7.5)
    lw, vw = network.evaluate(x, black_to_move=False, komi=7.5)
    _, v0 = network.evaluate(x, black_to_move=True, komi=0.5)
    assert np.allclose(lb, lw) and not np.allclose(vb, vw) and not np.allclose(vb, v0)
    # the planes appended by hand give the same answer; a batch with them is left as it is
    full = network.with_inputs(x, True, 7.5)
    assert full.shape[1] == 5 and np.allclose(network.evaluate(full)[1], vb)
    _, vs = network.evaluate_symmetric(x, 8, black_to_move=True, komi=7.5)
    assert vs.shape == (2,)
    owner = network.ownership(x, True, 7.5)
    assert owner.shape == (2, 81) and np.abs(owner).max() <= 1
    # the module given the features alone: the policy (also by `policy`), the head reading zeros
    net, t = network.model, torch.from_numpy(x)
    with torch.no_grad():
        logits, value = net(t)
        assert torch.allclose(logits, net.policy(t)) and np.allclose(logits.numpy(), lb, atol=1e-5)
        assert torch.allclose(value, net(torch.cat([t, torch.zeros(2, 2, 9, 9)], 1))[1])


def test_a_head_with_inputs_survives_a_file(tmp_path):
    path = tmp_path / "m.pt"
    save_model(path, komi_net(), {"feature_set": {"name": "t", "version": 1, "planes": 3}})
    loaded = load_model(path)
    assert loaded.has_value_inputs and loaded.config.value_inputs == 2
    x = np.random.default_rng(1).random((1, 3, 9, 9)).astype(np.float32)
    assert np.allclose(loaded.evaluate(x, False, 6.5)[1], Network(komi_net()).evaluate(x, False, 6.5)[1], atol=1e-6)


def test_a_head_without_inputs_is_not_used_by_the_player(capsys):
    import sys
    from golois.player.player import NetworkPolicy
    network = Network(tiny(value_head=True))
    policy = NetworkPolicy(network, lambda board, colour: np.zeros((3, 19, 19), np.float32), log=sys.stderr)
    assert not policy.has_value and "no colour and komi inputs" in capsys.readouterr().err
    assert NetworkPolicy(Network(komi_net()), lambda b, c: None).has_value
