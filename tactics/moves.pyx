# cython: language_level=3
"""Move generation of the df-pn search (tactics.dfpn): which moves a node searches, and in
which order.

Start reading at `gen_moves`.  A node's moves are the legal empty points of the region (with
`reach`, only those in focus: within two steps through empty points of a current defender
stone, or liberties of weak attacker strings next to the defender), best first by `_score`
(captures, liberties of the target, escapes from atari, points next to many empty points;
self-ataris last but kept, as throw-ins), then the pass.  Selective searches (owl) keep only
the `width` best of the defender's moves and the `attack_width` best of the attacker's below
the root, and try the killer first.  `target_heads` finds the target group's standing strings
for the search's knowledge (tactics.dfpn `evaluate`) and for the ordering.  `unplayed_libs`
reads what a move does to the target strings' liberties without playing it, for df-pn's scan
of a node's children (tactics.dfpn `mid`).
"""

from tactics.board cimport (board_t, EMPTY, BORDER, PASS, NO_POINT, MAX_POINTS,
                            board_neighbour_heads)
from tactics.strings cimport board_approx_liberties
from libc.string cimport memset
from tactics.dfpn cimport search_t, DF_MAX_REGION

cdef int GEN_WRAP = 2000000000   # s.gen restarts from 0 above this (stamps are compared by order in
                                # benson)

cdef int KILLER_BONUS = 200      # move-ordering bonus of the last winning move at the same depth
                                # (killer heuristic; vie.tst at 2 s: the same 31/53, 10-60% fewer
                                # nodes on the solved tests, e.g. 8: 18210 against 43849 without, 5:
                                # 730230 against 964062); selective (owl, width > 0) searches only:
                                # in full tsumego searches it costs 5 of 60 right (maeda-5k-1k +
                                # ishida-dan, first 30 each, at 300k nodes: 21 without, 16 with)


cdef inline int _add_head(search_t *s, int h, int n) noexcept nogil:
    """Appends h to s.theads[:n] unless it is there already; returns the new count."""
    cdef int j = 0
    while j < n and s.theads[j] != h:
        j += 1
    if j == n:
        s.theads[n] = h
        n += 1
    return n


cdef int target_heads(search_t *s) noexcept nogil:
    """Fills s.theads with the distinct heads of the defender strings standing on target points
    (the target group's surviving strings); returns their number (also s.ntheads).  While no
    defender stone has been captured since the root, every root string of the group stands
    (strings only merge), so one point of each is enough (s.treps).  With a tsumego's outside
    strings (escape_out < 0), a string joined to one (a liberty outside the region) is not at
    stake and is left out, unless it is the target's own (its joining out is the defender's
    escape, tactics.knowledge `slow_knowledge`): the attacker need not capture what stands with
    the open board, nor can it (maeda-10k-5k/101: black D7-E7 joins the outside stones C8-B9,
    and the corner's death would count as no kill; 079 and 139 are right by this rule)."""
    cdef board_t *b = s.b
    cdef int i, n = 0, j, first
    if b.prisoners[s.attacker] == s.root_captured:
        for i in range(s.ntreps):
            n = _add_head(s, b.head[s.treps[i]], n)
    else:
        for i in range(s.ntargets):
            if b.color[s.targets[i]] == s.defender:
                n = _add_head(s, b.head[s.targets[i]], n)
    if s.escape_out < 0 and n > 0:
        first = 1 if b.color[s.target] == s.defender else 0     # (theads[0] is then its head)
        j = first
        for i in range(first, n):
            if not joined_out(s, s.theads[i]):
                s.theads[j] = s.theads[i]
                j += 1
        n = j
    s.ntheads = n
    return n


cdef bint joined_out(search_t *s, int h) noexcept nogil:
    """The string with head h has a liberty outside the region (so it is joined to an outside
    string: the frame keeps every other liberty in the region)."""
    cdef board_t *b = s.b
    cdef int k = h, i, q
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    while True:
        for i in range(4):
            q = k + d[i]
            if b.color[q] == EMPTY and not s.inreg[q]:
                return True
        k = b.next[k]
        if k == h:
            return False


cdef bint is_target_head(search_t *s, int h) noexcept nogil:
    """h is one of the heads found by the last target_heads."""
    cdef int j
    for j in range(s.ntheads):
        if s.theads[j] == h:
            return True
    return False


cdef int _score(search_t *s, int p, int c) noexcept nogil:
    """Move-ordering score of legal p for c (higher first; needs target_heads for the target
    strings).  The captures are board_captures_of's count, taken in this neighbour loop rather
    than by a second walk over the neighbours: 1.03-1.05x the search's speed at 10 M positions
    (bench/solver_speed.py, the same searches)."""
    cdef board_t *b = s.b
    cdef int k, n, h, col, score = 0, empties = 0, libs_after = 0, caps = 0, natari = 0
    cdef int d[4]
    cdef int atari[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    atari[0] = atari[1] = atari[2] = NO_POINT       # (no string's head)
    for k in range(4):
        n = p + d[k]
        col = b.color[n]
        if col == EMPTY:
            empties += 1
        elif col == c:
            libs_after += b.libs[b.head[n]] - 1
            if b.libs[b.head[n]] == 1:
                score += 30
        elif col != BORDER:
            h = b.head[n]
            if is_target_head(s, h):
                score += 40
            if b.libs[h] == 2:
                score += 10
            elif b.libs[h] == 1 and h != atari[0] and h != atari[1] and h != atari[2]:
                atari[natari] = h                   # captured (board_captures_of, inline)
                natari += 1
                caps += b.nstones[h]
    if caps:
        score += 60 + caps
    libs_after += empties
    score += 3 * empties
    if caps == 0 and libs_after <= 1:
        score -= 25
    return score


cdef bint _weak_next_to(search_t *s, int p, int weak) noexcept nogil:
    """Empty p is a liberty of an attacker string with at most `weak` liberties, a stone in
    the region and a stone next to a defender stone.  Each string is walked once per
    gen_moves call: its head's stamp is gen (it qualifies) or gen - 1 (it does not)."""
    cdef board_t *b = s.b
    cdef int i, j, h, k
    cdef bint inside, touches
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    for i in range(4):
        if b.color[p + d[i]] != s.attacker:
            continue
        h = b.head[p + d[i]]
        if b.libs[h] > weak or s.stamp[h] == s.gen - 1:
            continue
        if s.stamp[h] == s.gen:
            return True
        inside = False
        touches = False
        k = h
        while True:
            inside = inside or s.inreg[k]
            if not touches:
                for j in range(4):
                    if b.color[k + d[j]] == s.defender:
                        touches = True
            if inside and touches:
                s.stamp[h] = s.gen
                return True
            k = b.next[k]
            if k == h:
                break
        s.stamp[h] = s.gen - 1
    return False


cdef bint _in_focus(search_t *s, int p, int weak) noexcept nogil:
    """Empty p is reached from a defender stone by a path of at most `reach` (1 or 2) steps
    through empty points, or is a liberty of a weak attacker string next to the defender
    (_weak_next_to)."""
    cdef board_t *b = s.b
    cdef int i, j, q
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    for i in range(4):
        if b.color[p + d[i]] == s.defender:
            return True
    if s.reach >= 2:
        for i in range(4):
            q = p + d[i]
            if b.color[q] == EMPTY:
                for j in range(4):
                    if b.color[q + d[j]] == s.defender:
                        return True
    return _weak_next_to(s, p, weak)


cdef inline int _insert(search_t *s, int *out, int *scores, int n, int p, int c) noexcept nogil:
    """Inserts legal p for c into out[:n] by its `_score` (scores alongside); returns n + 1."""
    cdef int j = n, sc = _score(s, p, c)
    if s.width and p == s.killer[s.depth]:
        sc += KILLER_BONUS
    while j > 0 and scores[j - 1] < sc:
        scores[j] = scores[j - 1]
        out[j] = out[j - 1]
        j -= 1
    scores[j] = sc
    out[j] = p
    return n + 1


cdef inline int _grow_point(search_t *s, int *out, int *scores, int n, int p, int weak) noexcept nogil:
    """gen_moves' filters for a grown point p (empty, out of the root's region, not yet seen)."""
    cdef int c = s.b.to_move
    if s.inreg[p] or s.gstamp[p] == s.ggen or s.b.color[p] != EMPTY or n >= DF_MAX_REGION:
        return n
    s.gstamp[p] = s.ggen
    if s.reach and not _in_focus(s, p, weak):
        return n
    if not legal(s, p, c):
        return n
    return _insert(s, out, scores, n, p, c)


cdef int _grow_from(search_t *s, int *out, int *scores, int n, int h, int weak, int g) noexcept nogil:
    """The grown points around the string with head h: within g steps (Manhattan) of its
    stones, and the liberties of the attacker strings next to it with at most 2 liberties
    (a capture that gives the goal room: owl's lunches)."""
    cdef board_t *b = s.b
    cdef int k = h, dr, dc, p, i, a, q, row, col, span
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    while True:
        row = k // b.W
        col = k % b.W
        for dr in range(-g, g + 1):
            if row + dr < 1 or row + dr > b.size:
                continue
            span = g - (dr if dr > 0 else -dr)
            for dc in range(-span, span + 1):
                if col + dc < 1 or col + dc > b.size:
                    continue
                p = k + dr * b.W + dc
                if b.color[p] == EMPTY:
                    n = _grow_point(s, out, scores, n, p, weak)
        for i in range(4):
            a = k + d[i]
            if b.color[a] == s.attacker and b.libs[b.head[a]] <= 2:
                q = b.head[a]
                while True:                         # the weak string's liberties
                    for dr in range(4):
                        if b.color[q + d[dr]] == EMPTY:
                            n = _grow_point(s, out, scores, n, q + d[dr], weak)
                    q = b.next[q]
                    if q == b.head[a]:
                        break
        k = b.next[k]
        if k == h:
            return n


cdef int _grown_moves(search_t *s, int *out, int *scores, int n, int weak) noexcept nogil:
    """The moves of the grown region (s.grow, owl) added to out[:n]: around the goal, the target
    strings standing now (they grow as the defender connects and captures: target_heads).  The
    points are a function of the position alone, so the table stays sound.  Not grown around the
    defender's other stones played since the root (GNU Go's owl adds its own moves to the goal):
    grown around them, or around those that captured, the reading finds kills (owl-dev.tst 89,
    93) but finishes fewer of its other answers (docs/results.md "Ideas measured and not kept")."""
    cdef int j
    s.ggen += 1
    if s.ggen > GEN_WRAP:
        memset(s.gstamp, 0, MAX_POINTS * sizeof(int))
        s.ggen = 1
    for j in range(s.ntheads):
        n = _grow_from(s, out, scores, n, s.theads[j], weak, s.grow)
    return n


cdef int gen_moves(search_t *s, int *out) noexcept nogil:
    """Legal moves of the side to move in the region (within focus when s.reach), best first,
    then the pass (the attacker's only when the ko bans it or it has no other move).  Focus:
    points within `reach` of a defender stone, and the liberties of attacker strings with at
    most two liberties (three at the root) next to the defender.  With s.root_extra, the root's
    moves are the region points out of focus instead, and no pass (a fail's second look); the
    root never plays s.root_skip."""
    cdef board_t *b = s.b
    cdef int i, p, n = 0, c = b.to_move, cap
    cdef int scores[DF_MAX_REGION + 1]
    # at the root also 3 liberties: the book answer lies outside the focus in 38 of the 668
    # problems, e.g. maeda-10k-5k/152 S18, 4 empty steps from every black stone but next to two
    # white 3-liberty stones (10 s, the 242 problems whose root moves it changes: 144 right
    # against 139 with 2; at 2 M nodes 352 of 668 against 354)
    cdef int weak = 3 if s.depth == 0 else 2
    cdef bint extra = s.root_extra != 0 and s.depth == 0     # the second look: out of focus only
    target_heads(s)
    if s.gen > GEN_WRAP:
        memset(s.stamp, 0, MAX_POINTS * sizeof(int))   # (a 13-minute search: benson compares marks
                                                       # by order)
        s.gen = 0
    s.gen += 2                                      # _weak_next_to stamps gen - 1 and gen
    for i in range(s.nregion):
        p = s.region[i]
        if b.color[p] != EMPTY:
            continue
        if s.reach and _in_focus(s, p, weak) == extra:
            continue                                # out of focus (extra: in focus)
        if s.depth == 0 and p == s.root_skip:
            continue
        if not legal(s, p, c):
            continue
        n = _insert(s, out, scores, n, p, c)
    if s.grow and not extra:
        n = _grown_moves(s, out, scores, n, weak)
    cap = s.width if c == s.defender else s.attack_width
    if cap and n > cap and s.depth > 0:
        n = cap                                     # selective search (dfpn width=, attack_width=)
    if extra:
        return n                                    # no pass in the second look
    # The attacker never passes, but for want of a ko threat (the ko bans it) or with no other
    # move: its pass is dominated.  The defender may pass back (the same position, the attacker
    # to move again) or play on with a free move, and two passes end the game as its win, so a
    # pass cannot win anything the attacker's other moves do not.  2 M nodes: 373 of 668 right
    # against 368 with the attacker's passes (unknown 275 against 286); ishigure-basic/074
    # (tests/test_solver.py).
    if c == s.attacker and n > 0 and not (b.ko != NO_POINT and b.ko_color == c):
        return n
    out[n] = PASS
    return n + 1


cdef int _joined_libs(board_t *b, int p, int c, int most) noexcept nogil:
    """The liberties of c's string after c plays empty p, captures aside: exact up to 6, or
    any count <= most when they are at most `most`.  Joining one string: its liberties but p,
    and p's empty neighbours that are not already its liberties; joining more: bounds first
    (the most of any one, the sum), then tactics.board's count."""
    cdef int k, j, q, y, h, l, lo = 0, hi = 0, e = 0, n, fresh = 0
    cdef int heads[4]
    cdef int empties[4]
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    for k in range(4):
        q = p + d[k]
        if b.color[q] == EMPTY:
            empties[e] = q
            e += 1
    n = board_neighbour_heads(b, p, c, heads)
    for k in range(n):
        l = b.libs[heads[k]] - 1
        hi += l
        if l > lo:
            lo = l
    if n == 1:
        h = heads[0]
        for k in range(e):
            fresh += 1
            for j in range(4):
                y = empties[k] + d[j]
                if b.color[y] == c and b.head[y] == h:
                    fresh -= 1                      # already a liberty of the string
                    break
        return b.libs[h] - 1 + fresh
    hi += e
    if e > lo:
        lo = e
    if lo >= 6 or hi <= most:
        return lo if lo >= 6 else hi
    return board_approx_liberties(b, p, c, 6)


cdef bint unplayed_libs(search_t *s, int p, int c, int *L) noexcept nogil:
    """df-pn's scan of a node's children without playing them (tactics.dfpn mid), for c's move
    p that captures nothing (not a pass; the caller knows it from tactics.dfpn `_child_key`,
    so p's key is known, no ko follows and every target string stands): True when it leaves
    the cheap tests of evaluate nothing to find (the defender's move leaves a target string
    with 2 liberties or more); *L is then the target strings' most liberties after it, exact
    up to 6 (tactics.dfpn `_leaf`'s input, as `_initial` reads it off the played board).
    False: mid plays the move.  Needs target_heads.  Checked against playing the moves:
    tactics.dfpn df_scan_check.  The adjacency tests are written out here, not
    board_neighbour_heads: it costs 5% of the search's speed on this hot path."""
    cdef board_t *b = s.b
    cdef int j, k, h, l, most = 0
    cdef bint adj, joins = False
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    if c == s.defender and b.prisoners[s.attacker] != s.root_captured:
        for j in range(s.ntargets):
            if s.targets[j] == p:
                return False                        # a new target string where one was captured
    for j in range(s.ntheads):
        h = s.theads[j]
        adj = False
        for k in range(4):
            if b.color[p + d[k]] == s.defender and b.head[p + d[k]] == h:
                adj = True
        if c == s.attacker:
            l = b.libs[h] - (1 if adj else 0)
        elif adj:
            joins = True                            # p joins it: counted below
            continue
        else:
            l = b.libs[h]
        if l > most:
            most = l
    if joins and most < 6:
        l = _joined_libs(b, p, c, most)
        if l > most:
            most = l
    if c == s.defender and most < 2:
        return False                                # the attacker may capture at once: evaluate
    L[0] = most
    return True
