"""The command sequence kgsGtp sends for a whole game, cleanup phase included, over real pipes;
and a fuzzer with the player's commands."""

import random
import sys

import pytest

from golois.gtp.engine import build_engine
from golois.gtp.client import GtpClient
from golois.gtp.play import install_player
from golois.player.player import Player, PlayerConfig
from golois.search.mcts import SearchConfig
from golois.search.player import SearchPlayer, SearchSettings


def test_kgsgtp_whole_game_over_pipes():
    with GtpClient([sys.executable, "play.py", "--playouts", "16", "--resign-threshold", "0"]) as e:
        assert "kgs-genmove_cleanup" in e.send("list_commands").split()
        for cmd in ("boardsize 9", "clear_board", "komi 6.5", "kgs-time_settings canadian 600 30 5",
                    "time_left b 600 0", "time_left w 600 0"):
            assert e.send(cmd) == ""
        # we are white; the opponent (black) plays a fixed sequence, passing when it runs out
        theirs = ["E5", "C3", "G7", "C7", "G3", "E3", "E7", "C5", "G5"]
        passes = 0
        moves = 0
        while passes < 2 and moves < 160:
            mine_move = theirs.pop(0) if theirs else "pass"
            try:
                e.send(f"play b {mine_move}")
            except Exception:           # occupied by now: the opponent passes instead
                mine_move = "pass"
                e.send("play b pass")
            passes = passes + 1 if mine_move == "pass" else 0
            if passes >= 2:
                break
            e.send("time_left w 590 0")
            answer = e.send("genmove w").strip().lower()
            assert answer != "resign"
            passes = passes + 1 if answer == "pass" else 0
            moves += 2
        assert passes >= 2, "the bot must pass when the game is over"
        # cleanup phase: players disagreed on dead stones
        for _ in range(10):
            if e.send("kgs-genmove_cleanup w").strip().lower() == "pass":
                break
            e.send("play b pass")
        dead = e.send("final_status_list dead")
        assert all(v[0] in "ABCDEFGHJ" for v in dead.split())
        score = e.send("final_score")
        assert score[0] in "BW0"
        assert e.send("kgs-game_over") == ""
        e.send("quit")
        assert e.proc.wait(timeout=10) == 0


@pytest.mark.parametrize("search", [False, True])
def test_fuzz_player_commands_never_crash(search):
    rng = random.Random(1)
    e = build_engine()
    player = Player(config=PlayerConfig(playouts=4, resign_threshold=0.3, resign_min_fill=0.0, resign_patience=1))
    player = SearchPlayer(player, SearchSettings(search=SearchConfig(visits=10))) if search else player
    install_player(e, player)
    e.extra["analysis"] = (player, SearchPlayer(player, SearchSettings(search=SearchConfig(visits=20))))
    e.handle("boardsize 7")
    words = ["genmove", "kgs-genmove_cleanup", "lz-analyze", "kata-analyze", "golois-search_gfx", "interval",
             "maxmoves", "avoid", "lz-genmove_analyze", "final_score", "final_status_list", "play", "undo",
             "gogui-analyze_commands", "golois-policy_gfx", "golois-policy_dboard", "golois-ownership",
             "golois-rollout_ownership",
             "golois-status_gfx", "golois-group_status", "golois-ladder_gfx", "golois-hooks",
             "golois-life_and_death_gfx", "place_free_handicap", "boardsize", "clear_board", "komi", "fixed_handicap",
             "b", "w", "black", "white", "x", "A1", "G7", "D4", "pass", "Z9", "alive", "dead", "seki",
             "2", "5", "7", "-3", "1e9", "nan", "\x00", "\u00e9", "resign"]
    for _ in range(600):
        line = " ".join(rng.choice(words) for _ in range(rng.randint(0, 3)))
        if rng.random() < 0.05:
            line = "".join(chr(rng.randrange(1, 300)) for _ in range(rng.randint(0, 12)))
        out = e.handle(line)
        assert out is None or (out[0] in "=?" and out.endswith("\n\n"))
        assert "internal error" not in (out or ""), line
        if e.board.size > 9:            # keep it fast: stay on small boards
            e.handle("boardsize 7")


def test_rollout_ownership_for_gogui():
    e = build_engine()
    e.handle("boardsize 9")
    for move in ("b E5", "w C3", "b G3"):
        e.handle("play " + move)
    out = e.handle("golois-rollout_ownership")
    assert out.startswith("= INFLUENCE ") and "TEXT rollout policy: black wins" in out
    values = dict(zip(*[iter(out.split("\n")[0].split()[2:])] * 2))
    assert float(values["E5"]) > 0.3 > -0.3 > float(values["C3"])     # each stone's point, to its owner
    assert "golois-rollout_ownership" in e.handle("gogui-analyze_commands")
