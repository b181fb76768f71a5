"""tactics.unconditional: GNU Go's unconditional_status (alive, dead, undecided), captures
played out."""

from tactics.diagram import from_diagram


def test_unconditional_status_plays_out_captures():
    from tactics.unconditional import status
    # white's wall with two eyes, a dead black stone in one of them
    board = from_diagram("""
. . . . . . .
. O O O O O .
. O . X . O .
. O O O O O .
. O . O . . .
. O O O . . .
. . . . . . .
""")
    assert status(board, 1 * 7 + 1) == "alive"
    assert status(board, 2 * 7 + 3) == "dead"
    assert status(board, 2 * 7 + 2) == "white_territory"
    assert status(board, 0) == "undecided"
    # GNU Go's seki shape (unconditional.c): the two white stones inside are not dead
    seki = from_diagram("""
. . . . . . . . .
. . O O O O O . .
. O O X X X O . .
. O X X . X O O .
. O X . O X X O .
. O X X O . X O .
. O O X . X X O .
. . O X X X O O .
. . O O O O O . .
""")
    assert status(seki, 4 * 9 + 4) == "undecided"
