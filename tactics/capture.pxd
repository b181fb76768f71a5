# cython: language_level=3
"""General capture search in C (attack / defend of a string with up to 4 liberties): the C API.

The attacker plays on the string's liberties, their neighbours (nets, approach moves) and saves
its own strings in atari next to the string; the defender extends, captures or ataris adjacent
attacker strings.  How many liberties are still read shrinks with depth (4 near the root, then
3, then 2, then only the ladder reader), which bounds the search.  Results are GNU Go's GTP codes
(see CaptureResult); a query that runs out of its node budget or ply limit answers UNKNOWN.

Start reading at `capture_attack_c` / `capture_defend_c` in capture.pyx, then `_attack` / `_defend`.
"""

from libc.stdint cimport uint64_t
from tactics.board cimport board_t, MAX_POINTS

cpdef enum CaptureResult:
    CAPTURE_FAIL = 0          # attack: cannot capture / defend: cannot save
    CAPTURE_WIN = 1           # succeeds
    CAPTURE_KO_A = 2          # succeeds if the side to move gets the first ko capture
    CAPTURE_KO_B = 3          # succeeds only if the side to move makes the first ko threat
    CAPTURE_UNKNOWN = 4       # node budget or ply limit exhausted

cdef struct capture_params_t:
    int max_libs              # at the root, strings with more liberties are safe (default 4)
    int max_nodes             # moves played per query, ladder leaves included (default 50000)
    int max_depth             # ply limit; hitting it answers UNKNOWN (default 40)
    int fourlib_depth         # 4-liberty strings are attacked above this depth (default 5)
    int threelib_depth        # 3-liberty strings above this depth (default 13)
    int twolib_depth          # 2-liberty strings by full search above this depth (default 16);
                              # below it only the ladder reader attacks two-liberty strings
    int ladder_nodes          # budget of each ladder-leaf read (default 300)
    int approach_depth        # approach moves against 3-4 liberty strings, and the defender's
                              # second-order moves, only above this depth (default 4)
    int narrow_depth          # from this depth on (default 7), only the best narrow_attack
    int narrow_attack         # (default 2) / narrow_defend (default 3) candidates are tried:
    int narrow_defend         # GNU Go's branch_depth idea, deep lines stay narrow

cdef enum:
    CAPTURE_TT_SIZE = 1 << 16 # entries of a transposition table (a power of two)

cdef struct capture_tt_entry_t:
    uint64_t key              # position hash ^ side to move ^ ko state ^ ko-lift flag
    int stamp                 # query that wrote it (entries of other queries are ignored)
    int depth                 # depth it was searched at (reused at this depth or deeper)
    int value                 # the mover's value
    int move                  # its best move

cdef struct capture_tt_t:
    int stamp                 # the current query's stamp (bumped per query: no clearing)
    capture_tt_entry_t entries[CAPTURE_TT_SIZE]

cdef struct capture_ctx_t:
    board_t *b                # the board searched (restored on return)
    int target                # a stone of the string read
    int defender              # colour of that string
    int attacker              # its opponent
    int nodes                 # moves played so far in this query
    bint aborted              # a limit was hit: the answer is UNKNOWN
    bint ko_lifted            # a ko ban was ignored on the current line (at most one per line)
    capture_params_t p        # the limits
    capture_tt_t *tt          # transposition table, or NULL

cdef void capture_default_params(capture_params_t *p) noexcept nogil   # the defaults above

# Attacker (the string's opponent) to move: can the string at s be captured?  Writes the move to
# *move (NO_POINT on FAIL) and the moves played to *nodes.  Returns a CaptureResult.  tt: a
# caller-owned transposition table (NULL: none); one table must not serve two threads at once.
cdef int capture_attack_c(board_t *b, int s, const capture_params_t *p, capture_tt_t *tt,
                          int *move, int *nodes) except -1 nogil

# The string's owner to move: can it be saved?  WIN with *move = PASS when the string has more
# than max_libs liberties (GNU Go's convention); otherwise the first saving move found.
cdef int capture_defend_c(board_t *b, int s, const capture_params_t *p, capture_tt_t *tt,
                          int *move, int *nodes) except -1 nogil
