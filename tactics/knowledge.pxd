# cython: language_level=3
"""The costlier half of the df-pn search's knowledge at the C level (tactics/knowledge.pyx)."""

from tactics.dfpn cimport search_t

# Escapes, eye space, two eyes, Benson (needs target_heads): 1 the side to move wins, -1 loses, 0 unknown.
cdef int slow_knowledge(search_t *s) noexcept nogil
