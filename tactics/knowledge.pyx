# cython: language_level=3
"""The costlier half of the life-and-death search's knowledge at a node (tactics.dfpn
`evaluate` runs the cheap tests: capture, atari, two passes): escapes, eye space, two eyes and
Benson's unconditional life.

The tests, in order: optionally (owl) a string of the group with `escape_libs` liberties, or
(`escape_out`) with that many liberties outside the region = defender win (with owl's escape
values, `s.escape`, only when the escape potential also reaches `escape_min` and the capture
search takes no string of the group: `_escape_potential`, `_uncapturable`; and, the defender to
move two plies or more below the root, that potential and no capture alone are an escape,
`_escaped`, as GNU Go's owl asks `owl_escape_route`) (`escape_out` < 0, for a
tsumego's outside strings: the first target string only, which with the attacker to move has
also escaped when it joins an outside string by miai, `_joins_out`: maeda-10k-5k/139's proof
after A12 in 6.6 M positions instead of 14.9 M); every area of the group with too little eye
space (`_too_small`, tactics.eyes: small spaces and nakade shapes) = attacker win (after the
escapes: an escaped string's eye space does not matter); a target string with two eyes, with the
strings linked to it by miai pairs of common liberties (`linked_alive`, tactics.eyes: big or
living-shape areas and vital regions that Benson does not see; it sees every life that
`eyes_alive`, one string's enclosed areas, sees, so that one is not asked: tests/test_eyes.py) =
defender win; a string of the group Benson-alive = defender win (Benson runs on the region only
when every defender stone lies in it, and only when a target string has two vital regions to
begin with, `benson_vital_regions`: it rarely finds life).  The eye-space, escape and Benson
tests are most of the cost of a node, so tactics.dfpn's `mid` runs them when it first expands a
node, not on every child it generates (the cheap tests still run there), and the tests of life
(two eyes, Benson) only with the attacker to move: after an attacker's move they almost never
fire, and the defender's next move finds the life a ply later (1.10-1.14x the nodes per second
at 10 s; docs/results.md).

Start reading at `slow_knowledge`.
"""

from tactics.board cimport (board_t, EMPTY, MAX_POINTS)
from tactics.strings cimport board_liberties
from tactics.benson cimport benson, benson_vital_regions
from tactics.dfpn cimport search_t
from tactics.eyes cimport eyes_dead, linked_alive, linked_strings, MAX_LINKED
from tactics.moves cimport joined_out
from tactics.capture cimport (capture_params_t, capture_default_params, capture_attack_c,
                              CAPTURE_FAIL)

cdef enum:
    ESCAPE_DIST = 4            # the flood sums the escape values at this distance (GNU Go's
                               # dragon_escape) and of the goal's own stones (a friendly string
                               # that lives, joined)
    ESCAPE_DEPTH = 2           # plies below the root before an escape counts (GNU Go's owl:
                               # stackp > 2), so a defence is still a move
    ESCAPE_CAPTURE_NODES = 1000    # the capture search's budget per target string
    ESCAPE_MAX_LIBS = 4        # target strings with more liberties are not read


cdef int _escape_potential(search_t *s) noexcept nogil:
    """GNU Go's dragon_escape on the current position: a flood from the target strings' stones
    through defender stones and through empty points none of whose neighbours is an attacker
    stone, for ESCAPE_DIST steps; the sum of the escape values (s.escape, the root's) of the
    points reached at that distance and of the goal's stones (0 but for a friendly string
    joined during the line)."""
    cdef board_t *b = s.b
    cdef int queue[MAX_POINTS]
    cdef int head = 0, tail = 0, j, k, i, p, q, dist, end, total = 0
    cdef bint ok
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    s.gen += 1
    for j in range(s.ntheads):
        k = s.theads[j]
        while True:
            s.stamp[k] = s.gen
            queue[tail] = k
            tail += 1
            total += s.escape[k]
            k = b.next[k]
            if k == s.theads[j]:
                break
    for dist in range(1, ESCAPE_DIST + 1):
        end = tail
        while head < end:
            p = queue[head]
            head += 1
            for i in range(4):
                q = p + d[i]
                if s.stamp[q] == s.gen:
                    continue
                if b.color[q] == EMPTY:
                    ok = True
                    for j in range(4):
                        if b.color[q + d[j]] == s.attacker:
                            ok = False
                    if not ok:
                        continue
                elif b.color[q] != s.defender:
                    continue
                s.stamp[q] = s.gen
                queue[tail] = q
                tail += 1
                if dist == ESCAPE_DIST:
                    total += s.escape[q]
    return total


cdef bint _escaped(search_t *s) noexcept nogil:
    """The defender (to move) has escaped: the escape potential reaches escape_min and the
    capture search takes no target string (`_uncapturable`)."""
    if _escape_potential(s) < s.escape_min:
        return False
    return _uncapturable(s)


cdef bint _uncapturable(search_t *s) noexcept nogil:
    """The capture search, the attacker to move, takes none of the target strings (an escape
    that a capture refutes is none); strings of more than ESCAPE_MAX_LIBS liberties are not read.
    Its positions count in s.nodes."""
    cdef capture_params_t cp
    cdef int j, mv, nodes, r
    s.escape_tries += 1
    capture_default_params(&cp)
    cp.max_nodes = ESCAPE_CAPTURE_NODES
    cp.max_libs = ESCAPE_MAX_LIBS
    for j in range(s.ntheads):
        if s.b.libs[s.theads[j]] > ESCAPE_MAX_LIBS:
            continue
        r = capture_attack_c(s.b, s.theads[j], &cp, NULL, &mv, &nodes)
        s.nodes += nodes                            # the search's limits count the reading
        if r != CAPTURE_FAIL:
            return False
    s.escape_hits += 1
    return True


cdef bint _too_small(search_t *s, int mover) noexcept nogil:
    """Too little eye space (needs target_heads): tactics.eyes.eyes_dead on the target strings."""
    s.gen += 1
    return eyes_dead(s.b, s.attacker, s.theads, s.ntheads, mover, s.stamp, s.gen)


cdef int _libs_outside(search_t *s, int h) noexcept nogil:
    """Liberties outside the region of the string with head h (stops counting at escape_out)."""
    cdef board_t *b = s.b
    cdef int k = h, i, n = 0, q
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    s.gen += 1
    while True:
        for i in range(4):
            q = k + d[i]
            if b.color[q] == EMPTY and not s.inreg[q] and s.stamp[q] != s.gen:
                s.stamp[q] = s.gen
                n += 1
                if n >= abs(s.escape_out):
                    return n
        k = b.next[k]
        if k == h:
            return n


cdef bint _joins_out(search_t *s, int h) noexcept nogil:
    """With the attacker to move, the string with head h escapes by miai: two of its liberties
    each touch an uncapturable defender string (one with a liberty outside the region, which
    no move fills: the attacker takes one point, the defender joins at the other), or a string
    linked to it by miai pairs (tactics.eyes.linked_strings: the defender answers every link)
    is uncapturable."""
    cdef board_t *b = s.b
    cdef int libs[MAX_POINTS]
    cdef int group[MAX_LINKED]
    cdef int nl = board_liberties(b, h, libs, MAX_POINTS), i, j, r, n = 0
    cdef int d[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    for i in range(nl):
        for j in range(4):
            r = libs[i] + d[j]
            if b.color[r] == s.defender and b.head[r] != h and joined_out(s, b.head[r]):
                n += 1
                if n >= 2:
                    return True
                break
    s.gen += 1
    n = linked_strings(b, h, group, s.stamp, s.gen)
    for j in range(1, n):
        if joined_out(s, group[j]):
            return True
    return False


cdef bint _may_live_benson(search_t *s) noexcept nogil:
    """Some target string (needs target_heads) has the two vital regions it needs to be Benson-alive
    (benson_vital_regions): a cheap test before benson, which rarely finds life in a search
    (0.4% of calls) and, asked without this test, takes a sixth of the search's time."""
    cdef int j
    for j in range(s.ntheads):
        if benson_vital_regions(s.b, s.defender, s.theads[j], s.bws, s.stamp, &s.gen, 2) >= 2:
            return True
    return False


cdef int _benson_alive(search_t *s) noexcept nogil:
    """A target string (needs target_heads) is Benson-alive: 1 the side to move wins, -1 it loses,
    0 none is."""
    cdef int j
    if not _may_live_benson(s):
        return 0
    if benson(s.b, s.defender, s.bws, NULL) > 0:
        for j in range(s.ntheads):
            if s.bws.chain_alive[s.bws.chain_of[s.theads[j]]]:
                return 1 if s.b.to_move == s.defender else -1
    return 0


cdef int slow_knowledge(search_t *s) noexcept nogil:
    """The costlier half of tactics.dfpn `evaluate` (needs target_heads): eye space, escapes, two
    eyes, Benson.  1 the side to move wins, -1 it loses, 0 unknown."""
    cdef int mover = s.b.to_move, j, nh = s.ntheads
    cdef bint refuted = False                   # _escaped was asked here and said no
    if s.escape_libs:
        for j in range(nh):
            if s.b.libs[s.theads[j]] >= s.escape_libs:
                return 1 if mover == s.defender else -1       # escaped (owl mode)
    if s.escape_out:
        # (escape_out < 0: target_heads left out the strings joined to an outside string but
        # the target's own, so only that one can have escaped here)
        for j in range(nh if s.escape_out > 0 else min(nh, 1)):
            if _libs_outside(s, s.theads[j]) >= abs(s.escape_out):
                if s.escape != NULL and not _escaped(s):
                    refuted = True
                    break                                     # out, but no open space, or captured
                return 1 if mover == s.defender else -1       # left the region (owl mode)
        if (s.escape_out < 0 and s.static_life and mover == s.attacker
                and s.b.color[s.target] == s.defender and _joins_out(s, s.theads[0])):
            return -1                                         # the target's own joins one by miai
    if (s.escape != NULL and mover == s.defender and s.depth >= ESCAPE_DEPTH and not refuted
            and _escaped(s)):
        return 1                                            # escaped (owl: a search, not a count)
    if s.depth > 0 and _too_small(s, mover):       # at the root a move is still wanted
        return 1 if mover == s.attacker else -1
    if mover == s.defender:
        # the tests of life below run with the attacker to move only: a move of the attacker
        # seldom makes the group alive, and the defender's next move (or pass) finds it a ply
        # later (on 58 problems, of 2.26 M calls with the defender to move eyes_alive finds
        # life 0 times, linked_alive 165, Benson 1841; run there, they take a fifth of the
        # search's time)
        return 0
    if s.static_life and s.depth > 0 and linked_alive(s.b, s.theads, nh, s.stamp, &s.gen):
        return -1                                           # two eyes, strings linked by miai
    return _benson_alive(s)
