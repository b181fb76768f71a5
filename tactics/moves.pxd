# cython: language_level=3
"""Move generation of the df-pn search (tactics/moves.pyx): which moves a node searches, best
first.  `legal` is inline here, as it runs for every region point of every node."""

from tactics.board cimport board_t, board_is_suicide, EMPTY, PASS
from tactics.dfpn cimport search_t

# The legal moves in focus into out, best first, then PASS; returns their number.
cdef int gen_moves(search_t *s, int *out) noexcept nogil
# Fills s.theads with the heads of the target strings standing; returns their number.
cdef int target_heads(search_t *s) noexcept nogil
# h is one of the heads found by the last target_heads.
cdef bint is_target_head(search_t *s, int h) noexcept nogil
# The string with head h has a liberty outside the region (it joined an outside string).
cdef bint joined_out(search_t *s, int h) noexcept nogil
# c's move p (no pass, no capture) read unplayed: False if mid must play it, else *L = the most liberties.
cdef bint unplayed_libs(search_t *s, int p, int c, int *L) noexcept nogil


cdef inline bint legal(search_t *s, int p, int c) noexcept nogil:
    """C may play p (PASS always) under the search's ko rule (ko_ignore lifts the ban)."""
    cdef board_t *b = s.b
    if p == PASS:
        return True
    if b.color[p] != EMPTY:
        return False
    if p == b.ko and c == b.ko_color:
        return c == s.ko_ignore
    return not board_is_suicide(b, p, c)
