"""tactics: the C-speed Go library under Golois.

- ``tactics.board``: the board (strings, liberties, ko, superko, Zobrist, play/undo); C API in
  board.pxd, Python class ``Board``.
- ``tactics.ladder``: ladder reading (the paper's Algorithms 1 and 2: capture / escape, ko and
  unknown results) and the whole-board ladder facts in one call (``ladder_facts``); C API in
  ladder.pxd.
- ``tactics.coords``: the glossary of coordinates (GTP, SGF, array, flat, point).

Start with board.pxd.
"""

EMPTY, BLACK, WHITE = 0, 1, 2
