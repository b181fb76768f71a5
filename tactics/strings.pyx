"""What the searches ask of a string on the board (the contracts are in strings.pxd): its
liberties, its stones, the strings touching it, a move's liberties before it is played
(`board_approx_liberties`, move generation's cheap test), and the eye test of playouts.

Start with `board_liberties`.
"""

from tactics.board cimport (board_t, EyeKind, NOT_EYE, FALSE_EYE, TRUE_EYE, EMPTY, BORDER, BLACK, WHITE,
                            opponent, board_neighbour_heads)


cdef EyeKind board_eye(const board_t *b, int p, int c) noexcept nogil:
    """Empty p surrounded by c: TRUE_EYE unless the opponent holds enough diagonals (one on
    the edge, two in the centre: FALSE_EYE).  The usual local rule, blind to seki shapes."""
    cdef int k, col, bad = 0, edge = 0
    cdef int d[4]
    if b.color[p] != EMPTY:
        return NOT_EYE
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    for k in range(4):
        col = b.color[p + d[k]]
        if col != c and col != BORDER:
            return NOT_EYE
    d[0] = -b.W - 1; d[1] = -b.W + 1; d[2] = b.W - 1; d[3] = b.W + 1
    for k in range(4):
        col = b.color[p + d[k]]
        if col == BORDER:
            edge = 1
        elif col == opponent(c):
            bad += 1
    if bad + edge >= 2:
        return FALSE_EYE
    return TRUE_EYE

cdef int board_liberties(const board_t *b, int s, int *out, int maxn) noexcept nogil:
    """Up to maxn distinct liberties of the string at s, into out; returns how many."""
    cdef int h = b.head[s], x = h, k, n, i, count = 0
    cdef int d[4]
    cdef bint dup
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    while True:
        for k in range(4):
            n = x + d[k]
            if b.color[n] == EMPTY:
                dup = False
                for i in range(count):
                    if out[i] == n:
                        dup = True
                        break
                if not dup:
                    if count == maxn:
                        return count
                    out[count] = n
                    count += 1
        x = b.next[x]
        if x == h:
            return count

cdef int board_string_stones(const board_t *b, int s, int *out) noexcept nogil:
    """All stones of the string at s into out (room for nstones); returns the count."""
    cdef int h = b.head[s], x = h, count = 0
    while True:
        out[count] = x
        count += 1
        x = b.next[x]
        if x == h:
            return count

cdef int board_adjacent_strings(const board_t *b, int s, int c, int *out) noexcept nogil:
    """Distinct heads of colour-c strings touching the string at s, into out; returns count."""
    cdef int h = b.head[s], x = h, k, n, hn, i, count = 0
    cdef int d[4]
    cdef bint dup
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    while True:
        for k in range(4):
            n = x + d[k]
            if b.color[n] == c:
                hn = b.head[n]
                dup = False
                for i in range(count):
                    if out[i] == hn:
                        dup = True
                        break
                if not dup:
                    out[count] = hn
                    count += 1
        x = b.next[x]
        if x == h:
            return count

cdef int board_approx_liberties(const board_t *b, int p, int c, int maxlib) noexcept nogil:
    """Liberties (at most maxlib, <= 16, counted) of c's string if c played empty p, ignoring
    captures: p's empty neighbours plus the other liberties of c's neighbouring strings (each
    string walked once, and only until maxlib are found)."""
    cdef int found[20]
    cdef int heads[4]
    cdef int n = 0, nh, k, i, j, q, h, x, y
    cdef bint dup
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    for k in range(4):
        q = p + d[k]
        if b.color[q] == EMPTY:
            found[n] = q
            n += 1
    if n >= maxlib:
        return n
    nh = board_neighbour_heads(b, p, c, heads)
    for k in range(nh):
        h = heads[k]
        x = h
        while True:
            for j in range(4):
                y = x + d[j]
                if b.color[y] == EMPTY and y != p:
                    dup = False
                    for i in range(n):
                        if found[i] == y:
                            dup = True
                            break
                    if not dup:
                        found[n] = y
                        n += 1
                        if n >= maxlib:
                            return n
            x = b.next[x]
            if x == h:
                break
    return n
