"""bench/tsumego_prior.py: corner crops, their labels by our solver, a prior's top-1 on a
collection, and a short fine-tune of the shipped small network."""

import io
import json
import tarfile

import numpy as np
import pytest

from tests.problems import BULKY_FIVE, STRAIGHT_THREE, corner, write_bulky_five_collection
from tactics.board import BLACK, WHITE, Board
from tactics.coords import vertex_to_flat

from golois.eval.tsumego_prior import MAX_WINNING, corner_crop, examples, games, label, top1

# tests/problems.py's straight three on the edge: whoever plays b first decides (white lives,
# black kills).
CRITICAL = STRAIGHT_THREE

# Two separate eyes (a and c): white lives whoever moves, so there is no problem to label.
ALIVE = """
X X X X X X
O O O O O X
a O c O O X
"""


def test_corner_crop_keeps_one_corner_box():
    board = Board(19)
    for v, c in (("A19", BLACK), ("E15", WHITE), ("F15", BLACK), ("T1", WHITE), ("K10", BLACK)):
        board.place(vertex_to_flat(v, 19), c)
    top_left = corner_crop(board, 0, 5)
    assert [top_left.get(vertex_to_flat(v, 19)) for v in ("A19", "E15", "F15", "T1", "K10")] == [
        BLACK, WHITE, 0, 0, 0]
    bottom_right = corner_crop(board, 3, 5)
    assert int((bottom_right.to_array() != 0).sum()) == 1 and bottom_right.get(vertex_to_flat("T1", 19)) == WHITE


def test_label_keeps_a_critical_position_with_both_sides_answers():
    board, marks = corner(CRITICAL, size=19)
    records = label(board, seconds=60, max_nodes=200_000)
    assert sorted((r["mover"], r["goal"], r["move"]) for r in records) == [
        (BLACK, "kill", marks["b"]), (WHITE, "live", marks["b"])]
    assert all(marks["b"] in r["winning"] and r["nodes"] > 0 for r in records)
    assert np.array_equal(np.asarray(records[0]["stones"]), board.to_array())


def test_label_leaves_out_a_group_alive_whoever_moves():
    board, _ = corner(ALIVE, size=19)
    assert label(board, seconds=60, max_nodes=200_000) == []


def test_games_skip_handicap_games_in_files_and_archives(tmp_path):
    even = b"(;GM[1]SZ[19]KM[6.5];B[pd];W[dp])"
    handicap = b"(;GM[1]SZ[19]HA[2]AB[pd][dp];W[pp])"
    (tmp_path / "sgfs").mkdir()
    (tmp_path / "sgfs" / "a.sgf").write_bytes(even)
    (tmp_path / "sgfs" / "b.sgf").write_bytes(handicap)
    archive = tmp_path / "games.tar.gz"
    with tarfile.open(archive, "w:gz") as t:
        for name, data in (("kgs/a.sgf", handicap), ("kgs/b.sgf", even), ("kgs/c.sgf", even)):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    assert games([str(tmp_path / "sgfs")]) == [even]
    assert games([str(archive)]) == [even, even]
    assert games([str(archive)], limit=1) == [even]


def test_top1_counts_the_priors_best_region_move_against_the_right_answers(tmp_path):
    write_bulky_five_collection(tmp_path / "bulky")       # right.sgf: b is RIGHT; wrong.sgf: a is
    board, marks = corner(BULKY_FIVE, size=19)

    def prior(b, mover):
        scores = np.zeros(b.size * b.size)
        scores[marks["b"]] = 1.0
        return scores
    assert dict(top1(prior, str(tmp_path))) == {"bulky": (1, 2)}


def test_examples_spread_the_target_over_the_winning_moves_and_skip_easy_ones():
    pytest.importorskip("torch")
    from golois.nn.registry import resolve_model
    from golois.nn.model import load_model
    feature_set = load_model(resolve_model("small")).feature_set
    board, marks = corner(CRITICAL, size=19)
    stones = board.to_array().tolist()
    records = [{"stones": stones, "mover": BLACK, "goal": "kill", "move": marks["b"],
                "winning": [marks["b"], marks["a"]]},
               {"stones": stones, "mover": BLACK, "goal": "kill", "move": marks["b"],
                "winning": list(range(MAX_WINNING + 5))}]          # nearly anything wins: left out
    x, y, m = examples(records, feature_set)
    assert x.shape[0] == 1 and x.shape[1] == feature_set["planes"]
    flat = y[0].reshape(-1)
    assert flat[marks["a"]] == flat[marks["b"]] == 0.5 and flat.sum() == 1.0
    assert not m[0].reshape(-1)[vertex_to_flat("D1", 19)] and m[0].reshape(-1)[marks["b"]]   # D1: a stone


def test_finetune_writes_a_network_golois_solve_can_load(tmp_path):
    pytest.importorskip("torch")
    from golois.tsumego.cli import network_prior
    from golois.eval.tsumego_prior import main
    board, marks = corner(CRITICAL, size=19)
    rec = {"stones": board.to_array().tolist(), "mover": BLACK, "goal": "kill", "move": marks["b"],
           "winning": [marks["b"]], "nodes": 100}
    path = tmp_path / "crops.jsonl"
    path.write_text(json.dumps(rec) + "\n" + json.dumps(dict(rec, mover=WHITE, goal="live")) + "\n")
    out = tmp_path / "tuned.pt"
    assert main(["finetune", str(path), "--network", "small", "--out", str(out), "--epochs", "1"]) == 0
    prior = network_prior(str(out), symmetries=1, quiet=True)
    assert prior is not None and prior(board, BLACK).shape == (361,)
