# cython: language_level=3
"""Benson's unconditional life (Benson 1976): strings that cannot be captured even if the
opponent plays any number of moves in a row, and the small regions they enclose.

Start reading at `benson`.  The algorithm: the strings of one colour ("chains") and the maximal
connected sets of points that are not of that colour ("regions", empty points and opponent
stones) are enumerated; a region is *vital* to a chain when every empty point of the region is a
liberty of the chain.  Repeatedly, chains with fewer than two vital regions (among the regions
still enclosed only by surviving chains) are dropped, and regions touching a dropped chain are
dropped, until nothing changes.  The surviving chains are unconditionally alive.

Unconditional territory (as far as this module claims it): a region enclosed only by surviving
chains in which every empty point is a liberty of a surviving chain: the opponent can make no
eye there, so its stones inside are dead.  This is stricter than GNU Go's `unconditional_life`,
which also plays out captures of large territories; positions it settles and we do not are
answered `undecided` (never a wrong `alive` / `dead`).

Python: `unconditional(board, color)` returns an int8 (size, size) array: 1 alive stone of
`color`, 2 territory of `color` (empty points and dead opponent stones), 0 otherwise.
"""

import numpy as np

from libc.stdlib cimport malloc, calloc, free

from tactics.board cimport (board_t, Board, board_point, EMPTY, BLACK, WHITE, BORDER,
                            opponent, MAX_POINTS)
from tactics.board import parse_color


cdef inline int _chains(const board_t *b, int color, benson_ws *ws, int npts) noexcept nogil:
    """The number of strings of `color` on the visited points, numbered in ws.chain_of."""
    cdef unsigned char *mask = ws.mask
    cdef int ip, p, nchains = 0
    for ip in range(npts):
        p = ip if mask == NULL else ws.pts[ip]
        ws.chain_of[p] = -1
        ws.region_of[p] = -1
        if b.color[p] == color and b.head[p] == p:
            ws.chain_of[p] = nchains
            ws.chain_head[nchains] = p
            ws.chain_alive[nchains] = 1
            nchains += 1
    return nchains


cdef inline int _regions(const board_t *b, int color, benson_ws *ws, int npts) noexcept nogil:
    """The number of regions (maximal sets of points not of `color`), flooded with their pairs."""
    # each region's empty points, the chains it touches and, per (region, chain) pair, how many
    # of its empty points are the chain's liberties
    cdef unsigned char *mask = ws.mask
    cdef int ip, p, q, k, n, h, c, r, i, j, top, nseen, nregions = 0, npairs = 0
    cdef int d[4]
    cdef int seen[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    for ip in range(npts):
        p = ip if mask == NULL else ws.pts[ip]
        c = b.color[p]
        if c == BORDER or c == color or ws.region_of[p] >= 0:
            continue
        r = nregions
        nregions += 1
        ws.region_ok[r] = 1
        ws.region_open[r] = 0
        ws.region_nempty[r] = 0
        ws.region_first[r] = -1
        top = 0
        ws.stack[top] = p
        top += 1
        ws.region_of[p] = r
        while top > 0:
            top -= 1
            q = ws.stack[top]
            if b.color[q] == EMPTY:
                ws.region_nempty[r] += 1
            nseen = 0
            for k in range(4):
                n = q + d[k]
                c = b.color[n]
                if c == BORDER:
                    continue
                if mask != NULL and not mask[n]:
                    ws.region_open[r] = 1
                    continue
                if c == color:
                    h = ws.chain_of[b.head[n]]
                    # pair (r, h): find or create
                    i = ws.region_first[r]
                    while i >= 0 and ws.pair_chain[i] != h:
                        i = ws.pair_next[i]
                    if i < 0:
                        i = npairs
                        npairs += 1
                        ws.pair_chain[i] = h
                        ws.pair_count[i] = 0
                        ws.pair_next[i] = ws.region_first[r]
                        ws.region_first[r] = i
                    if b.color[q] == EMPTY:
                        j = 0
                        while j < nseen and seen[j] != h:
                            j += 1
                        if j == nseen:
                            seen[nseen] = h
                            nseen += 1
                            ws.pair_count[i] += 1
                elif ws.region_of[n] < 0:
                    ws.region_of[n] = r
                    ws.stack[top] = n
                    top += 1
    return nregions


cdef inline int _drop_chains(benson_ws *ws, int nchains, int nregions) noexcept nogil:
    """The number of chains left by Benson's iteration (module docstring)."""
    cdef int changed = 1, h, r, i, vital, alive_count = 0
    while changed:
        changed = 0
        for h in range(nchains):
            if not ws.chain_alive[h]:
                continue
            vital = 0
            for r in range(nregions):
                if not ws.region_ok[r]:
                    continue
                i = ws.region_first[r]
                while i >= 0:
                    if ws.pair_chain[i] == h:
                        if ws.pair_count[i] == ws.region_nempty[r] and not ws.region_open[r]:
                            vital += 1
                        break
                    i = ws.pair_next[i]
                if vital >= 2:
                    break
            if vital < 2:
                ws.chain_alive[h] = 0
                changed = 1
        for r in range(nregions):
            if not ws.region_ok[r]:
                continue
            i = ws.region_first[r]
            while i >= 0:
                if not ws.chain_alive[ws.pair_chain[i]]:
                    ws.region_ok[r] = 0
                    changed = 1
                    break
                i = ws.pair_next[i]
    for h in range(nchains):
        alive_count += ws.chain_alive[h]
    return alive_count


cdef inline void _mark(const board_t *b, int color, benson_ws *ws, int nregions,
                       unsigned char *out) noexcept nogil:
    """Writes benson's `out` after _drop_chains: 1 alive stones, 2 their small regions, else 0."""
    # a small region: every empty point of it touches a stone of `color`
    cdef int N = b.W * b.W, p, r, k, c, adj_bad, small
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    for p in range(N):
        out[p] = 0
        c = b.color[p]
        if c == color:
            if ws.chain_alive[ws.chain_of[b.head[p]]]:
                out[p] = 1
        elif c != BORDER:
            r = ws.region_of[p]
            if ws.region_ok[r] and ws.region_first[r] >= 0:
                out[p] = 3                      # candidate; checked below
    # territory: every empty point of the region touches a surviving chain
    for r in range(nregions):
        if not ws.region_ok[r] or ws.region_first[r] < 0:
            continue
        small = 1
        for p in range(N):
            if ws.region_of[p] == r and b.color[p] == EMPTY:
                adj_bad = 1
                for k in range(4):
                    if b.color[p + d[k]] == color:
                        adj_bad = 0
                        break
                if adj_bad:
                    small = 0
                    break
        for p in range(N):
            if ws.region_of[p] == r and out[p] == 3:
                out[p] = 2 if small else 0


cdef int benson(const board_t *b, int color, benson_ws *ws, unsigned char *out) noexcept nogil:
    """Mark out[p] = 1 on stones of unconditionally alive chains of `color`, 2 on the points of
    their small enclosed regions (see the module docstring), 0 elsewhere (out may be NULL).
    Returns the number of alive chains.  With ws.mask set, only the masked points are visited:
    a region reaching an unmasked point is open (never vital), which is exact when the unmasked
    points hold no stone of `color` (the solver's box with its frame)."""
    cdef int N = b.W * b.W, p, nchains, nregions, alive_count
    cdef int npts = N if ws.mask == NULL else ws.npts
    nchains = _chains(b, color, ws, npts)
    if nchains == 0:
        if out != NULL:
            for p in range(N):
                out[p] = 0
        return 0
    nregions = _regions(b, color, ws, npts)
    alive_count = _drop_chains(ws, nchains, nregions)
    if out != NULL:
        _mark(b, color, ws, nregions, out)
    return alive_count


cdef int benson_vital_regions(const board_t *b, int color, int h, benson_ws *ws, int *stamp,
                              int *gen, int enough) noexcept nogil:
    """The regions vital to the string with head h (of `color`) before benson drops anything,
    counted up to `enough`: a string with fewer than two is not unconditionally alive, whatever
    the rest of the board.  Floods from h's liberties (ws.mask as benson reads it; uses
    ws.stack) and gives up on a region at its first empty point that is not a liberty of h or
    at the mask's edge, so it is cheap beside benson.  Each flood stamps its points with a value
    of its own above *gen, and *gen is advanced past them: a flood that runs into an earlier
    one's points is in the same region, which that one found not vital."""
    cdef int n = 0, k = h, i, p, top, q, j, m, col, base = gen[0] + 1, cur = gen[0]
    cdef bint vital, adj
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    while n < enough:
        for i in range(4):
            p = k + d[i]
            if b.color[p] != EMPTY or stamp[p] >= base or (ws.mask != NULL and not ws.mask[p]):
                continue                            # not a liberty, its region known, or outside
            cur += 1
            stamp[p] = cur
            ws.stack[0] = p
            top = 1
            vital = True
            while top > 0 and vital:
                top -= 1
                q = ws.stack[top]
                adj = b.color[q] != EMPTY          # only its empty points must be liberties
                for j in range(4):
                    m = q + d[j]
                    col = b.color[m]
                    if col == BORDER or stamp[m] == cur:
                        continue
                    if ws.mask != NULL and not ws.mask[m]:
                        vital = False               # reaches outside the mask: open
                    elif col == color:
                        adj = adj or b.head[m] == h
                    elif stamp[m] >= base:
                        vital = False               # an earlier flood's region: not vital
                    else:
                        stamp[m] = cur
                        ws.stack[top] = m
                        top += 1
                if not adj:
                    vital = False                   # an empty point that is not h's liberty
            if vital:
                n += 1
        k = b.next[k]
        if k == h:
            break
    gen[0] = cur
    return n if n < enough else enough


def vital_regions(Board board, vertex, region=None):
    """Python face of benson_vital_regions for tests: the regions vital to the string at
    `vertex` (GTP or flat), with benson's mask on `region` (flat points) if given."""
    cdef int s = board._stone(vertex), i
    cdef benson_ws *ws = <benson_ws *>malloc(sizeof(benson_ws))
    cdef int *stamp = <int *>calloc(MAX_POINTS, sizeof(int))
    cdef unsigned char mask[MAX_POINTS]
    cdef int n = board.b.size, gen = 0
    if ws == NULL or stamp == NULL:
        free(ws)
        free(stamp)
        raise MemoryError()
    ws.mask = NULL
    if region is not None:
        for i in range(MAX_POINTS):
            mask[i] = 0
        for x in region:
            mask[board_point(&board.b, x // n, x % n)] = 1
        ws.mask = mask
    try:
        return benson_vital_regions(&board.b, board.b.color[s], board.b.head[s], ws, stamp, &gen,
                                    MAX_POINTS)
    finally:
        free(ws)
        free(stamp)


def unconditional(Board board, color):
    """int8 (size, size): 1 unconditionally alive stones of color, 2 its unconditional territory
    (empty points and dead opponent stones), 0 elsewhere."""
    cdef int c = parse_color(color), n = board.b.size, r, col
    cdef benson_ws *ws = <benson_ws *>malloc(sizeof(benson_ws))
    cdef unsigned char out[MAX_POINTS]
    if ws == NULL:
        raise MemoryError()
    ws.mask = NULL
    res = np.zeros((n, n), dtype=np.int8)
    cdef signed char[:, :] v = res
    try:
        benson(&board.b, c, ws, out)
        for r in range(n):
            for col in range(n):
                v[r, col] = out[board_point(&board.b, r, col)]
        return res
    finally:
        free(ws)
