"""The Go board in C: strings, liberties, captures, ko, superko, Zobrist hashing, play and undo.

Read board.pxd first (the struct and the contracts).  Here: the journal (`_set`), the move
(`board_play_unchecked`: place, merge, capture, ko), undo, setup (`board_place` rebuilds the
strings), queries (legality, superko, legal moves), and last the Python class `Board`, the thin
API everything in golois uses.  The string queries the searches use (liberties, stones,
adjacent strings, eyes) are in tactics/strings.pyx.
"""

from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy
from libc.stdint cimport uint64_t

import numpy as np

from tactics import coords

from tactics.strings cimport board_eye, board_liberties, board_string_stones

# ------------------------------------------------------------------------------ Zobrist keys

cdef void _init_zobrist() noexcept nogil:
    cdef uint64_t state = 0x9E3779B97F4A7C15ULL
    cdef int c, p
    for c in range(3):
        for p in range(MAX_POINTS):
            zobrist[c][p] = rng_next(&state) if c != EMPTY else 0

cdef uint64_t rng_next(uint64_t *state) noexcept nogil:
    """xorshift64* step; state must be non-zero."""
    cdef uint64_t x = state[0]
    x ^= x >> 12
    x ^= x << 25
    x ^= x >> 27
    state[0] = x
    return x * 0x2545F4914F6CDD1DULL

_init_zobrist()

# ------------------------------------------------------------------------------ the journal

cdef inline void _set(board_t *b, int *field, int value) noexcept nogil:
    """Write value to a journaled int field of b, remembering the old value for undo."""
    cdef journal_t *j = &b.journal[b.journal_len]
    j.offset = <int>(field - <int*>b)
    j.old = field[0]
    b.journal_len += 1
    field[0] = value

cdef int _reserve(board_t *b) except -1 nogil:
    """Make room for one more move record and the journal entries one move can write."""
    cdef int need = b.journal_len + 16 * b.W * b.W + 64
    cdef void *mem
    if need > b.journal_cap:
        mem = realloc(b.journal, 2 * need * sizeof(journal_t))
        if mem == NULL:
            with gil:
                raise MemoryError("board journal")
        b.journal = <journal_t*>mem
        b.journal_cap = 2 * need
    if b.n_moves + 1 > b.moves_cap:
        mem = realloc(b.moves, 2 * (b.moves_cap + 16) * sizeof(move_t))
        if mem == NULL:
            with gil:
                raise MemoryError("board move records")
        b.moves = <move_t*>mem
        b.moves_cap = 2 * (b.moves_cap + 16)
    return 0

cdef move_t *_push_record(board_t *b, int p, int c) noexcept nogil:
    """Open a move record (after _reserve) saving what the journal does not cover."""
    cdef move_t *rec = &b.moves[b.n_moves]
    b.n_moves += 1
    rec.point = p
    rec.color = c
    rec.journal_mark = b.journal_len
    rec.ko_before = b.ko
    rec.ko_color_before = b.ko_color
    rec.to_move_before = b.to_move
    rec.captured = 0
    rec.hash_before = b.hash
    return rec

# ------------------------------------------------------------------------------ life cycle

cdef int board_init(board_t *b, int size) except -1 nogil:
    """Empty board of the given side with fresh history buffers."""
    if size < 2 or size > MAX_SIZE:
        with gil:
            raise ValueError(f"board size must be 2..{MAX_SIZE}, not {size}")
    b.journal = NULL
    b.moves = NULL
    b.journal_cap = 0
    b.moves_cap = 0
    b.size = size
    b.W = size + 2
    return board_clear(b)

cdef void board_free(board_t *b) noexcept nogil:
    """Release history buffers (the struct itself belongs to the caller)."""
    free(b.journal)
    free(b.moves)
    b.journal = NULL
    b.moves = NULL
    b.journal_cap = 0
    b.moves_cap = 0

cdef int board_clear(board_t *b) except -1 nogil:
    """Empty the board of its current size and drop the history."""
    cdef int p, r, c, W = b.W, n = b.size
    for p in range(MAX_POINTS):
        b.color[p] = BORDER
        b.head[p] = NO_POINT
        b.next[p] = NO_POINT
        b.libs[p] = 0
        b.nstones[p] = 0
        b.empty_pos[p] = -1
    b.n_empty = 0
    for r in range(n):
        for c in range(n):
            p = (r + 1) * W + c + 1
            b.color[p] = EMPTY
            b.empty[b.n_empty] = p
            b.empty_pos[p] = b.n_empty
            b.n_empty += 1
    b.prisoners[0] = b.prisoners[1] = b.prisoners[2] = 0
    b.to_move = BLACK
    b.ko = NO_POINT
    b.ko_color = EMPTY
    b.hash = 0
    b.journal_len = 0
    b.n_moves = 0
    return _reserve(b)

cdef int board_copy(board_t *dst, const board_t *src) except -1 nogil:
    """Deep copy of src into dst, history included; dst's old buffers are freed."""
    cdef journal_t *j
    cdef move_t *m
    board_free(dst)
    j = <journal_t*>malloc(src.journal_cap * sizeof(journal_t))
    m = <move_t*>malloc((src.moves_cap if src.moves_cap > 0 else 1) * sizeof(move_t))
    if j == NULL or m == NULL:
        free(j)
        free(m)
        with gil:
            raise MemoryError("board copy")
    memcpy(dst, src, sizeof(board_t))
    memcpy(j, src.journal, src.journal_len * sizeof(journal_t))
    memcpy(m, src.moves, src.n_moves * sizeof(move_t))
    dst.journal = j
    dst.moves = m
    return 0

cdef int board_copy_position(board_t *dst, const board_t *src) except -1 nogil:
    """The position of src into dst (initialised by board_init), without src's history: dst
    keeps its own buffers and drops its records.  One memcpy: what playouts do per rollout."""
    cdef journal_t *j = dst.journal
    cdef move_t *m = dst.moves
    cdef int jcap = dst.journal_cap, mcap = dst.moves_cap
    memcpy(dst, src, sizeof(board_t))
    dst.journal = j
    dst.moves = m
    dst.journal_cap = jcap
    dst.moves_cap = mcap
    dst.journal_len = 0
    dst.n_moves = 0
    return _reserve(dst)

# ------------------------------------------------------------------------------ queries

cdef bint board_is_legal(const board_t *b, int p, int c) noexcept nogil:
    """c may play p now: empty, not the banned ko point, not suicide.  PASS is legal."""
    if p == PASS:
        return True
    if p <= 0 or p >= b.W * b.W or b.color[p] != EMPTY:
        return False
    if p == b.ko and c == b.ko_color:
        return False
    return not board_is_suicide(b, p, c)

cdef bint board_repeats(board_t *b, int p, int c) except -1 nogil:
    """Legal p for c would recreate a position of the history (positional superko)."""
    cdef uint64_t h
    cdef int i
    if p == PASS or not board_is_legal(b, p, c):
        return False
    board_play_unchecked(b, p, c)
    h = b.hash
    board_undo(b)
    if h == b.hash:
        return True
    for i in range(b.n_moves):
        if b.moves[i].hash_before == h:
            return True
    return False

cdef int board_legal_moves(const board_t *b, int c, int *out) noexcept nogil:
    """Every legal point for c (pass excluded) into out; returns the count."""
    cdef int i, p, count = 0
    for i in range(b.n_empty):
        p = b.empty[i]
        if board_is_legal(b, p, c):
            out[count] = p
            count += 1
    return count

# ------------------------------------------------------------------------------ moves

cdef inline void _remove_empty(board_t *b, int p) noexcept nogil:
    cdef int i = b.empty_pos[p], last = b.empty[b.n_empty - 1]
    _set(b, &b.empty[i], last)
    _set(b, &b.empty_pos[last], i)
    _set(b, &b.n_empty, b.n_empty - 1)

cdef inline void _add_empty(board_t *b, int p) noexcept nogil:
    _set(b, &b.empty[b.n_empty], p)
    _set(b, &b.empty_pos[p], b.n_empty)
    _set(b, &b.n_empty, b.n_empty + 1)

cdef int _merge(board_t *b, int a, int c) noexcept nogil:
    """Merge the strings with heads a and c (same colour); returns the surviving head."""
    cdef int big = a, small = c, x, k, kk, e, libs, tmp
    cdef int d[4]
    cdef bint found
    if b.nstones[a] < b.nstones[c]:
        big = c
        small = a
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    libs = b.libs[big]
    x = small
    while True:
        # a liberty of the small string is new unless a stone of big (or of small already
        # relabelled to big) touches it: so each new liberty counts once (Leela Zero's trick)
        for k in range(4):
            e = x + d[k]
            if b.color[e] == EMPTY:
                found = False
                for kk in range(4):
                    if b.head[e + d[kk]] == big:
                        found = True
                        break
                if not found:
                    libs += 1
        _set(b, &b.head[x], big)
        x = b.next[x]
        if x == small:
            break
    tmp = b.next[big]
    _set(b, &b.next[big], b.next[small])
    _set(b, &b.next[small], tmp)
    _set(b, &b.nstones[big], b.nstones[big] + b.nstones[small])
    _set(b, &b.libs[big], libs)
    return big

cdef int _capture(board_t *b, int h) noexcept nogil:
    """Remove the string with head h; its points become liberties of its neighbours."""
    cdef int x = h, nxt, k, n, hn, i, nseen, count = 0
    cdef int c = b.color[h]
    cdef int d[4]
    cdef int seen[4]
    cdef bint dup
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    while True:
        nxt = b.next[x]
        _set(b, &b.color[x], EMPTY)
        _set(b, &b.head[x], NO_POINT)
        _add_empty(b, x)
        b.hash ^= zobrist[c][x]
        nseen = 0
        for k in range(4):
            n = x + d[k]
            if b.color[n] == opponent(c):
                hn = b.head[n]
                dup = False
                for i in range(nseen):
                    if seen[i] == hn:
                        dup = True
                if not dup:
                    seen[nseen] = hn
                    nseen += 1
                    _set(b, &b.libs[hn], b.libs[hn] + 1)
        count += 1
        x = nxt
        if x == h:
            return count

cdef int board_play_unchecked(board_t *b, int p, int c) except -1 nogil:
    """Play p (or PASS) for c, known legal: merge, capture, set ko, switch the side to move."""
    cdef move_t *rec
    cdef int k, n, col, h, i, nseen = 0, captured = 0, last_captured = NO_POINT, me
    cdef int o = opponent(c)
    cdef int d[4]
    cdef int seen[4]
    cdef bint dup
    _reserve(b)
    rec = _push_record(b, p, c)
    b.to_move = o
    b.ko = NO_POINT
    b.ko_color = EMPTY
    if p == PASS:
        return 1
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    _remove_empty(b, p)
    _set(b, &b.color[p], c)
    _set(b, &b.head[p], p)
    _set(b, &b.next[p], p)
    _set(b, &b.nstones[p], 1)
    n = 0
    for k in range(4):
        if b.color[p + d[k]] == EMPTY:
            n += 1
    _set(b, &b.libs[p], n)
    b.hash ^= zobrist[c][p]
    # every distinct neighbouring string loses the liberty p
    for k in range(4):
        n = p + d[k]
        col = b.color[n]
        if col == BLACK or col == WHITE:
            h = b.head[n]
            dup = False
            for i in range(nseen):
                if seen[i] == h:
                    dup = True
            if not dup:
                seen[nseen] = h
                nseen += 1
                _set(b, &b.libs[h], b.libs[h] - 1)
    me = p
    for i in range(nseen):
        if b.color[seen[i]] == c:
            me = _merge(b, me, seen[i])
    for i in range(nseen):
        h = seen[i]
        if b.color[h] == o and b.libs[h] == 0:
            last_captured = h
            captured += _capture(b, h)
    if captured:
        _set(b, &b.prisoners[c], b.prisoners[c] + captured)
        rec.captured = captured
        if captured == 1 and b.nstones[me] == 1 and b.libs[me] == 1:
            b.ko = last_captured
            b.ko_color = o
    return 1

cdef int board_play(board_t *b, int p, int c) except -1 nogil:
    """Play p for c if legal (1), else leave b unchanged (0)."""
    if not board_is_legal(b, p, c):
        return 0
    return board_play_unchecked(b, p, c)

cdef int board_undo(board_t *b) noexcept nogil:
    """Take back the last record (move, pass or setup) exactly; 0 if the history is empty."""
    cdef move_t *rec
    cdef journal_t *j
    cdef int *base = <int*>b
    if b.n_moves == 0:
        return 0
    b.n_moves -= 1
    rec = &b.moves[b.n_moves]
    while b.journal_len > rec.journal_mark:
        b.journal_len -= 1
        j = &b.journal[b.journal_len]
        base[j.offset] = j.old
    b.ko = rec.ko_before
    b.ko_color = rec.ko_color_before
    b.to_move = rec.to_move_before
    b.hash = rec.hash_before
    return 1

cdef void board_forget_history(board_t *b) noexcept nogil:
    """Drop every undo record; the position, side to move and ko stay."""
    b.journal_len = 0
    b.n_moves = 0

# ------------------------------------------------------------------------------ setup

cdef int _rebuild_strings(board_t *b) noexcept nogil:
    """Recompute heads, lists, counts, empties and hash from the colours (journaled);
    returns the number of strings left without liberties."""
    cdef int W = b.W, n = b.size, r, cc, p, x, k, q, top, col, libs, dead = 0
    cdef int stack[MAX_POINTS]
    cdef int mark[MAX_POINTS]
    cdef int d[4]
    cdef uint64_t h = 0
    d[0] = -1; d[1] = 1; d[2] = -W; d[3] = W
    for p in range(W * W):
        mark[p] = 0
        if b.head[p] != NO_POINT:
            _set(b, &b.head[p], NO_POINT)
    # empties, in board order
    x = 0
    for r in range(n):
        for cc in range(n):
            p = (r + 1) * W + cc + 1
            if b.color[p] == EMPTY:
                if b.empty[x] != p:
                    _set(b, &b.empty[x], p)
                if b.empty_pos[p] != x:
                    _set(b, &b.empty_pos[p], x)
                x += 1
            else:
                h ^= zobrist[b.color[p]][p]
    if b.n_empty != x:
        _set(b, &b.n_empty, x)
    b.hash = h
    # strings by flood fill; mark[] = 1 for stones seen, point+2*W*W for liberties counted
    for r in range(n):
        for cc in range(n):
            p = (r + 1) * W + cc + 1
            col = b.color[p]
            if (col != BLACK and col != WHITE) or b.head[p] != NO_POINT:
                continue
            top = 0
            stack[top] = p
            top += 1
            _set(b, &b.head[p], p)
            _set(b, &b.next[p], p)
            _set(b, &b.nstones[p], 1)
            libs = 0
            while top > 0:
                top -= 1
                x = stack[top]
                for k in range(4):
                    q = x + d[k]
                    if b.color[q] == EMPTY and mark[q] != p:
                        mark[q] = p
                        libs += 1
                    elif b.color[q] == col and b.head[q] == NO_POINT:
                        _set(b, &b.head[q], p)
                        _set(b, &b.next[q], b.next[p])
                        _set(b, &b.next[p], q)
                        _set(b, &b.nstones[p], b.nstones[p] + 1)
                        stack[top] = q
                        top += 1
            _set(b, &b.libs[p], libs)
            if libs == 0:
                dead += 1
    return dead

cdef int board_place(board_t *b, int p, int c) except -1 nogil:
    """Setup: put colour c (EMPTY to remove) on p as one undoable record; 0 and no change if
    that would leave some string without liberties."""
    if p <= 0 or p >= b.W * b.W or b.color[p] == BORDER:
        return 0
    _reserve(b)
    _push_record(b, NO_POINT, c)
    b.ko = NO_POINT
    b.ko_color = EMPTY
    if b.color[p] != c:
        _set(b, &b.color[p], c)
        if _rebuild_strings(b):
            board_undo(b)
            return 0
    return 1

# ------------------------------------------------------------------------------ Python API

class IllegalMove(ValueError):
    """A move the rules forbid: occupied point, ko, suicide, or off the board."""


_COLOR_NAMES = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}


def parse_color(color):
    """BLACK/WHITE from 1/2 or 'b', 'black', 'w', 'white' (any case)."""
    if color in (BLACK, WHITE):
        return color
    if isinstance(color, str) and color.lower() in _COLOR_NAMES:
        return _COLOR_NAMES[color.lower()]
    raise ValueError(f"not a colour: {color!r}")


cdef class Board:
    """A Go board of side 2..25.  Moves are given as flat ints (row * size + col, row 0 at the
    top), (row, col) tuples, GTP vertices ('D4') or None / 'pass' (see tactics.coords)."""

    def __cinit__(self, int size=19):
        self.b.journal = NULL
        self.b.moves = NULL
        board_init(&self.b, size)

    def __dealloc__(self):
        board_free(&self.b)

    cdef int _point(self, object move) except -2:
        cdef int n = self.b.size, r, c
        if move is None:
            return PASS
        if isinstance(move, str):
            try:
                rc = coords.parse_vertex(move, n)
            except coords.CoordinateError as e:
                raise IllegalMove(str(e)) from None
            if rc is None:
                return PASS
            r, c = rc
        elif isinstance(move, tuple):
            r, c = move
        else:
            r, c = divmod(int(move), n)
        if not (0 <= r < n and 0 <= c < n):
            raise IllegalMove(f"{move!r} is off the {n}x{n} board")
        return board_point(&self.b, r, c)

    cdef object _flat(self, int p):
        if p == PASS or p == NO_POINT:
            return None
        return board_row(&self.b, p) * self.b.size + board_col(&self.b, p)

    cdef int _stone(self, object vertex) except -2:
        cdef int s = self._point(vertex)
        if s == PASS or self.b.color[s] not in (BLACK, WHITE):
            raise ValueError(f"no stone at {vertex!r}")
        return s

    # --- state ---
    @property
    def size(self):
        """Board side."""
        return self.b.size

    @property
    def to_move(self):
        """Side to move, BLACK (1) or WHITE (2); settable (GTP plays either colour)."""
        return self.b.to_move

    @to_move.setter
    def to_move(self, color):
        self.b.to_move = parse_color(color)

    @property
    def ko(self):
        """Flat index of the point the ko bans, or None."""
        return self._flat(self.b.ko)

    @property
    def hash(self):
        """Zobrist hash of the stones (positional)."""
        return self.b.hash

    @property
    def prisoners(self):
        """Stones captured so far: {BLACK: n, WHITE: n} by capturer."""
        return {int(BLACK): self.b.prisoners[<int>BLACK], int(WHITE): self.b.prisoners[<int>WHITE]}

    @property
    def move_count(self):
        """Records in the undo history (moves, passes and setup stones)."""
        return self.b.n_moves

    @property
    def history(self):
        """The undo history as (colour, flat or None for a pass, is_setup) tuples, oldest first."""
        out = []
        for i in range(self.b.n_moves):
            m = self.b.moves[i]
            out.append((m.color, self._flat(m.point), m.point == NO_POINT))
        return out

    @property
    def last_move(self):
        """Flat index of the last move played (None if none or a pass)."""
        cdef int i
        for i in range(self.b.n_moves - 1, -1, -1):
            if self.b.moves[i].point != NO_POINT:
                return self._flat(self.b.moves[i].point)
        return None

    def get(self, move):
        """Colour at a point: EMPTY, BLACK or WHITE."""
        return self.b.color[self._point(move)]

    def to_array(self):
        """int8 array (size, size): 0 empty, 1 black, 2 white."""
        cdef int n = self.b.size, r, c
        out = np.zeros((n, n), dtype=np.int8)
        cdef signed char[:, :] v = out
        for r in range(n):
            for c in range(n):
                v[r, c] = self.b.color[board_point(&self.b, r, c)]
        return out

    # --- moves ---
    def play(self, move, color=None):
        """Play for color (default: side to move); returns stones captured; raises IllegalMove
        (board unchanged) for an occupied point, the ko, or suicide."""
        cdef int c = self.b.to_move if color is None else parse_color(color)
        cdef int p = self._point(move)
        if not board_is_legal(&self.b, p, c):
            raise IllegalMove(self._why_illegal(p, c, move))
        board_play_unchecked(&self.b, p, c)
        return self.b.moves[self.b.n_moves - 1].captured

    cdef str _why_illegal(self, int p, int c, object move):
        name = "black" if c == BLACK else "white"
        if self.b.color[p] != EMPTY:
            return f"{name} {move}: point occupied"
        if p == self.b.ko and c == self.b.ko_color:
            return f"{name} {move}: retakes the ko"
        return f"{name} {move}: suicide"

    def play_many(self, moves, first_color=None):
        """Play a sequence of flat moves (-1 = pass), colours alternating from first_color
        (default: side to move), in one C loop; returns how many were played.  Stops before the
        first illegal move and raises IllegalMove naming its index (the earlier ones stay)."""
        cdef int[::1] seq = np.ascontiguousarray(moves, dtype=np.int32)
        cdef int c = self.b.to_move if first_color is None else parse_color(first_color)
        cdef int i, m, p, n = self.b.size, count = seq.shape[0], bad = -1
        with nogil:
            for i in range(count):
                m = seq[i]
                if m < 0:
                    p = PASS
                elif m >= n * n:
                    bad = i
                    break
                else:
                    p = (m // n + 1) * self.b.W + m % n + 1
                if not board_play(&self.b, p, c):
                    bad = i
                    break
                c = opponent(c)
        if bad >= 0:
            raise IllegalMove(f"move {bad} of the sequence ({seq[bad]}) is illegal")
        return count

    def undo_many(self, int count):
        """Take back up to count records in one C loop; returns how many were taken back."""
        cdef int i, done = 0
        with nogil:
            for i in range(count):
                if not board_undo(&self.b):
                    break
                done += 1
        return done

    def is_legal(self, move, color=None):
        """color may play move now (simple ko; see repeats() for superko)."""
        cdef int c = self.b.to_move if color is None else parse_color(color)
        try:
            return bool(board_is_legal(&self.b, self._point(move), c))
        except IllegalMove:
            return False

    def repeats(self, move, color=None):
        """The legal move would repeat an earlier position of this board's history."""
        cdef int c = self.b.to_move if color is None else parse_color(color)
        return bool(board_repeats(&self.b, self._point(move), c))

    def place(self, move, color):
        """Setup stone (SGF AB/AW/AE; color 0 = remove) as an undoable record; raises
        IllegalMove if it would leave a string without liberties."""
        cdef int c = EMPTY if color in (0, EMPTY) else parse_color(color)
        if not board_place(&self.b, self._point(move), c):
            raise IllegalMove(f"setup {move}: leaves a string without liberties")

    def undo(self):
        """Take back the last move, pass or setup stone; False if there is none."""
        return bool(board_undo(&self.b))

    def clear(self):
        """Empty board, history dropped."""
        board_clear(&self.b)

    def legal_moves(self, color=None):
        """Sorted flat indices of the legal points for color (pass excluded)."""
        cdef int c = self.b.to_move if color is None else parse_color(color)
        cdef int buf[MAX_POINTS]
        cdef int n = board_legal_moves(&self.b, c, buf), i
        return sorted(self._flat(buf[i]) for i in range(n))

    def legal_mask(self, color=None):
        """bool array (size, size), True where color may play."""
        n = self.b.size
        mask = np.zeros(n * n, dtype=bool)
        mask[self.legal_moves(color)] = True
        return mask.reshape(n, n)

    def eye(self, move, color):
        """0 not an eye, 1 false eye, 2 true eye of color at this empty point."""
        return int(board_eye(&self.b, self._point(move), parse_color(color)))

    def liberties(self, move):
        """Liberty count of the string at move (0 for an empty point)."""
        cdef int p = self._point(move)
        return self.b.libs[self.b.head[p]] if self.b.color[p] in (BLACK, WHITE) else 0

    def liberty_points(self, move):
        """Sorted flat liberties of the string at move."""
        cdef int buf[MAX_POINTS]
        cdef int p = self._point(move), n, i
        if self.b.color[p] not in (BLACK, WHITE):
            return []
        n = board_liberties(&self.b, p, buf, MAX_POINTS)
        return sorted(self._flat(buf[i]) for i in range(n))

    def string(self, move):
        """Sorted flat stones of the string at move."""
        cdef int buf[MAX_POINTS]
        cdef int p = self._point(move), n, i
        if self.b.color[p] not in (BLACK, WHITE):
            return []
        n = board_string_stones(&self.b, p, buf)
        return sorted(self._flat(buf[i]) for i in range(n))

    def copy(self):
        """Independent deep copy, history included."""
        cdef Board other = Board(self.b.size)
        board_copy(&other.b, &self.b)
        return other

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def random_playout(self, seed=1, max_moves=None):
        """Random non-eye-filling legal moves until both pass; drops the history; returns moves
        (tactics.playouts.random_playout)."""
        from tactics.playouts import random_playout
        return random_playout(self, seed, max_moves)

    def __str__(self):
        """Diagram: X black, O white, + star points, the last move in parentheses
        (tactics.diagram.to_diagram)."""
        from tactics.diagram import to_diagram
        return to_diagram(self)

    def __repr__(self):
        return f"<Board {self.b.size}x{self.b.size}, {'black' if self.b.to_move == BLACK else 'white'} to move, {self.b.n_moves} records>"


# The colours as plain Python ints: tactics.board.EMPTY, BLACK, WHITE (the C names of the enum
# cannot be rebound at Python level, so they are published here).
globals().update({colour.name: int(colour) for colour in Color if colour != BORDER})
