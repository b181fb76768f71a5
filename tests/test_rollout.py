"""The fast rollout policy (tactics/rollout.pyx): its incremental weights against a from-scratch
reference, its features on diagrams, symmetry, rollouts and their scoring, and training."""

import numpy as np
import pytest

from tactics.board import BLACK, WHITE, Board
from tactics.diagram import from_diagram_marks
from tactics.rollout import VERSION, WEIGHTS, RolloutPolicy, fit

from golois import symmetry
from golois.player.scoring import area_score


def random_game(size: int, seed: int, moves: int) -> list:
    """Up to `moves` random legal moves (a pass now and then) from the empty board."""
    rng = np.random.default_rng(seed)
    b, out = Board(size), []
    for _ in range(moves):
        legal = [p for p in range(size * size) if b.is_legal(p, b.to_move)]
        if not legal:
            break
        m = None if rng.random() < 0.03 else int(rng.choice(legal))
        b.play(m, b.to_move)
        out.append(m)
    return out


def replay(size: int, moves: list) -> Board:
    b = Board(size)
    for m in moves:
        b.play(m, b.to_move)
    return b


@pytest.fixture(scope="module")
def noisy():
    """A policy with random weights: every feature counts, so a stale one shows."""
    return RolloutPolicy(np.random.default_rng(5).normal(0, 0.7, WEIGHTS).astype(np.float32))


@pytest.mark.parametrize("size,seed", [(9, 1), (9, 2), (13, 3), (19, 4)])
def test_incremental_weights_match_a_fresh_computation_after_every_kind_of_move(noisy, size, seed):
    # random games are full of captures, ko, merges and passes: after each prefix the weights
    # kept move by move equal the weights computed from scratch on the same position
    moves = random_game(size, seed, 3 * size * size)
    assert len(moves) > size * size
    for k in range(0, len(moves), 7):
        inc = noisy.incremental_gammas(Board(size), moves[:k])
        ref = noisy.reference_gammas(replay(size, moves[:k]))
        np.testing.assert_allclose(inc, ref, rtol=1e-12, err_msg=f"after {k} moves")


def test_the_distribution_turns_with_the_board(noisy):
    # canonical 3x3 patterns and response keys: the policy is the same under the 8 symmetries
    moves = random_game(19, 9, 120)
    p = noisy.probabilities(replay(19, moves))
    for k in range(1, 8):
        turned = [None if m is None else int(symmetry.map_moves(m, k)) for m in moves]
        q = noisy.probabilities(replay(19, turned))
        np.testing.assert_allclose(q[symmetry.map_moves(np.arange(361), k)], p, rtol=1e-6, atol=1e-12)


EYE = """
. . . . . .
. . . . . .
. . . . . .
X X X . . .
X X X . . .
a X X . . .
"""


def test_no_rollout_fills_its_own_eye_and_the_opponent_may_not_play_a_suicide(noisy):
    board, m = from_diagram_marks(EYE, to_move="black")
    assert noisy.features(board, m["a"], BLACK) == []         # black's eye
    assert noisy.features(board, m["a"], WHITE) == []         # white's suicide
    p = noisy.probabilities(board, BLACK)
    assert p[m["a"]] == 0 and abs(p.sum() - 1) < 1e-9


BIG_ATARI = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O O O O O O .
X X X X X X X O .
a O . O O O O O .
"""


def test_a_big_string_is_never_put_in_atari_but_a_capture_is_seen(noisy):
    board, m = from_diagram_marks(BIG_ATARI, to_move="black")
    # black's seven stones have two liberties: black a would leave them one, a move the
    # rollouts never play; white a puts them in atari (and itself: two stones, allowed)
    assert noisy.features(board, m["a"], BLACK) == []
    w = noisy.features(board, m["a"], WHITE)
    assert len(w) == 3                                        # no last move: no response features


def test_response_features_are_the_side_to_move_s_and_only_near_the_last_move(noisy):
    board = replay(19, [72, 288])                             # black D16, white (15, 3)
    near = 288 - 19                                           # one above white's stone
    far = 5
    assert len(noisy.features(board, near, BLACK)) == 5
    assert len(noisy.features(board, far, BLACK)) == 3
    assert len(noisy.features(board, near, WHITE)) == 3       # not white's turn: no response


def test_rollouts_end_score_like_the_area_count_and_are_reproducible(noisy):
    board = replay(9, random_game(9, 11, 30))
    a = noisy.rollouts(board, n=20, komi=7.0, seed=3, ownership=True)
    assert a[:2] == noisy.rollouts(board, n=20, komi=7.0, seed=3)[:2]
    black, score, owner, moves = a
    assert 0 <= black <= 1 and owner.shape == (81,) and np.all(np.abs(owner) <= 1)
    assert 0 < moves < 3 * 81


def test_rollout_scores_agree_with_the_area_count_on_final_positions():
    policy = RolloutPolicy()
    for seed in range(6):
        b = replay(9, random_game(9, 20 + seed, 40))
        b.random_playout(seed=seed + 1)
        _, score, owner, moves = policy.rollouts(b, n=1, komi=6.5, seed=1, ownership=True)
        # the position is over (random playouts fill all but the eyes): the rollout passes twice
        assert moves == 2 and score == area_score(b, 6.5)


WON = """
. . . . . . . .
. . . . . . . .
. . . . . . . .
X X X X X X X X
O O O O O O O O
. . . . . . . .
. . . . . . . .
. . . . . . . .
"""


def test_rollouts_know_who_is_winning_a_clear_position():
    board, _ = from_diagram_marks(WON, to_move="black")
    policy = RolloutPolicy()
    # equal areas: komi 15 gives it to white, komi -15 to black
    assert policy.values([board], n=50, komi=15.0, seed=1)[0] < -0.5
    assert policy.values([board], n=50, komi=-15.0, seed=1)[0] > 0.5
    white = board.copy()
    white.to_move = WHITE
    assert policy.values([white], n=50, komi=15.0, seed=1)[0] > 0.5
    # without the margin: wins and losses alone
    assert policy.values([board], n=50, komi=15.0, seed=1, score_weight=0)[0] < -0.5


def test_training_raises_the_likelihood_and_measuring_changes_nothing():
    games = [random_game(19, 40 + g, 60) for g in range(6)]
    # the moves of a few games grow likelier as the weights learn them
    points, colours, starts = [], [], [0]
    for g in games:
        b = Board(19)
        for m in g:
            if m is None or not b.is_legal(m, b.to_move):
                continue
            colours.append(b.to_move)
            points.append(m)
            b.play(m, b.to_move)
        starts.append(len(points))
    policy = RolloutPolicy()
    order = np.arange(len(games))
    before = fit(policy, points, colours, starts, order)
    assert not policy.weights.any()                           # lr 0: counts only
    for _ in range(3):
        fit(policy, points, colours, starts, order, lr0=0.1)
    after = fit(policy, points, colours, starts, order)
    assert after["positions"] == before["positions"] > 300
    assert after["loglik"] > before["loglik"]


def test_bad_weights_are_refused():
    with pytest.raises(ValueError):
        RolloutPolicy(np.zeros(10, np.float32))
    assert VERSION.startswith("golois-rollout-")
