"""Capture search: can a string with up to 4 liberties be captured (attack) or saved (defend)?

A GNU Go-style tactical reader (reading.c's attack/find_defense, much simplified), in C without
the GIL, making and unmaking moves on the board.  Start at `capture_attack_c` and
`capture_defend_c`, then the two mutually recursive searches:

- `_attack` (attacker to move): a string in atari is taken; a string with more liberties than the
  depth allows (`_libs_allowed`: 4 above `fourlib_depth`, 3 above `threelib_depth`, 2 above
  `twolib_depth`, else none) is safe; a two-liberty string is first handed to the ladder reader
  (tactics.ladder) as a cheap leaf.  Candidates (`_attack_moves`): the string's liberties, the
  empty neighbours of those liberties (nets / geta, approach moves), the liberties of the
  attacker's own strings in atari next to the string, and captures or extensions that give
  liberties to the attacker's weak strings racing the target.  An attacker move that puts its
  own string in atari is kept only on a liberty of the string (throw-ins, snapbacks).
- `_defend` (defender to move): candidates (`_defend_moves`) are captures of adjacent attacker
  strings in atari, the string's liberties, ataris on adjacent two-liberty attacker strings,
  liberties of adjacent three-liberty attacker strings racing it (near the root), and
  (for strings with two or more liberties) the empty neighbours of the liberties.  When every
  candidate fails, the defender may pass: a string the attacker cannot take even moving twice
  (shared liberties it cannot fill, a seki) is safe, and a root `defend` then answers PASS.
- From `narrow_depth` on, both sides try only their best few candidates, so long forcing lines
  (loose ladders) stay affordable.  A transposition table (hash of the stones, node kind, ko
  ban, ko-lift flag; reused at the same depth or deeper) removes repeated work.

Values inside the search are from the mover's point of view, LOSE < KO_B < KO_A < WIN, and the
opponent's value v is 3 - v for the mover (a ko the opponent wins by taking first is one the
mover wins by threatening first).  Ko: a winning move that captures into a ko is worth at most
KO_A (the mover must get the first ko capture); a move the ko ban forbids may be played once per
line as if the ban were lifted, worth at most KO_B (the mover must make the first ko threat).
At the root these become GNU Go's GTP codes (CaptureResult: 0, 1, 2, 3) and UNKNOWN.

Python API: `capture_attack(board, vertex, **limits) -> (result, move, nodes)` and
`capture_defend(board, vertex, **limits) -> (result, move, nodes)`, moves as flat indices (None
for no move; `defend` answers (WIN, None) for a string with more than `max_libs` liberties).
"""

cimport cython
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc
from tactics.board cimport (Board, board_t, board_is_legal, board_play_unchecked, board_undo,
                            board_captures_of, opponent, board_row, board_col, EMPTY, BLACK, WHITE,
                            PASS, NO_POINT, MAX_POINTS)
from tactics.strings cimport board_approx_liberties, board_liberties, board_adjacent_strings
from tactics.ladder cimport ladder_params_t, ladder_capture_c, LADDER_CAPTURED

DEF MAX_CANDS = 96
DEF MAX_ADJ = 420         # a string of k stones touches at most 2k + 2 points: < 420 strings on 25x25

# mover's values inside the search
DEF V_LOSE = 0
DEF V_KO_B = 1
DEF V_KO_A = 2
DEF V_WIN = 3

# ------------------------------------------------------------------------------ helpers

cdef void capture_default_params(capture_params_t *p) noexcept nogil:
    """The documented defaults (see capture.pxd)."""
    p.max_libs = 4
    p.max_nodes = 50000
    p.max_depth = 40
    p.fourlib_depth = 5
    p.threelib_depth = 13
    p.twolib_depth = 16
    p.ladder_nodes = 300
    p.approach_depth = 4
    p.narrow_depth = 7
    p.narrow_attack = 2
    p.narrow_defend = 3

cdef inline int _libs_allowed(capture_ctx_t *ctx, int depth) noexcept nogil:
    """Most liberties a string may have and still be attacked at this depth (0: none)."""
    cdef int n = 0
    if depth < ctx.p.fourlib_depth:
        n = 4
    elif depth < ctx.p.threelib_depth:
        n = 3
    elif depth < ctx.p.twolib_depth:
        n = 2
    return n if n < ctx.p.max_libs else ctx.p.max_libs

cdef inline bint _spend(capture_ctx_t *ctx) noexcept nogil:
    """Count one move played; False (and the query aborted) when the budget is gone."""
    ctx.nodes += 1
    if ctx.nodes > ctx.p.max_nodes:
        ctx.aborted = True
        return False
    return True

cdef inline int _add(int *cand, int *score, int n, int m, int s) noexcept nogil:
    """Add move m with score s to the candidate list (a duplicate keeps the higher score);
    returns the new count."""
    cdef int i
    for i in range(n):
        if cand[i] == m:
            if s > score[i]:
                score[i] = s
            return n
    if n < MAX_CANDS:
        cand[n] = m
        score[n] = s
        n += 1
    return n

cdef void _sort(int *cand, int *score, int n) noexcept nogil:
    """Sort candidates by decreasing score (insertion sort, stable)."""
    cdef int i, j, m, s
    for i in range(1, n):
        m = cand[i]
        s = score[i]
        j = i - 1
        while j >= 0 and score[j] < s:
            cand[j + 1] = cand[j]
            score[j + 1] = score[j]
            j -= 1
        cand[j + 1] = m
        score[j + 1] = s

# ------------------------------------------------------------------------------ move generation

cdef int _capturing_moves(board_t *b, int s, int c, int *cand, int *score, int n, int base) noexcept nogil:
    """Add the liberties of c's strings in atari touching the string at s (moves that rescue it
    by capturing) with score base + stones; returns the new count."""
    cdef int adj[MAX_ADJ]
    cdef int na, j, lib
    na = board_adjacent_strings(b, s, c, adj)
    for j in range(na):
        if b.libs[adj[j]] == 1:
            board_liberties(b, adj[j], &lib, 1)
            n = _add(cand, score, n, lib, base + b.nstones[adj[j]])
    return n

cdef int _neighbour_libs(board_t *b, int t, const int *libs, int nl, int c, int maxlibs,
                         int *cand, int *score, int n, int base) noexcept nogil:
    """Add the liberties of c's strings (other than the one at t, with at most maxlibs
    liberties) that touch the liberties libs[0:nl]: the strings the target would join, or the
    attacker's walls around it; score base minus their liberty count.  Returns the new count."""
    cdef int k, i, j, q, h, cnt
    cdef int nl2[4]
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    for i in range(nl):
        for k in range(4):
            q = libs[i] + d[k]
            if b.color[q] != c:
                continue
            h = b.head[q]
            if h == b.head[t] or b.libs[h] > maxlibs:
                continue
            cnt = board_liberties(b, h, nl2, 4)
            for j in range(cnt):
                n = _add(cand, score, n, nl2[j], base - 10 * cnt)
    return n

cdef int _attack_moves(capture_ctx_t *ctx, int depth, int *cand, int *score) noexcept nogil:
    """Attacker candidates against the target (see the module docstring), best first; returns
    how many."""
    cdef board_t *b = ctx.b
    cdef int libs[8]
    cdef int adj[MAX_ADJ]
    cdef int alibs[2]
    cdef int n = 0, nl, na, i, k, j, m, q, lib, cnt
    cdef int a = ctx.attacker, dfd = ctx.defender
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    nl = board_liberties(b, ctx.target, libs, 8)
    for i in range(nl):
        m = libs[i]
        # block where the defender would gain most, then where the attacker stays strongest
        n = _add(cand, score, n, m, 1000 + 20 * board_approx_liberties(b, m, dfd, 6) + board_approx_liberties(b, m, a, 4))
    # save the attacker's own strings in atari around the target
    na = board_adjacent_strings(b, ctx.target, a, adj)
    for j in range(na):
        if b.libs[adj[j]] == 1:
            board_liberties(b, adj[j], &lib, 1)
            n = _add(cand, score, n, lib, 1500 + b.nstones[adj[j]])
            n = _capturing_moves(b, adj[j], dfd, cand, score, n, 1600)
        elif b.libs[adj[j]] <= nl + 1:
            # a weak attacker string in a race with the target: gain liberties by capturing,
            # or (two liberties) by extending / connecting
            n = _capturing_moves(b, adj[j], dfd, cand, score, n, 1400)
            if b.libs[adj[j]] == 2:
                cnt = board_liberties(b, adj[j], alibs, 2)
                for k in range(cnt):
                    n = _add(cand, score, n, alibs[k], 1300 + 10 * board_approx_liberties(b, alibs[k], a, 4))
    # nets and approach moves: empty neighbours of the liberties (near the root, or nets)
    if nl >= 2 and (depth < ctx.p.approach_depth or nl == 2):
        for i in range(nl):
            for k in range(4):
                q = libs[i] + d[k]
                if b.color[q] == EMPTY:
                    n = _add(cand, score, n, q, 500 + 10 * board_approx_liberties(b, q, a, 4)
                             - board_approx_liberties(b, q, dfd, 4))
        # the defender strings the target could join through a liberty
        if nl == 2:
            n = _neighbour_libs(b, ctx.target, libs, nl, dfd, 3, cand, score, n, 300)
    _sort(cand, score, n)
    return n

cdef int _defend_moves(capture_ctx_t *ctx, int depth, int *cand, int *score) noexcept nogil:
    """Defender candidates for the target (see the module docstring), best first; returns how
    many."""
    cdef board_t *b = ctx.b
    cdef int libs[8]
    cdef int alibs[3]
    cdef int adj[MAX_ADJ]
    cdef int n = 0, nl, na, i, j, k, m, q, h, own
    cdef int dfd = ctx.defender
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    nl = board_liberties(b, ctx.target, libs, 8)
    na = board_adjacent_strings(b, ctx.target, ctx.attacker, adj)
    for j in range(na):
        h = adj[j]
        if b.libs[h] == 1:
            board_liberties(b, h, alibs, 1)
            n = _add(cand, score, n, alibs[0], 3000 + b.nstones[h])
        elif b.libs[h] == 2 and nl <= 3:
            board_liberties(b, h, alibs, 2)
            for i in range(2):
                n = _add(cand, score, n, alibs[i], 200 + 10 * board_approx_liberties(b, alibs[i], dfd, 5))
        elif b.libs[h] == 3 and nl <= 3 and b.nstones[h] >= 2 and depth < ctx.p.approach_depth:
            # a racing attacker string (two stones or more) with three liberties: shorten it
            board_liberties(b, h, alibs, 3)
            for i in range(3):
                n = _add(cand, score, n, alibs[i], 120 + 10 * board_approx_liberties(b, alibs[i], dfd, 5))
    for i in range(nl):
        m = libs[i]
        n = _add(cand, score, n, m, 1000 + 10 * board_approx_liberties(b, m, dfd, 6))
    if nl >= 2:
        for i in range(nl):
            for k in range(4):
                q = libs[i] + d[k]
                if b.color[q] == EMPTY:
                    own = board_approx_liberties(b, q, dfd, 4)
                    if own >= 3 and depth < ctx.p.approach_depth:
                        n = _add(cand, score, n, q, 100 + own)
        # strengthen the friendly strings the target would join through a liberty
        n = _neighbour_libs(b, ctx.target, libs, nl, dfd, 3, cand, score, n, 150)
    _sort(cand, score, n)
    return n

# ------------------------------------------------------------------------------ the search

cdef int _try(capture_ctx_t *ctx, int m, int c, bint *lifted) except -1 nogil:
    """Play m for c if legal, or, once per line, past the ko ban (*lifted set).  Returns 1 if
    played, 0 if not (board unchanged)."""
    cdef board_t *b = ctx.b
    cdef int ko, ko_color
    lifted[0] = False
    if board_is_legal(b, m, c):
        board_play_unchecked(b, m, c)
        return 1
    if m != b.ko or c != b.ko_color or ctx.ko_lifted:
        return 0
    ko = b.ko
    ko_color = b.ko_color
    b.ko = NO_POINT                     # not journaled: the undo of m restores NO_POINT,
    b.ko_color = EMPTY                  # and _untry restores the ban
    if not board_is_legal(b, m, c):
        b.ko = ko
        b.ko_color = ko_color
        return 0
    board_play_unchecked(b, m, c)
    b.moves[b.n_moves - 1].ko_before = ko
    b.moves[b.n_moves - 1].ko_color_before = ko_color
    lifted[0] = True
    ctx.ko_lifted = True
    return 1

cdef inline void _untry(capture_ctx_t *ctx, bint lifted) noexcept nogil:
    """Undo a move made by _try (the move record restores any lifted ko ban)."""
    board_undo(ctx.b)
    if lifted:
        ctx.ko_lifted = False

cdef inline int _cap(int v, bint ko_capture, bint lifted) noexcept nogil:
    """A move's value for its mover, limited by the kos it relies on."""
    if ko_capture and v > V_KO_A:
        v = V_KO_A
    if lifted and v > V_KO_B:
        v = V_KO_B
    return v

cdef inline uint64_t _key(capture_ctx_t *ctx, int kind) noexcept nogil:
    """Transposition key of the current node: stones, kind (0 attack node, 1 defend node, 2 the
    ladder leaf's answer), the ko ban and whether a ko ban was lifted on this line."""
    cdef board_t *b = ctx.b
    cdef uint64_t k = b.hash ^ (<uint64_t>(b.ko * 2 + kind + 1) * 0x9E3779B97F4A7C15ULL)
    if ctx.ko_lifted:
        k ^= 0xD6E8FEB86659FD93ULL
    return k

cdef inline bint _tt_probe(capture_ctx_t *ctx, uint64_t key, int depth, int *value, int *move) noexcept nogil:
    """A stored result for this node searched at this depth or shallower (deeper or equal
    search); True and value/move set if found."""
    cdef capture_tt_entry_t *e
    if ctx.tt == NULL:
        return False
    e = &ctx.tt.entries[key & (CAPTURE_TT_SIZE - 1)]
    if e.stamp != ctx.tt.stamp or e.key != key or e.depth > depth:
        return False
    value[0] = e.value
    if move != NULL:
        move[0] = e.move
    return True

cdef inline void _tt_store(capture_ctx_t *ctx, uint64_t key, int depth, int value, int move) noexcept nogil:
    """Remember a finished node's value (not called for aborted searches)."""
    cdef capture_tt_entry_t *e
    if ctx.tt == NULL:
        return
    e = &ctx.tt.entries[key & (CAPTURE_TT_SIZE - 1)]
    e.key = key
    e.stamp = ctx.tt.stamp
    e.depth = depth
    e.value = value
    e.move = move

cdef int _attack(capture_ctx_t *ctx, int depth, int *move) except -1 nogil:
    """Attacker to move: the attacker's value (V_LOSE..V_WIN); *move (if not NULL) gets the best
    move, NO_POINT when none works."""
    cdef board_t *b = ctx.b
    cdef int cand[MAX_CANDS]
    cdef int score[MAX_CANDS]
    cdef uint64_t key
    cdef int n, nl, i, m, v, r, lm = NO_POINT, lnodes, best = V_LOSE, bestmove = NO_POINT
    cdef int a = ctx.attacker
    cdef bint lifted, ko
    cdef ladder_params_t lp
    if move != NULL:
        move[0] = NO_POINT
    if b.color[ctx.target] != ctx.defender:
        return V_WIN
    nl = b.libs[b.head[ctx.target]]
    if nl == 1:
        board_liberties(b, ctx.target, &m, 1)
        if move != NULL:
            move[0] = m
        if board_is_legal(b, m, a):
            if b.nstones[b.head[ctx.target]] > 1:
                return V_WIN
            board_play_unchecked(b, m, a)       # a single stone: is taking it a ko capture?
            ko = b.ko != NO_POINT
            board_undo(b)
            return V_KO_A if ko else V_WIN
        return V_KO_B if not ctx.ko_lifted else V_LOSE
    if depth >= ctx.p.max_depth:
        ctx.aborted = True
        return V_LOSE
    if nl == 2:
        key = _key(ctx, 2)
        if not _tt_probe(ctx, key, 0, &r, &lm):
            lp.max_depth = 100
            lp.max_nodes = ctx.p.ladder_nodes
            r = ladder_capture_c(b, ctx.target, &lp, &lm, &lnodes)
            ctx.nodes += lnodes
            _tt_store(ctx, key, 0, r, lm)
        # the ladder reader does not see a final capture in ko: a lone stone it catches is
        # read again by the search below while the depth allows
        if r == LADDER_CAPTURED and (b.nstones[b.head[ctx.target]] > 1 or 2 > _libs_allowed(ctx, depth)):
            if move != NULL:
                move[0] = lm
            return V_WIN
    if nl > _libs_allowed(ctx, depth):
        return V_LOSE
    key = _key(ctx, 0)
    if _tt_probe(ctx, key, depth, &v, move):
        return v
    n = _attack_moves(ctx, depth, cand, score)
    if depth >= ctx.p.narrow_depth and n > ctx.p.narrow_attack:
        n = ctx.p.narrow_attack
    for i in range(n):
        m = cand[i]
        if not _spend(ctx):
            return V_LOSE
        if not _try(ctx, m, a, &lifted):
            ctx.nodes -= 1
            continue
        ko = b.ko != NO_POINT
        if b.color[ctx.target] != ctx.defender:
            v = V_WIN
        elif b.libs[b.head[m]] == 1 and not _on_target(b, ctx.target, m):
            v = V_LOSE                        # a self-atari away from the string: not considered
        else:
            v = 3 - _defend(ctx, depth + 1, NULL)
        _untry(ctx, lifted)
        if ctx.aborted:
            return V_LOSE
        v = _cap(v, ko, lifted)
        if v > best:
            best = v
            bestmove = m
            if v == V_WIN:
                break
    _tt_store(ctx, key, depth, best, bestmove)
    if move != NULL:
        move[0] = bestmove
    return best

cdef inline bint _on_target(board_t *b, int t, int m) noexcept nogil:
    """The stone at m touches the string at t."""
    cdef int h = b.head[t]
    return b.head[m - 1] == h or b.head[m + 1] == h or b.head[m - b.W] == h or b.head[m + b.W] == h

cdef int _defend(capture_ctx_t *ctx, int depth, int *move) except -1 nogil:
    """Defender to move: the defender's value (V_LOSE..V_WIN); *move (if not NULL) gets the best
    move, NO_POINT when none works."""
    cdef board_t *b = ctx.b
    cdef int cand[MAX_CANDS]
    cdef int score[MAX_CANDS]
    cdef uint64_t key
    cdef int n, i, m, v, best = V_LOSE, bestmove = NO_POINT
    cdef bint lifted, ko
    if move != NULL:
        move[0] = NO_POINT
    if b.color[ctx.target] != ctx.defender:
        return V_LOSE
    if depth >= ctx.p.max_depth:
        ctx.aborted = True
        return V_LOSE
    if b.libs[b.head[ctx.target]] > _libs_allowed(ctx, depth + 1) and b.libs[b.head[ctx.target]] > 2:
        return V_WIN                    # safe even if the defender tenukis (2 libs: the ladder decides)
    key = _key(ctx, 1)
    if _tt_probe(ctx, key, depth, &v, move):
        return v
    n = _defend_moves(ctx, depth, cand, score)
    if depth >= ctx.p.narrow_depth and n > ctx.p.narrow_defend:
        n = ctx.p.narrow_defend
    for i in range(n):
        m = cand[i]
        if not _spend(ctx):
            return V_LOSE
        if not _try(ctx, m, ctx.defender, &lifted):
            ctx.nodes -= 1
            continue
        ko = b.ko != NO_POINT
        v = 3 - _attack(ctx, depth + 1, NULL)
        _untry(ctx, lifted)
        if ctx.aborted:
            return V_LOSE
        v = _cap(v, ko, lifted)
        if v > best:
            best = v
            bestmove = m
            if v == V_WIN:
                break
    if best < V_WIN:
        # every move fails: is the string safe as it stands (the attacker moving twice)?
        if not _spend(ctx):
            return V_LOSE
        v = 3 - _attack(ctx, depth + 1, NULL)
        if ctx.aborted:
            return V_LOSE
        if v > best:
            best = v
            bestmove = PASS
    _tt_store(ctx, key, depth, best, bestmove)
    if move != NULL:
        move[0] = bestmove
    return best

# ------------------------------------------------------------------------------ queries

cdef inline void _ctx_init(capture_ctx_t *ctx, board_t *b, int s, const capture_params_t *p,
                           capture_tt_t *tt) noexcept nogil:
    """A fresh query context for the string at s (a new stamp in the table)."""
    ctx.tt = tt
    if tt != NULL:
        tt.stamp += 1
    ctx.b = b
    ctx.target = s
    ctx.defender = b.color[s]
    ctx.attacker = opponent(b.color[s])
    ctx.nodes = 0
    ctx.aborted = False
    ctx.ko_lifted = False
    ctx.p = p[0]

cdef inline int _gtp_code(int v) noexcept nogil:
    """A mover's value as GNU Go's GTP code."""
    if v == V_WIN:
        return CAPTURE_WIN
    if v == V_KO_A:
        return CAPTURE_KO_A
    if v == V_KO_B:
        return CAPTURE_KO_B
    return CAPTURE_FAIL

cdef int capture_attack_c(board_t *b, int s, const capture_params_t *p, capture_tt_t *tt,
                          int *move, int *nodes) except -1 nogil:
    """Attacker to move: can the string at s be captured?  (See capture.pxd.)"""
    cdef capture_ctx_t ctx
    cdef int v
    move[0] = NO_POINT
    nodes[0] = 0
    if b.color[s] != BLACK and b.color[s] != WHITE:
        return CAPTURE_FAIL
    _ctx_init(&ctx, b, s, p, tt)
    if b.libs[b.head[s]] > p.max_libs:
        return CAPTURE_FAIL
    v = _attack(&ctx, 0, move)
    nodes[0] = ctx.nodes
    if ctx.aborted:
        move[0] = NO_POINT
        return CAPTURE_UNKNOWN
    if v == V_LOSE:
        move[0] = NO_POINT
    return _gtp_code(v)

cdef int capture_defend_c(board_t *b, int s, const capture_params_t *p, capture_tt_t *tt,
                          int *move, int *nodes) except -1 nogil:
    """Owner to move: can the string at s be saved?  (See capture.pxd.)"""
    cdef capture_ctx_t ctx
    cdef int v
    move[0] = PASS
    nodes[0] = 0
    if b.color[s] != BLACK and b.color[s] != WHITE:
        return CAPTURE_WIN
    if b.libs[b.head[s]] > p.max_libs:
        return CAPTURE_WIN
    _ctx_init(&ctx, b, s, p, tt)
    v = _defend(&ctx, 0, move)
    nodes[0] = ctx.nodes
    if ctx.aborted:
        move[0] = NO_POINT
        return CAPTURE_UNKNOWN
    if v == V_LOSE:
        move[0] = NO_POINT
    return _gtp_code(v)

# ------------------------------------------------------------------------------ Python API

FAIL = int(CAPTURE_FAIL)
WIN = int(CAPTURE_WIN)
KO_A = int(CAPTURE_KO_A)
KO_B = int(CAPTURE_KO_B)
UNKNOWN = int(CAPTURE_UNKNOWN)
RESULT_NAMES = {FAIL: "fail", WIN: "win", KO_A: "ko_a", KO_B: "ko_b", UNKNOWN: "unknown"}

# the Python API's transposition table: shared, so the Python API keeps the GIL while it searches
# (C callers bring their own table per thread)
cdef capture_tt_t *_TT = <capture_tt_t *>calloc(1, sizeof(capture_tt_t))
if _TT == NULL:
    raise MemoryError("capture transposition table")


cdef capture_params_t _params(dict limits) except *:
    """The defaults overridden by keyword limits (Python side, GIL held); TypeError on an
    unknown name."""
    cdef capture_params_t p
    capture_default_params(&p)
    cdef dict fields = p                         # Cython converts the struct to a dict and back
    for k in limits:
        if k not in fields:
            raise TypeError(f"unknown capture limit {k!r}")
    fields.update(limits)
    p = fields
    return p


def capture_attack(Board board, vertex, bint tt=True, **limits):
    """(result, move, nodes): can the string at vertex be captured, its opponent moving first?
    result: FAIL, WIN, KO_A, KO_B (GNU Go's GTP codes 0-3) or UNKNOWN; move a flat index or None."""
    cdef int s = board._stone(vertex), m = NO_POINT, nodes = 0, r
    cdef capture_params_t p = _params(limits)
    r = capture_attack_c(&board.b, s, &p, _TT if tt else NULL, &m, &nodes)   # GIL held: _TT is shared
    return r, board._flat(m), nodes


def capture_defend(Board board, vertex, bint tt=True, **limits):
    """(result, move, nodes): can the string at vertex be saved, its owner moving first?
    (WIN, None, 0) for a string with more than max_libs liberties (GNU Go answers `1 PASS`)."""
    cdef int s = board._stone(vertex), m = PASS, nodes = 0, r
    cdef capture_params_t p = _params(limits)
    r = capture_defend_c(&board.b, s, &p, _TT if tt else NULL, &m, &nodes)   # GIL held: _TT is shared
    return r, board._flat(m), nodes
