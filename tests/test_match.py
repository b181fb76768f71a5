"""golois.eval.match: statistics, a short match between two of our engines, forfeits, GNU Go."""

import json
import sys

import pytest

from tactics.board import BLACK

from golois.cli import main as golois_main
from golois.eval.match import MatchConfig, elo, run_match, wilson

OURS = f"{sys.executable} play.py --size 9 --playouts 16"

# An engine that always answers genmove with A1: its second A1 is illegal.
STUBBORN = (sys.executable + " -c \"import sys\n"
            "for line in sys.stdin:\n"
            "    w = line.split()\n"
            "    if not w: continue\n"
            "    out = 'A1' if w[0] == 'genmove' else ('Stubborn' if w[0] == 'name' else '')\n"
            "    sys.stdout.write('= ' + out + '\\n\\n'); sys.stdout.flush()\n"
            "    if w[0] == 'quit': break\"")


# An engine that thinks 0.4 s over every genmove, then plays the first empty point it has not played.
SLOW = (sys.executable + " -c \"import sys, time\n"
        "moves = iter([c + str(r) for r in range(1, 10) for c in 'ABCDEFGHJ'])\n"
        "for line in sys.stdin:\n"
        "    w = line.split()\n"
        "    if not w: continue\n"
        "    out = ''\n"
        "    if w[0] == 'genmove': time.sleep(0.4); out = next(moves)\n"
        "    sys.stdout.write('= ' + out + '\\n\\n'); sys.stdout.flush()\n"
        "    if w[0] == 'quit': break\"")


def test_wilson_and_elo():
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    assert elo(0.5) == 0 and elo(0.76) == pytest.approx(200, abs=1) and elo(1.0) == 800


def test_tally_counts_each_distinct_game_once(tmp_path):
    # bench/match_tally.py: two matches started in the same second replayed the same games
    # (GNU Go seeds from the clock); a copy counts once
    from golois.eval.tally import tally
    game = "(;FF[4]SZ[9]PB[Golois (A)]PW[GNU Go (B)]RE[{}];B[ee];W[{}])"
    for name, text in (("a", game.format("B+R", "cc")), ("copy", game.format("B+R", "cc")),
                       ("b", game.format("W+3.5", "gg")), ("unfinished", "(;FF[4]SZ[9];B[ee])"),
                       ("broken", "(;FF[4]SZ[9];B[ee")):
        (tmp_path / f"{name}.sgf").write_text(text)
    paths = sorted(str(p) for p in tmp_path.glob("*.sgf"))
    # wins, games, as black, games as black, resigned, copies, unreadable files
    assert tally(paths) == (1, 2, 1, 2, 1, 1, 1)


def test_two_of_our_engines_on_9x9(tmp_path):
    out = tmp_path / "summary.json"
    rc = golois_main(["match", "--black", OURS, "--white", OURS + " --temperature 1 --seed 3",
                      "--games", "2", "--size", "9", "--max-moves", "120", "--sgf-dir", str(tmp_path / "sgf"),
                      "--json", str(out), "--quiet"])
    assert rc == 0
    summary = json.loads(out.read_text())
    assert summary["games"] == 2 and summary["wins_a"] + summary["wins_b"] + summary["draws"] == 2
    assert [r["black_engine"] for r in summary["results"]] == ["A", "B"]
    sgf = (tmp_path / "sgf" / "game-001.sgf").read_text()
    assert sgf.startswith("(;FF[4]") and "KM[7.5]" in sgf and "RE[" in sgf and "SZ[9]" in sgf


def test_illegal_move_loses_the_game(tmp_path):
    summary = run_match(MatchConfig(black=STUBBORN, white=OURS, games=2, size=9, progress=False,
                                    sgf_dir=str(tmp_path)))
    assert summary.wins_b == 2
    assert all(r.reason.startswith("illegal move") for r in summary.results)
    assert summary.results[0].result == "W+F" and summary.results[1].result == "B+F"


def test_the_clock_loses_a_slow_engine_the_game_on_time(tmp_path):
    from golois.gtp.protocol import TimeState
    from golois.search.clock import remaining, spend
    clock = TimeState(1.0, 0.5, 2)

    def report():                                                 # what time_left sends
        left, stones = remaining(clock, BLACK)
        return f"{max(int(left), 0)} {stones}"
    assert spend(clock, BLACK, 0.6) and report() == "0 0"         # main time: 0.4 left
    assert spend(clock, BLACK, 0.6) and report() == "0 1"         # 0.2 over: byo-yomi, one stone played
    assert spend(clock, BLACK, 0.2) and report() == "0 2"         # the period's stones done: a new period
    assert not spend(clock, BLACK, 0.6)                           # over the period: the flag falls
    # the slow engine's main time (0.6 s) lasts one move, its byo-yomi (0.3 s a move) none
    summary = run_match(MatchConfig(black=SLOW, white=OURS, games=1, size=9, progress=False,
                                    time_settings=(0.6, 0.3, 1), max_moves=40))
    r = summary.results[0]
    assert r.result == "W+T" and r.reason.startswith("time") and r.used_a >= 0.8


def test_our_search_keeps_to_the_clock(tmp_path):
    out = tmp_path / "summary.json"
    rc = golois_main(["match", "--black", OURS + " --search mcts --policy fallback", "--white", OURS + " --policy fallback",
                      "--games", "1", "--size", "9", "--max-moves", "40", "--time-settings", "8", "1", "1",
                      "--json", str(out), "--quiet"])
    assert rc == 0
    r = json.loads(out.read_text())["results"][0]
    assert not r["result"].endswith("T") and 0 < r["used_a"] < 8 + 40


@pytest.mark.gnugo
def test_ours_against_gnugo_level0(gnugo_path, tmp_path):
    summary = run_match(MatchConfig(black=OURS + " --resign-threshold 0", white=f"{gnugo_path} --mode gtp --level 0",
                                    games=2, size=9, komi=7.5, max_moves=150, progress=False))
    assert summary.games == 2
    assert all(r.reason in ("score", "resign", "move cap") for r in summary.results)


def test_a_missing_engine_is_a_clear_error(capsys):
    rc = golois_main(["match", "--black", "no-such-engine-golois --mode gtp", "--white", OURS,
                      "--games", "1", "--size", "9", "--quiet"])
    assert rc == 2
    err = capsys.readouterr().err
    assert "cannot start an engine" in err and "no-such-engine-golois" in err


def test_a_bare_gnugo_runs_wherever_gnugo_is_installed(monkeypatch):
    from golois.eval import match
    monkeypatch.setattr(match.shutil, "which", lambda name: None)           # not on PATH
    monkeypatch.setattr(match, "find_gnugo", lambda: "/usr/games/gnugo")
    assert match.engine_command("gnugo --mode gtp --level 10") == ["/usr/games/gnugo", "--mode", "gtp", "--level", "10"]
    assert match.engine_command("python play.py --model small") == ["python", "play.py", "--model", "small"]
