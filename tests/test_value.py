"""golois.eval.value and `golois value`: winner shares, squared errors and calibration computed
by hand on made-up values; the command on a Tygem month written here with a tiny network."""

import json
import subprocess
import sys

import numpy as np
import pytest

from golois.eval.value import ValueReport, evaluate_value, map_score, plot_calibration


def test_report_buckets_and_calibration_by_hand():
    r = ValueReport()
    v = np.array([0.8, -0.6, 0.2, -0.2, 0.9, 0.0])
    outcome = np.array([1, 1, -1, -1, 1, 1])
    moves = np.array([10, 60, 120, 180, 250, 130])
    r.add(v, outcome, moves)
    assert r.total.positions == 6 and r.total.predicted == 3       # 0.8, -0.2 (vs -1), 0.9; 0.0 is no call
    assert r.buckets[0].accuracy == 1.0 and r.buckets[1].accuracy == 0.0
    mid = r.span(100, 200)
    assert mid.positions == 3 and mid.predicted == 1
    assert mid.mse == pytest.approx(((0.2 + 1) ** 2 + (-0.2 + 1) ** 2 + (0.0 - 1) ** 2) / 3)
    cal = r.calibration()
    assert [c["positions"] for c in cal] == [0, 0, 1, 0, 1, 1, 1, 0, 0, 2]   # p = (v + 1) / 2
    top = cal[9]                                                    # p = 0.9 and 0.95, both won
    assert top["predicted"] == pytest.approx(0.925) and top["observed"] == 1.0
    assert r.worst_calibration() == pytest.approx(max(abs(c["predicted"] - c["observed"]) for c in cal if c["positions"]))


class _Net:
    has_value = True

    def evaluate_symmetric(self, planes, symmetries, black_to_move=None, komi=None):
        return None, planes[:, 0, 0, 0] * 0.5


def test_evaluate_value_and_plot(tmp_path):
    batch = {"planes": np.array([1, -1, 1, 1], np.float32).reshape(4, 1, 1, 1),
             "outcome": np.array([1, -1, -1, 1]), "move_number": np.array([110, 120, 130, 140])}
    r = evaluate_value(_Net(), [batch])
    assert r.span(100, 200).accuracy == 0.75 and r.total.mse == pytest.approx((0.25 + 0.25 + 2.25 + 0.25) / 4)
    plot_calibration({"made up": r}, str(tmp_path / "cal.png"))
    assert (tmp_path / "cal.png").stat().st_size > 1000
    with pytest.raises(ValueError, match="no value head"):
        evaluate_value(type("NoHead", (), {"has_value": False})(), [batch])


class _MapNet:
    """A head whose map gives the mover the first `planes[:, 0]` points of four and loses the rest."""
    has_value = has_ownership = True
    precision = "fp32"

    def value_ownership(self, planes, black, komi):
        owned = planes[:, 0, 0, 0].astype(int)
        owner = np.where(np.arange(4)[None, :] < owned[:, None], 1.0, -1.0)
        return np.full(len(planes), 0.1), owner

    def evaluate_symmetric(self, *args):
        raise AssertionError("one symmetry in fp32 reads the value of the map's pass")


def test_the_map_is_read_as_a_score_with_the_komi_of_the_mover():
    owner = np.array([[1, 1, 1, -1], [1, 1, 1, -1], [0.5, 0.5, 0, 0]])
    black = np.array([True, False, True])
    assert map_score(owner, black, 1.5).tolist() == [0.5, 3.5, -0.5]   # 2 - 1.5, 2 + 1.5, 1 - 1.5
    batch = {"planes": np.array([3, 3, 1], np.float32).reshape(3, 1, 1, 1), "black": black,
             "komi": np.full(3, 1.5), "outcome": np.array([1, -1, -1]), "move_number": np.array([120, 130, 40]),
             "owned": np.array([True, True, False]),
             "final_owner": np.array([[1, 1, 1, -1], [-1, -1, 1, 1], [1, 1, 1, 1]], np.float32)}
    r = evaluate_value(_MapNet(), [batch])
    assert r.total.predicted == 1                                  # v = 0.1: only the first won
    assert r.total.scored == 3 and r.total.score_predicted == 2     # scores 2 - 1.5 (won), 2 + 1.5 (lost), -2 - 1.5 (lost)
    # owned positions only, black's frame: the first all four right; the second (white to move,
    # map [1, 1, 1, -1] for white) is [-1, -1, -1, 1] for black: three of four right
    assert (r.total.owner_points, r.total.owner_right) == (8, 7)
    assert r.span(100, 200).score_accuracy == 0.5 and "map's score" in r.summary()
    assert r.to_dict()["score_accuracy_100_199"] == 0.5


def test_golois_value_on_a_tygem_month(tygem_folder, tmp_path):
    from golois.datasets.features import get_feature_set
    from golois.nn.model import ModelMeta, PolicyNet, make_config, save_model
    fs = get_feature_set("golois")
    save_model(tmp_path / "v.pt", PolicyNet(make_config("tiny", fs.planes, value_head=True)),
               ModelMeta(feature_set=fs.as_dict()))
    save_model(tmp_path / "p.pt", PolicyNet(make_config("tiny", fs.planes)), ModelMeta(feature_set=fs.as_dict()))
    cmd = [sys.executable, "-m", "golois.cli", "value", "--sets", "tygem", "--tygem", str(tygem_folder / "2008-12.zip")]
    out = subprocess.run(cmd + ["--model", str(tmp_path / "v.pt"), "--json", "--plot", str(tmp_path / "c.png")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout.splitlines()[0])
    assert report["positions"] == 9 and report["set"] == "tygem 2008-12"       # games 1001 and 1002 count
    assert (tmp_path / "c.png").exists()
    no_head = subprocess.run(cmd + ["--model", str(tmp_path / "p.pt")], capture_output=True, text=True, timeout=120)
    assert no_head.returncode == 2 and "has no value head" in no_head.stderr


def test_golois_value_on_the_canonical_sample(tmp_path):
    """One pass over the KGS 2015 archive gives both KGS sets: the positions whose result counts
    (about half of the sample) and those of the decided games at komi 0.5."""
    import os
    from golois import paths
    if not os.path.exists(os.path.join(paths.KGS, "KGS-2015-19-8133-.tar.gz")):
        pytest.skip("no KGS 2015 archive under " + paths.KGS)
    from golois.datasets.features import get_feature_set
    from golois.nn.model import ModelMeta, PolicyNet, make_config, save_model
    fs = get_feature_set("golois")
    save_model(tmp_path / "v.pt", PolicyNet(make_config("tiny", fs.planes, value_head=True)),
               ModelMeta(feature_set=fs.as_dict()))
    out = subprocess.run([sys.executable, "-m", "golois.cli", "value", "--model", str(tmp_path / "v.pt"),
                          "--sets", "kgs2015", "--every", "1000", "--json"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    kgs, half = (json.loads(line) for line in out.stdout.splitlines())
    assert kgs["set"] == "kgs2015" and half["set"] == "kgs2015 komi 0.5"
    assert 40 <= kgs["positions"] <= 60 and 15 <= half["positions"] <= 40      # of 100,000 / 1000


def test_temperature_sharpens_without_changing_the_winner():
    from golois.nn.model import temper
    v = np.array([-0.9, -0.3, 0.0, 0.3, 0.9], np.float32)
    assert np.array_equal(temper(v, 1.0), v)
    sharp, soft = temper(v, 0.5), temper(v, 2.0)
    assert np.array_equal(np.sign(sharp), np.sign(v)) and np.array_equal(np.sign(soft), np.sign(v))
    assert sharp[3] == pytest.approx(np.tanh(2 * np.arctanh(0.3)))
    assert np.all(np.abs(sharp[[0, 1, 3, 4]]) > np.abs(v[[0, 1, 3, 4]]))
    assert np.all(np.abs(soft[[0, 1, 3, 4]]) < np.abs(v[[0, 1, 3, 4]]))
    assert np.allclose(temper(temper(v, 0.5), 2.0), v, atol=1e-5)


def test_fit_temperature_finds_the_one_the_outcomes_were_drawn_at():
    """Outcomes drawn from tanh(z) and a head that says tanh(0.7 z): the head is under-confident
    and the fit finds 0.7; on outcomes drawn from its own values it finds about 1."""
    from golois.eval.value import fit_temperature, log_loss
    from golois.nn.model import temper
    rng = np.random.default_rng(0)
    z = rng.normal(0, 0.6, 20000)
    outcome = np.where(rng.random(len(z)) < (1 + np.tanh(z)) / 2, 1, -1)
    v = np.tanh(0.7 * z)
    t = fit_temperature(v, outcome)
    assert t == pytest.approx(0.7, abs=0.05)
    assert log_loss(temper(v, t), outcome) < log_loss(v, outcome)
    own = np.where(rng.random(len(z)) < (1 + v) / 2, 1, -1)
    assert fit_temperature(v, own) == pytest.approx(1.0, abs=0.08)
    with pytest.raises(ValueError, match="no value"):
        fit_temperature(np.zeros(0), np.zeros(0))


def test_a_tempered_report_keeps_winners_and_the_maps_counts():
    batch = {"planes": np.array([3, 3, 1, 2], np.float32).reshape(4, 1, 1, 1), "black": np.array([True, False, True, False]),
             "komi": np.full(4, 1.5), "outcome": np.array([1, -1, -1, 1]), "move_number": np.array([120, 130, 40, 210]),
             "owned": np.array([True, True, False, False]), "final_owner": np.ones((4, 4), np.float32)}
    r = evaluate_value(_MapNet(), [batch])
    t = r.tempered(0.5)
    assert t.temperature == 0.5 and t.total.positions == 4 and t.total.predicted == r.total.predicted
    assert (t.total.scored, t.total.score_predicted, t.total.owner_right) == \
        (r.total.scored, r.total.score_predicted, r.total.owner_right)
    assert t.arrays()[0] == pytest.approx(np.full(4, np.tanh(2 * np.arctanh(0.1))))
    assert t.to_dict()["temperature"] == 0.5 and "at temperature 0.500" in t.summary()


def test_the_noise_floor_of_the_calibration_shrinks_with_positions():
    rng = np.random.default_rng(1)
    small, large = ValueReport(), ValueReport()
    for report, n in ((small, 500), (large, 20000)):
        v = np.tanh(rng.normal(0, 0.4, n))
        report.add(v, np.where(rng.random(n) < (1 + v) / 2, 1, -1), np.full(n, 150))
    s, l = small.calibration_noise(trials=100), large.calibration_noise(trials=100)
    assert s[0] > 2 * l[0] > 0 and s[1] >= s[0]


def test_a_network_reads_its_value_at_the_files_temperature(tmp_path):
    """The temperature stored in the file (store_value_temperature) is how evaluate,
    evaluate_symmetric and value_ownership read the value; `golois value --temperature 1` and
    `--fit-temperature` read the head as it is."""
    from golois.datasets.features import get_feature_set
    from golois.nn.model import ModelMeta, PolicyNet, load_model, make_config, save_model, store_value_temperature
    fs = get_feature_set("golois")
    torch = pytest.importorskip("torch")
    torch.manual_seed(3)
    net = PolicyNet(make_config("tiny", fs.planes, value_head=True, value_kind="conv"))
    save_model(tmp_path / "v.pt", net, ModelMeta(feature_set=fs.as_dict()))
    planes = np.random.default_rng(0).integers(0, 2, (3, fs.planes, 9, 9)).astype(np.float32)
    plain = load_model(tmp_path / "v.pt", log=None)
    assert plain.value_temperature == 1.0
    store_value_temperature(tmp_path / "v.pt", 0.5, "made up, 3 positions")
    hot = load_model(tmp_path / "v.pt", log=None)
    assert hot.meta["extra"]["value_temperature_fitted_on"] == "made up, 3 positions"
    want = np.tanh(2 * np.arctanh(plain.evaluate(planes)[1]))
    assert hot.evaluate(planes)[1] == pytest.approx(want, abs=1e-4)
    assert hot.value_ownership(planes)[0] == pytest.approx(want, abs=1e-4)
    assert hot.evaluate_symmetric(planes, 1)[1] == pytest.approx(want, abs=1e-4)
    assert np.array_equal(hot.evaluate(planes)[0], plain.evaluate(planes)[0])      # the policy as it was


def test_golois_value_fits_and_stores_a_temperature(tygem_folder, tmp_path):
    from golois.datasets.features import get_feature_set
    from golois.nn.model import ModelMeta, PolicyNet, make_config, read_model_file, save_model
    fs = get_feature_set("golois")
    save_model(tmp_path / "v.pt", PolicyNet(make_config("tiny", fs.planes, value_head=True)),
               ModelMeta(feature_set=fs.as_dict()))
    cmd = [sys.executable, "-m", "golois.cli", "value", "--model", str(tmp_path / "v.pt"), "--sets", "tygem",
           "--tygem", str(tygem_folder / "2008-12.zip")]
    alone = subprocess.run(cmd + ["--store-temperature", "tygem 2008-12"], capture_output=True, text=True, timeout=120)
    assert alone.returncode == 2 and "needs --fit-temperature" in alone.stderr
    wrong = subprocess.run(cmd + ["--fit-temperature", "--store-temperature", "kgs2015"],
                           capture_output=True, text=True, timeout=120)
    assert wrong.returncode == 2 and "no set 'kgs2015'" in wrong.stderr
    out = subprocess.run(cmd + ["--fit-temperature", "--store-temperature", "tygem 2008-12", "--json"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    raw, fitted = (json.loads(line) for line in out.stdout.splitlines())
    assert raw["temperature"] == 1.0 and fitted["set"] == "tygem 2008-12 at its temperature"
    assert fitted["log_loss"] <= raw["log_loss"] + 1e-9
    extra = read_model_file(tmp_path / "v.pt")["meta"]["extra"]
    assert extra["value_temperature"] == pytest.approx(fitted["temperature"])
    assert extra["value_temperature_fitted_on"] == "tygem 2008-12, 9 positions"
    again = subprocess.run(cmd + ["--json"], capture_output=True, text=True, timeout=120)
    assert json.loads(again.stdout.splitlines()[0])["temperature"] == pytest.approx(fitted["temperature"])


def test_a_temperature_is_stored_in_a_file_whose_extra_is_none(tmp_path):
    # older files carry meta.extra = None; Network reads them as {} and store_value_temperature
    # writes into them the same way
    from golois.datasets.features import get_feature_set
    from golois.nn.model import (ModelMeta, PolicyNet, atomic_torch_save, load_model, make_config,
                                 read_model_file, save_model, store_value_temperature)
    fs = get_feature_set("golois")
    pytest.importorskip("torch")
    save_model(tmp_path / "v.pt", PolicyNet(make_config("tiny", fs.planes, value_head=True)),
               ModelMeta(feature_set=fs.as_dict()))
    blob = read_model_file(tmp_path / "v.pt")
    blob["meta"]["extra"] = None
    atomic_torch_save(blob, tmp_path / "v.pt")
    assert load_model(tmp_path / "v.pt", log=None).value_temperature == 1.0
    store_value_temperature(tmp_path / "v.pt", 0.8, "made up")
    assert load_model(tmp_path / "v.pt", log=None).value_temperature == pytest.approx(0.8)
