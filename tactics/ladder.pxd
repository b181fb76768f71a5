# cython: language_level=3
"""Ladder reading in C (the Golois paper's Algorithms 1 and 2): the C-level API.

A ladder query names a string by any of its stones.  The attacker plays only on the liberties of
a two-liberty string; the defender, in atari, only extends on its last liberty or captures an
adjacent attacker string in atari.  Three or more liberties: saved.  One liberty with the
attacker to move: captured.  The search makes and unmakes moves on the board (play/undo), holds
no Python object, and runs without the GIL.

Start reading at `ladder_capture_c` and `ladder_escape_c` in ladder.pyx, then `_attack` / `_defend`.
"""

from tactics.board cimport board_t, MAX_POINTS

cpdef enum LadderResult:
    LADDER_ESCAPED = 0        # not captured by ladder / saved
    LADDER_CAPTURED = 1       # captured by ladder / cannot escape
    LADDER_KO = 2             # the answer hangs on a ko (a ko capture, or the board's ko ban)
    LADDER_UNKNOWN = 3        # depth limit or node budget exhausted

cdef struct ladder_params_t:
    int max_depth             # plies below the query (default 100)
    int max_nodes             # moves played per query (default 1000)

cdef struct ladder_ctx_t:
    board_t *b                # the board searched (restored on return)
    int target                # a stone of the string read (it stays on the board)
    int defender              # colour of that string
    int nodes                 # moves played so far in this query
    int max_depth             # copied from the params
    int max_nodes             # copied from the params
    bint aborted              # a limit was hit: the answer is LADDER_UNKNOWN

cdef void ladder_default_params(ladder_params_t *p) noexcept nogil   # depth 100, nodes 1000

# Attacker (opponent of the string at s) to move: is the string captured by ladder?  Writes the
# capturing move (or the ko move) to *move, NO_POINT otherwise; *nodes gets the moves played.
cdef int ladder_capture_c(board_t *b, int s, const ladder_params_t *p, int *move, int *nodes) except -1 nogil

# Owner of the string at s to move: can it escape the ladder?  LADDER_ESCAPED with the saving move
# in *move (PASS when the string is in no ladder danger), LADDER_CAPTURED when no move saves it.
cdef int ladder_escape_c(board_t *b, int s, const ladder_params_t *p, int *move, int *nodes) except -1 nogil

# Whole-board facts for the side to move, indexed by point (arrays of MAX_POINTS ints, zeroed
# here): see the module docstring of ladder.pyx for the four definitions.
cdef int ladder_facts_c(board_t *b, const ladder_params_t *p, int *captures, int *saves,
                        int *pushes, int *capturable) except -1 nogil
