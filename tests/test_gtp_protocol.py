"""golois.gtp.protocol: the core commands, error answers, and a fuzzer that must never crash the engine."""

import random
import subprocess
import sys

import pytest

from golois.gtp.engine import build_engine
from golois.gtp.play import install_player
from golois.gtp.protocol import CommandSet, GtpEngine
from golois.player.player import Player
from golois.search.mcts import SearchConfig
from golois.search.player import SearchPlayer, SearchSettings


def ask(engine, line):
    return engine.handle(line)


def test_protocol_basics():
    e = build_engine()
    assert ask(e, "protocol_version") == "= 2\n\n"
    assert ask(e, "7 name") == "=7 Golois\n\n"
    assert ask(e, "known_command play") == "= true\n\n"
    assert ask(e, "known_command fly") == "= false\n\n"
    assert ask(e, "fly") == "? unknown command\n\n"
    assert ask(e, "3 fly") == "?3 unknown command\n\n"
    assert ask(e, "   # only a comment") is None
    assert "play" in ask(e, "list_commands").split()


def test_version_is_the_package_release_and_lizzie_accepts_it():
    import tomllib
    from pathlib import Path
    import golois
    release = tomllib.loads((Path(golois.__file__).parent.parent / "pyproject.toml").read_text())["project"]["version"]
    answer = ask(build_engine(), "version")
    assert answer == f"= {release}\n\n" and golois.__version__ == release
    # Lizzie 0.7.4 (Leelaz.java) splits the answer at the dots and refuses to analyse when the
    # second number is under 15 (the Leela Zero release that added lz-analyze)
    assert int(answer[2:].split(".")[1]) >= 15


def test_play_undo_and_errors():
    e = build_engine()
    assert ask(e, "boardsize 9") == "=\n\n"
    assert ask(e, "play b E5").startswith("=")
    assert ask(e, "play w E5") == "? illegal move\n\n"
    assert ask(e, "play w Z5").startswith("? invalid coordinate")
    assert ask(e, "play x E4").startswith("? invalid color")
    assert ask(e, "play b").startswith("? expected 2 arguments")
    assert ask(e, "undo").startswith("=")
    assert ask(e, "undo").startswith("? cannot undo")
    assert ask(e, "boardsize 99").startswith("? unacceptable size")


@pytest.mark.gnugo
@pytest.mark.parametrize("size,count", [(19, 2), (19, 3), (19, 4), (19, 5), (19, 7), (19, 8), (19, 9), (13, 5), (9, 5)])
def test_fixed_handicap_matches_gnugo(gnugo, size, count):
    e = build_engine()
    ask(e, f"boardsize {size}")
    gnugo.send(f"boardsize {size}")
    gnugo.send("clear_board")
    ours = ask(e, f"fixed_handicap {count}")[2:].split()
    assert sorted(ours) == sorted(gnugo.send(f"fixed_handicap {count}").split())


def test_handler_exception_is_an_error_answer():
    boom = CommandSet("boom")

    @boom.command("boom")
    def _boom(engine):
        raise ZeroDivisionError("x")
    e = GtpEngine([boom])
    assert ask(e, "boom").startswith("? internal error")


def test_fuzz_random_lines_never_crash(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)            # printsgf FILE may write: keep it out of the tree
    rng = random.Random(0)
    e = build_engine()
    player = Player()                      # the analyze commands search around it: a small budget
    install_player(e, player)
    e.extra["analysis"] = (player, SearchPlayer(player, SearchSettings(search=SearchConfig(visits=20))))
    words = list(e.handlers) + ["b", "w", "black", "white", "A1", "T19", "pass", "Z0", "-1", "19", "0",
                                "3.5", "nan", "\x00", "\u00e9", "", "#", "loadsgf", "/nonexistent.sgf"]
    for _ in range(5000):
        line = " ".join(rng.choice(words) for _ in range(rng.randint(0, 4)))
        if rng.random() < 0.1:
            line = "".join(chr(rng.randrange(1, 300)) for _ in range(rng.randint(0, 20)))
        out = e.handle(line)
        assert out is None or (out[0] in "=?" and out.endswith("\n\n"))
        if e.quit_requested:
            e.quit_requested = False


def test_play_py_speaks_gtp_over_pipes():
    proc = subprocess.run([sys.executable, "play.py"], input="1 name\nplay b D4\n2 list_stones black\nquit\n",
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    assert "=1 Golois" in proc.stdout and "=2 D4" in proc.stdout


def test_loadsgf_keeps_only_the_setup_before_its_move(tmp_path):
    """`loadsgf FILE N` keeps the setup stones of the position before move N only: a stone set
    later in the record (AB[aa] beside move 3) was kept, and printsgf wrote a stone that was not
    on the board."""
    path = tmp_path / "g.sgf"
    path.write_text("(;GM[1]FF[4]SZ[9];B[ee];W[cc];B[gg]AB[aa];W[cg])")
    e = build_engine()
    assert ask(e, f"loadsgf {path} 2") == "= white\n\n"
    assert ask(e, "color A9") == "= empty\n\n"
    assert "AB" not in ask(e, "printsgf")
    assert ask(e, f"loadsgf {path} 4") == "= white\n\n"       # (after the setup: kept)
    assert ask(e, "color A9") == "= black\n\n" and "AB[aa]" in ask(e, "printsgf")
