"""Eye-space rules for life (tactics.eyes: `two_eyes`, `two_eyes_linked`) on diagrams, and
against the df-pn search without them (`dfpn(static_life=False)`: only Benson and captures
decide life) on random lines of five problems."""

import random

import pytest

from tactics import solver as S
from tactics.diagram import in_corner
from tactics.eyes import two_eyes, two_eyes_linked

BLACK, WHITE = 1, 2


def square(rows):
    """A board from the bottom rows of a diagram, as wide as the diagram."""
    return in_corner(rows, len(rows.strip().splitlines()[0].split()), top=False, right=False)


def on_19(rows, corner):
    """A 19 x 19 board with the diagram's rows in `corner` ("top_left", "top_right",
    "bottom_left", "bottom_right"), the rest empty."""
    return in_corner(rows, 19, corner.startswith("top"), corner.endswith("right"))


# (diagram, a stone of the group, two eyes with the strings linked to it, two eyes of one string)
SHAPES = {
    # two strings sharing D2 and D1: white takes one, black connects at the other
    "linked_pair": ("""
O O O O O O O
X X X . X X X
. . X . X . .
""", "B2", True, False),
    # the same with a white stone inside the left eye: every empty point of the region {A1, B1}
    # touches black, so it is an eye all the same (a vital region, as Benson's)
    "linked_pair_stone_inside": ("""
O O O O O O O
X X X . X X X
. O X . X . .
""", "B2", True, False),
    # the link cut at D2: each string keeps one eye
    "cut_link": ("""
O O O O O O O
X X X O X X X
. . X . X . .
""", "B2", False, False),
    # the rectangular six in the corner without liberties outside: white B2 kills (or a ko)
    "rectangular_six_in_the_corner": ("""
. . . . . . .
. . . . . . .
O O O O O . .
X X X X O . .
. . . X O . .
. . . X O . .
""", "A3", False, False),
    # the same six with two liberties outside (E1, E2): alive
    "rectangular_six_with_liberties": ("""
. . . . . . .
. . . . . . .
O O O O O . .
X X X X O . .
. . . X . . .
. . . X . . .
""", "A3", True, True),
    # the bent four in the corner is a ko, liberties or not
    "bent_four_in_the_corner": ("""
. . . . . . .
. . . . . . .
O O O . . . .
X X O O . . .
. X X O . . .
. . X O . . .
""", "A3", False, False),
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_eye_rules_on_diagrams(name):
    diagram, stone, linked, single = SHAPES[name]
    board = square(diagram)
    assert two_eyes_linked(board, stone) == linked, name
    assert two_eyes(board, stone) == single, name
    # the search without the rules (white to move, in the two lowest rows) agrees where a
    # rule says "alive"
    group = [p for p in range(board.size ** 2) if board.get(p) == BLACK]
    n = board.size
    region = [p for p in range((n - 2) * n, n * n) if board.get(p) == 0]     # the two lowest rows
    board.to_move = WHITE
    r = S.dfpn(board, WHITE, group[0], region, targets=group, max_nodes=300_000,
               time_limit=30, static_life=False)
    if linked:
        assert r["value"] == -1, (name, r)


# Five problems as they appear in the books (the frame is inferred): maeda-10k-5k 019 and 204
# (black to kill) and ishigure-basic 061 (black to live), whose random lines often end with
# strings linked by miai around their eyes; maeda-5k-1k/052 (black to kill), whose lines end
# with white's single string around corner shapes (the rectangular six), and maeda-10k-5k/146
# (black to kill), with white's single string around side shapes.
PROBLEMS = [
    ("""
X X X X X X X .
O O . . O O O X
O . O . O . O X
O O . . O O O X
X X X X X X X .
""", "top_left", BLACK),
    ("""
. . . . . . O O O .
. . . . . . O X . .
. . . X X X X O O .
. X . X O O O X X .
. . X O O . O X . .
. . . . . . O X . .
""", "bottom_right", BLACK),
    ("""
. . . . . . . . .
. . . O O O . X .
. . O X X X X . .
. . O . . X O X X
. . O . X . O O O
. . . O O O . . .
""", "top_right", BLACK),
    ("""
. . O O X . .
. . O X X . .
. . . O X . .
O O O O X . .
O X X X X . .
X . . . . . .
. X . . . . .
""", "top_left", BLACK),
    ("""
. X X . . .
. X O X . .
. O O X . .
. . O X . .
. X O X . .
O X O X . .
. . O . . .
""", "bottom_left", BLACK),
]


def test_eye_rules_agree_with_the_search_on_random_lines():
    """Random lines in the framed problems (bench/eye_rules_check.py's `claims`); wherever a
    rule says a target string lives and Benson does not, the search without the rules, the
    attacker to move, must not capture the group (it may run out of nodes)."""
    from golois.eval.eye_rules_check import check, claims
    rng = random.Random(7)
    tally = {"eyes_alive": 0, "linked_alive": 0}
    for rows, corner, mover in PROBLEMS:
        for rule, b, attacker, live, region, moves in claims(on_19(rows, corner), mover, 300, 300, rng):
            tally[rule] += 1
            assert check(b, attacker, live, region, 200_000, time_limit=30) != 1, (rows, moves)
    assert tally["eyes_alive"] >= 20 and tally["linked_alive"] >= 10, tally


def test_the_linked_rule_sees_every_life_the_one_string_rule_sees():
    """The search asks `linked_alive` only (tactics.knowledge `slow_knowledge`): wherever
    `eyes_alive` gives a target string two eyes, `linked_alive` must too (a string's enclosed
    areas touching only it are regions of its linked group).  Every position of random lines
    in the five problems."""
    from tactics.problem import prepare
    rng = random.Random(11)
    seen = 0
    for rows, corner, mover in PROBLEMS:
        b0, attacker, _, region, targets = prepare(on_19(rows, corner), mover=mover)
        for _ in range(150):
            b, color = b0.copy(), mover
            for _ in range(30):
                legal = [p for p in region if b.get(p) == 0 and b.is_legal(p, color)]
                if not legal:
                    break
                b.play(rng.choice(legal), color)
                color = 3 - color
                for t in targets:
                    if b.get(t) == 3 - attacker and two_eyes(b, t):
                        seen += 1
                        assert two_eyes_linked(b, t), (rows, t)
    assert seen >= 1000, seen
