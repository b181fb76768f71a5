"""Ladders: the Golois paper's capture/escape search, and per-move ladder facts for the whole board.

The search (Algorithms 1 and 2 of Cazenave, "Combining tactical search and deep learning in the
game of Go"): `_attack` is captureLadder (attacker to move, the string has two liberties: try
each liberty), `_defend` is isCapturedLadder (the string is in atari, defender to move: extend on
the last liberty or capture an adjacent string in atari).  After a defender move, three or more
liberties = saved, two = recurse, one = captured.  Like GNU Go's `simple_ladder`, the attacker
skips a liberty when the defender extending on the other one would reach four liberties (that
liberty must be blocked).  Results (LadderResult): ESCAPED, CAPTURED, KO, UNKNOWN.

Ko: a ladder move that captures a stone into a ko turns a win for its side into LADDER_KO (the
answer then depends on ko threats), as does a capture the ko ban forbids at the end; at the root,
when the board's ko ban changes the answer (the query is run with and without it) the result is
LADDER_KO.  Limits: `ladder_params_t` (depth 100 plies, 1000 moves played per query by default);
hitting either makes the whole query LADDER_UNKNOWN, never a guess.

Python API (names are stable: the input planes and the policy's logit adjustments use them):

- `ladder_capture(board, vertex, max_depth=100, max_nodes=1000) -> (result, move, sequence)`:
  the string's opponent moves first; move = capturing (or ko) move as a flat index or None;
  sequence = the main line, flat indices, attacker first.
- `ladder_escape(board, vertex, ...) -> (result, move, sequence)`: the string's owner moves first;
  ESCAPED with the saving move (None when the string is in no ladder danger), CAPTURED when
  nothing saves it.
- `ladder_facts(board, max_depth=100, max_nodes=1000) -> dict[str, np.ndarray]`: int32 arrays of
  shape (size, size), indexed [row, col] (row 0 at the top), for the side to move C:
    * ``captures[m]``: stones of opponent two-liberty strings that C's move m ataris and that
      then cannot escape the ladder (a working ladder-capture move; plain captures of strings
      already in atari are not counted);
    * ``saves[m]``: stones of C's strings in ladder danger (in atari, or two liberties and
      capturable by ladder) that m saves: m extends, or captures an adjacent string in atari,
      and leaves three liberties or a two-liberty string the ladder does not catch;
    * ``pushes[m]``: stones of the string m forms by extending C's string(s) when that string
      is still captured by ladder afterwards (one liberty, or two and the ladder works): pushing
      through a lost ladder, the move the paper's figure 3 warns about;
    * ``capturable[p]``: on every stone, of either colour, whose string the opponent, moving
      first, captures by ladder (atari or two liberties): the string's stone count; 0 elsewhere.
  KO and UNKNOWN answers count as "no" in all four.  Illegal moves get 0.
- Results as Python ints: ESCAPED, CAPTURED, KO, UNKNOWN; `RESULT_NAMES` maps them to words.

Start reading at `_attack` and `_defend`, then `ladder_facts_c` (the whole-board facts).
"""

cimport cython
from tactics.board cimport (Board, board_t, board_is_legal, board_play_unchecked, board_undo,
                            opponent, board_point, board_row, board_col, EMPTY, BLACK, WHITE, PASS,
                            NO_POINT, MAX_POINTS)
from tactics.strings cimport board_approx_liberties, board_liberties, board_string_stones

import numpy as np

DEF MAX_CANDS = 64

# ------------------------------------------------------------------------------ helpers

cdef void ladder_default_params(ladder_params_t *p) noexcept nogil:
    """Depth limit 100 plies, budget 1000 moves played."""
    p.max_depth = 100
    p.max_nodes = 1000

cdef int _rescue_moves(board_t *b, int s, int *out) noexcept nogil:
    """Liberties of the attacker strings in atari adjacent to the string at s (the defender's
    capturing escapes), deduplicated, into out (room for MAX_CANDS); returns how many."""
    cdef int h = b.head[s], x = h, k, q, lib, i, n = 0
    cdef int a = opponent(b.color[s])
    cdef bint dup
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    while True:
        for k in range(4):
            q = x + d[k]
            if b.color[q] == a and b.libs[b.head[q]] == 1:
                board_liberties(b, q, &lib, 1)
                dup = False
                for i in range(n):
                    if out[i] == lib:
                        dup = True
                        break
                if not dup and n < MAX_CANDS:
                    out[n] = lib
                    n += 1
        x = b.next[x]
        if x == h:
            return n

cdef inline int _nlibs(board_t *b, int s) noexcept nogil:
    """Liberty count of the string at s."""
    return b.libs[b.head[s]]

cdef inline bint _spend(ladder_ctx_t *ctx) noexcept nogil:
    """Count one move played; False (and the query aborted) when the budget is gone."""
    ctx.nodes += 1
    if ctx.nodes > ctx.max_nodes:
        ctx.aborted = True
        return False
    return True

# ------------------------------------------------------------------------------ the search

cdef int _attack(ladder_ctx_t *ctx, int depth, int *move) except -1 nogil:
    """captureLadder: attacker to move, the target has exactly two liberties.  Returns a
    LadderResult; *move (if not NULL) gets the capturing move (or the ko move)."""
    cdef board_t *b = ctx.b
    cdef int libs[2]
    cdef int cand[2]
    cdef int n = 0, i, m, r, l0, l1, best = LADDER_ESCAPED, bestmove = NO_POINT
    cdef int a = opponent(ctx.defender)
    cdef bint ko
    if depth > ctx.max_depth:
        ctx.aborted = True
        return LADDER_UNKNOWN
    board_liberties(b, ctx.target, libs, 2)
    # block the liberty whose extension gives four liberties; else first the one leaving the
    # defender fewer liberties on the other
    l0 = board_approx_liberties(b, libs[0], ctx.defender, 4)
    l1 = board_approx_liberties(b, libs[1], ctx.defender, 4)
    if l0 <= 3:
        cand[n] = libs[1]
        n += 1
    if l1 <= 3:
        cand[n] = libs[0]
        n += 1
    if n == 2 and l1 < l0:
        cand[0] = libs[0]
        cand[1] = libs[1]
    for i in range(n):
        m = cand[i]
        if not board_is_legal(b, m, a):
            continue
        if not _spend(ctx):
            return LADDER_UNKNOWN
        board_play_unchecked(b, m, a)
        ko = b.ko != NO_POINT
        r = _defend(ctx, depth + 1, NULL)
        board_undo(b)
        if r == LADDER_UNKNOWN:
            return r
        if ko and r == LADDER_CAPTURED:
            r = LADDER_KO
        if r == LADDER_CAPTURED:
            if move != NULL:
                move[0] = m
            return r
        if r == LADDER_KO and best == LADDER_ESCAPED:
            best = r
            bestmove = m
    if move != NULL:
        move[0] = bestmove
    return best

cdef int _after_defence(ladder_ctx_t *ctx, int depth) except -1 nogil:
    """The target after a defender move, attacker to move: 3+ liberties ESCAPED, 2 read on,
    1 CAPTURED (LADDER_KO when the ko ban forbids taking it)."""
    cdef int n = _nlibs(ctx.b, ctx.target), lib
    if n >= 3:
        return LADDER_ESCAPED
    if n == 2:
        return _attack(ctx, depth, NULL)
    board_liberties(ctx.b, ctx.target, &lib, 1)
    if board_is_legal(ctx.b, lib, opponent(ctx.defender)):
        return LADDER_CAPTURED
    return LADDER_KO

cdef int _defend_from(ladder_ctx_t *ctx, int depth, int *cand, int n, int *move) except -1 nogil:
    """Defender to move: try the candidate moves; ESCAPED as soon as one saves the target.
    *move gets the saving move, the ko move, or (when all fail) the first legal candidate."""
    cdef board_t *b = ctx.b
    cdef int i, m, r, best = LADDER_CAPTURED, bestmove = NO_POINT
    cdef bint ko
    for i in range(n):
        m = cand[i]
        if not board_is_legal(b, m, ctx.defender):
            continue
        if bestmove == NO_POINT:
            bestmove = m
        if not _spend(ctx):
            return LADDER_UNKNOWN
        board_play_unchecked(b, m, ctx.defender)
        ko = b.ko != NO_POINT
        r = _after_defence(ctx, depth + 1)
        board_undo(b)
        if r == LADDER_UNKNOWN:
            return r
        if ko and r == LADDER_ESCAPED:
            r = LADDER_KO
        if r == LADDER_ESCAPED:
            if move != NULL:
                move[0] = m
            return r
        if r == LADDER_KO and best == LADDER_CAPTURED:
            best = r
            bestmove = m
    if move != NULL:
        move[0] = bestmove
    return best

cdef int _defend(ladder_ctx_t *ctx, int depth, int *move) except -1 nogil:
    """isCapturedLadder: the target is in atari, defender to move: extend on the liberty or
    capture an adjacent string in atari.  Returns a LadderResult (CAPTURED: no escape)."""
    cdef int cand[MAX_CANDS + 1]
    cdef int n
    if depth > ctx.max_depth:
        ctx.aborted = True
        return LADDER_UNKNOWN
    board_liberties(ctx.b, ctx.target, cand, 1)
    n = 1 + _rescue_moves(ctx.b, ctx.target, cand + 1)
    return _defend_from(ctx, depth, cand, n, move)

cdef int _defend2(ladder_ctx_t *ctx, int depth, int *move) except -1 nogil:
    """The target has two liberties and the attacker's ladder works; defender to move: extend
    on either liberty or capture an adjacent string in atari."""
    cdef int cand[MAX_CANDS + 2]
    cdef int n
    board_liberties(ctx.b, ctx.target, cand, 2)
    n = 2 + _rescue_moves(ctx.b, ctx.target, cand + 2)
    return _defend_from(ctx, depth, cand, n, move)

# ------------------------------------------------------------------------------ queries

cdef inline void _ctx_init(ladder_ctx_t *ctx, board_t *b, int s, const ladder_params_t *p) noexcept nogil:
    ctx.b = b
    ctx.target = s
    ctx.defender = b.color[s]
    ctx.nodes = 0
    ctx.max_depth = p.max_depth
    ctx.max_nodes = p.max_nodes
    ctx.aborted = False

cdef int _capture_once(board_t *b, int s, const ladder_params_t *p, int *move, int *nodes) except -1 nogil:
    """ladder_capture under the board's current ko ban."""
    cdef ladder_ctx_t ctx
    cdef int n, r, lib
    move[0] = NO_POINT
    _ctx_init(&ctx, b, s, p)
    n = _nlibs(b, s)
    if n >= 3:
        r = LADDER_ESCAPED
    elif n == 1:
        board_liberties(b, s, &lib, 1)
        move[0] = lib
        r = LADDER_CAPTURED if board_is_legal(b, lib, opponent(ctx.defender)) else LADDER_KO
    else:
        r = _attack(&ctx, 0, move)
    nodes[0] += ctx.nodes
    return LADDER_UNKNOWN if ctx.aborted else r

cdef int ladder_capture_c(board_t *b, int s, const ladder_params_t *p, int *move, int *nodes) except -1 nogil:
    """Attacker to move: is the string at s captured by ladder?  (See ladder.pxd.)"""
    cdef int r, r2, m2, ko = b.ko, ko_color = b.ko_color
    nodes[0] = 0
    if b.color[s] != BLACK and b.color[s] != WHITE:
        move[0] = NO_POINT
        return LADDER_ESCAPED
    r = _capture_once(b, s, p, move, nodes)
    if ko != NO_POINT and ko_color == opponent(b.color[s]) and r != LADDER_UNKNOWN:
        b.ko = NO_POINT                 # not journaled: undo restores it per move, we restore it here
        b.ko_color = EMPTY
        r2 = _capture_once(b, s, p, &m2, nodes)
        b.ko = ko
        b.ko_color = ko_color
        if r2 == LADDER_UNKNOWN:
            return r2
        if r2 != r:
            if r2 == LADDER_CAPTURED:
                move[0] = m2
            return LADDER_KO
    return r

cdef int _escape_once(board_t *b, int s, const ladder_params_t *p, int *move, int *nodes) except -1 nogil:
    """ladder_escape under the board's current ko ban."""
    cdef ladder_ctx_t ctx
    cdef int n, r, m
    move[0] = PASS
    _ctx_init(&ctx, b, s, p)
    n = _nlibs(b, s)
    if n >= 3:
        r = LADDER_ESCAPED
    elif n == 1:
        r = _defend(&ctx, 0, move)
    else:
        r = _attack(&ctx, 0, &m)
        if not ctx.aborted:
            if r == LADDER_ESCAPED:
                move[0] = PASS
            else:
                r = _defend2(&ctx, 0, move)
    nodes[0] += ctx.nodes
    return LADDER_UNKNOWN if ctx.aborted else r

cdef int ladder_escape_c(board_t *b, int s, const ladder_params_t *p, int *move, int *nodes) except -1 nogil:
    """Owner of the string at s to move: can it escape the ladder?  (See ladder.pxd.)"""
    cdef int r, r2, m2, ko = b.ko, ko_color = b.ko_color
    nodes[0] = 0
    if b.color[s] != BLACK and b.color[s] != WHITE:
        move[0] = PASS
        return LADDER_ESCAPED
    r = _escape_once(b, s, p, move, nodes)
    if ko != NO_POINT and ko_color == b.color[s] and r != LADDER_UNKNOWN:
        b.ko = NO_POINT
        b.ko_color = EMPTY
        r2 = _escape_once(b, s, p, &m2, nodes)
        b.ko = ko
        b.ko_color = ko_color
        if r2 == LADDER_UNKNOWN:
            return r2
        if r2 != r:
            if r2 == LADDER_ESCAPED:
                move[0] = m2
            return LADDER_KO
    return r

# ------------------------------------------------------------------------------ whole-board facts

cdef int _read_after(board_t *b, int t, const ladder_params_t *p, int first) except -1 nogil:
    """The string at t after a move, `first` ('attack' = 1 / 'defend' = 0) to move; returns
    LADDER_CAPTURED / ESCAPED / KO / UNKNOWN as seen by the attacker."""
    cdef ladder_ctx_t ctx
    cdef int r
    _ctx_init(&ctx, b, t, p)
    if first:
        r = _after_defence(&ctx, 1)
    else:
        r = _defend(&ctx, 1, NULL)
    return LADDER_UNKNOWN if ctx.aborted else r

cdef int ladder_facts_c(board_t *b, const ladder_params_t *p, int *captures, int *saves,
                        int *pushes, int *capturable) except -1 nogil:
    """The four per-point facts of the module docstring, for b.to_move (arrays of MAX_POINTS)."""
    cdef int C = b.to_move, O = opponent(C)
    cdef int row, col, q, n, r, rr, m, i, k, ns, nodes, ncand, colour
    cdef int cand[MAX_CANDS + 2]
    cdef int stones[MAX_POINTS]
    cdef int d[4]
    cdef bint ko, own
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    for q in range(b.W * b.W):
        captures[q] = 0
        saves[q] = 0
        pushes[q] = 0
        capturable[q] = 0
    for row in range(b.size):
        for col in range(b.size):
            q = board_point(b, row, col)
            colour = b.color[q]
            if (colour != BLACK and colour != WHITE) or b.head[q] != q:
                continue
            n = b.libs[q]
            if n > 2:
                continue
            ns = b.nstones[q]
            r = ladder_capture_c(b, q, p, &m, &nodes)
            if r == LADDER_CAPTURED:
                k = board_string_stones(b, q, stones)
                for i in range(k):
                    capturable[stones[i]] = ns
            if colour == O and n == 2:
                board_liberties(b, q, cand, 2)
                for i in range(2):
                    m = cand[i]
                    if not board_is_legal(b, m, C):
                        continue
                    board_play_unchecked(b, m, C)
                    ko = b.ko != NO_POINT
                    rr = _read_after(b, q, p, 0)
                    board_undo(b)
                    if rr == LADDER_CAPTURED and not ko:
                        captures[m] += ns
            elif colour == C and (n == 1 or r == LADDER_CAPTURED):
                ncand = board_liberties(b, q, cand, n)
                ncand += _rescue_moves(b, q, cand + ncand)
                for i in range(ncand):
                    m = cand[i]
                    if not board_is_legal(b, m, C):
                        continue
                    board_play_unchecked(b, m, C)
                    ko = b.ko != NO_POINT
                    rr = _read_after(b, q, p, 1)
                    board_undo(b)
                    if rr == LADDER_ESCAPED and not ko:
                        saves[m] += ns
    # pushes: every legal move of C that extends C's strings into a string the ladder catches
    for i in range(b.n_empty):
        m = b.empty[i]
        own = False
        for k in range(4):
            if b.color[m + d[k]] == C:
                own = True
        if not own or board_approx_liberties(b, m, C, 3) >= 3 or not board_is_legal(b, m, C):
            continue
        board_play_unchecked(b, m, C)
        if b.nstones[b.head[m]] > 1 and b.libs[b.head[m]] <= 2:
            rr = _read_after(b, m, p, 1)
            if rr == LADDER_CAPTURED:
                pushes[m] = b.nstones[b.head[m]]
        board_undo(b)
    return 0

# ------------------------------------------------------------------------------ Python API

ESCAPED = int(LADDER_ESCAPED)
CAPTURED = int(LADDER_CAPTURED)
KO = int(LADDER_KO)
UNKNOWN = int(LADDER_UNKNOWN)
RESULT_NAMES = {ESCAPED: "escaped", CAPTURED: "captured", KO: "ko", UNKNOWN: "unknown"}
FACT_NAMES = ("captures", "saves", "pushes", "capturable")


cdef ladder_params_t _params(int max_depth, int max_nodes):
    cdef ladder_params_t p
    p.max_depth = max_depth
    p.max_nodes = max_nodes
    return p


cdef list _main_line(Board board, int s, bint attacker_first, ladder_params_t *p):
    """The principal variation on a copy: attacker and defender best moves, alternating."""
    cdef Board work = board.copy()
    cdef board_t *b = &work.b
    cdef ladder_ctx_t ctx
    cdef int defender = b.color[s], a = opponent(defender), n, m, step, r
    cdef bint attacker = attacker_first
    seq = []
    for step in range(2 * p.max_depth + 2):
        n = b.libs[b.head[s]]
        if n >= 3:
            break
        _ctx_init(&ctx, b, s, p)
        m = NO_POINT
        if attacker:
            if n == 1:
                board_liberties(b, s, &m, 1)
                if board_is_legal(b, m, a):
                    seq.append(work._flat(m))
                break
            r = _attack(&ctx, 0, &m)
        else:
            if n == 1:
                r = _defend(&ctx, 0, &m)
            else:
                r = _attack(&ctx, 0, &m)
                if r == LADDER_ESCAPED:
                    break
                _ctx_init(&ctx, b, s, p)
                m = NO_POINT
                r = _defend2(&ctx, 0, &m)
        if ctx.aborted or m == NO_POINT or m == PASS or not board_is_legal(b, m, a if attacker else defender):
            break
        board_play_unchecked(b, m, a if attacker else defender)
        seq.append(work._flat(m))
        attacker = not attacker
    return seq


def ladder_capture(Board board, vertex, int max_depth=100, int max_nodes=1000, bint sequence=True):
    """(result, move, sequence): can the string at vertex be captured by ladder, its opponent
    moving first?  result is CAPTURED, ESCAPED, KO or UNKNOWN; move a flat index or None."""
    cdef int s = board._stone(vertex), m = NO_POINT, nodes = 0, r
    cdef ladder_params_t p = _params(max_depth, max_nodes)
    with nogil:
        r = ladder_capture_c(&board.b, s, &p, &m, &nodes)
    seq = _main_line(board, s, True, &p) if sequence and r != LADDER_ESCAPED else []
    return r, board._flat(m), seq


def ladder_escape(Board board, vertex, int max_depth=100, int max_nodes=1000, bint sequence=True):
    """(result, move, sequence): can the string at vertex escape, its owner moving first?
    ESCAPED with the saving move (None: not in ladder danger), CAPTURED, KO or UNKNOWN."""
    cdef int s = board._stone(vertex), m = PASS, nodes = 0, r
    cdef ladder_params_t p = _params(max_depth, max_nodes)
    with nogil:
        r = ladder_escape_c(&board.b, s, &p, &m, &nodes)
    seq = _main_line(board, s, False, &p) if sequence and m != PASS else []
    return r, board._flat(m), seq


def ladder_nodes(Board board, vertex, int max_depth=100, int max_nodes=1000):
    """Moves the capture query at vertex plays (for budget tests and benchmarks)."""
    cdef int s = board._stone(vertex), m = NO_POINT, nodes = 0
    cdef ladder_params_t p = _params(max_depth, max_nodes)
    with nogil:
        ladder_capture_c(&board.b, s, &p, &m, &nodes)
    return nodes


@cython.boundscheck(False)
def ladder_facts(Board board, int max_depth=100, int max_nodes=1000):
    """dict name -> int32 array (size, size) of the four facts (module docstring), one call."""
    cdef ladder_params_t p = _params(max_depth, max_nodes)
    cdef int buf[4][MAX_POINTS]
    cdef int n = board.b.size, k, row, col, q
    with nogil:
        ladder_facts_c(&board.b, &p, buf[0], buf[1], buf[2], buf[3])
    out = np.zeros((4, n, n), dtype=np.int32)
    cdef int[:, :, ::1] v = out
    for k in range(4):
        for row in range(n):
            for col in range(n):
                q = (row + 1) * board.b.W + col + 1
                v[k, row, col] = buf[k][q]
    return {name: out[k] for k, name in enumerate(FACT_NAMES)}
