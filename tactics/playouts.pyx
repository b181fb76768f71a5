# cython: language_level=3
"""Monte-Carlo playouts inside a region: how often does a group survive random play?

A *region playout* plays random legal moves on the empty points of a region of interest, the
colours alternating, never filling a true eye of the side to move, until both sides pass; the
moves are then taken back (board_undo), so the caller's board is unchanged.  The share of a
group's stones still standing at the end, averaged over many playouts, is a cheap estimate of
its chances, the signal Monte-Carlo Go programs rely on.

The life-and-death search uses it to *guess*: when the search to live runs out of time, the
first moves it has not refuted are ranked by the defender's survival after each of them
(`survival_rates`, called by tactics.guess.live_guess).  Proofs never rest on it.

A *whole-board playout* (`whole_board_playout`, `Board.random_playout`) does the same on the
whole board and keeps the final position (golois.player.scoring's ownership estimate).

Start reading at `survival_rates` (the Python face), then `region_playout`.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, free

from tactics.board cimport (board_t, Board, board_is_legal, board_play_unchecked, board_undo,
                            board_forget_history, board_point, rng_next, EMPTY, PASS, TRUE_EYE)
from tactics.strings cimport board_eye


cdef inline uint64_t _rng_state(uint64_t seed) noexcept nogil:
    """A non-zero xorshift state (rng_next) from a seed: the playouts' Python faces seed this way."""
    return (seed * 0x9E3779B97F4A7C15ULL) | 1


cdef int region_playout(board_t *b, const int *region, int nregion, int first, uint64_t *rng,
                        int max_moves, int *buf) except -1 nogil:
    """Random legal moves of alternating colours (`first` moves first) on the empty points of
    region, none filling a true eye of its player, until two passes in a row or max_moves
    moves; buf: scratch for nregion points.  Returns the records played (passes included), so
    that many board_undo calls restore the board."""
    cdef int played = 0, passes = 0, c = first, ne, i, j, p, chosen, t
    while passes < 2 and played < max_moves:
        ne = 0
        for i in range(nregion):
            if b.color[region[i]] == EMPTY:
                buf[ne] = region[i]
                ne += 1
        chosen = PASS
        while ne > 0:                       # draw without replacement until a move is playable
            j = <int>(rng_next(rng) % <uint64_t>ne)
            p = buf[j]
            ne -= 1
            t = buf[ne]
            buf[ne] = p
            buf[j] = t
            if board_eye(b, p, c) != TRUE_EYE and board_is_legal(b, p, c):
                chosen = p
                break
        board_play_unchecked(b, chosen, c)
        passes = passes + 1 if chosen == PASS else 0
        played += 1
        c = 3 - c
    return played


cdef int whole_board_playout(board_t *b, uint64_t *rng, int max_moves) except -1 nogil:
    """A whole-board playout: random legal moves that fill no true eye of the mover, until two
    passes in a row or max_moves; the history is dropped as it goes (a playout cannot be
    undone)."""
    cdef int played = 0, passes = 0, c, ne, start, k, i, p, chosen
    board_forget_history(b)
    while passes < 2 and played < max_moves:
        c = b.to_move
        ne = b.n_empty
        chosen = PASS
        if ne > 0:
            start = <int>(rng_next(rng) % <uint64_t>ne)
            for k in range(ne):
                i = start + k
                if i >= ne:
                    i -= ne
                p = b.empty[i]
                if board_eye(b, p, c) != TRUE_EYE and board_is_legal(b, p, c):
                    chosen = p
                    break
        board_play_unchecked(b, chosen, c)
        board_forget_history(b)
        passes = passes + 1 if chosen == PASS else 0
        played += 1
    return played


def random_playout(Board board, seed=1, max_moves=None):
    """Plays a whole-board playout on `board` (Board.random_playout): random non-eye-filling
    legal moves until both pass, at most `max_moves` (default 3 x size^2); drops the history;
    returns the moves played."""
    cdef uint64_t state = _rng_state(seed)
    cdef int cap = 3 * board.b.size * board.b.size if max_moves is None else max_moves
    cdef int played
    with nogil:
        played = whole_board_playout(&board.b, &state, cap)
    return played


cdef double survival(board_t *b, const int *region, int nregion, const int *stones,
                     int nstones, int colour, int first, int playouts, uint64_t *rng,
                     int *buf) except -1 nogil:
    """Mean share of `stones` holding `colour` at the end of `playouts` region playouts from
    the current position (`first` moves first); the board is restored."""
    cdef int k, i, played, standing
    cdef double total = 0.0
    if nstones == 0 or playouts <= 0:
        return 0.0
    for k in range(playouts):
        played = region_playout(b, region, nregion, first, rng, 3 * nregion + 10, buf)
        standing = 0
        for i in range(nstones):
            if b.color[stones[i]] == colour:
                standing += 1
        total += <double>standing / nstones
        for i in range(played):
            board_undo(b)
    return total / playouts


def survival_rates(Board board, region, moves, int mover, int playouts=600, stones=None,
                   uint64_t seed=1, int colour=0):
    """For each of `moves` (flat points, None = pass) of `mover` on `board` (restored on
    return): the mean share of `stones` (flat; default: every stone of `colour` now on the
    board) still of `colour` after region playouts with the opponent moving first; an illegal
    move gets -1.  region: the flat points the playouts may play.  colour: whose stones are
    counted (default: mover's)."""
    cdef board_t *b = &board.b
    cdef int n = b.size, nregion, nstones, nmoves, i, p
    cdef uint64_t rng = _rng_state(seed)
    region = sorted(set(int(x) for x in region))
    if colour == 0:
        colour = mover
    if stones is None:
        stones = [x for x in range(n * n) if board.get(x) == colour]
    stones = [int(x) for x in stones]
    moves = list(moves)
    nregion, nstones, nmoves = len(region), len(stones), len(moves)
    cdef int *reg = <int *>malloc(sizeof(int) * (nregion + 1))
    cdef int *st = <int *>malloc(sizeof(int) * (nstones + 1))
    cdef int *buf = <int *>malloc(sizeof(int) * (nregion + 1))
    cdef int *mv = <int *>malloc(sizeof(int) * (nmoves + 1))
    cdef double *rates = <double *>malloc(sizeof(double) * (nmoves + 1))
    try:
        if reg == NULL or st == NULL or buf == NULL or mv == NULL or rates == NULL:
            raise MemoryError()
        for i, x in enumerate(region):
            reg[i] = board_point(b, x // n, x % n)
        for i, x in enumerate(stones):
            st[i] = board_point(b, x // n, x % n)
        for i, x in enumerate(moves):
            mv[i] = PASS if x is None else board_point(b, int(x) // n, int(x) % n)
        with nogil:
            for i in range(nmoves):
                rates[i] = -1.0
                if board_is_legal(b, mv[i], mover):
                    board_play_unchecked(b, mv[i], mover)
                    rates[i] = survival(b, reg, nregion, st, nstones, colour, 3 - mover,
                                        playouts, &rng, buf)
                    board_undo(b)
        return [rates[i] for i in range(nmoves)]
    finally:
        free(reg)
        free(st)
        free(buf)
        free(mv)
        free(rates)
