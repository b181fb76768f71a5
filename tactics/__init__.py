"""tactics: the C-speed Go library under Golois.

- ``tactics.board``: the board (strings, liberties, ko, superko, Zobrist, play/undo); C API in
  board.pxd, Python class ``Board``, and the colours ``EMPTY``, ``BLACK``, ``WHITE``.
- ``tactics.ladder``: ladder reading (the paper's Algorithms 1 and 2: capture / escape, ko and
  unknown results) and the whole-board ladder facts in one call (``ladder_facts``); C API in
  ladder.pxd.  ``tactics.capture``: the general capture search (GNU Go's attack / defend).
- ``tactics.problem``: life-and-death problems (``solve``, ``SolveSettings``), over the df-pn
  search (``tactics.solver``, in C in dfpn.pyx with moves.pyx, knowledge.pyx, eyes.pyx and
  benson.pyx) and the problem inference (``tactics.infer``).
- ``tactics.coords``: the glossary of coordinates (GTP, SGF, array, flat, point).

Start with board.pxd.
"""
