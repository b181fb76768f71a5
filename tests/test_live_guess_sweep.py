"""bench/live_guess_sweep.py: the live guess's weight table from recorded guesses."""

import json

from golois.eval.live_guess_sweep import main, pick, table


def _rec(rates, scores, right, result="unknown", goal="live"):
    return {"path": "p.sgf", "goal": goal, "result": result, "move": 10, "rights": [right],
            "moves": [10, 11, 12], "rates": rates, "scores": scores}


def test_pick_weighs_the_prior_against_the_playouts_and_keeps_the_first_of_ties():
    rec = _rec([[0.5, 0.4, 0.5]], [-5.0, -1.0, -6.0], right=11)
    assert pick(rec, 0, 0) == 10                    # playouts alone: the first of the two 0.5
    assert pick(rec, 0.05, 0) == 11                 # 0.5 - 0.25 < 0.4 - 0.05
    assert pick(rec, 0.01, 0) == 10                 # 0.45 > 0.39


def test_table_counts_right_guesses_per_weight_and_seed(tmp_path, capsys):
    records = [_rec([[0.5, 0.4, 0.5], [0.3, 0.4, 0.1]], [-5.0, -1.0, -6.0], right=11),
               _rec([[0.1, 0.2, 0.3], [0.1, 0.2, 0.3]], None, right=12),
               _rec([[0.9, 0.0, 0.0], [0.9, 0.0, 0.0]], None, right=11, result="win")]  # proven: no guess
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
            for line in table(records, weights=(0, 0.05)).splitlines() if line.startswith("| ")}
    assert rows["seed 1"] == ["1", "2"] and rows["seed 2"] == ["2", "2"] and rows["total"] == ["3", "4"]
    path = tmp_path / "g.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main(["--records", str(path), "--weights", "0,0.05"]) == 0
    assert "2 guesses to live (the book's move among the candidates in 2)" in capsys.readouterr().out

