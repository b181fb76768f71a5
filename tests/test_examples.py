"""The README's examples on the files of examples/: each command answers as the README says,
from a clean checkout, with nothing from ../shared."""

import json
import os

import pytest

from golois.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")


def test_the_example_problems_are_solved_right(capsys):
    assert main(["solve", os.path.join(EXAMPLES, "tsumego"), "--json", "--max-nodes", "100000"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    answers = {os.path.basename(r["file"]): r for r in records if "file" in r}
    assert set(answers) == {"bulky-five-kill.sgf", "straight-three-kill.sgf", "straight-three-live.sgf"}
    assert all(r["right"] is True and r["result"] == "win" for r in answers.values()), answers


def test_the_example_ladder_is_captured(capsys):
    assert main(["solve", "--ladder", "D4", os.path.join(EXAMPLES, "ladder.sgf"), "--json"]) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert record["result"] == "captured" and record["move"] in ("D3", "E4"), record


def test_accuracy_build_and_train_on_the_example_games(tmp_path, capsys):
    pytest.importorskip("torch")
    games = os.path.join(EXAMPLES, "games")
    assert main(["accuracy", games, "--min-rank", "0", "--model", "small", "--max-positions", "40", "--json"]) == 0
    report = json.loads(capsys.readouterr().out.splitlines()[0])
    assert report["positions"] == 40 and 0 < report["top1"] <= 1
    # the games' players have no rank: the default filter (6 dan) keeps none of them, and says so
    assert main(["accuracy", games, "--model", "small", "--json"]) == 1
    assert "no position" in capsys.readouterr().err
    shards = tmp_path / "shards"
    assert main(["dataset", "build", "--sources", games, "--min-rank", "0", "--out", str(shards),
                 "--workers", "1", "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["positions"] > 400, summary
    run = tmp_path / "run"
    assert main(["train", "--data", str(shards), "--test-split", "all", "--preset", "tiny", "--max-examples", "512",
                 "--batch-size", "64", "--eval-positions", "256", "--workers", "0", "--out-dir", str(run),
                 "--no-progress"]) == 0
    assert (run / "model.pt").is_file() and (run / "log.csv").is_file()
