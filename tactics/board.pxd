# cython: language_level=3
"""The Go board as a C struct: the C-level API every search in `tactics` uses.

Points are indices into a padded array of side W = size + 2 (see tactics/coords.py for the
glossary of GTP, SGF, array and point coordinates).  Stones of a string form a circular list
through `next`; every stone knows its string's head; liberty and stone counts live at the head.

Every write to the position goes through a journal (GNU Go's change stack), so `board_undo`
restores the exact previous state, hash included, in O(stones touched by the move).  Searches
make and unmake moves with `board_play` / `board_undo`; they never copy a board per node.

Start reading at `board_t`, then `board_play` in board.pyx.
"""

from libc.stdint cimport uint64_t

cpdef enum Color:
    EMPTY = 0
    BLACK = 1
    WHITE = 2
    BORDER = 3

cdef enum:
    MAX_SIZE = 25                               # largest board side (GTP's limit)
    MAX_W = MAX_SIZE + 2                         # padded side
    MAX_POINTS = MAX_W * MAX_W                   # padded points
    PASS = -1                                    # the pass move, as a point
    NO_POINT = 0                                 # a border corner: "no point" (ko, heads of empties)

cdef enum EyeKind:
    NOT_EYE = 0
    FALSE_EYE = 1
    TRUE_EYE = 2

cdef struct journal_t:
    int offset                                   # written field, in ints from the board's start
    int old                                      # its value before the write

cdef struct move_t:
    int point                                    # point played, PASS, or NO_POINT for a setup record
    int color                                    # colour that moved
    int journal_mark                             # journal length before the move
    int ko_before                                # ko point before the move
    int ko_color_before                          # colour the ko bans, before the move
    int to_move_before                           # side to move before the move
    int captured                                 # stones this move captured
    uint64_t hash_before                         # Zobrist hash before the move

cdef struct board_t:
    # --- fields written through the journal (all ints, so undo can restore them) ---
    int color[MAX_POINTS]                        # EMPTY, BLACK, WHITE or BORDER per point
    int head[MAX_POINTS]                         # head stone of the point's string; NO_POINT if empty
    int next[MAX_POINTS]                         # next stone of the same string (circular list)
    int libs[MAX_POINTS]                         # liberty count of the string, valid at its head
    int nstones[MAX_POINTS]                      # stone count of the string, valid at its head
    int empty[MAX_POINTS]                        # the empty points, in any order
    int empty_pos[MAX_POINTS]                    # index of each empty point in `empty`
    int n_empty                                  # number of empty points
    int prisoners[3]                             # stones captured by BLACK and WHITE (index = capturer)
    # --- fields restored from the move record ---
    int size                                     # board side, 2..MAX_SIZE
    int W                                        # padded side, size + 2
    int to_move                                  # BLACK or WHITE
    int ko                                       # point the ko bans, NO_POINT if none
    int ko_color                                 # colour the ko bans from playing at `ko`
    uint64_t hash                                # Zobrist hash of the stones
    # --- history, grown with malloc (never shared between boards) ---
    journal_t *journal                           # change stack
    int journal_len                              # entries in use
    int journal_cap                              # entries allocated
    move_t *moves                                # move records, oldest first
    int n_moves                                  # records in use
    int moves_cap                                # records allocated

# Zobrist keys, filled once at import: zobrist[colour][point].
cdef uint64_t zobrist[3][MAX_POINTS]

cdef class Board:
    """Python face of a board_t; other Cython modules reach the struct as (<Board>obj).b."""
    cdef board_t b                               # the position and its history
    cdef int _point(self, object move) except -2    # a Python move (flat, (row, col), GTP, None) as a point
    cdef object _flat(self, int p)                  # a point as a flat index (None for PASS)
    cdef int _stone(self, object vertex) except -2  # _point of a vertex holding a stone; ValueError otherwise
    cdef str _why_illegal(self, int p, int c, object move)  # why board_is_legal said no

# --- life cycle --------------------------------------------------------------------------------
# An empty board; allocates the history.
cdef int board_init(board_t *b, int size) except -1 nogil
# Frees the history buffers.
cdef void board_free(board_t *b) noexcept nogil
# A deep copy, history included (dst initialised or zeroed).
cdef int board_copy(board_t *dst, const board_t *src) except -1 nogil
# An empty board of the same size, history dropped.
cdef int board_clear(board_t *b) except -1 nogil
# The position of src (stones, strings, ko, side to move, hash) into initialised dst, dst's history dropped.
cdef int board_copy_position(board_t *dst, const board_t *src) except -1 nogil

# --- geometry ------------------------------------------------------------------------------------
cdef inline int board_point(const board_t *b, int row, int col) noexcept nogil:
    """Point of array coordinates (row 0 = top line, col 0 = left)."""
    return (row + 1) * b.W + col + 1

cdef inline int board_row(const board_t *b, int p) noexcept nogil:
    """Array row of point p."""
    return p // b.W - 1

cdef inline int board_col(const board_t *b, int p) noexcept nogil:
    """Array column of point p."""
    return p % b.W - 1

cdef inline int opponent(int c) noexcept nogil:
    """The other colour."""
    return 3 - c

# --- queries -------------------------------------------------------------------------------------
# c may play p (a pass is always legal).
cdef bint board_is_legal(const board_t *b, int p, int c) noexcept nogil
# Playing p would repeat an earlier position (positional superko).
cdef bint board_repeats(board_t *b, int p, int c) except -1 nogil

cdef inline bint board_is_suicide(const board_t *b, int p, int c) noexcept nogil:
    """Playing empty p leaves c's new string without liberties (and captures nothing).  Inline,
    as this and board_captures_of run for every region point of every search node."""
    cdef int k, n, col
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    for k in range(4):
        n = p + d[k]
        col = b.color[n]
        if col == EMPTY:
            return False
        if col == c:
            if b.libs[b.head[n]] > 1:
                return False
        elif col != BORDER:
            if b.libs[b.head[n]] == 1:
                return False
    return True

cdef inline int board_neighbour_heads(const board_t *b, int p, int c, int *heads) noexcept nogil:
    """The distinct heads of c's strings next to point p, into heads (room for 4); returns how
    many."""
    cdef int k, j, h, n = 0
    cdef bint dup
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    for k in range(4):
        if b.color[p + d[k]] == c:
            h = b.head[p + d[k]]
            dup = False
            for j in range(n):
                if heads[j] == h:
                    dup = True
            if not dup:
                heads[n] = h
                n += 1
    return n

cdef inline int board_captures_of(const board_t *b, int p, int c) noexcept nogil:
    """Stones c would capture by playing p (neighbour strings of the opponent in atari)."""
    cdef int heads[4]
    cdef int i, total = 0, n = board_neighbour_heads(b, p, opponent(c), heads)
    for i in range(n):
        if b.libs[heads[i]] == 1:
            total += b.nstones[heads[i]]
    return total

# --- moves ---------------------------------------------------------------------------------------
# Plays p for c if legal: 1 played, 0 illegal (the board unchanged).
cdef int board_play(board_t *b, int p, int c) except -1 nogil
# Plays a move known legal (or PASS): 1.
cdef int board_play_unchecked(board_t *b, int p, int c) except -1 nogil
# A setup stone (AB/AW/AE, c may be EMPTY) as an undoable record; 0 if a string would lose every liberty.
cdef int board_place(board_t *b, int p, int c) except -1 nogil
# Takes back the last record; 0 if there is none.
cdef int board_undo(board_t *b) noexcept nogil
# Drops the undo records (playouts): the position stays.
cdef void board_forget_history(board_t *b) noexcept nogil
# The legal points for c (no pass) into out; returns their count.
cdef int board_legal_moves(const board_t *b, int c, int *out) noexcept nogil

# --- random numbers (tactics.playouts plays the random playouts) ----------------------------------
# A xorshift64* step: advances *state (non-zero) and returns the next number.
cdef uint64_t rng_next(uint64_t *state) noexcept nogil
