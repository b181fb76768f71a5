"""The costlier knowledge at a df-pn node (tactics.knowledge): too little eye space, escapes out
of the region and by miai to an outside string, on positions written as diagrams."""

import pytest

from tactics.board import BLACK, WHITE
from tactics.coords import parse_vertex, to_flat
from tactics.diagram import from_diagram_marks
from tactics.problem import solve
from tests.problems import corner


def test_eye_space_too_small_is_dead_at_once():
    # two connected empty points and strong surroundings: white to move cannot live, and the
    # eye-space rule (tactics.knowledge `_too_small`) settles every reply after one ply
    board, marks = corner("""
X X X X X .
O O O O X .
a b O O X .
""")
    region = list(marks.values())
    target = next(p for p in range(81) if board.get(p) == WHITE)
    s = solve(board, "white", target=target, region=region, time_limit=5)
    assert s.result == "fail" and s.goal == "live"
    assert s.nodes <= 10


def test_group_of_two_areas_each_too_small_is_dead():
    # two white strings in two separate one-point eye spaces, every black string strong: with
    # both strings as the target group the eye-space rule (per area) settles it at once
    from tactics import solver as S
    board, marks = corner("""
X X X X X X X
O O X O O O X
a O X b O O X
""", "white")
    region = list(marks.values())
    first = next(p for p in range(81) if board.get(p) == WHITE)
    group = [p for p in range(81) if board.get(p) == WHITE]
    r = S.dfpn(board, BLACK, first, region, targets=group, time_limit=5)
    assert r["value"] == -1 and r["nodes"] <= 10


def test_owl_escape_out_of_the_region():
    # white E5 in atari (liberty a = E6); the region is a and its neighbours b, c: white
    # extends to a, and its new liberty E7 lies outside the region: escaped, a defender win
    board, marks = from_diagram_marks("""
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . b a c . . .
. . . X O X . . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""", "white")
    target = 4 * 9 + 4
    region = [marks["a"], marks["b"], marks["c"]]
    s = solve(board, "white", target=target, region=region, time_limit=5, escape_out=True)
    assert s.result == "win" and s.move == marks["a"] and s.nodes <= 10, s.status


# Escape by miai to an outside string (tactics.knowledge `_joins_out`): black A3-B3(-C3) has its
# liberties A4, B4 (C4) outside the region (the three lowest rows), so it can never be
# captured; the target D1 / D2 escapes when it joins it.  White to move.
JOINS_OUT = {
    # the target D2-E2-D1 shares C2 and D3 with it: white takes one, black joins at the other
    "two_shared_liberties": ("""
X X X . O O O
O O . X X O .
. . . X . O .
""", "D1", True),
    # the same with white D3: one shared liberty (C2) is no link
    "one_shared_liberty": ("""
X X X O O O O
O O . X X O .
. . . X . O .
""", "D1", False),
    # D1 is linked to C2 by D2 and C1, C2 to A3-B3 by B2 and C3: black answers each link
    "a_chain_of_links": ("""
X X . O O O O
O . X . O . .
. . . X . O .
""", "D1", True),
}


@pytest.mark.parametrize("name", sorted(JOINS_OUT))
def test_the_target_joins_an_outside_string_by_miai(name):
    from tactics import solver as S
    diagram, stone, joins = JOINS_OUT[name]
    board = corner(diagram, "white")[0]
    target = to_flat(*parse_vertex(stone, 9), 9)
    region = [p for p in range(6 * 9, 81) if board.get(p) == 0]
    ruled = S.dfpn(board, WHITE, target, region, targets=[target], escape_out=-1, time_limit=10)
    searched = S.dfpn(board, WHITE, target, region, targets=[target], escape_out=-1,
                      time_limit=10, static_life=False)
    # the rule decides at the root; the search without it reaches the same result
    assert ruled["value"] == searched["value"] != 0, name
    assert (ruled["nodes"] <= 10) == joins and searched["nodes"] > 10, (name, ruled, searched)
    if joins:
        assert ruled["value"] == -1, name                   # white to move cannot capture D1
