"""golois.search.player, leaves and clock: the search player keeps the fast bot's conduct,
resigns from the search's win rate, reuses its tree across GTP moves, and spends the clock's
time; small boards and the fallback policy keep it fast."""

from types import SimpleNamespace

import numpy as np
import pytest

from tactics.board import BLACK, WHITE, Board
from tactics.diagram import from_diagram

from golois.gtp.engine import build_engine
from golois.gtp.play import install_player
from golois.gtp.protocol import TimeState
from golois.player.player import Player, PlayerConfig
from golois.search.clock import ClockConfig, spend, think_time
from golois.search.leaves import LeafConfig, PlayerEvaluator
from golois.search.mcts import PASS, SearchConfig
from golois.search.player import SearchPlayer, SearchSettings


def search_player(visits=60, **config):
    cfg = PlayerConfig(playouts=8, endgame_playouts=16, check_playouts=8, **config)
    return SearchPlayer(Player(config=cfg), SearchSettings(search=SearchConfig(visits=visits, batch=4)))


# black to play: C3 captures four white stones; the fallback policy knows captures, the search
# must keep it
ATARI = """
    . X O O X . . . .
    X O O X . . . . .
    . X . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def test_the_search_player_plays_the_capture_and_says_it_searched():
    board = from_diagram(ATARI)
    player = search_player()
    d = player.genmove(board, BLACK)
    assert d.move == 2 * 9 + 2
    assert d.reason.startswith("search") and player.last.visits > 0


def test_leaves_give_legal_priors_and_a_value_in_range():
    board = from_diagram(ATARI)
    ev = PlayerEvaluator(Player(), LeafConfig(playouts=2))
    leaf, = ev([board], True)
    assert abs(float(leaf.priors.sum()) - 1) < 1e-4 and -1 <= leaf.value <= 1
    assert all(board.is_legal(int(m), BLACK) for m in leaf.moves)
    full = Board(3)
    for p in (1, 3, 4, 5, 7, 2, 6):
        full.place(p, BLACK)
    full.to_move = WHITE
    only, = ev([full], False)
    assert list(only.moves) == [PASS]            # white has nothing but suicides: it passes


def test_cleanup_and_passes_stay_the_fast_bots():
    board = Board(5)
    player = search_player()
    d = player.genmove(board, BLACK, cleanup=True)
    assert not d.reason.startswith("search")      # cleanup: the fast bot's rules alone


def test_resigns_from_the_search_win_rate_after_patience():
    player = search_player(resign_threshold=0.2, resign_patience=2, resign_min_fill=0.0)
    real = player.search.evaluator

    def hopeless_for_white(boards, root):        # every leaf: white, to move, is lost
        leaves = real(boards, root)
        for leaf, b in zip(leaves, boards):
            leaf.value = -0.9 if b.to_move == WHITE else 0.9
            leaf.settle = None
        return leaves
    player.search.evaluator = hopeless_for_white
    player.evaluator.playout_value = lambda b: -0.9 if b.to_move == WHITE else 0.9
    board = from_diagram(ATARI, to_move="white")
    first = player.genmove(board, WHITE)
    second = player.genmove(board, WHITE)
    assert not first.resign and first.reason.startswith("search")
    assert second.resign and "search win rate" in second.reason
    assert not player.genmove(from_diagram(ATARI), BLACK).resign     # black is winning


def test_the_tree_follows_the_game_through_gtp():
    e = build_engine()
    player = search_player(visits=40)
    install_player(e, player)
    e.handle("boardsize 9")
    move = e.handle("genmove b").split()[1]
    assert e.handle("play w E5").startswith("=")
    e.handle("genmove b")
    assert player.last.tree_visits > player.last.visits or player.last.tree_visits == player.last.visits > 0
    assert move
    e.handle("undo")
    e.handle("undo")
    assert e.handle("genmove w").startswith("=")


@pytest.mark.parametrize("main,byo,stones,left,empty,low,high", [
    (600, 0, 0, (600, 0), 361, 3.0, 5.0),        # absolute: a share of the empty points
    (600, 0, 0, (30, 0), 100, 0.1, 1.5),         # absolute, little left: never past max_share
    (0, 30, 5, (30, 5), 200, 3.0, 5.5),          # Canadian: the period over its stones, a margin kept
    (120, 10, 1, (120, 0), 361, 6.0, 8.0),       # main time with byo-yomi after it: most of one byo move more
    (120, 10, 1, (8, 1), 200, 5.0, 7.0),         # in byo-yomi: the move's time less the margins
])
def test_think_time(main, byo, stones, left, empty, low, high):
    t = TimeState(main=main, byo_yomi=byo, byo_stones=stones)
    t.left[BLACK] = left
    s = think_time(t, BLACK, empty, ClockConfig())
    assert low <= s <= high, s
    assert s < left[0]                             # never the whole clock


def test_no_clock_and_no_limit():
    assert think_time(TimeState(), BLACK, 361) is None
    assert think_time(TimeState(main=0, byo_yomi=10, byo_stones=0), BLACK, 361) is None   # GTP: no limit
    japanese = TimeState(main=0, byo_yomi=30, byo_stones=1, periods=5)
    japanese.left[BLACK] = (30, 5)
    assert 25 <= think_time(japanese, BLACK, 200) <= 28


def test_spend_keeps_the_clock_between_time_left_reports():
    t = TimeState(main=10, byo_yomi=30, byo_stones=2)
    spend(t, BLACK, 4.0)
    assert t.left[BLACK] == (6.0, 0)                       # main time
    spend(t, BLACK, 7.0)
    assert t.left[BLACK] == (29.0, 1)                      # out of main time: a move played in byo-yomi
    spend(t, BLACK, 5.0)
    assert t.left[BLACK] == (30.0, 2)                      # the period's stones played: a new period
    spend(t, BLACK, 5.0)
    assert t.left[BLACK] == (25.0, 1)
    japanese = TimeState(main=0, byo_yomi=20, byo_stones=1, periods=3)
    spend(japanese, WHITE, 12.0)
    assert japanese.left[WHITE] == (20, 1)
    none = TimeState()
    spend(none, BLACK, 3.0)
    assert none.left == {}


def test_the_filled_board_count_is_the_area_score():
    from golois.player.scoring import area_score
    from golois.search.leaves import filled_area_score
    for seed in range(40):
        for size, moves in ((9, None), (19, None), (9, 25)):       # filled by a playout; half-played
            b = Board(size)
            b.random_playout(seed=seed + 1, max_moves=moves)
            assert filled_area_score(b, 7.5) == area_score(b, 7.5)


def test_leaf_values_come_from_the_value_head_mixed_with_playouts(tmp_path):
    from golois.datasets.features import get_feature_set
    from golois.nn.model import ModelMeta, PolicyNet, make_config, save_model
    from golois.player.player import load_network_policy
    fs = get_feature_set("golois")
    save_model(tmp_path / "v.pt", PolicyNet(make_config("tiny", fs.planes, value_head=True, value_kind="conv",
                                                         value_inputs=2)),
               ModelMeta(feature_set=fs.as_dict()))
    policy = load_network_policy(str(tmp_path / "v.pt"), symmetries=1, precision="fp32")
    player = Player(policy, PlayerConfig(playouts=8))
    board = from_diagram(ATARI)
    planes = np.asarray(policy.encode(board, BLACK), dtype=np.float32)[None]
    head = float(policy.network.evaluate(planes, black_to_move=board.to_move == BLACK, komi=7.5)[1][0])
    alone = PlayerEvaluator(player, LeafConfig(random_symmetry=False, root_symmetries=1, playout_weight=0.0))
    assert alone([board], False)[0].value == pytest.approx(head, abs=1e-5)
    for threads in (1, 2):
        mixed = PlayerEvaluator(player, LeafConfig(random_symmetry=False, root_symmetries=1, playout_weight=0.5,
                                                   threads=threads))
        mixed.rollout = SimpleNamespace(values=lambda boards, **kw: np.ones(len(boards)))   # rollouts all won
        leaf = mixed([board], False)[0]
        value = leaf.settle() if threads == 2 else leaf.value
        assert value == pytest.approx(0.5 * head + 0.5, abs=1e-5)
    search = SearchPlayer(player, SearchSettings(search=SearchConfig(visits=20, batch=4)))
    assert search.genmove(board, BLACK).move is not None


def test_a_close_move_is_extended_in_main_time_but_never_past_a_byo_yomi_period():
    player = search_player()
    board = Board(19)
    player.time = TimeState(main=600, byo_yomi=30, byo_stones=1)
    player.time.left[BLACK] = (600, 0)
    _, seconds, extended = player.budget(board, BLACK)
    assert extended > seconds                                # main time: room to think on
    player.time.left[BLACK] = (30, 1)                        # in byo-yomi: one move in 30 s
    _, seconds, extended = player.budget(board, BLACK)
    assert extended == seconds < 30


def test_rollouts_on_their_own_threads_give_values_like_rollouts_in_turn():
    # black to move captures four stones: both ways see it, and a seed repeats the values
    boards = [from_diagram(ATARI), from_diagram(ATARI, to_move="white")]
    values = {}
    for threads in (1, 2, 2):
        ev = PlayerEvaluator(Player(), LeafConfig(playouts=16, random_symmetry=False, threads=threads), seed=3)
        leaves = ev(boards, False)
        assert (threads == 2) == all(leaf.settle is not None for leaf in leaves)
        got = [leaf.settle() if leaf.settle else leaf.value for leaf in leaves]
        assert values.setdefault(threads, got) == got
        assert got[0] > 0 and all(-1 <= v <= 1 for v in got) and ev.rollout_name == "rollout policy"
        assert ev.seconds["rollouts"] > 0


def test_unreadable_rollout_weights_fall_back_to_random_playouts_and_say_so(tmp_path, capsys):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    ev = PlayerEvaluator(Player(), LeafConfig(rollouts=str(bad), playouts=2))
    assert ev.rollout_name == "random playouts (no rollout weights)"
    assert "random playouts" in capsys.readouterr().err
    leaf, = ev([from_diagram(ATARI)], False)
    assert -1 <= (leaf.settle() if leaf.settle else leaf.value) <= 1
