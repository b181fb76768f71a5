"""What the searches ask of a string on the board: its liberties, its stones, the strings
touching it, a move's liberties before it is played, and whether a point is an eye.

Read-only functions on a `board_t` (tactics/board.pxd); the ladder, capture, eye-space and
move-generation code and the Python `Board` use them."""

from tactics.board cimport board_t, EyeKind

# Whether empty p is an eye of colour c (NOT_EYE, FALSE_EYE, TRUE_EYE).
cdef EyeKind board_eye(const board_t *b, int p, int c) noexcept nogil
# Up to maxn liberties of the string at s into out; returns how many were written.
cdef int board_liberties(const board_t *b, int s, int *out, int maxn) noexcept nogil
# The stones of the string at s into out; returns their count.
cdef int board_string_stones(const board_t *b, int s, int *out) noexcept nogil
# The heads of colour-c strings touching the string at s into out; returns their count.
cdef int board_adjacent_strings(const board_t *b, int s, int c, int *out) noexcept nogil
# The liberties of c's string after c plays empty p, captures ignored, counted up to maxlib (<= 16).
cdef int board_approx_liberties(const board_t *b, int p, int c, int maxlib) noexcept nogil
