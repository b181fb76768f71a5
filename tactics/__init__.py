"""tactics: the C-speed Go library under Golois.

- ``tactics.board``: the board (strings, liberties, ko, superko, Zobrist, play/undo); C API in
  board.pxd, Python class ``Board``.
- ``tactics.coords``: the glossary of coordinates (GTP, SGF, array, flat, point).

Start with board.pxd.
"""

EMPTY, BLACK, WHITE = 0, 1, 2
