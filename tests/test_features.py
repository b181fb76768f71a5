"""Input planes (tactics/features.pyx through golois.datasets.features): each plane against a
hand-written diagram, the registry, and the tactical planes when tactics.ladder exists."""

import math

import numpy as np
import pytest

from golois.datasets.features import (FEATURE_SETS, FEATURES, FeatureSet, FeatureSetMismatch,
                                      check_same, encode, get_feature_set)
from tactics.board import BLACK, WHITE, Board
from tactics.diagram import from_diagram, from_diagram_marks

POSITION = """
    . X O . .
    X O O . .
    . X O X .
    . . X . .
    O . . . .
"""


def grid(text):
    """A 0/1 plane from a diagram of '1' and '.'."""
    return np.array([[1.0 if ch == "1" else 0.0 for ch in line.split()] for line in text.strip().splitlines()],
                    dtype=np.float32)


def plane(board, fset, feature, i):
    fs = get_feature_set(fset)
    return encode(board, fs)[fs.slice(feature)][i]


def test_stone_planes_black_to_move():
    b = from_diagram(POSITION, "black")
    # friend = black.  Black strings: (0,1) 1 lib [(0,0)]; (1,0) 2 libs [(0,0),(2,0)];
    # (2,1) 2 libs [(2,0),(3,1)]; (2,3)+(3,2)? not connected: (2,3) has libs (1,3),(2,4),(3,3) = 3;
    # (3,2) libs (3,1),(3,3),(4,2) = 3.  White: (0,2)-(1,1)-(1,2)-(2,2) libs (0,3),(1,3) = 2;
    # (4,0) libs (3,0),(4,1) = 2.
    assert np.array_equal(plane(b, "paper11", "stones", 0), grid("""
        1 . . 1 1
        . . . 1 1
        1 . . . 1
        1 1 . 1 1
        . 1 1 1 1"""))
    assert np.array_equal(plane(b, "paper11", "stones", 1), grid("""
        . 1 . . .
        1 . . . .
        . 1 . 1 .
        . . 1 . .
        . . . . ."""))
    assert np.array_equal(plane(b, "paper11", "stones", 2), grid("""
        . . 1 . .
        . 1 1 . .
        . . 1 . .
        . . . . .
        1 . . . ."""))
    assert np.array_equal(plane(b, "paper11", "friend_liberties", 0), grid("""
        . 1 . . .
        . . . . .
        . . . . .
        . . . . .
        . . . . ."""))
    assert np.array_equal(plane(b, "paper11", "friend_liberties", 1), grid("""
        . . . . .
        1 . . . .
        . 1 . . .
        . . . . .
        . . . . ."""))
    assert np.array_equal(plane(b, "paper11", "friend_liberties", 2), grid("""
        . . . . .
        . . . . .
        . . . 1 .
        . . 1 . .
        . . . . ."""))
    assert not plane(b, "paper11", "enemy_liberties", 0).any()
    assert np.array_equal(plane(b, "paper11", "enemy_liberties", 1), grid("""
        . . 1 . .
        . 1 1 . .
        . . 1 . .
        . . . . .
        1 . . . ."""))
    assert not plane(b, "paper11", "enemy_liberties", 2).any()


def test_stone_planes_white_to_move_swap_friend_and_enemy():
    b_black, b_white = from_diagram(POSITION, "black"), from_diagram(POSITION, "white")
    eb, ew = encode(b_black, "paper11"), encode(b_white, "paper11")
    fs = FEATURE_SETS["paper11"]
    assert np.array_equal(eb[fs.slice("stones")][1], ew[fs.slice("stones")][2])
    assert np.array_equal(eb[fs.slice("friend_liberties")], ew[fs.slice("enemy_liberties")])
    assert np.array_equal(eb[fs.slice("enemy_liberties")], ew[fs.slice("friend_liberties")])


def test_last_move_planes_decay_and_alternate_by_colour():
    b = Board(5)
    # B (0,0), W (4,4), B (2,2), W pass, B (0,4): white to move.
    for move, colour in [(0, BLACK), (24, WHITE), (12, BLACK), (None, WHITE), (4, BLACK)]:
        b.play(move, colour)
    lm = encode(b, "paper11")[FEATURE_SETS["paper11"].slice("last_moves")]
    e = lambda k: np.float32(math.exp(-0.1 * k))
    opp = np.zeros((5, 5), np.float32)          # black's moves: k = 1, 3, 5
    opp[0, 4], opp[2, 2], opp[0, 0] = e(1), e(3), e(5)
    own = np.zeros((5, 5), np.float32)          # white's: pass (k = 2), (4,4) at k = 4
    own[4, 4] = e(4)
    assert np.array_equal(lm[0], opp)
    assert np.array_equal(lm[1], own)


def test_last_moves_ignore_setup_stones():
    b = from_diagram("""
        . X . . .
        X O X . .
        . . . . .
        . . . . .
        . . . . .
    """, "black")
    b.play((4, 4), BLACK)
    b.play((3, 3), WHITE)
    b.play((2, 2), BLACK)
    lm = encode(b, "paper11")[FEATURE_SETS["paper11"].slice("last_moves")]
    assert lm[0][2, 2] == pytest.approx(math.exp(-0.1)) and lm[1][3, 3] == pytest.approx(math.exp(-0.2))
    assert lm[0][4, 4] == pytest.approx(math.exp(-0.3))
    assert lm[1].sum() == pytest.approx(math.exp(-0.2))


def test_registry_declared_counts_and_no_overlap():
    for fs in FEATURE_SETS.values():
        covered = np.zeros(fs.planes, int)
        for f, count in fs.features:
            covered[fs.slice(f)] += 1
            assert FEATURES[f].planes == count
        assert (covered == 1).all()
    assert FEATURE_SETS["paper11"].planes == 11
    assert FEATURE_SETS["golois"].planes == 15
    with pytest.raises(ValueError):
        FeatureSet("bad", 1, (("stones", 2),))


def test_feature_set_mismatch_is_clear():
    check_same({"name": "paper11", "version": 1, "planes": 11}, "paper11")
    with pytest.raises(FeatureSetMismatch, match="golois"):
        check_same({"name": "paper11", "version": 1, "planes": 11}, "golois")


def test_encode_shape_and_values():
    b = from_diagram(POSITION, "black")
    x = encode(b, "paper11")
    assert x.dtype == np.float32 and x.shape == (11, 5, 5)
    fs = FEATURE_SETS["paper11"]
    assert set(np.unique(x[: fs.slice("last_moves").start])) <= {0.0, 1.0}
    assert (x[fs.slice("stones")].sum(axis=0) == 1).all()


def test_tactical_planes_follow_ladder_facts():
    from tactics.ladder import ladder_facts
    b = from_diagram("""
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . . X O . . .
        . . . X . . .
        . . . . . . .
        . . . . . . .
    """, "black")
    fs = FEATURE_SETS["golois"]
    x = encode(b, fs)
    facts = ladder_facts(b)
    for feature, key in [("ladder_captures", "captures"), ("ladder_saves", "saves"),
                         ("ladder_pushes", "pushes"), ("ladder_capturable", "capturable")]:
        assert np.array_equal(x[fs.slice(feature)][0], (np.asarray(facts[key]) > 0).astype(np.float32))


LADDER = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . X . . . . .
    . . X O b . . . .
    . . . a X . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def test_ladder_planes_on_a_diagram():
    """Black to move: the white stone (two liberties, a and b) is taken in a ladder either way,
    so both liberties are ladder captures and the stone is capturable; nothing to save or push."""
    b, m = from_diagram_marks(LADDER, "black")
    expected_captures = np.zeros(81, np.float32)
    expected_captures[[m["a"], m["b"]]] = 1
    capturable = np.zeros(81, np.float32)
    capturable[b.string("D5")] = 1
    assert np.array_equal(plane(b, "golois", "ladder_captures", 0).ravel(), expected_captures)
    assert np.array_equal(plane(b, "golois", "ladder_capturable", 0).ravel(), capturable)
    assert not plane(b, "golois", "ladder_saves", 0).any()
    assert not plane(b, "golois", "ladder_pushes", 0).any()


def test_ladder_push_plane_on_a_diagram():
    """After black's atari at a, white's extension at b is a losing ladder extension (a push);
    no move saves the stone."""
    b, m = from_diagram_marks(LADDER.replace("a", "X"), "white")
    push = np.zeros(81, np.float32)
    push[m["b"]] = 1
    assert np.array_equal(plane(b, "golois", "ladder_pushes", 0).ravel(), push)
    assert not plane(b, "golois", "ladder_saves", 0).any()
    assert not plane(b, "golois", "ladder_captures", 0).any()


# --- the life planes (golois_ld) -------------------------------------------------------------

# White D5 has two liberties (a, b): black moving first takes it in a ladder, white moving
# first extends and saves it.  White J3 on the right edge has two liberties too, but is lost
# whoever moves: extending either way leaves the string in atari with no escape.
CAPTURES_LD = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . X . . . . .
    . . X O b . . . .
    . . . a X . . X .
    . . . . . . . X O
    . . . . . . . X .
    . . . . . . . X X
"""


def life(board, feature, i):
    return plane(board, "golois_ld", feature, i).ravel()


@pytest.mark.parametrize("to_move, white_side, black_side", [("black", "capture_enemy", "capture_friend"),
                                                             ("white", "capture_friend", "capture_enemy")])
def test_capture_planes_on_a_diagram(to_move, white_side, black_side):
    """D5 is capturable by black moving first (but savable by white), J3 capturable and lost
    whoever moves: the enemy's planes with black to move, the friend's with white to move.
    Black's own strings are never in danger and nothing is unconditionally alive."""
    b = from_diagram(CAPTURES_LD, to_move)
    capturable, lost = np.zeros(81, np.float32), np.zeros(81, np.float32)
    capturable[b.string("D5") + b.string("J3")] = 1
    lost[b.string("J3")] = 1
    assert np.array_equal(life(b, white_side, 0), capturable)
    assert np.array_equal(life(b, white_side, 1), lost)
    assert not life(b, black_side, 0).any() and not life(b, black_side, 1).any()
    assert not life(b, "unconditional", 0).any() and not life(b, "unconditional", 1).any()


BENSON_LD = """
    . X . X O . . . .
    X X X X O . . . .
    O O O O O . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def test_unconditional_planes_mark_benson_life():
    """Black's corner group with two eyes is unconditionally alive (its stones and its two eye
    points); seen by white to move it is the enemy's plane."""
    b = from_diagram(BENSON_LD, "black")
    alive = np.zeros(81, np.float32)
    alive[b.string("A8")] = 1
    alive[[0, 2]] = 1                                          # the eyes A9 and C9
    assert np.array_equal(life(b, "unconditional", 0), alive)
    assert not life(b, "unconditional", 1).any()
    w = from_diagram(BENSON_LD, "white")
    assert np.array_equal(life(w, "unconditional", 1), alive)


def test_life_planes_match_the_python_capture_search():
    """Slow reference: on seeded random-play 9x9 positions, every stone's planes are what
    capture_attack / capture_defend (no table, the set's limits) and tactics.benson say."""
    import random
    from golois.datasets.features import LIFE_LIMITS
    from tactics.benson import unconditional
    from tactics.capture import FAIL, WIN, capture_attack, capture_defend
    rng = random.Random(7)
    fs = FEATURE_SETS["golois_ld"]
    marked = 0
    for game in range(12):
        b = Board(9)
        for _ in range(rng.randrange(20, 60)):
            moves = b.legal_moves()
            if not moves:
                break
            b.play(rng.choice(moves))
        x = encode(b, fs)
        me, arr = b.to_move, b.to_array().ravel()
        ref = {f: np.zeros((2, 81), np.float32) for f in ("capture_friend", "capture_enemy")}
        for p in np.flatnonzero(arr):
            p = int(p)
            if b.liberties(p) > LIFE_LIMITS["max_libs"]:
                continue
            attack, _, _ = capture_attack(b, p, tt=False, **LIFE_LIMITS)
            if attack != WIN:
                continue
            f = ref["capture_friend" if arr[p] == me else "capture_enemy"]
            f[0, p] = 1
            f[1, p] = capture_defend(b, p, tt=False, **LIFE_LIMITS)[0] == FAIL
        for name, r in ref.items():
            assert np.array_equal(x[fs.slice(name)].reshape(2, 81), r), (game, name)
            marked += int(r.sum())
        benson = np.stack([unconditional(b, me).ravel() > 0, unconditional(b, 3 - me).ravel() > 0])
        assert np.array_equal(x[fs.slice("unconditional")].reshape(2, 81), benson.astype(np.float32))
    assert marked > 10                                         # the positions hold captures


def test_golois_ld_extends_golois():
    from golois.datasets.features import extends
    ld, g = FEATURE_SETS["golois_ld"], FEATURE_SETS["golois"]
    assert ld.planes == g.planes + 6 and extends("golois", "golois_ld")
    assert not extends("golois_ld", "golois") and not extends("golois", "golois")
    assert extends("paper11", "golois_ld")                     # paper11's planes come first too
    b = from_diagram(CAPTURES_LD, "black")
    assert np.array_equal(encode(b, ld)[: g.planes], encode(b, g))
