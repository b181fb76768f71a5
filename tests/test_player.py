"""golois.player and golois.scoring: conduct rules of genmove, tactics hooks, dead stones, area score."""

import numpy as np
import pytest

from tactics.board import BLACK, WHITE, Board
from tactics.diagram import from_diagram

from golois.player import Player, PlayerConfig, TacticsHooks, fallback_policy
from golois.scoring import JudgeConfig, area_score, format_score, judge

TWO_EYES = """
    . X . X O
    X X X X O
    O O O O O
    . . . . .
    . . . . .
"""


def test_area_score_and_format():
    b = from_diagram("""
        . X O .
        . X O .
        . X O .
        . X O .
    """)
    assert area_score(b, 0.5) == -0.5
    assert format_score(-0.5) == "W+0.5" and format_score(3.0) == "B+3" and format_score(0) == "0"


ENCLOSED = """
    . . . X O . . . .
    . . . X O . . . .
    . . . X O O O O O
    . . . X O . . . .
    . . . X O . . X .
    . . . X O . . . .
    . . . X O O O O O
    . . . X O . . . .
    . . . X O . . . .
"""


def test_dead_stone_in_territory():
    b = from_diagram(ENCLOSED)    # a lone black stone inside white's area
    j = judge(b, 0.5, JudgeConfig(playouts=64))
    assert j.dead[4, 7] and not j.dead[0, 3] and not j.dead[0, 4]
    assert j.score == area_score(b, 0.5, j.dead) == 36 - 45 - 0.5


def _fake_policy(prefer):
    def policy(board, colour):
        logits = np.zeros(board.size ** 2, dtype=np.float32)
        logits[prefer] = 10.0
        return logits
    return policy


def test_never_fills_own_true_eye_and_passes_when_nothing_is_left():
    b = from_diagram(TWO_EYES)
    b.place((3, 0), BLACK)
    # a policy that loves black's own eye at A5 (row 0, col 0)
    player = Player(_fake_policy(0), PlayerConfig(resign_threshold=0))
    d = player.genmove(b, BLACK, 0.5)
    assert d.move != 0 and (d.move is None or b.is_legal(d.move, BLACK))
    assert player.candidates(b, BLACK)[0] == False  # noqa: E712


def test_genmove_always_legal_on_random_positions():
    player = Player(config=PlayerConfig(resign_threshold=0, playouts=8))
    for seed in range(6):
        b = Board(9)
        b.random_playout(seed, max_moves=10 + 8 * seed)
        for colour in (BLACK, WHITE):
            d = player.genmove(b, colour, 7.5)
            if d.move is not None:
                assert b.is_legal(d.move, colour) and not b.repeats(d.move, colour)
                assert b.eye(d.move, colour) != 2


class _RepeatingBoard:
    """Just what Player._pick asks of a board: the best move repeats a position."""
    def repeats(self, p, colour):
        return p == 3


def test_pick_skips_superko_repeats():
    player = Player(config=PlayerConfig())
    scores = np.array([0.0, -np.inf, 1.0, 5.0], dtype=np.float32)
    assert player._pick(_RepeatingBoard(), BLACK, scores) == 2


def test_ladder_hook_is_applied_through_the_adjust_function():
    b = Board(9)
    calls = {}

    def facts(board):
        pushes = np.zeros((9, 9), dtype=np.int32)
        pushes[4, 4] = 6                          # the policy's favourite pushes a 6-stone ladder
        return {"captures": np.zeros((9, 9), np.int32), "saves": np.zeros((9, 9), np.int32), "pushes": pushes}

    def adjust(logits, captures, saves, pushes):
        calls["n"] = calls.get("n", 0) + 1
        return logits - np.where(pushes.ravel() > 4, pushes.ravel(), 0).astype(np.float32)

    hooks = TacticsHooks(ladder_facts=facts, ladder_adjust=adjust)
    logits = np.zeros(81, dtype=np.float32)
    logits[40], logits[41] = 5.0, 4.0
    on = Player(lambda board, c: logits, PlayerConfig(resign_threshold=0), hooks)
    off = Player(lambda board, c: logits, PlayerConfig(resign_threshold=0, tactics=False), hooks)
    assert on.genmove(b, BLACK).move == 41 and calls["n"] == 1
    assert off.genmove(b, BLACK).move == 40


LOST = """
    . O . O . O . O .
    O O O O O O O O O
    . O . O . O . O .
    O O O O O O O O O
    . . . . . . . X .
    O O O O O O O O O
    . O . O . O . O .
    O O O O O O O O O
    . O . O . O . O .
"""


def test_resigns_when_clearly_lost_after_patience():
    b = from_diagram(LOST)
    player = Player(config=PlayerConfig(resign_threshold=0.2, resign_patience=2, playouts=16))
    first = player.genmove(b, BLACK, 7.5)
    assert not first.resign
    assert player.genmove(b, BLACK, 7.5).resign
    never = Player(config=PlayerConfig(resign_threshold=0, playouts=16))
    assert not any(never.genmove(b, BLACK, 7.5).resign for _ in range(3))


def test_passes_after_opponent_pass_when_ahead_and_cleans_up_dead_stones():
    b = from_diagram(ENCLOSED)
    b.play(None, BLACK)                            # black passed; white is well ahead with komi
    player = Player(config=PlayerConfig(resign_threshold=0, playouts=64))
    assert player.genmove(b, WHITE, 7.5).move is None
    d = player.genmove(b, WHITE, 7.5, cleanup=True)
    assert d.move is not None and d.move in b.liberty_points(4 * 9 + 7)   # attacks the dead stone


def test_fallback_policy_prefers_capture():
    b = from_diagram("""
        . . . . .
        . . O . .
        . O X . .
        . . O . .
        . . . . .
    """)
    logits = fallback_policy(b, WHITE)
    assert int(np.argmax(logits)) == 2 * 5 + 3     # D3 captures


def test_play_py_with_a_network_file(tmp_path):
    """play.py loads a network file, says so, and answers genmove with a legal move."""
    import subprocess
    import sys

    from golois.datasets.features import get_feature_set
    from golois.model import ModelMeta, PolicyNet, make_config, save_model
    fs = get_feature_set("golois")
    save_model(tmp_path / "tiny.pt", PolicyNet(make_config("tiny", fs.planes)), ModelMeta(feature_set=fs.as_dict()), fp16=True)
    proc = subprocess.run([sys.executable, "play.py", "--policy", "network", "--model", str(tmp_path / "tiny.pt"),
                           "--symmetries", "8"],
                          input="play b D4\nplay w Q16\n1 genmove b\n2 genmove w\nquit\n",
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "policy network tiny.pt x8" in proc.stderr
    answers = {line.split()[0]: line.split()[1] for line in proc.stdout.splitlines() if line[:2] in ("=1", "=2")}
    b = Board(19)
    b.play("D4", "b")
    b.play("Q16", "w")
    assert b.is_legal(answers["=1"], "b")
    b.play(answers["=1"], "b")
    assert b.is_legal(answers["=2"], "w")
