# cython: language_level=3
"""The fast rollout policy (the C API and the features are described in rollout.pxd): AlphaGo's
linear softmax over local patterns, its weights kept incrementally while a rollout plays to the
end of the game, and its training by sparse softmax log-likelihood.

The Python faces:
- `RolloutPolicy(weights)`: `probabilities(board)` (the policy's move distribution), `rollouts`
  (the result and final ownership of N rollouts from one board) and `values` (N rollouts from each
  board of a batch, the GIL released throughout: the search's leaves);
- `fit(policy, games, ...)`: one pass of stochastic gradient descent over game records (or, with
  lr 0, their top-1 / top-5 and log-likelihood), the GIL released: two threads train at once.
- `reference_gammas`: every weight recomputed from scratch, the slow reference of the tests.

Start with `rollout_play` (what a move changes), then `rollout_features`.
"""

import numpy as np

from libc.math cimport exp, log, tanh
from libc.stdint cimport uint64_t, int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset

from tactics.board cimport (board_t, Board, board_init, board_free, board_clear, board_copy_position,
                            board_play_unchecked, board_forget_history, board_is_legal, board_point,
                            opponent, rng_next, EMPTY, BLACK, WHITE, BORDER, PASS, NO_POINT,
                            MAX_SIZE, MAX_W, MAX_POINTS)
from tactics.strings cimport board_approx_liberties, board_string_stones

VERSION = "golois-rollout-1"         # the feature layout; weight files carry it
WEIGHTS = N_WEIGHTS

# ------------------------------------------------------------------------------ tables

cdef int *PAT_CANON = NULL           # 3x3 code -> least code over the 8 symmetries
cdef int DR[DIAMOND]                 # the diamond's offsets: 4 orthogonal, 4 diagonal, 4 two away
cdef int DC[DIAMOND]
cdef int DFWD[8][DIAMOND]            # symmetry s sends diamond cell i to cell DFWD[s][i]
cdef unsigned char LINE[MAX_SIZE + 1][MAX_POINTS]   # distance to the edge (0..5+) of each point, by size
cdef unsigned char ROW[MAX_SIZE + 1][MAX_POINTS]    # padded row of each point, by size

DR[:] = [-1, 0, 1, 0, -1, 1, 1, -1, -2, 0, 2, 0]
DC[:] = [0, 1, 0, -1, 1, 1, -1, -1, 0, 2, 0, -2]


cdef int _transform(int code, int s) noexcept nogil:
    """The 3x3 code seen through symmetry s (bit 2: mirror left-right, bits 0-1: quarter turns
    clockwise).  Orthogonal cells N, E, S, W; diagonal NE, SE, SW, NW."""
    cdef int o[4]
    cdef int d[4]
    cdef int t[4]
    cdef int k, r
    for k in range(4):
        o[k] = (code >> (3 * k)) & 7
        d[k] = (code >> (12 + 2 * k)) & 3
    if s & 4:
        t[0] = o[0]; t[1] = o[3]; t[2] = o[2]; t[3] = o[1]
        o[0] = t[0]; o[1] = t[1]; o[2] = t[2]; o[3] = t[3]
        t[0] = d[3]; t[1] = d[2]; t[2] = d[1]; t[3] = d[0]
        d[0] = t[0]; d[1] = t[1]; d[2] = t[2]; d[3] = t[3]
    for r in range(s & 3):
        t[0] = o[3]; t[1] = o[0]; t[2] = o[1]; t[3] = o[2]
        o[0] = t[0]; o[1] = t[1]; o[2] = t[2]; o[3] = t[3]
        t[0] = d[3]; t[1] = d[0]; t[2] = d[1]; t[3] = d[2]
        d[0] = t[0]; d[1] = t[1]; d[2] = t[2]; d[3] = t[3]
    code = 0
    for k in range(4):
        code |= o[k] << (3 * k)
        code |= d[k] << (12 + 2 * k)
    return code


cdef int rollout_tables() except -1:
    """Fill PAT_CANON and DFWD once."""
    global PAT_CANON
    cdef int code, s, best, t, i, j, r, c, x, n
    if PAT_CANON != NULL:
        return 0
    table = <int *>malloc(N_PAT * sizeof(int))
    if table == NULL:
        raise MemoryError("rollout pattern table")
    with nogil:
        for code in range(N_PAT):
            best = code
            for s in range(1, 8):
                t = _transform(code, s)
                if t < best:
                    best = t
            table[code] = best
    for s in range(8):
        for i in range(DIAMOND):
            r, c = DR[i], DC[i]
            if s & 4:
                c = -c
            for j in range(s & 3):
                x = r
                r = c
                c = -x
            for j in range(DIAMOND):
                if DR[j] == r and DC[j] == c:
                    DFWD[s][i] = j
    for n in range(2, MAX_SIZE + 1):
        for i in range(MAX_POINTS):
            r = i // (n + 2)
            c = i % (n + 2)
            ROW[n][i] = r if r < MAX_W else 0
            LINE[n][i] = max(0, min(5, r - 1, c - 1, n - r, n - c))
    PAT_CANON = table
    return 0


def pattern_canon():
    """The canonical 3x3 code of every raw code (int32 [N_PAT]): the least of its 8 symmetries."""
    rollout_tables()
    out = np.empty(N_PAT, np.int32)
    cdef int[::1] o = out
    cdef int i
    for i in range(N_PAT):
        o[i] = PAT_CANON[i]
    return out


# ------------------------------------------------------------------------------ features

cdef inline int _orth_value(const board_t *b, int n, int c) noexcept nogil:
    """A cell of the patterns: 0 empty, 1-3 own stone with 1, 2, 3+ liberties, 4-6 opponent's, 7 border."""
    cdef int col = b.color[n], l
    if col == EMPTY:
        return 0
    if col == BORDER:
        return 7
    l = b.libs[b.head[n]]
    if l > 3:
        l = 3
    return l if col == c else 3 + l


cdef inline uint64_t _mix(uint64_t key) noexcept nogil:
    """A 64-bit mixer (splitmix64's finaliser): the response keys' hash."""
    key ^= key >> 30
    key *= 0xBF58476D1CE4E5B9ULL
    key ^= key >> 27
    key *= 0x94D049BB133111EBULL
    key ^= key >> 31
    return key


cdef void _set_diamond(rollout_t *st) noexcept nogil:
    """The diamond around st.last and each of its points' canonical response key, for the side
    to move; no diamond when the last move is a pass or none."""
    cdef board_t *b = &st.b
    cdef int m = st.last, i, s, r0, c0, r, cc, n = b.size, cl
    cdef int vals[DIAMOND]
    cdef uint64_t codes[8]
    cdef uint64_t key, best
    for i in range(DIAMOND):
        st.diamond[i] = NO_POINT
    if m <= 0 or (b.color[m] != BLACK and b.color[m] != WHITE):
        return
    r0 = m // b.W - 1
    c0 = m % b.W - 1
    for i in range(DIAMOND):
        r = r0 + DR[i]
        cc = c0 + DC[i]
        if r < 0 or r >= n or cc < 0 or cc >= n:
            vals[i] = 7
        else:
            st.diamond[i] = board_point(b, r, cc)
            vals[i] = _orth_value(b, st.diamond[i], b.to_move)
    cl = b.libs[b.head[m]]
    if cl > 3:
        cl = 3
    for s in range(8):
        codes[s] = 0
        for i in range(DIAMOND):
            codes[s] |= (<uint64_t>vals[i]) << (3 * DFWD[s][i])
    for i in range(DIAMOND):
        if st.diamond[i] == NO_POINT:
            continue
        best = 0xFFFFFFFFFFFFFFFFULL
        for s in range(8):
            key = ((<uint64_t>cl) << 40) | (codes[s] << 4) | <uint64_t>DFWD[s][i]
            if key < best:
                best = key
        st.resp_key[i] = best


cdef inline bint _touches(const board_t *b, int e, int h) noexcept nogil:
    """Empty e is a liberty of the string with head h."""
    cdef int W = b.W
    return ((b.color[e - W] != EMPTY and b.head[e - W] == h) or (b.color[e + W] != EMPTY and b.head[e + W] == h)
            or (b.color[e - 1] != EMPTY and b.head[e - 1] == h) or (b.color[e + 1] != EMPTY and b.head[e + 1] == h))


cdef inline bint _add_head(int *heads, int *n, int h) noexcept nogil:
    """Append h to heads[:n] unless it is there; whether it was appended."""
    cdef int j
    for j in range(n[0]):
        if heads[j] == h:
            return False
    heads[n[0]] = h
    n[0] += 1
    return True


cdef int rollout_features(const rollout_t *st, int q, int c, int *out) noexcept nogil:
    """The feature offsets of c's move at q (rollout.pxd); 0 where the rollouts never play q."""
    cdef const board_t *b = &st.b
    cdef int W = b.W, k, n, col, h, l, v, j, code = 0, nempty = 0, n_own = 0, n_cap = 0
    cdef int cap_stones = 0, cap_points = 0, save = 0, atari = 0, size = 1, bad = 0, edge = 0
    cdef int la, cap, sz, nf
    cdef bint eye = True, dup
    cdef int d4[4]
    cdef int dg[4]
    cdef int own[4]
    cdef int capt[4]
    if b.color[q] != EMPTY or (q == b.ko and c == b.ko_color):
        return 0
    d4[0] = -W; d4[1] = 1; d4[2] = W; d4[3] = -1
    dg[0] = -W + 1; dg[1] = W + 1; dg[2] = W - 1; dg[3] = -W - 1
    for k in range(4):
        n = q + d4[k]
        col = b.color[n]
        if col == EMPTY:
            v = 0
            nempty += 1
            eye = False
        elif col == BORDER:
            v = 7
        else:
            h = b.head[n]
            l = b.libs[h]
            v = 3 if l > 3 else l
            if col == c:
                if _add_head(own, &n_own, h):
                    size += b.nstones[h]
                    if l == 1:
                        save = 1
            else:
                v += 3
                eye = False
                if l == 1:
                    cap_points += 1
                    if _add_head(capt, &n_cap, h):
                        cap_stones += b.nstones[h]
                elif l == 2:
                    atari = 1
        code |= v << (3 * k)
    for k in range(4):
        col = b.color[q + dg[k]]
        if col == EMPTY:
            v = 0
        elif col == c:
            v = 1
        elif col == BORDER:
            v = 3
            edge = 1
        else:
            v = 2
            bad += 1
        code |= v << (12 + 2 * k)
    if eye and bad + edge < 2:
        return 0                                   # c's own true eye (board_eye's rule)
    if n_own == 0:
        la = nempty + cap_points
    else:                                          # liberties after: exact up to 4
        la = 0
        for j in range(n_own):
            if b.libs[own[j]] - 1 > la:
                la = b.libs[own[j]] - 1
        if la >= 4:
            pass
        elif n_own == 1:                           # one string: its liberties, q's new ones
            h = own[0]
            for k in range(4):
                n = q + d4[k]
                if b.color[n] == EMPTY and not _touches(b, n, h):
                    la += 1
            la += cap_points
        else:
            la = board_approx_liberties(b, q, c, 4) + cap_points
    if la == 0:
        return 0                                   # suicide
    if la == 1 and cap_stones == 0 and size >= 6:
        return 0                                   # a big string into atari: never a rollout move
    if la > 4:
        la = 4
    cap = 0 if cap_stones == 0 else (1 if cap_stones == 1 else 2)
    sz = 0 if size == 1 else (1 if size <= 3 else (2 if size <= 6 else 3))
    out[0] = OFF_PAT + code                        # the raw code: callers map it (module doc)
    out[1] = OFF_TACT + (((cap * 2 + save) * 2 + atari) * 4 + (la - 1)) * 4 + sz
    out[2] = OFF_LINE + LINE[b.size][q]
    nf = 3
    if c == b.to_move and st.last > 0:
        for j in range(DIAMOND):
            if st.diamond[j] == q:
                out[3] = OFF_DIST + j // 4
                out[4] = OFF_RESP + <int>(_mix(st.resp_key[j]) >> (64 - RESP_BITS))
                nf = 5
                break
    return nf


cdef inline double _gamma(const rollout_t *st, int q, int c) noexcept nogil:
    """The product of the exp'd weights of c's move at q; 0 where the rollouts never play it."""
    cdef int f[MAX_FEATURES]
    cdef int n = rollout_features(st, q, c, f), i
    cdef double g = 1.0
    if n == 0:
        return 0.0
    for i in range(n):
        g *= st.w[f[i]]
    return g


cdef inline void _set_gamma(rollout_t *st, int q, int ci, double g) noexcept nogil:
    """gamma[ci][q] = g, keeping its row's sum."""
    st.rows[ci][ROW[st.b.size][q]] += g - st.gamma[ci][q]
    st.gamma[ci][q] = g


cdef void _resum(rollout_t *st) noexcept nogil:
    """Every row sum recomputed exactly (the running sums drift by rounding)."""
    cdef int ci, r, col, W = st.b.W
    cdef double s
    for ci in range(2):
        for r in range(W):
            s = 0.0
            for col in range(W):
                s += st.gamma[ci][r * W + col]
            st.rows[ci][r] = s
    st.since_resum = 0


# ------------------------------------------------------------------------------ incremental state

cdef int rollout_init(rollout_t *st, const board_t *src, const float *w, int last) except -1 nogil:
    """src's position into st, with every gamma computed (rollout.pxd)."""
    cdef int i, q
    cdef board_t *b = &st.b
    board_copy_position(b, src)
    st.w = w
    memset(st.gamma, 0, sizeof(st.gamma))
    memset(st.rows, 0, sizeof(st.rows))
    memset(st.mark, 0, sizeof(st.mark))
    memset(st.walked, 0, sizeof(st.walked))
    st.stamp = 0
    st.ndirty = 0
    st.last = last
    _set_diamond(st)
    for i in range(b.n_empty):
        q = b.empty[i]
        _set_gamma(st, q, 0, _gamma(st, q, BLACK))
        _set_gamma(st, q, 1, _gamma(st, q, WHITE))
    _resum(st)
    return 0


cdef int rollout_copy(rollout_t *dst, const rollout_t *src) except -1 nogil:
    """A prepared state copied for one rollout (the board through board_copy_position)."""
    board_copy_position(&dst.b, &src.b)
    dst.w = src.w
    memcpy(dst.gamma, src.gamma, sizeof(src.gamma))
    memcpy(dst.rows, src.rows, sizeof(src.rows))
    memcpy(dst.diamond, src.diamond, sizeof(src.diamond))
    memcpy(dst.resp_key, src.resp_key, sizeof(src.resp_key))
    dst.last = src.last
    dst.since_resum = src.since_resum
    return 0


cdef inline void _mark(rollout_t *st, int q) noexcept nogil:
    """Queue q for recomputation (once per update)."""
    if q > 0 and st.mark[q] != st.stamp:
        st.mark[q] = st.stamp
        st.dirty[st.ndirty] = q
        st.ndirty += 1


cdef inline void _mark_around(rollout_t *st, int p) noexcept nogil:
    """Queue the 8 neighbours of p."""
    cdef int W = st.b.W
    _mark(st, p - W - 1); _mark(st, p - W); _mark(st, p - W + 1)
    _mark(st, p - 1); _mark(st, p + 1)
    _mark(st, p + W - 1); _mark(st, p + W); _mark(st, p + W + 1)


cdef void _mark_libs(rollout_t *st, int s) noexcept nogil:
    """Queue the liberties of the string at s (each string walked once per update)."""
    cdef board_t *b = &st.b
    cdef int h = b.head[s], x, W = b.W
    if st.walked[h] == st.stamp:
        return
    st.walked[h] = st.stamp
    x = h
    while True:
        if b.color[x - W] == EMPTY:
            _mark(st, x - W)
        if b.color[x + W] == EMPTY:
            _mark(st, x + W)
        if b.color[x - 1] == EMPTY:
            _mark(st, x - 1)
        if b.color[x + 1] == EMPTY:
            _mark(st, x + 1)
        x = b.next[x]
        if x == h:
            break


cdef int rollout_play(rollout_t *st, int p, int c) except -1 nogil:
    """c plays p; the gammas of the points whose features the move changed are recomputed:
    for both colours where the stones or liberties around them changed, for one colour in the
    old diamond (its response features end) and the new one (the side to move's begin)."""
    cdef board_t *b = &st.b
    cdef int W = b.W, o = opponent(c), k, n, h, i, j, q, ncap = 0, nheads = 0, both
    cdef int old_ko = b.ko
    cdef int heads[4]
    cdef int old_diamond[DIAMOND]
    cdef int capt[MAX_POINTS]
    cdef int d4[4]
    cdef bint dup
    d4[0] = -W; d4[1] = 1; d4[2] = W; d4[3] = -1
    st.stamp += 1
    st.ndirty = 0
    for i in range(DIAMOND):
        old_diamond[i] = st.diamond[i]
    if p != PASS:
        for k in range(4):                       # the strings this move captures, before it
            n = p + d4[k]
            if b.color[n] == o and b.libs[b.head[n]] == 1 and _add_head(heads, &nheads, b.head[n]):
                ncap += board_string_stones(b, b.head[n], capt + ncap)
    board_play_unchecked(b, p, c)
    board_forget_history(b)
    st.last = p
    if p != PASS:
        _set_gamma(st, p, 0, 0.0)
        _set_gamma(st, p, 1, 0.0)
        _mark_around(st, p)
        if b.nstones[b.head[p]] > 1:             # a lone stone's liberties are its neighbours
            _mark_libs(st, p)
        for k in range(4):
            n = p + d4[k]
            if b.color[n] == o and b.libs[b.head[n]] < 5:    # 5+ liberties: no feature changes
                _mark_libs(st, n)
        for i in range(ncap):
            q = capt[i]
            _mark(st, q)
            _mark_around(st, q)
            for k in range(4):
                n = q + d4[k]
                if b.color[n] == c:
                    _mark_libs(st, n)
    _mark(st, old_ko)
    _mark(st, b.ko)
    _set_diamond(st)
    both = st.ndirty
    for i in range(both):
        q = st.dirty[i]
        if b.color[q] == EMPTY:
            _set_gamma(st, q, 0, _gamma(st, q, BLACK))
            _set_gamma(st, q, 1, _gamma(st, q, WHITE))
    for i in range(DIAMOND):                     # the mover's response features end
        q = old_diamond[i]
        if q > 0 and st.mark[q] != st.stamp and b.color[q] == EMPTY:
            _set_gamma(st, q, c - 1, _gamma(st, q, c))
    for i in range(DIAMOND):                     # the side to move's begin
        q = st.diamond[i]
        if q > 0 and st.mark[q] != st.stamp and b.color[q] == EMPTY:
            _set_gamma(st, q, o - 1, _gamma(st, q, o))
    st.since_resum += 1
    if st.since_resum >= 64:
        _resum(st)
    return 0


cdef inline double _uniform(uint64_t *rng) noexcept nogil:
    """A uniform double in [0, 1)."""
    return (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)


cdef int rollout_choose(rollout_t *st, int c, uint64_t *rng) noexcept nogil:
    """A move for c with probability gamma / sum (rows first, then the row's points)."""
    cdef int ci = c - 1, W = st.b.W, n = st.b.size, r, rr, col, p, tries, last_pos
    cdef double total, u, g
    for tries in range(2):
        total = 0.0
        for r in range(1, n + 1):
            total += st.rows[ci][r]
        if total <= 1e-300:
            return PASS
        u = _uniform(rng) * total
        r = n
        for rr in range(1, n + 1):
            if u < st.rows[ci][rr]:
                r = rr
                break
            u -= st.rows[ci][rr]
        last_pos = NO_POINT
        for col in range(1, n + 1):
            p = r * W + col
            g = st.gamma[ci][p]
            if g > 0:
                if u < g:
                    return p
                u -= g
                last_pos = p
        if last_pos != NO_POINT:
            return last_pos                      # rounding at the row's end
        _resum(st)                               # a row sum that drifted off zero: recount, redraw
    return PASS


cdef int rollout_run(rollout_t *st, uint64_t *rng, int max_moves) except -1 nogil:
    """The policy's moves until two passes in a row or max_moves; returns the moves played."""
    cdef int played = 0, passes = 0, c, p
    while passes < 2 and played < max_moves:
        c = st.b.to_move
        p = rollout_choose(st, c, rng)
        rollout_play(st, p, c)
        passes = passes + 1 if p == PASS else 0
        played += 1
    return played


cdef double area_owner(const board_t *b, double komi, int *owner) noexcept nogil:
    """Area score (stones plus empty regions bordered by one colour only) less komi, and each
    point's owner (padded points; BLACK, WHITE or EMPTY for neutral)."""
    cdef int W = b.W, n = b.size, r, col, p, x, k, top, reach, start, i, black = 0, white = 0
    cdef int stack[MAX_POINTS]
    cdef int region[MAX_POINTS]
    cdef int d4[4]
    d4[0] = -W; d4[1] = 1; d4[2] = W; d4[3] = -1
    for p in range(W * W):
        owner[p] = -1
    for r in range(n):
        for col in range(n):
            p = (r + 1) * W + col + 1
            if b.color[p] != EMPTY:
                owner[p] = b.color[p]
            elif owner[p] == -1:                  # a new empty region: flood it
                top = 0
                start = 0
                reach = 0
                stack[top] = p
                top += 1
                owner[p] = EMPTY
                while top > 0:
                    top -= 1
                    x = stack[top]
                    region[start] = x
                    start += 1
                    for k in range(4):
                        i = x + d4[k]
                        if b.color[i] == EMPTY:
                            if owner[i] == -1:
                                owner[i] = EMPTY
                                stack[top] = i
                                top += 1
                        elif b.color[i] == BLACK:
                            reach |= 1
                        elif b.color[i] == WHITE:
                            reach |= 2
                for i in range(start):
                    owner[region[i]] = BLACK if reach == 1 else (WHITE if reach == 2 else EMPTY)
            if owner[p] == BLACK:
                black += 1
            elif owner[p] == WHITE:
                white += 1
    return black - white - komi


# ------------------------------------------------------------------------------ Python faces

cdef int _last_point(Board board) noexcept:
    """The board's last move as a point (PASS, or NO_POINT without one)."""
    cdef board_t *b = &board.b
    if b.n_moves == 0:
        return NO_POINT
    return b.moves[b.n_moves - 1].point


cdef rollout_t *_new_state(int size) except NULL:
    cdef rollout_t *st = <rollout_t *>malloc(sizeof(rollout_t))
    if st == NULL:
        raise MemoryError("rollout state")
    st.b.journal = NULL
    st.b.moves = NULL
    try:
        board_init(&st.b, size)
    except BaseException:
        free(st)
        raise
    return st


cdef void _free_state(rollout_t *st) noexcept:
    if st != NULL:
        board_free(&st.b)
        free(st)


cdef class RolloutPolicy:
    """The rollout policy over a weight vector of N_WEIGHTS float32 (zeros: every playable move
    alike, the random playouts with the policy's move rules); a move's weight is
    exp(sum of its feature weights / temperature) (below 1: sharper rollouts)."""

    cdef object _weights
    cdef object _exp
    cdef float *w                                # exp of the weights: what the C state reads

    cdef readonly double temperature             # the rollouts' softmax temperature

    def __init__(self, weights=None, double temperature=1.0):
        rollout_tables()
        if not temperature > 0:
            raise ValueError(f"rollout temperature must be positive, not {temperature}")
        self.temperature = temperature
        if weights is None:
            weights = np.zeros(N_WEIGHTS, np.float32)
        weights = np.ascontiguousarray(weights, dtype=np.float32)
        if weights.shape != (N_WEIGHTS,):
            raise ValueError(f"rollout weights: {N_WEIGHTS} floats expected, got shape {weights.shape}")
        if not weights.flags.writeable:
            weights = weights.copy()
        self._weights = weights
        self.refresh()

    def refresh(self):
        """Recompute the exp'd weights the rollouts read (after the weights changed in place)."""
        e = np.exp(np.clip(self._weights / self.temperature, -30, 30)).astype(np.float32)
        e[OFF_PAT:OFF_PAT + N_PAT] = e[OFF_PAT + pattern_canon()]     # by raw 3x3 code: one lookup a move
        self._exp = e
        cdef float[::1] view = self._exp
        self.w = &view[0]

    @property
    def weights(self):
        """The weight vector (numpy float32, shared: training writes it in place)."""
        return self._weights

    def features(self, Board board, move, colour=None):
        """The feature offsets of `colour`'s (default: the side to move) move at `move` on
        `board`, the last move being the board's; [] where the rollouts never play it."""
        cdef rollout_t *st = _new_state(board.b.size)
        cdef int f[MAX_FEATURES]
        cdef int n, c = board.b.to_move if colour is None else colour
        try:
            rollout_init(st, &board.b, self.w, _last_point(board))
            n = rollout_features(st, board._point(move), c, f)
            if n:
                f[0] = OFF_PAT + PAT_CANON[f[0] - OFF_PAT]
            return [f[i] for i in range(n)]
        finally:
            _free_state(st)

    def probabilities(self, Board board, colour=None):
        """The policy's probability of each flat point for `colour` (default: the side to move),
        float64 [size * size]; zeros where it never plays."""
        cdef rollout_t *st = _new_state(board.b.size)
        cdef int n = board.b.size, r, col, ci, p
        cdef double total = 0.0
        out = np.zeros(n * n, np.float64)
        cdef double[::1] o = out
        ci = (board.b.to_move if colour is None else colour) - 1
        try:
            rollout_init(st, &board.b, self.w, _last_point(board))
            if colour is not None and colour != board.b.to_move:
                st.b.to_move = colour                # response features are for the side to move
                _set_diamond(st)
                for r in range(n * n):
                    p = board_point(&st.b, r // n, r % n)
                    _set_gamma(st, p, ci, _gamma(st, p, colour))
            for r in range(n):
                for col in range(n):
                    o[r * n + col] = st.gamma[ci][board_point(&st.b, r, col)]
                    total += o[r * n + col]
        finally:
            _free_state(st)
        return out / total if total > 0 else out

    def rollouts(self, Board board, int n=1, double komi=7.5, uint64_t seed=1, int max_moves=0,
                 bint ownership=False):
        """n rollouts from `board` (unchanged) to the end of the game: (black's share of wins
        (a tie half), the mean area score less komi, the mean final owner of each flat point
        (+1 black, -1 white) or None, the mean number of moves a rollout played)."""
        cdef rollout_t *base = _new_state(board.b.size)
        cdef rollout_t *work = NULL
        cdef int size = board.b.size, cap = max_moves if max_moves > 0 else 3 * size * size
        cdef int k, r, col, p, wins2 = 0, last = _last_point(board)
        cdef long played = 0
        cdef double score, total = 0.0
        cdef uint64_t rng = (seed * 0x9E3779B97F4A7C15ULL) | 1
        cdef int *owner = <int *>malloc(MAX_POINTS * sizeof(int))
        own = np.zeros(size * size, np.float64)
        cdef double[::1] ov = own
        try:
            work = _new_state(size)
            if owner == NULL:
                raise MemoryError()
            with nogil:
                rollout_init(base, &board.b, self.w, last)
                for k in range(n):
                    rollout_copy(work, base)
                    played += rollout_run(work, &rng, cap)
                    score = area_owner(&work.b, komi, owner)
                    total += score
                    wins2 += 2 if score > 0 else (1 if score == 0 else 0)
                    if ownership:
                        for r in range(size):
                            for col in range(size):
                                p = board_point(&work.b, r, col)
                                ov[r * size + col] += 1.0 if owner[p] == BLACK else (-1.0 if owner[p] == WHITE else 0.0)
        finally:
            _free_state(base)
            _free_state(work)
            free(owner)
        n = max(n, 1)
        return wins2 / (2.0 * n), total / n, (own / n if ownership else None), played / n

    def values(self, boards, int n=1, double komi=7.5, uint64_t seed=1, int max_moves=0,
               double score_weight=0.1, double score_scale=10.0):
        """For each board, the mean result of n rollouts for its player to move, float64 in
        [-1, 1]: a rollout won by s points (s < 0 lost) counts (1 - score_weight) sign(s) +
        score_weight tanh(s / score_scale), so the margin breaks the ties of an even count of
        wins and losses.  The GIL is released for the whole batch."""
        cdef int nb = len(boards), i, k, size, cap, mover
        cdef double score, acc
        cdef uint64_t rng = (seed * 0x9E3779B97F4A7C15ULL) | 1
        out = np.zeros(nb, np.float64)
        if nb == 0:
            return out
        cdef double[::1] o = out
        cdef board_t **src = <board_t **>malloc(nb * sizeof(board_t *))
        cdef int *lasts = <int *>malloc(nb * sizeof(int))
        cdef int *owner = <int *>malloc(MAX_POINTS * sizeof(int))
        cdef rollout_t *base = NULL
        cdef rollout_t *work = NULL
        keep = list(boards)
        try:
            if src == NULL or lasts == NULL or owner == NULL:
                raise MemoryError()
            size = (<Board>keep[0]).b.size
            for i in range(nb):
                if (<Board>keep[i]).b.size != size:
                    raise ValueError("rollout values: boards of one size per batch")
                src[i] = &(<Board>keep[i]).b
                lasts[i] = _last_point(<Board>keep[i])
            base = _new_state(size)
            work = _new_state(size)
            cap = max_moves if max_moves > 0 else 3 * size * size
            with nogil:
                for i in range(nb):
                    rollout_init(base, src[i], self.w, lasts[i])
                    mover = src[i].to_move
                    acc = 0.0
                    for k in range(n):
                        rollout_copy(work, base)
                        rollout_run(work, &rng, cap)
                        score = area_owner(&work.b, komi, owner)
                        if mover != BLACK:
                            score = -score
                        acc += (1 - score_weight) * (1.0 if score > 0 else (-1.0 if score < 0 else 0.0))
                        acc += score_weight * tanh(score / score_scale)
                    o[i] = acc / (n if n > 0 else 1)
        finally:
            free(src)
            free(lasts)
            free(owner)
            _free_state(base)
            _free_state(work)
        return out

    def reference_gammas(self, Board board):
        """Every point's gamma for both colours recomputed from scratch on a fresh state,
        float64 [2, size * size] (the tests compare the incremental state with it)."""
        return self.incremental_gammas(board, [])

    def incremental_gammas(self, Board board, moves):
        """The gammas after playing `moves` (flat points or None, alternating from the side to
        move) incrementally from `board`'s position: [2, size * size] (the test's subject); the
        board is unchanged.  With no moves, the from-scratch reference."""
        cdef rollout_t *st = _new_state(board.b.size)
        cdef int n = board.b.size, i, p
        out = np.zeros((2, n * n), np.float64)
        try:
            rollout_init(st, &board.b, self.w, _last_point(board))
            for m in moves:
                p = PASS if m is None else board_point(&st.b, int(m) // n, int(m) % n)
                if p != PASS and not board_is_legal(&st.b, p, st.b.to_move):
                    raise ValueError(f"illegal move {m}")
                rollout_play(st, p, st.b.to_move)
            for i in range(n * n):
                out[0, i] = st.gamma[0][board_point(&st.b, i // n, i % n)]
                out[1, i] = st.gamma[1][board_point(&st.b, i // n, i % n)]
        finally:
            _free_state(st)
        return out


# ------------------------------------------------------------------------------ training

cdef inline double _expected_hit(int rank, int ties, int k) noexcept nogil:
    """The chance that a move with `rank` better moves and `ties` equal ones is among the first
    k when ties are broken at random."""
    cdef double h = (k - rank) / (ties + 1.0)
    return 0.0 if h < 0 else (1.0 if h > 1 else h)


cdef int _fit_game(rollout_t *st, float *w, const short *points, const signed char *colours, int nmoves,
                   int min_move, double lr, int *fq, int *ff, double *logit, double *stats) except -1 nogil:
    """Replays one 19x19 game record; for each move from min_move on (a point the rollouts may
    play), the softmax over the policy's playable points: stats += positions, log-likelihood,
    top-1, top-5 (ties broken at random: expected hits), skipped; with lr > 0 one gradient
    step on the weights."""
    cdef board_t *b = &st.b
    cdef int t, c, p, q, i, k, nq, nf, target, rank, ties, size = b.size
    cdef double mx, total, g, pt
    board_clear(b)
    st.last = NO_POINT
    for t in range(nmoves):
        c = colours[t]
        b.to_move = c
        if points[t] < 0:
            board_play_unchecked(b, PASS, c)
            board_forget_history(b)
            st.last = PASS
            continue
        p = board_point(b, points[t] // size, points[t] % size)
        if not board_is_legal(b, p, c):
            stats[4] += nmoves - t
            return 0                             # an illegal move ends the record
        if t >= min_move:
            _set_diamond(st)
            nq = 0
            target = -1
            for i in range(b.n_empty):
                q = b.empty[i]
                nf = rollout_features(st, q, c, ff + nq * MAX_FEATURES)
                if nf == 0:
                    continue
                k = nq * MAX_FEATURES
                ff[k] = OFF_PAT + PAT_CANON[ff[k] - OFF_PAT]     # one weight per symmetry class
                for k in range(nf, MAX_FEATURES):
                    ff[nq * MAX_FEATURES + k] = -1
                if q == p:
                    target = nq
                fq[nq] = q
                nq += 1
            if target < 0:
                stats[4] += 1
            else:
                mx = -1e300
                for i in range(nq):
                    g = 0.0
                    for k in range(MAX_FEATURES):
                        if ff[i * MAX_FEATURES + k] >= 0:
                            g += w[ff[i * MAX_FEATURES + k]]
                    logit[i] = g
                    if g > mx:
                        mx = g
                total = 0.0
                rank = 0
                ties = 0
                for i in range(nq):
                    if logit[i] > logit[target]:
                        rank += 1
                    elif logit[i] == logit[target] and i != target:
                        ties += 1
                for i in range(nq):
                    logit[i] = exp(logit[i] - mx)
                    total += logit[i]
                pt = logit[target] / total
                stats[0] += 1
                stats[1] += log(pt if pt > 1e-300 else 1e-300)
                stats[2] += _expected_hit(rank, ties, 1)
                stats[3] += _expected_hit(rank, ties, 5)
                if lr > 0:
                    for i in range(nq):
                        g = lr * (logit[i] / total - (1.0 if i == target else 0.0))
                        for k in range(MAX_FEATURES):
                            if ff[i * MAX_FEATURES + k] >= 0:
                                w[ff[i * MAX_FEATURES + k]] -= <float>g
        board_play_unchecked(b, p, c)
        board_forget_history(b)
        st.last = p
    return 0


def fit(RolloutPolicy policy, points, colours, starts, games, double lr0=0.0, double lr1=-1.0,
        int min_move=0, progress=None):
    """One pass over `games` (indices into the records: record g's moves are
    points[starts[g]:starts[g+1]], flat 19x19 points or -1 for a pass, with colours 1 black, 2
    white): with lr0 > 0, stochastic gradient descent on the softmax log-likelihood, the rate
    going linearly from lr0 to lr1 (default lr0) over the pass, written into policy.weights in
    place (two threads on two halves share the weights, Hogwild); with lr0 = 0 only the counts.
    progress(k): called after every k games.  Returns dict(positions, loglik, top1, top5, skipped):
    top1 and top5 are expected hits, ties among the best moves broken at random."""
    rollout_tables()
    cdef const short[::1] pts = np.ascontiguousarray(points, dtype=np.int16)
    cdef const signed char[::1] cols = np.ascontiguousarray(colours, dtype=np.int8)
    cdef const int64_t[::1] st_ = np.ascontiguousarray(starts, dtype=np.int64)
    cdef const int64_t[::1] order = np.ascontiguousarray(games, dtype=np.int64)
    cdef float[::1] wv = policy.weights
    cdef int ng = len(order), i, j, g, chunk = 64
    cdef double lr, l1 = lr0 if lr1 < 0 else lr1
    cdef double stats[5]
    cdef rollout_t *st = _new_state(19)
    cdef int *fq = <int *>malloc(MAX_POINTS * sizeof(int))
    cdef int *ff = <int *>malloc(MAX_POINTS * MAX_FEATURES * sizeof(int))
    cdef double *logit = <double *>malloc(MAX_POINTS * sizeof(double))
    memset(stats, 0, sizeof(stats))
    try:
        if fq == NULL or ff == NULL or logit == NULL:
            raise MemoryError()
        st.w = &wv[0]
        for i in range(0, ng, chunk):
            with nogil:
                for j in range(i, min(i + chunk, ng)):
                    g = order[j]
                    lr = lr0 + (l1 - lr0) * j / (ng if ng > 0 else 1)
                    _fit_game(st, &wv[0], &pts[st_[g]], &cols[st_[g]], <int>(st_[g + 1] - st_[g]),
                              min_move, lr, fq, ff, logit, stats)
            if progress is not None:
                progress(min(chunk, ng - i))
    finally:
        _free_state(st)
        free(fq)
        free(ff)
        free(logit)
        policy.refresh()
    return dict(positions=int(stats[0]), loglik=stats[1], top1=stats[2], top5=stats[3], skipped=int(stats[4]))
