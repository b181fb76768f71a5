"""Named problem positions and corner helpers shared by the solver's tests (test_solver,
test_problem, test_tsumego_cli, test_gtp_solver, test_book_move_check, test_tsumego_bench): each diagram
comes with the problem it is taken from and what it checks."""

import os

from tactics.coords import parse_vertex
from tactics.diagram import from_diagram_marks, in_corner


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))        # the repository


def corner(rows, to_move="black", size=9):
    """A bottom-left corner shape (rows given bottom-aligned) on an empty board of `size`."""
    lines = [r.split() for r in rows.strip().splitlines()]
    body = [" ".join(line + ["."] * (size - len(line))) for line in lines]
    top = [" ".join(["."] * size)] * (size - len(body))
    return from_diagram_marks("\n".join(top + body), to_move)


def _corner(rows, to_move, size, top, right=True):
    """A corner shape (rows right- or left-aligned, at the top or the bottom) on an empty board."""
    return in_corner(rows, size, top, right, to_move)


def top_right(rows, to_move="black", size=19):
    """A top-right corner shape (rows given top-aligned, right-aligned) on an empty board."""
    return _corner(rows, to_move, size, top=True)


def bottom_right(rows, to_move="black", size=19):
    """A bottom-right corner shape (rows given bottom-aligned, right-aligned) on an empty board."""
    return _corner(rows, to_move, size, top=False)


def top_left(rows, to_move="black", size=19):
    """A top-left corner shape (rows given top-aligned, left-aligned) on an empty board."""
    return _corner(rows, to_move, size, top=True, right=False)


def bottom_left(rows, to_move="black", size=19):
    """A bottom-left corner shape (rows given bottom-aligned, left-aligned) on an empty board."""
    return _corner(rows, to_move, size, top=False, right=False)


def box_region(board, corner1, corner2):
    """The flat points of the rectangle between two corner vertices (GTP) of `board`."""
    n = board.size
    (r1, c1), (r2, c2) = parse_vertex(corner1, n), parse_vertex(corner2, n)
    return [r * n + c for r in range(min(r1, r2), max(r1, r2) + 1) for c in range(min(c1, c2), max(c1, c2) + 1)]


STRAIGHT_THREE = """
X X X X X X
O O O O O X
a b c O O X
"""


BULKY_FIVE = """
X X X X X X
O O O O O X
a b c O O X
d e O O O X
"""


def write_bulky_five_collection(folder):
    """A folder of two SGF problems (written here): the bulky five above, black to kill, one
    whose RIGHT child is the vital point b, one whose RIGHT child is a, which does not kill."""
    from golois.sgf import position_to_sgf
    from tactics.coords import format_sgf_point, from_flat
    board, marks = corner(BULKY_FIVE, size=19)
    setup = position_to_sgf(board, 1).decode().strip()[:-1]          # the root, still open
    folder.mkdir()
    for name, answer in (("right.sgf", marks["b"]), ("wrong.sgf", marks["a"])):
        point = format_sgf_point(from_flat(answer, 19), 19)
        (folder / name).write_text(f"{setup};B[{point}]C[RIGHT])")


# ishigure-basic/003 (black kills with Q19): the search refutes most other first moves
KILL_003 = """
. . . O . . . . . . .
. . X O X O . O . X .
. . X X O O O X X . .
. . . . X X X . . . .
"""


# maeda-10k-5k/017 (black kills with N19).  The grown wall of the inferred frame creeps along
# the edge behind black's R17-S17 into the corner (T16..T19, S19), so white's corner eye space
# is gone and the wrong N18 "kills" there (R19 while the attacker could pass); after N18 white
# lives with R18 (GNU Go's owl says so too).  The recheck in a looser frame finds that and
# solves again.  (Q19 and R19 kill cleanly in the grown frame too, checked after each move
# with and without white's unlimited threats; the ko search started from the first search's
# table, tactics.solver.dfpn_ko, proves one of them first.)
MAEDA_017 = """
X . . . O . . . .
X O . O . O . . .
X X . X O O X X .
. . . X X X . . .
. . . . . . X . .
"""


# maeda-10k-5k/149 (black lives with T18, by ko).  T18 lies in an empty pocket walled off by
# white stones (no empty path to a black stone) and is no liberty of a weak white string, so
# the focus never offers it: every move in focus fails.  Before a fail is answered, the moves out of focus get a second look (tactics.problem,
# `second_look`), and T18 wins.
MAEDA_149 = """
. . . . . . O .
. O X . X O . .
. O X . . X O .
. O X X X X X O
. . O O O O O .
"""


# ishida-dan/027 (black kills with A2).  Under the simple ko rule B2 kills too, and it is the
# move the first search proves, but only by ko: with unlimited ko threats white lives after it.
# The search of every move against the threats does not finish, so the answer is its best try
# at a clean kill, A2, as unknown (the ko unchecked would say "win" with B2).  The test pins the
# plain search (sim=0): with Kawano's simulation the best try at 8 M nodes is D4 (at 10 s,
# 62 M nodes, it is A2 again).
ISHIDA_027 = """
X X X X X X .
X O O . O X .
X O . . O X .
. O . . . X .
. . . O X X .
. . O . O . .
"""


# maeda-10k-5k/123 (black lives with Q2).  The search does not finish at 200 k nodes (nor in
# 10 s); df-pn's current best at the root is the move with the fewest white replies left to
# refute (N5 here), a poor guess at life.  The unfinished search to live answers the unrefuted
# move after which black's stones survive best in region playouts (`_live_guess`): Q2.
MAEDA_123 = """
. . O O O O O .
. . . X X X O .
. O O X . X X O
. O X X X O O .
O . . O . O X .
. . . . . . . .
"""


# white to live, proven in a fraction of a second: the middle of its straight three on the
# edge makes two eyes
LIVES_AT_ONCE = """
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
X X X X X X . . . . . . .
O O O O O X . . . . . . .
. . . O O X . . . . . . .
O O O O O X . . . . . . .
"""


# ishigure-basic/026 (black kills with O18).  White's largest string, O17-R17 with R18, lives
# whatever black does; the book kills the three stones M19-N18 instead.  The kill failed against
# the inferred target (the largest string), so it now tries the other strings
# (tactics.problem, `_other_targets`).
ISHIGURE_026 = """
. . . O . . . O X . .
. . X O O . . . O X .
. . X X X O O O O X .
. . . . . X X X X . .
"""


# maeda-10k-5k/116 (black kills with S19).  Most of black's moves kill in the grown frame (T16,
# df-pn's first proof, among them), but white to move lives only with S19: the book's kill is
# white's vital point (tactics.problem, `_vital_point`).
MAEDA_116 = """
. X . . . . .
. X . . O . O
. X O O X O .
. X X X X . .
. . . . . . .
. . . . X . .
"""


# maeda-10k-5k/066 (black kills with R3).  Q1 kills too, and is the move white's search to
# live proves first if black passes; but white lives without it too (R1, R3): there is no one
# vital point, and df-pn's R3 stands.
MAEDA_066 = """
. X X X X X X . .
. X O O O O . . .
. X O . O . O X .
. . . . . . . X .
"""


# maeda-5k-1k/050 (black kills with T18, the book's).  Q19 kills too; white to move lives only
# with T18: the vital point again (tactics.problem, `_vital_point`).
MAEDA_5K_050 = """
. . . . O O .
X . X O X X .
. . X O . . .
. . X . O O .
. . . X X X O
. . . . . . .
. . . . . X .
"""
