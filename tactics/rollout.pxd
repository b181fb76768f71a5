# cython: language_level=3
"""The fast rollout policy as a C API: AlphaGo's linear softmax over small local features, kept
incrementally, and rollouts to the end of the game with area scoring.

A move's weight for colour c is gamma = exp(sum of the weights of its features), 0 for a move
the rollouts never play (illegal, the ko, filling c's own true eye).  Features of a point q
(offsets into one float32 weight vector):

    OFF_PAT  + canonical 3x3 code   the 8 neighbours: orthogonal ones with their string's
                                    liberties (1, 2, 3+), diagonal ones by colour; one weight
                                    per class of the 8 symmetries (rollout_features gives the
                                    raw code: the rollouts' exp'd table holds every raw code,
                                    training maps it to its class through PAT_CANON)
    OFF_TACT + tactical code        stones captured, saves an own string in atari, puts an
                                    opponent string in atari, liberties after, string size after
    OFF_LINE + line                 distance to the edge (0..5+)
    OFF_DIST + class                the side to move only, q in the 12-point diamond around
    OFF_RESP + hashed pattern       the last move: its offset class and the diamond's pattern
                                    (AlphaGo's response features), symmetry-canonical

A `rollout_t` holds a board and every point's gamma for both colours, with per-row sums:
playing a move recomputes only the points whose features it changed (its 3x3 neighbourhood,
the liberties of every string whose liberties changed, the captured stones' neighbourhoods,
the old and new diamonds and ko points), and drawing a move walks the row sums.

Start with `rollout_t`, then `rollout_play` and `rollout_run` in rollout.pyx.
"""

from libc.stdint cimport uint64_t
from tactics.board cimport board_t, MAX_POINTS, MAX_W

cdef enum:
    PAT_BITS = 20                                # 4 x 3 bits orthogonal + 4 x 2 bits diagonal
    N_PAT = 1 << PAT_BITS
    N_TACT = 256                                 # 3 x 2 x 2 x 4 x 4 codes used
    N_LINE = 8                                   # 6 used
    N_DIST = 4                                   # 3 used: orthogonal, diagonal, two away
    RESP_BITS = 18
    N_RESP = 1 << RESP_BITS
    OFF_PAT = 0
    OFF_TACT = OFF_PAT + N_PAT
    OFF_LINE = OFF_TACT + N_TACT
    OFF_DIST = OFF_LINE + N_LINE
    OFF_RESP = OFF_DIST + N_DIST
    N_WEIGHTS = OFF_RESP + N_RESP
    MAX_FEATURES = 5                             # features of one move
    DIAMOND = 12                                 # points of the response diamond

cdef struct rollout_t:
    board_t b                                    # the position being played out (own buffers)
    const float *w                               # exp of the weights, the 3x3 ones by raw code (not owned)
    double gamma[2][MAX_POINTS]                  # move weight per colour (index colour - 1)
    double rows[2][MAX_W]                        # sum of gamma per board row
    int last                                     # the last move's point; PASS or NO_POINT if none
    int diamond[DIAMOND]                         # points of the diamond around `last` (NO_POINT off board)
    uint64_t resp_key[DIAMOND]                   # canonical response key of each diamond point
    int stamp                                    # current mark for `mark`
    int mark[MAX_POINTS]                         # points already queued in this update
    int walked[MAX_POINTS]                       # string heads whose liberties were queued
    int dirty[MAX_POINTS]                        # the points queued in this update
    int ndirty                                   # their number
    int since_resum                              # moves since the row sums were recomputed exactly

# The canonical 3x3 table, built once (0 on success).
cdef int rollout_tables() except -1
# The feature offsets of c's move at empty q into out (MAX_FEATURES), the 3x3 one by raw code;
# returns their number, or 0 where the rollouts never play q (suicide, ko, own true eye).
cdef int rollout_features(const rollout_t *st, int q, int c, int *out) noexcept nogil
# st (board initialised) set to src's position with last move `last`, every gamma computed
# (w: the exp of the weights).
cdef int rollout_init(rollout_t *st, const board_t *src, const float *w, int last) except -1 nogil
# dst (board initialised) made a copy of prepared src: the start of one rollout.
cdef int rollout_copy(rollout_t *dst, const rollout_t *src) except -1 nogil
# c plays p (legal, or PASS); the gammas it changed are recomputed.
cdef int rollout_play(rollout_t *st, int p, int c) except -1 nogil
# A move for c drawn with probability gamma / sum; PASS when no point has weight.
cdef int rollout_choose(rollout_t *st, int c, uint64_t *rng) noexcept nogil
# Plays the policy's moves until two passes in a row or max_moves; returns the moves played.
cdef int rollout_run(rollout_t *st, uint64_t *rng, int max_moves) except -1 nogil
# Area score of a finished position (black - white - komi); owner[p] = BLACK, WHITE or EMPTY.
cdef double area_owner(const board_t *b, double komi, int *owner) noexcept nogil
