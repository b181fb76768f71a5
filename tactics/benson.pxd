# cython: language_level=3
"""Benson's unconditional life at the C level: the workspace and the two calls the df-pn search
makes (tactics.knowledge).  The algorithm: benson.pyx, start reading at `benson`."""

from tactics.board cimport board_t, MAX_POINTS

cdef struct benson_ws:
    int chain_of[MAX_POINTS]        # chain index of a head stone of the colour, -1 otherwise
    int region_of[MAX_POINTS]       # region index of a non-colour point, -1 otherwise
    int stack[MAX_POINTS]           # flood-fill stack
    int chain_head[MAX_POINTS]      # head stone of each chain
    int chain_alive[MAX_POINTS]     # chain still candidate-alive
    int region_ok[MAX_POINTS]       # region still enclosed by candidate chains only
    int region_nempty[MAX_POINTS]   # empty points of the region
    int region_first[MAX_POINTS]    # first (region, chain) pair of the region, -1 if none
    int pair_chain[4 * MAX_POINTS]  # chain of a pair
    int pair_count[4 * MAX_POINTS]  # empty points of the region that are liberties of the chain
    int pair_next[4 * MAX_POINTS]   # next pair of the same region
    int region_open[MAX_POINTS]     # region reaches a point outside the mask (never small)
    unsigned char *mask             # NULL: whole board; else 1 on the points analysed (every
                                    # stone of `color` must lie on them)
    int *pts                        # the masked points (when mask is set)
    int npts

# The unconditionally alive strings of `color` (and with `out`, their stones 1, small regions 2):
# returns how many there are; ws.chain_alive / chain_of say which.
cdef int benson(const board_t *b, int color, benson_ws *ws, unsigned char *out) noexcept nogil

# The regions vital to the string with head h before benson drops anything, counted up to
# `enough` (stamps points above *gen and advances it).
cdef int benson_vital_regions(const board_t *b, int color, int h, benson_ws *ws, int *stamp,
                              int *gen, int enough) noexcept nogil
