"""Region playouts (tactics/playouts.pyx): the survival share that ranks the guesses of an
unfinished search to live."""

from tactics.board import BLACK, WHITE
from tactics.diagram import from_diagram_marks
from tactics.playouts import survival_rates

# Black's straight three on the first line (a b c), walled in by a white wall with room
# outside: b makes two eyes; anything else leaves white the vital point.
STRAIGHT_THREE = """
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
O O O O O . .
X X X X O . .
a b c X O . .
"""


def test_the_vital_point_survives_every_playout_and_the_board_is_restored():
    board, m = from_diagram_marks(STRAIGHT_THREE)
    before = board.hash
    region = [m["a"], m["b"], m["c"]]
    vital, edge, passing = survival_rates(board, region, [m["b"], m["a"], None], BLACK, 300)
    assert vital == 1.0                 # two eyes: white can never fill them
    assert passing < 0.9 and edge < 0.9, (edge, passing)
    assert board.hash == before and board.get(m["b"]) == 0


def test_illegal_moves_get_minus_one_and_stones_can_be_chosen():
    board, m = from_diagram_marks(STRAIGHT_THREE)
    region = [m["a"], m["b"], m["c"]]
    wall = 4 * 7 + 0                    # a white stone: not a legal move for black
    assert survival_rates(board, region, [wall], BLACK, 10) == [-1.0]
    # white's wall has liberties outside the region, so it stands after every playout
    assert survival_rates(board, region, [m["b"]], BLACK, 50, stones=[wall], colour=WHITE) == [1.0]


def test_playouts_are_deterministic_for_a_seed():
    board, m = from_diagram_marks(STRAIGHT_THREE)
    region = [m["a"], m["b"], m["c"]]
    first = survival_rates(board, region, [m["a"], None], BLACK, 200, seed=7)
    assert survival_rates(board, region, [m["a"], None], BLACK, 200, seed=7) == first
