"""golois.tsumego.batch.ordered_map, and `golois solve --jobs` against one job on the same folder."""

import json
import os
import subprocess
import sys
import time

import pytest

from golois.tsumego.batch import ordered_map, oversubscribed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_STATE = {}


def _remember(value):
    _STATE["value"] = value


def _late_square(x):
    """x * x (+ the initializer's value), the earlier items taking longer: in order only if
    ordered_map waits for them."""
    time.sleep(0.05 * (4 - x))
    return x * x + _STATE.get("value", 0), os.getpid()


def _fails_on_two(x):
    if x == 2:
        raise ValueError("two")
    return x


def _sleeps(x):
    """Item 0 at once, the others after a minute."""
    if x:
        time.sleep(60)
    return x


def test_results_come_in_the_inputs_order_from_several_workers():
    out = list(ordered_map(_late_square, range(5), jobs=2, initializer=_remember, initargs=(100,)))
    assert [v for v, _ in out] == [100, 101, 104, 109, 116]
    assert len({pid for _, pid in out}) == 2 and os.getpid() not in {pid for _, pid in out}
    here = list(ordered_map(_late_square, range(3), jobs=1, initializer=_remember, initargs=(7,)))
    assert here == [(7, os.getpid()), (8, os.getpid()), (11, os.getpid())]


def test_an_error_is_raised_at_its_item_and_leaving_early_stops_the_workers():
    import multiprocessing
    results = ordered_map(_fails_on_two, range(4), jobs=2)
    assert next(results) == 0 and next(results) == 1
    with pytest.raises(ValueError, match="two"):
        next(results)
    t0 = time.monotonic()
    sleeping = ordered_map(_sleeps, range(4), jobs=2)
    assert next(sleeping) == 0                  # items 1 and 2 are running now
    sleeping.close()                            # as when the caller stops reading
    while multiprocessing.active_children() and time.monotonic() - t0 < 30:
        time.sleep(0.1)
    assert not multiprocessing.active_children() and time.monotonic() - t0 < 30


def test_the_workers_are_gone_once_the_last_result_is_taken():
    # a caller that takes exactly one result per item with next() never resumes the generator
    # after the last one: the pool must not wait for that (or for the interpreter's exit,
    # where its teardown raced with concurrent.futures' exit hook)
    import multiprocessing
    results = ordered_map(_late_square, range(3), jobs=2)
    assert [next(results)[0] for _ in range(3)] == [0, 1, 4]
    assert not multiprocessing.active_children()


def _dies_on_one(x):
    if x == 1:
        os._exit(3)                             # as a crash in compiled code would
    return x


def test_a_worker_that_dies_breaks_the_map_and_the_cli_says_which_files_were_not_solved(
        tmp_path, capsys, monkeypatch):
    from concurrent.futures.process import BrokenProcessPool
    from golois.tsumego import cli as solve
    with pytest.raises(BrokenProcessPool):
        list(ordered_map(_dies_on_one, range(3), jobs=2))

    def first_then_broken(fn, items, jobs, initializer, initargs):
        initializer(*initargs)
        yield fn(items[0])
        raise BrokenProcessPool("a worker died")
    monkeypatch.setattr(solve, "ordered_map", first_then_broken)
    folder = _folder(tmp_path)
    from golois.cli import build_parser
    args = build_parser().parse_args(["solve", str(folder), "--json", "--time-limit", "5",
                                      "--network", "none", "--jobs", "2"])
    assert solve.run(args) == 1                 # a.sgf was solved, the rest lost: said
    out = capsys.readouterr()
    assert [json.loads(line)["move"] for line in out.out.splitlines()] == ["B2"]
    assert f"{folder / 'b.sgf'} and the 2 files after it were not solved" in out.err


def _folder(tmp_path):
    """Three 9x9 problems written here (black kills with B2, RIGHT) and a malformed file."""
    good = ("(;GM[1]FF[4]SZ[9]PL[B]AB[af][bf][cf][df][ef][eg][eh][ei]"
            "AW[ag][bg][cg][dg][dh][di][ai][bi][ci];B[bh]C[RIGHT])")
    for name in ("a.sgf", "c.sgf", "d.sgf"):
        (tmp_path / name).write_text(good)
    (tmp_path / "b.sgf").write_text("(;GM[1]SZ[9]")
    return tmp_path


def test_cli_jobs_answers_as_one_job_in_the_same_order(tmp_path):
    folder = _folder(tmp_path)
    runs = []
    for jobs in ("1", "2"):
        out = subprocess.run([sys.executable, "-m", "golois.cli", "solve", str(folder), "--json",
                              "--time-limit", "5", "--network", "none", "--jobs", jobs],
                             capture_output=True, text=True, cwd=ROOT, timeout=120,
                             env={**os.environ, "PYTHONPATH": ROOT})
        assert out.returncode == 0, out.stderr
        recs = [json.loads(line) for line in out.stdout.splitlines()]
        runs.append([(os.path.basename(r["file"]), r.get("move"), r.get("result"), "error" in r)
                     for r in recs])
        assert f"{folder}: 3/3 = 100.0% first move right" in out.stderr
    assert runs[0] == runs[1] == [("a.sgf", "B2", "win", False), ("b.sgf", None, None, True),
                                  ("c.sgf", "B2", "win", False), ("d.sgf", "B2", "win", False)]


def test_more_workers_than_cores_is_said():
    """Each worker should have a core: more are allowed (a problem keeps its time limit) but
    said, since each search then gets a share of a core and its answers are weaker."""
    assert oversubscribed(2, 10, cores=2) is None
    assert oversubscribed(4, 1, cores=2) is None            # one problem: one worker
    assert oversubscribed(1, 10, cores=1) is None
    warning = oversubscribed(4, 3, cores=2)                 # at most 3 workers for 3 problems
    assert warning is not None and warning.startswith("3 workers on 2 cores") and "--jobs 2" in warning


def test_cli_says_when_the_workers_outnumber_the_cores(tmp_path, monkeypatch, capsys):
    import golois.tsumego.cli as gs
    folder = _folder(tmp_path)
    monkeypatch.setattr("golois.tsumego.batch.available_cores", lambda: 1)
    monkeypatch.setattr(gs, "ordered_map", lambda *a, **k: iter(()))   # the warning comes first
    gs.main([str(folder), "--jobs", "3", "--network", "none"])
    assert "golois solve: warning: 3 workers on 1 core:" in capsys.readouterr().err


def test_a_parallel_run_checks_the_network_without_loading_it(tmp_path, monkeypatch, capsys):
    """With --jobs, the parent looks for torch and the weights file (golois.tsumego.cli
    `network_missing`) instead of loading the network: weights that are missing are said once
    and the workers solve without them; shipped weights go to the workers, which load them on
    the first guess to live that needs it (`LazyPrior`)."""
    import golois.tsumego.cli as gs
    folder = _folder(tmp_path)
    given = []

    def no_workers(fn, items, jobs, initializer, initargs):
        given.append(initargs[1])
        return iter(())
    monkeypatch.setattr(gs, "ordered_map", no_workers)
    monkeypatch.setattr(gs, "network_prior", lambda *a, **k: pytest.fail("loaded in the parent"))
    gs.main([str(folder), "--jobs", "2", "--network", "no-such.pt"])
    assert "golois solve: no policy prior (no weights file 'no-such.pt')" in capsys.readouterr().err
    gs.main([str(folder), "--jobs", "2", "--network", "small"])
    assert "no policy prior" not in capsys.readouterr().err
    assert given == ["none", "small"] and gs.network_missing("full") is None
