"""golois.nn.precision and Network at fp32, bf16 and int8: the choice for the machine, the fallback
with a message on a CPU without the instructions, and each precision against fp32 on real
positions (examples/games) within stated tolerances."""

import io
import os
import shutil

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from golois import symmetry  # noqa: E402
from golois.nn import precision  # noqa: E402
from golois.nn.model import Network, PolicyNet, load_model, make_config  # noqa: E402
from golois.nn.registry import resolve_model  # noqa: E402

torch.set_num_threads(1)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NATIVE = frozenset({"avx512_bf16", "avx512_vnni"})
CPU = torch.device("cpu")


def example_planes(feature_set, count):
    """Planes of the first `count` positions of the example games (examples/games)."""
    from golois.datasets.features import encode
    from golois.sgf import parse_game
    planes = []
    for name in sorted(os.listdir(os.path.join(ROOT, "examples", "games"))):
        with open(os.path.join(ROOT, "examples", "games", name), "rb") as f:
            for board, _, _ in parse_game(f.read(), name).replay():
                planes.append(encode(board, feature_set))
                if len(planes) == count:
                    return np.stack(planes)
    return np.stack(planes)


def log_softmax(x):
    return torch.log_softmax(torch.from_numpy(x), -1).numpy()


def compare(network, base, planes):
    """(share of positions with the same top-1 as base, max |d log p| of base's top-1 move)."""
    ours, theirs = log_softmax(network.evaluate(planes)[0]), log_softmax(base.evaluate(planes)[0])
    best = theirs.argmax(1)
    rows = np.arange(len(best))
    return float((ours.argmax(1) == best).mean()), float(np.abs(ours[rows, best] - theirs[rows, best]).max())


def test_the_choice_follows_the_cpu(monkeypatch):
    monkeypatch.setattr(precision, "cpu_flags", lambda: NATIVE)
    assert precision.choose("auto", CPU, calibrated=True) == ("int8", None)
    assert precision.choose("auto", CPU, calibrated=False) == ("bf16", None)
    assert precision.choose("fp32", CPU, calibrated=True) == ("fp32", None)
    chosen, note = precision.choose("int8", CPU, calibrated=False)
    assert chosen == "fp32" and "calibration" in note
    monkeypatch.setattr(precision, "cpu_flags", lambda: frozenset({"avx2", "fma"}))
    assert precision.choose("auto", CPU, calibrated=True) == ("fp32", None)
    for asked, needs in (("bf16", "BF16"), ("int8", "VNNI")):
        chosen, note = precision.choose(asked, CPU, calibrated=True)
        assert chosen == "fp32" and needs in note and note.endswith("fp32")
    with pytest.raises(ValueError):
        precision.choose("fp8", CPU, calibrated=True)


def test_a_cpu_without_the_instructions_falls_back_to_fp32_with_a_message(monkeypatch):
    monkeypatch.setattr(precision, "cpu_flags", lambda: frozenset())
    log = io.StringIO()
    network = load_model(resolve_model("full"), precision="int8", log=log)
    assert network.precision == "fp32" and "VNNI" in log.getvalue() and "fp32" in log.getvalue()
    planes = example_planes(network.feature_set, 2)
    fp32 = load_model(resolve_model("full"), log=None)
    assert np.array_equal(network.evaluate(planes)[0], fp32.evaluate(planes)[0])


def test_the_symmetries_in_one_batch_are_the_mean_over_each_symmetry():
    torch.manual_seed(0)
    network = Network(PolicyNet(make_config("tiny", in_planes=3, value_head=True)))
    x = (np.random.default_rng(1).random((3, 3, 9, 9)) > 0.6).astype(np.float32)
    scores, value = network.evaluate_symmetric(x, 8)
    total, vtotal = 0, 0
    for k in symmetry.symmetry_set(8):
        logits, v = network.evaluate(symmetry.apply(x, k))
        total = total + symmetry.inverse_logits(torch.log_softmax(torch.from_numpy(logits), -1), k).numpy()
        vtotal = vtotal + v
    assert np.allclose(scores, total / 8, atol=1e-5) and np.allclose(value, vtotal / 8, atol=1e-6)


# On 1,000 sample positions (python bench/network_speed.py --agreement 1000) the top-1 move
# differs from fp32's on 1.0% (small, bf16) and 4.4% (full, int8: top-1 51.5% against 50.8%).
@pytest.mark.parametrize("model, kind, positions, same_at_least, dlogp_under",
                         [("small", "bf16", 200, 0.96, 0.15), ("full", "int8", 48, 0.9, 0.6)])
def test_each_precision_keeps_the_top_move_of_fp32(model, kind, positions, same_at_least, dlogp_under):
    if precision.missing_instructions(kind) is not None:
        pytest.skip(precision.missing_instructions(kind))
    fp32 = load_model(resolve_model(model), log=None)
    other = load_model(resolve_model(model), precision=kind, log=None)
    assert other.precision == kind
    same, dlogp = compare(other, fp32, example_planes(fp32.feature_set, positions))
    assert same >= same_at_least and dlogp < dlogp_under, (same, dlogp)


@pytest.mark.skipif(precision.missing_instructions("int8") is not None, reason="no int8 VNNI on this CPU")
def test_an_int8_calibration_is_made_loaded_and_checked(tmp_path):
    weights = tmp_path / "net.pt"
    shutil.copy(resolve_model("small"), weights)
    fp32 = load_model(weights, log=None)
    planes = example_planes(fp32.feature_set, 256)
    out = precision.write_calibration(weights, precision.calibrate(fp32.model, [planes[:128], planes[128:]]),
                                      positions=256)
    assert out == tmp_path / "net.int8.pt"
    first, again = (load_model(weights, precision="auto", log=None) for _ in range(2))
    assert first.precision == "int8"
    assert np.array_equal(first.evaluate(planes[:8])[0], again.evaluate(planes[:8])[0])     # deterministic
    same, _ = compare(first, fp32, planes)
    assert same >= 0.8, same
    # a calibration made for other weights is not used, and says so
    shutil.copy(resolve_model("full"), weights)
    log = io.StringIO()
    other = load_model(weights, precision="int8", log=log)
    assert other.precision == "fp32" and "calibration" in log.getvalue()


@pytest.mark.parametrize("kind", ["pool", "conv"])
def test_int8_keeps_the_value_head_in_fp32(kind):
    if precision.missing_instructions("int8") is not None:
        pytest.skip(precision.missing_instructions("int8"))
    torch.manual_seed(0)
    model = PolicyNet(make_config("tiny", in_planes=3, value_head=True, value_kind=kind)).eval()
    x = (np.random.default_rng(2).random((16, 3, 9, 9)) > 0.6).astype(np.float32)
    observers = precision.calibrate(model, [x])
    fp32 = Network(model, log=None)
    int8 = Network(model, precision="int8", calibration={"observers": observers}, log=None)
    assert int8.precision == "int8" and int8.has_value
    (_, v32), (_, v8) = fp32.evaluate(x), int8.evaluate(x)
    assert v8.shape == (16,) and np.abs(v8 - v32).max() < 0.05
