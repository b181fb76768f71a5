# cython: language_level=3
"""Eye-space knowledge: when is a surrounded group dead without search?

The *area* of a defender stone: the defender stones and empty points connected to it through
defender stones and empty points (the flood stops at attacker stones).  Every liberty of the
group lies in its area, so a group whose area holds a small eye space cannot make two eyes:

- dead whoever moves (EYES_DEAD): one or two connected empty points, or the square four;
- dead with the attacker to move (EYES_DEAD_IF_ATTACKER, it plays the vital point): the nakade
  shapes, three connected points (straight or bent three), the pyramid four, the bulky five,
  the crossed five and the rabbity six.

Shapes are recognised by their adjacency: k points with e adjacent pairs and the largest
number of neighbours m inside the shape: square four (4, 4), pyramid (4, m = 3), bulky five
(5, 5), crossed five (5, m = 4), rabbity six (6, 6, m = 4); every other shape gets no verdict.

The verdict holds only when the attacker cannot lose a capturing race around the eye: every
attacker string next to the area needs at least the shape's liberty count (the moves the
attacker needs to capture a group with that eye: 1-2 points 2, three 3, four 5, five 8, six 12)
plus 2 liberties; otherwise no verdict (an attacker string in the eye space, seki, captures).

The other way round, `eyes_alive`: a defender string whose enclosed empty areas (touching no
other stone, at most MAX_ENCLOSED points) give it two eyes lives: an area of at most 3 points
or of a killing shape gives 1 eye, a bigger one 2 (straight / bent four, the other fives and
sixes, 7 points or more; in the corner a four gives 1 and a five or six needs two liberties
outside: the bent four and the rectangular six in the corner).  Benson misses these when an
area has points that are not liberties.  Attacker stones inside an area void it (no verdict).

`linked_alive` does the same for several strings: strings that share two liberties are linked
(the defender answers a move on one at the other), each pair serving one link; the linked
group lives when its enclosed regions give two eyes (a region of empty points and attacker
stones counts 1 when each of its empty points touches the group, as in Benson's algorithm).
Both rules are checked against the search without them on random lines of problems
(tests/test_eyes.py, bench/eye_rules_check.py).

Start with `eyes_dead` and `linked_alive`, called by the df-pn search (tactics.dfpn), and
`eyes_alive`, which the search does not ask: `linked_alive` sees every life it sees
(tests/test_eyes.py); `two_eyes` and `two_eyes_linked` are their Python faces.
"""

from libc.stdlib cimport calloc, free
from tactics.board cimport (board_t, Board, EMPTY, BORDER, MAX_POINTS, opponent)
from tactics.strings cimport board_liberties

cdef enum:
    MAX_EYE = 6                # largest eye space looked at
    MAX_SINGLES = 24           # single attacker stones next to an area looked at


cdef inline int _need(int k) noexcept nogil:
    """Liberties each attacker string next to an eye space of k points must have."""
    if k <= 2:
        return k + 2
    if k == 3:
        return 5
    if k == 4:
        return 7
    if k == 5:
        return 10
    return 14


cdef inline int _degree(const int *space, int ne, int k, int W) noexcept nogil:
    """Neighbours of space[k] among the ne points of space (W: the board's row stride)."""
    cdef int j, p, deg = 0
    for j in range(ne):
        p = space[k] - space[j]
        if p == 1 or p == -1 or p == W or p == -W:
            deg += 1
    return deg


cdef int area_class(const board_t *b, int attacker, int start, int *stamp, int gen) noexcept nogil:
    """Verdict on the area of `start` (a defender stone or an empty point of it; every point of
    the area is stamped with gen): EYES_DEAD, EYES_DEAD_IF_ATTACKER or EYES_ALIVE_OR_UNKNOWN.
    The eye space: the area's empty points and at most one single attacker stone whose
    neighbours all lie in the area (a nakade stone); with such a stone the verdict is EYES_DEAD
    when the space has at most 2 points, or is a killing shape and the stone holds its vital
    point (the one point with the most neighbours in the space), else none."""
    cdef int stack[MAX_POINTS]
    cdef int space[MAX_EYE]
    cdef int singles[MAX_SINGLES]
    cdef int top = 0, ne = 0, p, q, k, j, minlibs = 1000, edges = 0, deg, maxdeg = 0
    cdef int nsingles = 0, inner = 0, vital = 0, nmax = 0
    cdef int defender = opponent(attacker)
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    stack[top] = start
    top += 1
    stamp[start] = gen
    if b.color[start] == EMPTY:
        space[ne] = start
        ne += 1
    while top > 0:
        top -= 1
        p = stack[top]
        for k in range(4):
            q = p + d[k]
            if b.color[q] == attacker:
                if b.nstones[b.head[q]] == 1:         # maybe a nakade stone: decided below
                    j = 0
                    while j < nsingles and singles[j] != q:
                        j += 1
                    if j == nsingles:
                        if nsingles == MAX_SINGLES:
                            return EYES_ALIVE_OR_UNKNOWN
                        singles[nsingles] = q
                        nsingles += 1
                elif b.libs[b.head[q]] < minlibs:
                    minlibs = b.libs[b.head[q]]
                continue
            if stamp[q] == gen:
                continue
            if b.color[q] == EMPTY or b.color[q] == defender:
                stamp[q] = gen
                if b.color[q] == EMPTY:
                    if ne == MAX_EYE:
                        return EYES_ALIVE_OR_UNKNOWN
                    space[ne] = q
                    ne += 1
                stack[top] = q
                top += 1
    if ne == 0:
        return EYES_ALIVE_OR_UNKNOWN
    for j in range(nsingles):
        q = singles[j]
        for k in range(4):
            if b.color[q + d[k]] != BORDER and stamp[q + d[k]] != gen:
                break
        else:
            if inner or ne == MAX_EYE:
                return EYES_ALIVE_OR_UNKNOWN        # two nakade stones, or a space too big
            inner = q
            space[ne] = q
            ne += 1
            continue
        if b.libs[q] < minlibs:
            minlibs = b.libs[q]
    for k in range(ne):
        deg = _degree(space, ne, k, b.W)
        edges += deg
        if deg > maxdeg:
            maxdeg = deg
            vital = space[k]
            nmax = 1
        elif deg == maxdeg:
            nmax += 1
        if deg == 0 and ne > 1:
            return EYES_ALIVE_OR_UNKNOWN            # not one connected eye space
    edges //= 2
    if minlibs < _need(ne):
        return EYES_ALIVE_OR_UNKNOWN
    if ne <= 2:
        return EYES_DEAD
    if not _killing_shape(ne, edges, maxdeg):
        if ne == 4 and edges == 4 and not inner:
            return EYES_DEAD                        # square four
        return EYES_ALIVE_OR_UNKNOWN
    if not inner:
        return EYES_DEAD_IF_ATTACKER
    return EYES_DEAD if inner == vital and nmax == 1 else EYES_ALIVE_OR_UNKNOWN


cdef inline bint _killing_shape(int k, int edges, int maxdeg) noexcept nogil:
    """A connected space of k points with `edges` adjacent pairs and at most maxdeg neighbours
    per point is a nakade shape (three, pyramid four, bulky / crossed five, rabbity six)."""
    if k == 3:
        return True
    if k == 4:
        return maxdeg == 3
    if k == 5:
        return edges == 5 or (maxdeg == 4 and edges == 4)
    return k == 6 and maxdeg == 4 and edges == 6


cdef bint eyes_dead(const board_t *b, int attacker, const int *heads, int nheads, int mover,
                    int *stamp, int gen) noexcept nogil:
    """The target strings (heads, at least one) cannot live: every area is EYES_DEAD, except
    at most one EYES_DEAD_IF_ATTACKER area when the attacker is to move.  gen: a fresh stamp."""
    cdef int k, c, nakade = 0
    if nheads <= 0:
        return False
    for k in range(nheads):
        if stamp[heads[k]] == gen:
            continue
        c = area_class(b, attacker, heads[k], stamp, gen)
        if c == EYES_ALIVE_OR_UNKNOWN:
            return False
        if c == EYES_DEAD_IF_ATTACKER:
            nakade += 1
    return nakade == 0 or (nakade == 1 and mover == attacker)



# ------------------------------------------------------------------------------ two eyes

cdef enum:
    MAX_ENCLOSED = 20          # larger empty areas are open space, not eyes


cdef int _area_eyes(const board_t *b, int start, int head, int *stamp, int gen) noexcept nogil:
    """Eyes that the empty area of `start` (empty points connected through empty points) gives
    the string with head `head`: 0 when a stone of another string touches the area, it has more
    than MAX_ENCLOSED points or it meets a point stamped gen (an area given up before), else
    1 or 2 by `_space_eyes`.  The flood stops early (at most MAX_ENCLOSED points); the points it
    saw are stamped gen (gen + 1 while it runs)."""
    cdef int space[MAX_ENCLOSED]
    cdef int ne = 0, i = 0, p, q, k, j, ok = 1, col
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    stamp[start] = gen + 1
    space[ne] = start
    ne += 1
    while i < ne and ok:
        p = space[i]
        i += 1
        for k in range(4):
            q = p + d[k]
            col = b.color[q]
            if col == EMPTY:
                if stamp[q] == gen + 1:
                    continue
                if stamp[q] == gen or ne == MAX_ENCLOSED:
                    ok = 0                          # part of an area given up, or too big
                    break
                stamp[q] = gen + 1
                space[ne] = q
                ne += 1
            elif col != BORDER and b.head[q] != head:
                ok = 0
                break
    for j in range(ne):
        stamp[space[j]] = gen
    if not ok:
        return 0
    return _space_eyes(b, space, ne, head)


cdef int _space_eyes(const board_t *b, const int *space, int ne, int head) noexcept nogil:
    """Eyes that an enclosed empty area (space[:ne]) touching only the string `head` gives it:
    1 for at most 3 points or a killing shape (square four, pyramid four, bulky / crossed
    five, rabbity six), 2 for 7 points or more; the other fours to sixes give 2 too, except
    in the corner (a point of the space on two edges), where a four gives 1 (the bent four in
    the corner is a ko) and a five or six gives 2 only with two liberties of the string
    outside the space (the rectangular six in the corner short of liberties dies or is a ko:
    maeda-5k-1k/052, white's string after F16 and C17)."""
    cdef int k, j, p, deg, edges = 0, maxdeg = 0, inside = 0, borders, near, corner = 0
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    if ne <= 3:
        return 1
    if ne >= 7:
        return 2
    for k in range(ne):
        deg = _degree(space, ne, k, b.W)
        edges += deg
        if deg > maxdeg:
            maxdeg = deg
        p = space[k]
        borders = 0
        near = 0
        for j in range(4):
            if b.color[p + d[j]] == BORDER:
                borders += 1
            elif b.color[p + d[j]] != EMPTY:
                near = 1
        inside += near
        if borders >= 2:
            corner = 1
    edges //= 2
    if _killing_shape(ne, edges, maxdeg) or (ne == 4 and edges == 4):
        return 1
    if corner and (ne == 4 or b.libs[head] - inside < 2):
        return 1
    return 2


cdef bint eyes_alive(const board_t *b, const int *heads, int nheads, int *stamp, int gen) noexcept nogil:
    """One of the target strings (heads) has two eyes: the empty areas next to it that touch no
    other stone (at most MAX_ENCLOSED points each) give it at least 2 eyes by _area_eyes.  Such a
    string lives: the opponent cannot fill the areas (each is an eye whatever it plays inside,
    and the string has no other string to lose).  gen: a fresh stamp; gen + 1 is used too (the
    caller's counter must pass it)."""
    cdef int j, k, h, p, q, eyes
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    for j in range(nheads):
        h = heads[j]
        eyes = 0
        p = h
        while True:
            for k in range(4):
                q = p + d[k]
                if b.color[q] == EMPTY and stamp[q] != gen:
                    eyes += _area_eyes(b, q, h, stamp, gen)
                    if eyes >= 2:
                        return True
            p = b.next[p]
            if p == h:
                break
    return False


# ------------------------------------------------------------------------ linked strings

cdef enum:
    MAX_REGION = 32            # points of a region looked at for a linked group's eye
    MAX_LINK_LIBS = 64         # liberties of a string looked at for links


cdef inline int _slot(const int *heads, int n, int h) noexcept nogil:
    """Index of h in heads[:n], or -1."""
    cdef int j
    for j in range(n):
        if heads[j] == h:
            return j
    return -1


cdef bint _link_point(const board_t *b, int x, int a, int c, int *stamp, int gen) noexcept nogil:
    """Empty x may hold a link between the strings with heads a and c: not reserved yet (stamp
    gen), next to both, and next to no other string of their colour."""
    cdef int k, q, h, col = b.color[a], ta = 0, tc = 0
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    if stamp[x] == gen:
        return False
    for k in range(4):
        q = x + d[k]
        if b.color[q] == col:
            h = b.head[q]
            if h == a:
                ta = 1
            elif h == c:
                tc = 1
            else:
                return False
    return ta and tc


cdef int _linked(const board_t *b, int seed, int *group, int *stamp, int gen) noexcept nogil:
    """The strings linked to the string at `seed`, heads into group (seed's first); returns
    their number.  A string joins when it shares two liberties with a string already in (a
    miai: the opponent takes one, the defender connects at the other); each pair is reserved
    (stamped gen) and serves one link, so one move never threatens two links."""
    cdef int libs[MAX_LINK_LIBS]
    cdef int n = 1, i = 0, nl, j, m, k, q, a, c, x, col = b.color[seed]
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    group[0] = b.head[seed]
    while i < n:
        a = group[i]
        i += 1
        nl = board_liberties(b, a, libs, MAX_LINK_LIBS)
        for j in range(nl):
            x = libs[j]
            for k in range(4):
                q = x + d[k]
                if stamp[x] == gen or n == MAX_LINKED:
                    break
                if b.color[q] != col:
                    continue
                c = b.head[q]
                if c == a or _slot(group, n, c) >= 0 or not _link_point(b, x, a, c, stamp, gen):
                    continue
                for m in range(j + 1, nl):
                    if _link_point(b, libs[m], a, c, stamp, gen):
                        stamp[x] = gen
                        stamp[libs[m]] = gen
                        group[n] = c
                        n += 1
                        break
    return n


cdef int linked_strings(const board_t *b, int seed, int *group, int *stamp, int gen) noexcept nogil:
    """`_linked` for other modules (tactics.dfpn): the heads of the strings linked to seed's."""
    return _linked(b, seed, group, stamp, gen)


cdef int _linked_area_eyes(const board_t *b, int start, const int *group, int n, int *stamp,
                           int gen) noexcept nogil:
    """Eyes that the region of empty `start` (the empty points and attacker stones connected
    to it through empty points and attacker stones) gives the linked group (heads group[:n],
    links reserved with stamp gen): 0 when it holds a reserved point, touches a defender
    string outside the group, meets a region given up before (stamp gen + 1) or has more than
    MAX_REGION points; an empty area touching one string of the group, 1 or 2 by
    `_space_eyes`; else 1 when every empty point of it is next to a stone of the group (a
    vital region as Benson's: the opponent cannot fill its last point), else 0.  Stamps its
    points gen + 1 (gen + 2 while the flood runs)."""
    cdef int space[MAX_REGION]
    cdef int ne = 0, i = 0, p, q, k, j, ok = 1, col, h
    cdef int first = 0, several = 0, small = 1, near, stones = 0
    cdef int defender = b.color[group[0]]
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    if stamp[start] == gen:
        return 0
    stamp[start] = gen + 2
    space[ne] = start
    ne += 1
    while i < ne and ok:
        p = space[i]
        i += 1
        near = 0
        for k in range(4):
            q = p + d[k]
            col = b.color[q]
            if col == defender:
                h = b.head[q]
                if _slot(group, n, h) < 0:
                    ok = 0                          # a defender string outside the group
                    break
                near = 1
                if first == 0:
                    first = h
                elif h != first:
                    several = 1
            elif col != BORDER:
                if stamp[q] == gen + 2:
                    continue
                if stamp[q] == gen or stamp[q] == gen + 1 or ne == MAX_REGION:
                    ok = 0                          # a link point, a region given up, too big
                    break
                stamp[q] = gen + 2
                space[ne] = q
                ne += 1
        if b.color[p] == EMPTY:
            if not near:
                small = 0
        else:
            stones = 1
    for j in range(ne):
        stamp[space[j]] = gen + 1
    if not ok or first == 0:
        return 0
    if not several and not stones and ne <= MAX_ENCLOSED:
        return _space_eyes(b, space, ne, first)
    return 1 if small else 0


cdef bint linked_alive(const board_t *b, const int *heads, int nheads, int *stamp, int *gen) noexcept nogil:
    """A target string (heads) lives with the strings linked to it (`_linked`): the group's
    enclosed regions give it two eyes (`_linked_area_eyes`).  The defender answers a move on a
    link's point at the other one and never fills a region: every string keeps two liberties
    while a link is open, and once all are closed the group is one string that the opponent
    cannot fill to its last liberty.  Uses the stamps *gen + 1 to *gen + 3 per group tried and
    advances *gen past them."""
    cdef int group[MAX_LINKED]
    cdef int tried[MAX_LINKED]
    cdef int ntried = 0, j, i, n, eyes, p, q, k, g
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    for j in range(nheads):
        if _slot(tried, ntried, heads[j]) >= 0:
            continue
        g = gen[0] + 1
        gen[0] += 3
        n = _linked(b, heads[j], group, stamp, g)
        eyes = 0
        for i in range(n):
            if ntried < MAX_LINKED and _slot(tried, ntried, group[i]) < 0:
                tried[ntried] = group[i]
                ntried += 1
            p = group[i]
            while True:
                for k in range(4):
                    q = p + d[k]
                    if b.color[q] == EMPTY and stamp[q] != g + 1:
                        eyes += _linked_area_eyes(b, q, group, n, stamp, g)
                        if eyes >= 2:
                            return True
                p = b.next[p]
                if p == group[i]:
                    break
    return False


def two_eyes(board, vertex):
    """Python face of eyes_alive for tests: does the string at `vertex` (GTP or flat) have two
    eyes in enclosed empty areas of its own?"""
    return _python_face(board, vertex, False)


def two_eyes_linked(board, vertex):
    """Python face of linked_alive for tests: does the string at `vertex` (GTP or flat) live by
    two eyes with the strings linked to it?"""
    return _python_face(board, vertex, True)


cdef bint _python_face(Board board, object vertex, bint linked) except -1:
    """eyes_alive (linked: linked_alive) on the string at `vertex`, with a stamp array of its own."""
    cdef int s = board._stone(vertex)
    cdef int heads[1]
    cdef int gen = 1
    cdef int *stamp = <int *>calloc(MAX_POINTS, sizeof(int))
    if stamp == NULL:
        raise MemoryError()
    heads[0] = board.b.head[s]
    try:
        if linked:
            return linked_alive(&board.b, heads, 1, stamp, &gen)
        return eyes_alive(&board.b, heads, 1, stamp, gen)
    finally:
        free(stamp)
