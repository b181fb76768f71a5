"""Owl on a full board (a target given, no region): the region of the target's group and the
static judgements made before the search (tactics.problem)."""

from tactics.board import BLACK, WHITE
from tactics.diagram import from_diagram_marks
from tactics.infer import group_region, linked_group


def test_group_region_holds_the_liberties_of_weak_neighbours():
    # white H9-H8 (2 liberties: g and a) touches the black group F9-G8-H7; a lies 3 steps from
    # every stone of the group, so only the weak-neighbour rule puts it in the region (vie.tst
    # 48: black lives with R19 and then captures at T19); J8 is not part of the group
    board, marks = from_diagram_marks("""
. . . . . X g O a
. . . . . X X O X
. . . . . . X X O
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""", "black")
    target = 5                      # F9
    assert 8 + 9 not in linked_group(board, target)     # J8
    region = group_region(board, target)
    assert marks["a"] in region and marks["g"] in region
    assert marks["a"] not in group_region(board, target, weak_libs=0)
