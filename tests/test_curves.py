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
