"""golois.nn.curves: runs compared on one PNG, and bench/compare_runs.py's table."""

import importlib.util
import os

CSV = "examples,loss,lr,test_top1,wall_time\n{rows}"


def _log(folder, top1s):
    folder.mkdir()
    rows = "".join(f"{k * 1000},{2.0 - k / 1000:.3f},0.1,{'' if t is None else t},{k}\n"
                   for k, t in top1s)
    (folder / "log.csv").write_text(CSV.format(rows=rows))
    return str(folder)


def _bench():
    path = os.path.join(os.path.dirname(__file__), "..", "bench", "compare_runs.py")
    spec = importlib.util.spec_from_file_location("compare_runs", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_compare_runs_table_and_png(tmp_path, capsys):
    a = _log(tmp_path / "a", [(100, None), (200, 0.40), (300, None), (400, 0.42)])
    b = _log(tmp_path / "b", [(100, None), (200, 0.41), (300, None), (400, 0.425), (600, 0.43)])
    png = tmp_path / "runs.png"
    assert _bench().main([a, b, "--labels", "golois", "golois_ld", "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "| 200k | 40.00% | 41.00% | +1.00 |" in out and "| 400k | 42.00% | 42.50% | +0.50 |" in out
    assert "600k" not in out                                    # only points both runs have
    assert png.stat().st_size > 1000


def test_compare_runs_says_when_a_log_is_missing(tmp_path, capsys):
    a = _log(tmp_path / "a", [(200, 0.4)])
    assert _bench().main([a, str(tmp_path / "nothing")]) == 1
    assert "no log at" in capsys.readouterr().err


def _value_log(folder, rows):
    folder.mkdir()
    text = "examples,loss,heldout_value_mse,heldout_winner_100_199\n" + "".join(
        f"{k},3.0,{'' if m is None else m},{'' if w is None else w}\n" for k, m, w in rows)
    (folder / "log.csv").write_text(text)
    return str(folder)


def test_value_steps_end_to_end_with_the_gain_of_each_step(tmp_path, capsys):
    from golois.nn.curves import chain_steps, read_log
    one = _value_log(tmp_path / "one", [(100, None, None), (200, 0.99, 0.55), (300, 0.97, 0.58)])
    two = _value_log(tmp_path / "two", [(150, 0.96, 0.585), (250, 0.95, 0.60), (260, None, None)])
    rows = chain_steps([read_log(one + "/log.csv"), read_log(two + "/log.csv")])
    assert [(r["step"], r["examples"]) for r in rows] == [(1, 200), (1, 300), (2, 450), (2, 550)]
    path = os.path.join(os.path.dirname(__file__), "..", "bench", "value_steps.py")
    spec = importlib.util.spec_from_file_location("value_steps", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    png = tmp_path / "steps.png"
    assert mod.main([one, two, "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "| 2 | 0.00M | 60.0% | 0.950 |" in out and "step 2: +2.0 points" in out
    assert png.stat().st_size > 1000
    assert mod.main([one, str(tmp_path / "none")]) == 2 and "no log at" in capsys.readouterr().err
