"""golois.player.player and golois.player.scoring: conduct rules of genmove, tactics hooks, dead stones, area score."""

import numpy as np
import pytest

from tactics.board import BLACK, WHITE, Board
from tactics.diagram import from_diagram

from golois.player.player import Player, PlayerConfig, TacticsHooks, fallback_policy
from golois.player.scoring import (JudgeConfig, area_score, benson_ownership, enclosed_territory, format_score, judge,
                            neutral_points)

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


def test_benson_settles_ownership_exactly():
    b = from_diagram("""
        O . X . X O
        X X X X X O
        O O O O O O
        . . . . . .
        . . . . . .
        . . . . . .
    """)                                       # white A6 sits in black's unconditional eye
    certain = benson_ownership(b)
    assert (certain[:2, :5] == 1.0).all() and (certain[3:] == 0).all()
    j = judge(b, 0.5, JudgeConfig(playouts=1))
    assert (j.ownership[:2, :5] == 1.0).all() and j.dead[0, 0]


def test_neutral_points_and_enclosed_territory():
    b = from_diagram("""
        . . X O .
        . . X O .
        X X . O O
        . X O . .
        . X O . .
    """)
    stones = b.to_array()
    assert np.flatnonzero(neutral_points(stones, 3).ravel()).tolist() == [12]     # C3
    own = np.where(stones == 1, 1.0, np.where(stones == 2, -1.0, 0.0)).astype(np.float32)
    terr = enclosed_territory(stones, own, 0.9, 4)
    assert terr[0, 0] == 1 and terr[3, 0] == 1 and terr[0, 4] == 2 and terr[3, 3] == 2 and terr[2, 2] == 0
    assert enclosed_territory(stones, own * 0.5, 0.9, 4).sum() == 0            # unsafe borders: nothing
    assert enclosed_territory(stones, own, 0.9, 3)[0, 0] == 0                  # the 4-point room is too big


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


def test_temperature_samples_only_in_the_first_moves():
    scores = np.linspace(0.0, 1.0, 81).astype(np.float32)     # best move: the last point
    opening, later = Board(9), Board(9)
    later.play_many([0, 1, 2, 3])
    picks = {}
    for seed in range(20):
        player = Player(config=PlayerConfig(temperature=5.0, temperature_moves=4, seed=seed))
        picks.setdefault("opening", set()).add(player._pick(opening, BLACK, scores))
        picks.setdefault("later", set()).add(player._pick(later, BLACK, scores))
    assert len(picks["opening"]) > 5 and picks["later"] == {80}


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


def test_clearly_lost_by_win_rate_or_by_a_large_margin():
    cfg = PlayerConfig()                                    # threshold 0.05, margin 15%, win cap 0.25
    assert cfg.clearly_lost(0.01, -3.0, 361)                # hopeless by the playouts
    assert cfg.clearly_lost(0.15, -80.0, 361)               # playouts keep hope, the score does not
    assert not cfg.clearly_lost(0.15, -30.0, 361)           # behind, but not by 15% of the board
    assert not cfg.clearly_lost(0.40, -80.0, 361)           # the playouts still give it a chance
    assert not cfg.clearly_lost(0.01, +5.0, 361)            # ahead: never
    assert not PlayerConfig(resign_margin=0).clearly_lost(0.15, -80.0, 361)
    assert not PlayerConfig(resign_threshold=0).clearly_lost(0.0, -300.0, 361)


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


@pytest.mark.parametrize("features", ["golois", "golois_ld"])
def test_play_py_with_a_network_file(tmp_path, features):
    """play.py loads a network file (of either tactical feature set: the planes come from the
    file's), says so, and answers genmove with a legal move."""
    import subprocess
    import sys

    from golois.datasets.features import get_feature_set
    from golois.nn.model import ModelMeta, PolicyNet, make_config, save_model
    fs = get_feature_set(features)
    save_model(tmp_path / "tiny.pt", PolicyNet(make_config("tiny", fs.planes)), ModelMeta(feature_set=fs.as_dict()), fp16=True)
    proc = subprocess.run([sys.executable, "play.py", "--policy", "network", "--model", str(tmp_path / "tiny.pt"),
                           "--symmetries", "8"],
                          input="play b D4\nplay w Q16\n1 genmove b\n2 genmove w\nquit\n",
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "policy network tiny.pt x8" in proc.stderr and "no value head: resigns from the playouts" in proc.stderr
    answers = {line.split()[0]: line.split()[1] for line in proc.stdout.splitlines() if line[:2] in ("=1", "=2")}
    b = Board(19)
    b.play("D4", "b")
    b.play("Q16", "w")
    assert b.is_legal(answers["=1"], "b")
    b.play(answers["=1"], "b")
    assert b.is_legal(answers["=2"], "w")


# ------------------------------------------------------------------------------ end of game
# Finished and nearly finished positions.  The tests marked "old code:" fail with the conduct
# rules of commit b5726e4 (before the endgame rules); the others guard what already worked.

FINISHED_DAME = """
    . X . X O . O . .
    X X X X O O O O O
    . . . X X O . O .
    . . . . X O O O O
    X X X . X O . . .
    . X . X X O O O O
    X X X X O O . O .
    . . . X O . O O O
    . . . X . O . . .
"""
# E1 is the one neutral point; white is ahead by 7.5 with komi 7.5.

CUTTING_POINT = """
    . X . X O . O . .
    X X X X O O O O O
    . . . X X O . O .
    . . . . X O O O O
    X X X . X O . . .
    . X . X X O O O O
    X X X X O O . O .
    . . . X . O O O O
    . . . X O . . . .
"""
# White E1 has two liberties, E2 and F1: black E2 would put it in atari (a cut).

E1, E2, F1 = 8 * 9 + 4, 7 * 9 + 4, 8 * 9 + 5


def _endgame_player(policy=None, **kw):
    return Player(policy, PlayerConfig(resign_threshold=0, **kw))


def test_fills_the_dame_before_passing():
    b = from_diagram(FINISHED_DAME)
    b.play(None, BLACK)
    player = _endgame_player()
    d = player.genmove(b, WHITE, 7.5)          # old code: passed ("opponent passed, ahead")
    assert d.move == E1 and d.reason == "dame"
    b.play(d.move, WHITE)
    b.play(None, BLACK)
    assert player.genmove(b, WHITE, 7.5).move is None


def test_connects_a_cutting_point_before_passing():
    b = from_diagram(CUTTING_POINT)
    b.play(None, BLACK)
    d = _endgame_player().genmove(b, WHITE, 7.5)  # old code: passed
    assert d.move == E2 and d.reason in ("connect", "rescue")


def test_does_not_pass_with_a_group_in_atari_after_the_opponent_passes():
    b = from_diagram(CUTTING_POINT)
    b.play(F1, BLACK)                          # atari on E1 (black F1 is itself in atari)
    d = _endgame_player(_fake_policy(0)).genmove(b, WHITE, 7.5)
    assert d.move in (E2, 8 * 9 + 6) and d.reason == "rescue"   # connect, or capture F1 at G1
    b.play(8 * 9 + 8, WHITE)                   # white plays J1 instead (a slip) ...
    b.play(None, BLACK)                        # ... and black passes: E1 still in atari
    d = _endgame_player().genmove(b, WHITE, 7.5)   # old code: passed ("opponent passed, ahead")
    assert d.move in (E2, 8 * 9 + 6) and d.reason == "rescue"


def test_passes_when_the_game_is_over_and_ahead_9x9():
    b = from_diagram(FINISHED_DAME)
    b.place(E1, WHITE)
    for colour in (WHITE, BLACK):              # white ahead; black behind but has nothing to do
        d = _endgame_player().genmove(b, colour, 7.5)
        assert d.move is None and not d.resign


SPLIT_19 = """
 19 . . . . X . . . X O . . . . O . . . . 19
 18 . . . . X . . . X O . . . . O . . . . 18
 17 . . . . X . . . X O . . . . O . . . . 17
 16 . . . . X . . . X O . . . . O . . . . 16
 15 X X X X X X X X X O O O O O O O O O O 15
 14 . . . . X . . . X O . . . . O . . . . 14
 13 . . . . X . . . X O . . . . O . . . . 13
 12 . . . . X . . . X O . . . . O . . . . 12
 11 . . . . X . . . X O . . . . O . . . . 11
 10 X X X X X X X X X O O O O O O O O O O 10
  9 . . . . X . . . X O . . . . O . . . . 9
  8 . . . . X . . . X O . . . . O . . . . 8
  7 . . . . X . . . X O . . . . O . . . . 7
  6 . . . . X . . . X O . . . . O . . . . 6
  5 X X X X X X X X X O O O O O O O O O O 5
  4 . . . . X . . . X O . . . . O . . . . 4
  3 . . . . X . . . X O . . . . O . . . . 3
  2 . . . . X . . . X O . . . . O . . . . 2
  1 . . . . X . . . X O . . . . O . . . . 1
"""
# A finished 19x19 game (rows numbered, columns A-T without I): black's wall on J, white's on K,
# both split into 4x4 rooms whose corners 64 random playouts own only 0.7-0.8; white ahead by 26.5.


def test_passes_when_the_game_is_over_and_ahead_19x19():
    b = from_diagram(SPLIT_19)
    d = _endgame_player().genmove(b, WHITE, 7.5)   # old code: played C17, inside black's corner
    assert d.move is None and not d.resign


def test_does_not_play_inside_its_own_territory_19x19():
    b = from_diagram(SPLIT_19)
    for colour, favourite in ((BLACK, 0), (WHITE, 18)):     # A19 / T19: own corner rooms
        d = _endgame_player(_fake_policy(favourite)).genmove(b, colour, 7.5)  # old code: played them
        assert d.move is None, (colour, d)


def test_pointless_moves_are_found_by_the_judgement_after_the_move():
    b = from_diagram(FINISHED_DAME)
    player = _endgame_player()
    verdict = player.judge(b, 7.5, endgame=True)
    assert player.pointless(b, WHITE, 2 * 9 + 8, verdict, 7.5)       # J7: own territory
    assert player.pointless(b, BLACK, 4 * 9 + 7, verdict, 7.5)       # H5: dies in white's area
    assert not player.pointless(b, WHITE, E1, verdict, 7.5)          # the dame is not settled


def test_cleanup_captures_the_dead_stones_then_passes_19x19():
    b = from_diagram(SPLIT_19)
    dead = [2 * 19 + 11, 17 * 19 + 16]         # black M17 and R2, lone stones in white's rooms
    for p in dead:
        b.place(p, BLACK)
    player = _endgame_player()
    b.play(None, BLACK)
    targets = {q for p in dead for q in b.liberty_points(p)}
    for _ in range(12):
        d = player.genmove(b, WHITE, 7.5, cleanup=True)
        if d.move is None:
            break
        assert d.move in targets, d            # old code: went on with C17, T17... after capturing
        b.play(d.move, WHITE)
        b.play(None, BLACK)
    assert d.move is None and all(b.get(p) == 0 for p in dead)


def test_cleanup_captures_the_dead_stones_then_passes():
    b = from_diagram("""
        . X . X O . O . .
        X X X X O O O O O
        . . . X X O . O .
        . . . . X O O O O
        X X X . X O . X .
        . X . X X O O O O
        X X X X O O . O .
        . . . X O . O O O
        . . . X O . . X .
    """)                                       # black H5 and H1 are dead in white's area
    player = _endgame_player()
    b.play(None, BLACK)
    moves = []
    for _ in range(8):
        d = player.genmove(b, WHITE, 7.5, cleanup=True)
        moves.append(d.move)
        b.play(d.move, WHITE)
        if d.move is None:
            break
        b.play(None, BLACK)
    assert moves[-1] is None and len(moves) <= 5, moves
    stones = b.to_array()
    assert stones[4, 7] == 0 and stones[8, 7] == 0              # both captured
    assert player.genmove(b, WHITE, 7.5, cleanup=True).move is None


def test_no_rescue_for_a_string_caught_in_a_ladder():
    b = from_diagram("""
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . O . . . .
        . . . O X O . . .
        . . . . . O . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """)                                       # black E5 in atari; E4 runs into a ladder
    player = _endgame_player()
    verdict = player.judge(b, 7.5)
    assert player.endgame_facts(b, BLACK, verdict).rescue == set()
    b.place(6 * 9 + 2, BLACK)                  # a ladder breaker on C3: now E4 saves it
    assert player.endgame_facts(b, BLACK, player.judge(b, 7.5)).rescue == {5 * 9 + 4}


def corner19(rows: str) -> Board:
    """A bottom-left corner shape (rows given bottom-aligned) on an empty 19x19 board."""
    lines = [r.split() for r in rows.strip().splitlines()]
    body = [" ".join(line + ["."] * (19 - len(line))) for line in lines]
    return from_diagram("\n".join([" ".join(["."] * 19)] * (19 - len(body)) + body))


# white's corner group lives or dies on the middle of its straight three (B1)
CRITICAL = """
X X X X X X
O O O O O X
. . . O O X
"""
# ... and with a straight two it is dead whoever moves
DEAD = """
X X X X X
O O O O X
. . O O X
"""


def test_life_and_death_hook_names_the_vital_point_of_a_critical_group():
    from golois.player.hooks import LifeAndDeath
    b = corner19(CRITICAL)
    hook = LifeAndDeath()
    assert [len(g) for g in hook.groups(b)] == [7]           # the black wall has too many liberties
    b1 = 18 * 19 + 1
    assert hook(b, WHITE) == {b1: 3.0}                        # white saves its 7 stones (3 nats at most)
    assert hook(b, BLACK) == {b1: 3.0}                        # black kills them
    searches = hook.searches
    assert hook(b, WHITE) == {b1: 3.0} and hook.searches == searches   # cached: no new search
    assert LifeAndDeath()(corner19(DEAD), WHITE) == {}       # dead whoever moves: nothing to gain


def test_life_and_death_hook_reads_with_owl_solve(monkeypatch):
    """The hook's searches are tactics.owl.owl_solve's (the reading, the count as its fallback)
    at the hook's time and widths, and its cache key holds the points within key_distance (8) of
    the group: the reading reads past the root's region, so a stone 5 steps from the group asks
    again, where the search of the root's region alone (reading=False) keeps its answer; a
    stone 17 steps away is outside both keys."""
    import golois.player.hooks as hooks
    calls = []
    real = hooks.owl_solve

    def spy(board, mover, flat, cfg, *args, **kwargs):
        calls.append((mover, cfg.time_limit, cfg.width, cfg.escape_out))
        return real(board, mover, flat, cfg, *args, **kwargs)

    monkeypatch.setattr(hooks, "owl_solve", spy)
    b = corner19(CRITICAL)
    b1 = 18 * 19 + 1
    hook = hooks.LifeAndDeath()
    assert hook(b, WHITE) == {b1: 3.0}
    assert sorted(calls) == [(BLACK, 0.03, 10, 2), (WHITE, 0.03, 10, 2)]
    near, far = b.copy(), b.copy()
    near.play(12 * 19, BLACK)                               # A7: 5 steps above white's A2
    far.play(0, BLACK)                                      # A19: 17 steps
    searches = hook.searches
    assert hook(far, WHITE) == {b1: 3.0} and hook.searches == searches
    assert hook(near, WHITE) == {b1: 3.0} and hook.searches == searches + 2
    calls.clear()
    alone = hooks.LifeAndDeath(hooks.LifeAndDeathConfig(reading=False))
    assert alone(b, WHITE) == {b1: 3.0}
    searches = alone.searches
    assert alone(near, WHITE) == {b1: 3.0} and alone.searches == searches and calls == []


def test_life_and_death_hook_gives_nothing_for_a_pass(monkeypatch):
    """A critical group whose saving answer is a pass (the search's move None) gives no bonus:
    a None key made the player's genmove fail (a forfeit in a match between two fast bots)."""
    from golois.player.hooks import LifeAndDeath
    b = corner19(CRITICAL)
    hook = LifeAndDeath()
    monkeypatch.setattr(hook, "status", lambda board, group: ("critical", None, 18 * 19 + 1))
    assert hook(b, WHITE) == {} and hook(b, BLACK) == {18 * 19 + 1: 3.0}
    player = Player(lambda board, c: np.zeros(361, np.float32), PlayerConfig(resign_threshold=0),
                    TacticsHooks(life_and_death=hook))
    assert player.genmove(b, WHITE).move is not None


def test_player_plays_the_solver_move_only_with_the_life_and_death_hook():
    from golois.player.hooks import LifeAndDeath
    b = corner19(CRITICAL)
    logits = np.zeros(361, dtype=np.float32)
    logits[9 * 19 + 9] = 2.0                                  # the policy's favourite: tengen
    cfg = PlayerConfig(resign_threshold=0)
    with_ld = Player(lambda board, c: logits, cfg, TacticsHooks(life_and_death=LifeAndDeath()))
    without = Player(lambda board, c: logits, cfg, TacticsHooks())
    assert with_ld.genmove(b, WHITE).move == 18 * 19 + 1
    assert without.genmove(b, WHITE).move == 9 * 19 + 9


def test_final_judgement_lets_the_solver_settle_unsure_strings():
    b = from_diagram(ENCLOSED)                # the lone black stone at H5 is dead by the playouts
    calls = []

    def owl(answers):
        def answer(board, stone, mover):
            calls.append((stone, mover))
            return answers.get((board.get(stone), mover))
        return answer

    lone, wall = 4 * 9 + 7, 3
    unsure = dict(playouts=64, owl_band=1.01)     # every string counts as unsure
    # the attacker (white) fails to kill the lone stone even moving first: it lives
    j = judge(b, 0.5, JudgeConfig(**unsure, owl=owl({(BLACK, WHITE): "fail"})))
    assert not j.dead[4, 7] and (lone, WHITE) in calls
    # black cannot live even moving first: its wall is dead (and the lone stone stays dead)
    j = judge(b, 0.5, JudgeConfig(**unsure, owl=owl({(BLACK, BLACK): "fail"})))
    assert j.dead[0, 3] and j.dead[4, 7]
    # unknown answers change nothing
    j = judge(b, 0.5, JudgeConfig(**unsure, owl=owl({})))
    assert j.dead[4, 7] and not j.dead[0, 3] and j.score == 36 - 45 - 0.5
    assert wall in {s for s, _ in calls}


def test_owl_answer_on_critical_and_dead_corners():
    from golois.player.hooks import owl_answer
    white = 17 * 19                                       # A2, in white's corner group
    critical, dead = corner19(CRITICAL), corner19(DEAD)
    assert owl_answer(critical, white, WHITE) == "win"     # white lives moving first
    assert owl_answer(critical, white, BLACK) == "win"     # black kills moving first
    assert owl_answer(dead, white, WHITE) == "fail"        # no life even moving first


def test_life_and_death_gfx_shows_the_critical_group_and_its_moves():
    from golois.gtp.engine import build_engine
    from golois.gtp.play import install_player
    from golois.player.hooks import LifeAndDeath
    e = build_engine()
    install_player(e, Player(config=PlayerConfig(resign_threshold=0), hooks=TacticsHooks(life_and_death=LifeAndDeath())))
    for r, row in enumerate(CRITICAL.strip().splitlines()):
        for c, ch in enumerate(row.split()):
            if ch != ".":
                e.handle(f"play {'b' if ch == 'X' else 'w'} {'ABCDEF'[c]}{3 - r}")
    assert "golois-life_and_death_gfx" in e.handle("gogui-analyze_commands")
    out = e.handle("golois-life_and_death_gfx")
    assert out.startswith("= SQUARE ") and "LABEL B1 S B1 K" in out and "critical 1" in out
    assert len(out.split("\n")[0].split()) == 2 + 7              # the 7 white stones squared


def test_player_options_threads_and_life_and_death_switch():
    import argparse
    from golois.gtp.play import add_player_arguments, make_player, options_from_args
    p = argparse.ArgumentParser()
    add_player_arguments(p)
    opts = options_from_args(p.parse_args([]))
    assert opts.threads == 1 and opts.life_and_death and opts.tactics
    opts = options_from_args(p.parse_args(["--threads", "3", "--no-life-and-death", "--policy", "fallback"]))
    assert opts.threads == 3 and not opts.life_and_death
    hooks = make_player(opts, log=None).hooks
    assert hooks.life_and_death is None and hooks.tactical_bonus is not None and hooks.owl is not None
    assert make_player(options_from_args(p.parse_args(["--policy", "fallback"])), log=None).hooks.life_and_death is not None


# The final position (after two passes, komi 7.5) of a game of Golois against GNU Go level 10.
# GNU Go (`final_score`, Chinese rules) says B+21.5 with 51 dead
# stones; the playouts alone gave away the 35-stone white group in the middle-left and scored W+49.5.
REAL_FINAL = """
X O . . . . . . . . . . . . . . O O O
X O O . . . . . . . O . . . O O O X X
X X O O . . . . O O . O . O X O X X .
. X X O O O O O X O O O X O X X X . X
. . . X X X O X X X O X O O X O X O O
. . X X X . X . . X X X X O X O X X O
X X X O X . . . . . . X O O X O O O O
O O O O X . . X X X X X X O X X X O O
. . . O X X X O O X O O O O X X O O O
. . . . O O O . O O O X O O O X O X X
. . . . . . X O O X O X X X X O O O X
. O O O O . X O X X X . X . X O O X X
. O X X X . X O O X X X X X O O O X X
O X X X . O O . O O O X O O O X O X .
O X O O . . X O O X X O O X O X X . .
. O . O . O O O X X O O X X O O X X X
. . . . . O X X X X O X . X X X . . .
. . . O . O X . X O X X X . . . . . .
. . . . O X X . X O O O . . . . . . .
"""


def test_final_judgement_with_the_solver_agrees_with_gnugo_on_a_real_game():
    from golois.player.hooks import owl_answer
    b = from_diagram(REAL_FINAL)
    cfg = PlayerConfig()
    playouts = judge(b, 7.5, cfg.judge_config(None, 256))
    solver = judge(b, 7.5, cfg.judge_config(None, 256, owl_answer))
    assert format_score(solver.score) == "B+21.5" and int(solver.dead.sum()) == 51
    assert (playouts.dead != solver.dead).any()          # the check is what makes it right


def test_shipped_networks_by_name_and_the_default():
    """--model takes a shipped network's name or a path; the default is the paper's 12x256 network,
    and both shipped files open on an empty board at a corner point of the third or fourth line."""
    from golois.gtp.play import PlayerOptions, make_player
    from golois.nn.registry import DEFAULT_NETWORK, SHIPPED_NETWORKS, default_model, resolve_model
    from golois.nn.model import load_model

    assert DEFAULT_NETWORK == "full" and default_model() == resolve_model("full")
    assert str(resolve_model("games/my.pt")) == "games/my.pt"
    layers = {}
    for name in SHIPPED_NETWORKS:
        player = make_player(PlayerOptions(model=name, symmetries=1, tactics=False), log=None)
        assert player.policy_name == f"network {SHIPPED_NETWORKS[name]} x1"
        config = load_model(str(resolve_model(name))).config
        layers[name] = (config.layers, config.filters)
        move = player.genmove(Board(19), BLACK).move
        r, c = divmod(move, 19)
        assert {min(r, 18 - r), min(c, 18 - c)} <= {2, 3}, (name, move)
    assert layers == {"full": (12, 256), "small": (6, 64)}


class _ValuePolicy:
    """A policy with a value head's answer: `win` for the player to move, whatever the board."""

    def __init__(self, win):
        self.win, self.calls = win, 0

    def __call__(self, board, colour):
        return np.zeros(board.size ** 2, np.float32)

    def win_probability(self, board, colour):
        self.calls += 1
        return self.win


def test_resigns_when_the_value_head_agrees_with_the_playouts():
    b = from_diagram(LOST)                      # lost on the board, by the playouts
    hopeful = Player(_ValuePolicy(0.6), PlayerConfig(resign_threshold=0.2, resign_patience=2, playouts=16))
    assert not any(hopeful.genmove(b, BLACK, 7.5).resign for _ in range(3))     # the value says play on
    assert hopeful.policy.calls == 3
    agrees = Player(_ValuePolicy(0.3), PlayerConfig(resign_threshold=0.2, resign_patience=2, playouts=16))
    assert not agrees.genmove(b, BLACK, 7.5).resign
    decision = agrees.genmove(b, BLACK, 7.5)
    assert decision.resign and decision.reason.startswith("value 0.30 and playout win rate")
    alone = Player(_ValuePolicy(0.3), PlayerConfig(resign_threshold=0.2, resign_patience=2, playouts=16,
                                                   resign_from="value"))
    assert not any(alone.genmove(b, BLACK, 7.5).resign for _ in range(3))      # 0.3 is over the threshold
    hopeless = Player(_ValuePolicy(0.1), PlayerConfig(resign_threshold=0.2, resign_patience=2, playouts=16,
                                                      resign_from="value"))
    assert not hopeless.genmove(b, BLACK, 7.5).resign
    decision = hopeless.genmove(b, BLACK, 7.5)
    assert decision.resign and decision.reason.startswith("value 0.10,")
    playouts = Player(_ValuePolicy(0.6), PlayerConfig(resign_threshold=0.2, resign_patience=2, playouts=16,
                                                      resign_from="playouts"))
    playouts.genmove(b, BLACK, 7.5)
    assert playouts.genmove(b, BLACK, 7.5).resign and playouts.policy.calls == 0


def test_network_policy_gives_the_value_of_the_same_forward_pass():
    from golois.nn.model import Network, PolicyNet, make_config
    from golois.player.player import network_policy
    import torch
    torch.manual_seed(0)
    network = Network(PolicyNet(make_config("tiny", in_planes=3, value_head=True, value_kind="conv",
                                            value_inputs=2)), log=None)
    encode = lambda board, colour: np.stack([board.to_array() == k for k in (0, 1, 2)]).astype(np.float32)
    policy = network_policy(network, encode, symmetries=8)
    policy.komi = 6.5
    b = Board(9)
    b.play("E5", "b")
    policy(b, WHITE)
    win = policy.win_probability(b, WHITE)
    _, v = network.evaluate_symmetric(encode(b, WHITE)[None], 8, black_to_move=False, komi=6.5)
    assert abs(win - (v[0] + 1) / 2) < 1e-6
    policy.komi = 0.5                              # the remembered value was for the other komi
    _, v = network.evaluate_symmetric(encode(b, WHITE)[None], 8, black_to_move=False, komi=0.5)
    assert abs(policy.win_probability(b, WHITE) - (v[0] + 1) / 2) < 1e-6 and abs(v[0] - (2 * win - 1)) > 1e-4
    no_head = network_policy(Network(PolicyNet(make_config("tiny", in_planes=3)), log=None), encode)
    assert no_head.win_probability(b, WHITE) is None


def test_gogui_winrate_reads_the_value_head():
    from golois.gtp.engine import build_engine
    from golois.gtp.play import install_player
    e = build_engine()
    install_player(e, Player(_ValuePolicy(0.25), PlayerConfig(resign_threshold=0)))
    assert "string/Win probability (value head)/golois-winrate" in e.handle("gogui-analyze_commands")
    e.handle("play b D4")
    assert e.handle("golois-winrate") == "= black 75.0% white 25.0% (white to move)\n\n"
    install_player(e, Player(config=PlayerConfig(resign_threshold=0)))
    assert e.handle("golois-winrate").startswith("? the network has no value head")
