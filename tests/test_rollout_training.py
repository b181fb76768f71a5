"""The rollout policy's Python side (golois/rollout/): game records, the weight file and its
refusals, `golois rollout train` and `golois rollout eval` on a small Tygem month."""

import io
import json
import tarfile
import zipfile

import numpy as np
import pytest

from tactics.board import Board
from tactics.rollout import VERSION, WEIGHTS, RolloutPolicy

from golois.cli import main
from golois.rollout import weights as wfile
from golois.rollout.records import moves_of, read_records

LETTERS = "abcdefghijklmnopqrs"


def _game_line(gid: int, seed: int, moves: int = 120) -> bytes:
    rng = np.random.default_rng(seed)
    b, parts = Board(19), []
    for _ in range(moves):
        legal = [p for p in range(361) if b.is_legal(p, b.to_move)]
        p = int(rng.choice(legal))
        parts.append(f";{'B' if b.to_move == 1 else 'W'}[{LETTERS[p % 19]}{LETTERS[p // 19]}]")
        b.play(p, b.to_move)
    return f"{gid}\t{''.join(parts)}".encode()


@pytest.fixture(scope="module")
def month(tmp_path_factory):
    """A Tygem month of 12 random 120-move games with results, and its index."""
    folder = tmp_path_factory.mktemp("tygem")
    lines = [_game_line(5000 + g, g) for g in range(12)] + [b"a line without a tab"]
    with zipfile.ZipFile(folder / "2008-12.zip", "w") as z:
        z.writestr("2008-12", b"\n".join(lines) + b"\n")
    index = "".join(f"{5000 + g}\tC2008.12.01 00:10\tn\ta\t0\tn2\ta2\t1\t{'B+Resign' if g % 2 else 'W+2.5'}\t120\t30/3 0m\n"
                    for g in range(12)).encode()
    with tarfile.open(folder / "Kifu2008.index.tar.gz", "w:gz") as t:
        info = tarfile.TarInfo("Kifu2008.index")
        info.size = len(index)
        t.addfile(info, io.BytesIO(index))
    from golois.datasets import tygem
    tygem.load_index.cache_clear()
    return folder / "2008-12.zip"


def test_move_lists_read_as_flat_points():
    assert moves_of(b";B[pd];W[dp];B[];W[tt]") == ([3 * 19 + 15, 15 * 19 + 3, -1, -1], [1, 2, 1, 2])
    assert moves_of(b"no moves") is None


def test_records_of_a_month(month):
    r = read_records([str(month)])
    assert len(r) == 12 and r.moves == 12 * 120 and r.starts[-1] == len(r.points) == len(r.colours)
    assert set(np.unique(r.colours)) == {1, 2}
    assert len(read_records([str(month)], limit=5)) == 5


def test_the_weight_file_round_trips_and_refuses_what_it_cannot_read(tmp_path, capsys):
    w = np.zeros(WEIGHTS, np.float32)
    w[[3, 1000, WEIGHTS - 1]] = [0.5, -1.25, 2.0]
    path = str(tmp_path / "r.npz")
    wfile.save(w, path, {"note": "test"})
    back, meta = wfile.load(path)
    assert np.array_equal(back, w) and meta == {"note": "test"}
    # another pattern set
    np.savez_compressed(tmp_path / "old.npz", version=np.array("golois-rollout-0"), index=np.zeros(0, np.int32),
                        value=np.zeros(0, np.float16), meta=np.array("{}"))
    with pytest.raises(wfile.RolloutWeightsError, match="golois-rollout-0"):
        wfile.load(str(tmp_path / "old.npz"))
    # a truncated file
    data = open(path, "rb").read()
    (tmp_path / "cut.npz").write_bytes(data[: len(data) // 2])
    with pytest.raises(wfile.RolloutWeightsError, match="not a readable"):
        wfile.load(str(tmp_path / "cut.npz"))
    # the engine's loader: None and a line saying the leaves fall back to random playouts
    assert wfile.load_policy(str(tmp_path / "cut.npz")) is None
    assert "random playouts" in capsys.readouterr().err
    assert wfile.load_policy(str(tmp_path / "missing.npz")) is None


def test_the_shipped_weights_load_and_predict_better_than_uniform():
    w, meta = wfile.load(wfile.DEFAULT)
    assert meta["version"] == VERSION and meta["history"][-1]["heldout_top1"] > 0.3
    policy = RolloutPolicy(w)
    b = Board(19)
    for p in (72, 288, 60):                                     # Q16, D4, C16... a corner approach
        b.play(p, b.to_move)
    probs = policy.probabilities(b)
    assert abs(probs.sum() - 1) < 1e-9 and probs.max() > 5 / 358


def test_golois_rollout_train_then_eval(month, tmp_path, capsys):
    out = str(tmp_path / "w.npz")
    rc = main(["rollout", "train", "--sources", str(month), "--heldout", str(month), "--out", out,
               "--epochs", "2", "--heldout-games", "4", "--chunk", "5", "--lr", "0.05", "--lr-end", "0.01"])
    assert rc == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 12 and summary["examples_seen"] > 2 * 12 * 100
    assert len(summary["history"]) == 2
    w, meta = wfile.load(out)
    assert w.any() and meta["epoch"] == 2
    rc = main(["rollout", "eval", "--weights", out, "--parts", "speed", "winner", "--tygem", str(month),
               "--positions", "6", "--rollouts", "2", "--speed-rollouts", "3", "--json"])
    assert rc == 0
    report = json.loads(capsys.readouterr().out)
    assert report["speed"]["policy"]["per_second"] > 0 and report["speed"]["random"]["moves"] > 0
    assert set(report["winner"]) == {"rollouts", "random playouts"}
    assert report["winner"]["rollouts"]["positions"] == 6


def test_golois_rollout_train_resumes_from_its_checkpoint(month, tmp_path, capsys):
    out = str(tmp_path / "w.npz")
    check = out + ".checkpoint.npz"
    wfile.save(np.zeros(WEIGHTS, np.float32), check, {"epoch": 1, "games_done": 10})
    rc = main(["rollout", "train", "--sources", str(month), "--heldout", str(month), "--out", out,
               "--epochs", "2", "--heldout-games", "2", "--chunk", "5", "--resume", check])
    assert rc == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["examples_seen"] < 12 * 120 and len(summary["history"]) == 1   # 2 games of epoch 2 left


def test_bad_sources_and_weights_fail_clearly(tmp_path, capsys):
    assert main(["rollout", "train", "--sources", str(tmp_path / "none.zip"), "--out", str(tmp_path / "w.npz")]) == 1
    assert "not found" in capsys.readouterr().err
    assert main(["rollout", "eval", "--weights", str(tmp_path / "none.npz")]) == 2
    assert "no rollout weights" in capsys.readouterr().err
