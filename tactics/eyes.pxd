# cython: language_level=3
"""Static eye-space knowledge for the life-and-death search (see eyes.pyx)."""

from tactics.board cimport board_t

cdef enum:
    EYES_ALIVE_OR_UNKNOWN = 0  # area_class: no verdict
    EYES_DEAD_IF_ATTACKER = 1  # a nakade shape: dead when the attacker moves first
    EYES_DEAD = 2              # dead whoever moves
    MAX_LINKED = 16            # strings in a linked group (linked_strings, linked_alive)

# The verdict (EYES_*) on the area of defender stone `start` (stamps it with gen).
cdef int area_class(const board_t *b, int attacker, int start, int *stamp, int gen) noexcept nogil
# Every area of the target strings is dead with `mover` to move.
cdef bint eyes_dead(const board_t *b, int attacker, const int *heads, int nheads, int mover, int *stamp,
                    int gen) noexcept nogil
# A target string has two eyes in enclosed empty areas touching only it (stamps gen and gen + 1).
cdef bint eyes_alive(const board_t *b, const int *heads, int nheads, int *stamp, int gen) noexcept nogil
# A target string lives with the strings linked to it by miai pairs (advances *gen).
cdef bint linked_alive(const board_t *b, const int *heads, int nheads, int *stamp, int *gen) noexcept nogil
# The heads of the strings linked to seed's by miai pairs, seed's first (stamps gen): their number.
cdef int linked_strings(const board_t *b, int seed, int *group, int *stamp, int gen) noexcept nogil
