# cython: language_level=3
"""Life-and-death search: depth-first proof-number search (df-pn, Nagai 2002) over the moves of
a region of interest, in the spirit of Kishimoto & Müller (2005), "Search versus knowledge for
solving life and death problems in Go".

Start reading at `mid`, the df-pn recursion (its parts: `_settled_on_entry`, `_score_child`,
`_best_child`, `_store_node`); `evaluate` is the knowledge at every node.  This
module is the search in C, without the GIL; its Python face is tactics.solver, whose `dfpn`
runs one search (`dfpn_resume` goes on with one stopped by its time limit, from its table),
and `solve` (tactics.problem) sets up a problem, runs the ko protocol and returns a
`Solution`.

The game: the *attacker* wins by capturing the target group (the stones given as `targets`, the
target string by default: every defender string standing on one of them must be captured); the
*defender* wins when one string of the group is unconditionally alive (Benson,
tactics.benson), when the attacker cannot make progress
(two passes in a row, a repeated position on the current line, or a line longer than
DF_MAX_DEPTH), or in seki (which therefore counts as a defender win).  Both sides may play the
empty points of the region; the defender may pass, the attacker only for want of a ko threat
(otherwise its pass is dominated, `gen_moves`); with `reach` set, only those in focus
(`gen_moves`: within two steps through empty points of a current defender stone, or liberties
of weak attacker strings next to the defender).  Proof numbers are for the side to move
(phi / delta form); a new leaf starts at (L, 1) with the attacker to move and (1, L) with the
defender to move, L the target's liberties (df-pn+ style, `_initial`).  Only a settled node
holds 0 or DF_INF: a sum of phi that reaches DF_INF without a settled child is capped at
DF_INF - 1 (sums blow up on transpositions; a saturated sum read as settled stalls the search:
maeda-10k-5k/027).

Knowledge at each node (`evaluate`): group captured = attacker win; a group of one string in
atari with the attacker to move and the capture legal = attacker win; two passes in a row =
defender win.  The costlier tests (escapes, eye space, two eyes, Benson) are tactics.knowledge
(`slow_knowledge`), which `mid` runs when it first expands a node, not on every child it
generates.  Move generation and ordering (children are tried in that order on ties):
tactics.moves (`gen_moves`).

Ko: the board bans the immediate recapture (simple ko).  `ko_ignore` names a colour that may
retake a ko at once, as if it had an unlimited supply of ko threats that the opponent answers.
tactics.problem combines two searches into GNU Go's WIN / KO_A / KO_B results.

Transposition table: 2^tt_bits entries (`_table`: huge pages where the kernel allows), always
replaced, keyed on the board's Zobrist hash xor keys for the side to move, the ko point and "the
last move was a pass", with its own key for a pass for want of a ko threat (`_banned_pass`: the
next pass does not end the search there, so the two nodes differ; with a shared key
maeda-10k-5k/107 loses its clean kill).  The table lives for one search and its ko_ignore mode has no
key: when the ko protocol's second search goes on from the first one's table, an entry stored
under the simple ko rule is read only if it proves that the side now allowed to retake wins
(`_probe`, `_holds`).
Graph-history interaction: a result that depends on the line (a repetition on the current
path, or the depth limit) is path-dependent, so a proof or disproof found while such a result was
seen in the subtree (`path_results` changed) is returned to the parent but stored in the table only
as a hint (phi, delta = 1, DF_HINT or DF_HINT, 1, with its best move for the PV); only
path-independent proofs are stored as proofs.

Simulation (Kawano 1996, one of TSUMEGO EXPLORER's enhancements): when a move is refuted, its
refutation is tried on each open sibling before the sibling is searched (`_simulate`): the
refuting side plays the moves the table holds for the refuted sibling's positions (their keys
differ from the new sibling's by the two stones, key ^ D) when gen_moves gives them there, the
other side every move it has.  Only the moves are borrowed, so a success is a proof like any
other, of the plain search's game (`sim` positions at most per try; measured at 10 s per
problem: docs/results.md).

Moves are made and unmade on the caller's board with board_play / board_undo; buffers are
allocated once per search; nothing is copied per node.  The search runs without the GIL.  A
table probe misses the cache, so mid computes every child's key before it reads any
(`_child_key`) and prefetches all their entries at once (1.24x the nodes per second,
bench/solver_speed.py).  Most children are scored without being played: a move that captures
nothing has that key, and its target liberties (the initial numbers) and the cheap tests
(none can fire) are read off the board (`tactics.moves.unplayed_libs`; captures, passes and the
defender's moves that leave a target string in atari are played).  The search is the same,
position for position (tactics.solver.scan_check checks the readings against the played
children); a child counts as a position when it is scored, played or not.  Table entries are
16 bytes, four to a cache line (the key's low 16 bits are the index's, so the best move,
side and ko mode take their place, `tt_entry`).
"""

from libc.stdint cimport uint64_t, uint32_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from tactics.board cimport (board_t, move_t, board_play_unchecked, board_undo, board_captures_of,
                            opponent, EMPTY, PASS, NO_POINT, MAX_POINTS, zobrist)
from tactics.knowledge cimport slow_knowledge
from tactics.moves cimport gen_moves, legal, target_heads, unplayed_libs

cdef extern from *:
    """
    /* a prefetch in a loop that does nothing else: GCC drops a plain __builtin_prefetch there */
    static inline void golois_prefetch(const void *p) {
    #if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
        __asm__ volatile("prefetcht0 (%0)" : : "r"(p));
    #else
        __builtin_prefetch(p);
    #endif
    }
    """
    void __builtin_prefetch(const void *addr) noexcept nogil   # a hint: load this line into the cache
    void golois_prefetch(const void *addr) noexcept nogil      # the same, never optimised away


cdef uint64_t side_key[3]
cdef uint64_t ko_key[MAX_POINTS]
cdef uint64_t pass_key


cdef uint64_t _mix(uint64_t *x) noexcept nogil:
    """Splitmix64 step: advances the state, returns the next key."""
    x[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef void _init_keys() noexcept nogil:
    """Fills the side / ko / pass keys once at import."""
    global pass_key
    cdef uint64_t st = 0x5EED5EED12345ULL
    cdef int i
    for i in range(3):
        side_key[i] = _mix(&st)
    for i in range(MAX_POINTS):
        ko_key[i] = _mix(&st)
    pass_key = _mix(&st)

_init_keys()


cdef inline double _now() noexcept nogil:
    """CLOCK_MONOTONIC seconds."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline bint _last_pass(search_t *s, int back) noexcept nogil:
    """The record `back` plies ago (1 = last) was a pass made during the search."""
    cdef int i = s.b.n_moves - back
    return i >= s.root_moves and s.b.moves[i].point == PASS


cdef inline bint _banned_pass_at(search_t *s, int back) noexcept nogil:
    """The pass `back` plies ago was played by a side the ko rule banned from retaking (and not
    ko_ignore): a pass for want of a ko threat."""
    cdef move_t *m = &s.b.moves[s.b.n_moves - back]
    return (m.ko_before != NO_POINT and m.ko_color_before == m.color
            and m.color != s.ko_ignore)


cdef inline bint _banned_pass(search_t *s) noexcept nogil:
    """The first of the last two passes was played by a side the ko rule banned from
    retaking (and not ko_ignore): it passed for want of a ko threat, the opponent passed instead
    of resolving the ko, and the ban is gone: the two passes do not end the game, the side may
    retake now.  (Otherwise a ko left open would count as the defender's life: maeda-10k-5k/003,
    where white's second eye at N1 stands only while the ko is open.)"""
    return _banned_pass_at(s, 2)


cdef inline uint64_t _ko_part(int ko, int ko_color) noexcept nogil:
    """What a ko point banned to ko_color adds (xor) to a table key (_key, _child_key)."""
    return ko_key[ko] ^ side_key[ko_color] * 3


cdef inline uint64_t _key(search_t *s) noexcept nogil:
    """Table key of the current node (hash, side, ko, last move a pass, for want of a ko
    threat or not); never 0."""
    cdef board_t *b = s.b
    cdef uint64_t k = b.hash ^ side_key[b.to_move]
    if b.ko != NO_POINT:
        k ^= _ko_part(b.ko, b.ko_color)
    if _last_pass(s, 1):
        # a pass for want of a ko threat (_banned_pass) does not let the next pass end the
        # search: its node is another node than after a plain pass (maeda-10k-5k/107)
        k ^= pass_key * 5 if _banned_pass_at(s, 1) else pass_key
    return k if k != 0 else 1


cdef inline void _play(search_t *s, int p, int c) noexcept nogil:
    """Make a move known legal for `legal` (lifting the ko ban for ko_ignore)."""
    cdef board_t *b = s.b
    cdef undo_t *u = &s.undo[s.depth]
    u.forced = 0
    if p != PASS and p == b.ko and c == b.ko_color:
        u.forced = 1
        u.ko = b.ko
        u.ko_color = b.ko_color
        b.ko = NO_POINT
        b.ko_color = EMPTY
    board_play_unchecked(b, p, c)
    if b.ko != NO_POINT:
        s.ko_seen = 1
    s.nodes += 1


cdef inline void _unplay(search_t *s) noexcept nogil:
    """Takes back the move made by _play at this depth (the ko ban restored)."""
    cdef undo_t *u = &s.undo[s.depth]
    board_undo(s.b)
    if u.forced:
        s.b.ko = u.ko
        s.b.ko_color = u.ko_color


cdef int evaluate(search_t *s, bint full) noexcept nogil:
    """Knowledge at the current node: 1 the side to move wins, -1 it loses, 0 unknown.
    The target group: every defender string standing on a root stone of the group.  Without
    `full` only the cheap tests run (capture, two passes, atari); tactics.knowledge's
    `slow_knowledge` is left to mid's first visit of the node."""
    cdef board_t *b = s.b
    cdef int mover = b.to_move, h, k, lib = 0, nh, j
    cdef int d[4]
    nh = target_heads(s)
    if nh == 0:
        return 1 if mover == s.attacker else -1
    if _last_pass(s, 1) and _last_pass(s, 2) and not _banned_pass(s):
        return 1 if mover == s.defender else -1
    h = s.theads[0]
    if mover == s.attacker and nh == 1 and b.libs[h] == 1:
        d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
        # find the liberty: walk the string
        k = h
        while lib == 0:
            for i in range(4):
                if b.color[k + d[i]] == EMPTY:
                    lib = k + d[i]
                    break
            k = b.next[k]
            if k == h and lib == 0:
                break
        if lib != 0 and legal(s, lib, mover):
            return 1
    if full:
        return slow_knowledge(s)
    return 0


cdef inline void _leaf(search_t *s, int side, int most, uint32_t *phi, uint32_t *delta) noexcept nogil:
    """Initial proof numbers of a new leaf with `side` to move (df-pn+): the target strings'
    most liberties L (`most`, taken as 1 to 6) make the attacker's proof cost about L and the
    defender's about 1 (phi for the side to move)."""
    cdef uint32_t L = <uint32_t>(6 if most > 6 else (1 if most < 1 else most))
    if side == s.attacker:
        phi[0] = L
        delta[0] = 1
    else:
        phi[0] = 1
        delta[0] = L


cdef inline void _initial(search_t *s, uint32_t *phi, uint32_t *delta) noexcept nogil:
    """Initial proof numbers of the current node, a new leaf (after evaluate: needs
    target_heads), by _leaf."""
    cdef int j, most = 0
    for j in range(s.ntheads):
        if s.b.libs[s.theads[j]] > most:
            most = s.b.libs[s.theads[j]]
    _leaf(s, s.b.to_move, most, phi, delta)


cdef inline tt_entry *_probe(search_t *s, uint64_t key) noexcept nogil:
    """The table entry of key, or NULL.  An entry stored under another ko rule than the search's
    now (the ko protocol's second search goes on from the first one's table, tactics.solver
    dfpn_ko) is read only when it still holds (`_holds`)."""
    cdef tt_entry *e = &s.tt[key & s.tt_mask]
    if ((e.tag ^ key) & ~(<uint64_t>TT_LOW)) == 0 and (e.tag & TT_USED) and (
            tt_ko_ignore(e) == s.ko_ignore or _holds(e, s.ko_ignore)):
        return e
    return NULL


cdef inline bint _holds(tt_entry *e, int ko_ignore) noexcept nogil:
    """An entry of a search under the simple ko rule still holds with `ko_ignore`: it proves
    that ko_ignore's side wins.  That side may now retake at once, an option added to those it
    had, and its opponent's options are unchanged, so such a proof stands (the table holds
    path-independent proofs only, hints aside; where the proof's best move is a pass for want
    of a threat, the immediate retake wins instead).  Every other entry is read as absent: the
    opponent's proofs may rest on the retakes it was spared, and the open nodes' numbers,
    read for the first search's question, mislead the second as often as they help (measured
    with them kept, and with the opponent's proofs kept as hints: docs/results.md)."""
    return (e.phi == 0 and tt_side(e) == ko_ignore) or (e.delta == 0 and tt_side(e) != ko_ignore)


cdef inline void _store(search_t *s, uint64_t key, uint32_t phi, uint32_t delta, int best) noexcept nogil:
    """Writes the entry of key (always replaces)."""
    cdef tt_entry *e = &s.tt[key & s.tt_mask]
    e.tag = ((key & ~(<uint64_t>TT_LOW)) | TT_USED | (<uint64_t>s.ko_ignore << 12)
             | (<uint64_t>s.b.to_move << 10) | <uint64_t>(best + 1))
    e.phi = phi
    e.delta = delta


cdef inline int _cycle_start(search_t *s, uint64_t key) noexcept nogil:
    """The depth of the current line's ancestor (0 .. depth-1) with this key, or -1."""
    cdef int i
    for i in range(s.depth):
        if s.path[i] == key:
            return i
    return -1


cdef inline bint _ko_ignore_stuck(search_t *s, int start) noexcept nogil:
    """The defender, allowed to retake kos at once (ko_ignore), retook in the moves start ..
    depth-1 that led back to an earlier position: it spent a ko threat on every turn of the
    cycle while the attacker spent none (its turns were passes or moves elsewhere), so it
    cannot win that ko: the cycle is an attacker win (maeda-10k-5k/003: the defender's eye
    at N1 only stands while it keeps retaking)."""
    cdef int i
    if s.ko_ignore != s.defender:
        return False
    for i in range(start, s.depth):
        if s.undo[i].forced:
            return True
    return False


cdef inline void _check_limits(search_t *s) noexcept nogil:
    """Sets s.aborted when the node or time limit is reached."""
    s.iters += 1
    if s.nodes >= s.max_nodes:
        s.aborted = 1
    elif (s.iters & 255) == 0 and _now() > s.deadline:
        s.aborted = 1


cdef inline uint64_t _child_key(search_t *s, int p, int c, int *captured) noexcept nogil:
    """The table key _key gives after c plays p (not PASS; known legal, ko_ignore aside), found
    without playing it: the stones' hash with the new stone and without the strings it captures,
    the other side to move, the ko point if it takes a ko (one stone captured by a lone stone
    left with one liberty: the board's rule), no pass.  *captured: the stones it captures."""
    cdef board_t *b = s.b
    cdef int o = opponent(c), j, m, q, h, x, nseen = 0, ncap = 0, last = NO_POINT
    cdef uint64_t k = b.hash ^ side_key[o] ^ zobrist[c][p]
    cdef bint lone = True, dup
    cdef int d[4]
    cdef int seen[4]
    d[0] = -1; d[1] = 1; d[2] = -b.W; d[3] = b.W
    for j in range(4):
        q = p + d[j]
        if b.color[q] == c or b.color[q] == EMPTY:
            lone = False                            # a friend or a liberty of its own: no ko
        elif b.color[q] == o and b.libs[b.head[q]] == 1:
            h = b.head[q]
            dup = False
            for m in range(nseen):
                if seen[m] == h:
                    dup = True
            if not dup:
                seen[nseen] = h
                nseen += 1
                x = h
                while True:                         # the captured string leaves the hash
                    k ^= zobrist[o][x]
                    ncap += 1
                    last = x
                    x = b.next[x]
                    if x == h:
                        break
    if ncap == 1 and lone:
        k ^= _ko_part(last, o)
    captured[0] = ncap
    return k if k != 0 else 1


cdef inline void _prefetch_children(search_t *s, int *mv, int n, int c, uint64_t *keys) noexcept nogil:
    """Starts loading the table entries of the children (`_child_key`) all at once, before mid
    reads them one by one: each probe is a cache miss, and this way they overlap.  keys[i] is
    the key of a move that captures nothing, 0 for a pass or a capture (mid plays those)."""
    cdef int i, captured
    for i in range(n):
        keys[i] = 0
        if mv[i] != PASS:
            keys[i] = _child_key(s, mv[i], c, &captured)
            golois_prefetch(&s.tt[keys[i] & s.tt_mask])
            if captured:
                keys[i] = 0


# ------------------------------------------------------------------------------ simulation
# Kawano's simulation (1996), as in Kishimoto & Mueller's TSUMEGO EXPLORER: once a move of the
# side to move is refuted, its siblings are often refuted by the same answers (the defender's
# useless moves, the attacker's moves that do not touch the eye).  The refuted sibling's
# position and a new sibling's differ by one stone (neither move captured), so their keys differ
# by D = zobrist[new] ^ zobrist[old], and so do the positions after the same moves on both
# boards: the refutation's moves are read from the table at key ^ D.  They are only suggestions,
# taken only when gen_moves gives them to the winner here (a move out of focus proved kills the
# plain search disproves: ishigure-basic/026's R18 against unlimited ko threats, a fail answered
# ko_b): every move is played, every move of the losing side is generated and answered, and
# the leaves are the table's proofs or evaluate's knowledge, so a simulation that succeeds is a
# proof like any other (path-independent: a repetition or the depth limit makes it fail).


cdef bint _sim_or(search_t *s, uint64_t D, int a, long stop) noexcept nogil:
    """The side to move wins by the moves of the reference proof (the table at key ^ D, when
    gen_moves gives it here; a: the refuted move, _sim_and)."""
    cdef board_t *b = s.b
    cdef uint64_t key = _key(s)
    cdef tt_entry *e = _probe(s, key)
    cdef int r, m, i, n, mover = b.to_move
    cdef int *mv = s.moves + s.depth * s.stride
    cdef bint ok
    if e != NULL and (e.phi == 0 or e.delta == 0):
        return e.phi == 0
    r = evaluate(s, True)
    if r != 0:
        return r == 1
    if s.depth >= DF_MAX_DEPTH - 1 or s.nodes >= stop or s.aborted:
        return False
    e = _probe(s, key ^ D)
    if e == NULL or e.phi != 0 or tt_best(e) == 0 or tt_best(e) == PASS or not legal(s, tt_best(e), mover):
        return False
    m = tt_best(e)
    n = gen_moves(s, mv)
    i = 0
    while i < n and mv[i] != m:
        i += 1
    if i == n:
        return False
    s.path[s.depth] = key
    _play(s, m, mover)
    s.depth += 1
    ok = _cycle_start(s, _key(s)) < 0 and _sim_and(s, D, a, stop)
    s.depth -= 1
    _unplay(s)
    if ok:
        _store(s, key, 0, DF_INF, m)
    return ok


cdef bint _sim_and(search_t *s, uint64_t D, int a, long stop) noexcept nogil:
    """The side to move loses: every move it has (gen_moves) is answered by _sim_or.  Its move at
    the refuted move's point `a` makes the position one of the reference proof's own (both
    stones on the board): D is 0 below it."""
    cdef board_t *b = s.b
    cdef uint64_t key = _key(s)
    cdef tt_entry *e = _probe(s, key)
    cdef int r, i, n, mover = b.to_move
    cdef int *mv = s.moves + s.depth * s.stride
    cdef bint ok = True
    if e != NULL and (e.phi == 0 or e.delta == 0):
        return e.delta == 0
    r = evaluate(s, True)
    if r != 0:
        return r == -1
    if s.depth >= DF_MAX_DEPTH - 1 or s.nodes >= stop or s.aborted:
        return False
    n = gen_moves(s, mv)
    if n == 0:
        return False
    s.path[s.depth] = key
    for i in range(n):
        _play(s, mv[i], mover)
        s.depth += 1
        ok = _cycle_start(s, _key(s)) < 0 and _sim_or(s, 0 if mv[i] == a else D, a, stop)
        s.depth -= 1
        _unplay(s)
        _check_limits(s)
        if not ok:
            return False
    _store(s, key, DF_INF, 0, mv[0])
    return True


cdef void _simulate(search_t *s, int *mv, uint32_t *cphi, uint32_t *cdelta, int n, int ref,
                    int mover) noexcept nogil:
    """mv[ref] was just refuted: try its refutation on every open sibling that, like it, is a
    stone captures nothing (a success settles the sibling: cphi 0, cdelta DF_INF)."""
    cdef int j, m = mv[ref]
    if m == PASS or board_captures_of(s.b, m, mover):
        return
    for j in range(n):
        if j == ref or cphi[j] == 0 or cdelta[j] == 0 or mv[j] == PASS:
            continue
        if board_captures_of(s.b, mv[j], mover):
            continue
        s.sim_tries += 1
        _play(s, mv[j], mover)
        s.depth += 1
        if _sim_or(s, zobrist[mover][mv[j]] ^ zobrist[mover][m], m, s.nodes + s.sim):
            cphi[j] = 0
            cdelta[j] = DF_INF
            s.sim_hits += 1
        s.depth -= 1
        _unplay(s)
        if s.aborted:
            return


cdef inline bint _settled_on_entry(search_t *s, uint64_t key, uint32_t *rphi,
                                   uint32_t *rdelta) noexcept nogil:
    """True (its numbers stored and in *rphi, *rdelta) when the node's first visit settles it."""
    # the tests the parent left out when it generated this child: target captured, slow_knowledge
    cdef int r
    if target_heads(s) == 0:
        r = 1 if s.b.to_move == s.attacker else -1
    else:
        r = slow_knowledge(s)
    if r == 0:
        return False
    rphi[0] = 0 if r == 1 else DF_INF
    rdelta[0] = DF_INF if r == 1 else 0
    _store(s, key, rphi[0], rdelta[0], 0)
    return True


cdef inline void _score_child(search_t *s, int m, int mover, uint64_t ck, uint32_t *phi,
                              uint32_t *delta) noexcept nogil:
    """Writes the numbers of the child after mover's m into *phi, *delta (ck: its key, or 0)."""
    # scored once: knowledge, repetition, table, else the initial numbers.  ck is the key from
    # _prefetch_children, 0 for a move that must be played (a pass, a capture); a child the cheap
    # tests cannot settle is not played: its key, liberties and repetition are read off the
    # board as it is (tactics.moves.unplayed_libs).  Played or not, it counts as a position.
    cdef board_t *b = s.b
    cdef int r, j, cside, L
    cdef bint played
    cdef tt_entry *e
    if ck != 0 and unplayed_libs(s, m, mover, &L):
        s.nodes += 1
        s.depth += 1
        s.undo[s.depth - 1].forced = 0     # (the repetition test reads it: no ko lifted)
        r = 0
        cside = opponent(mover)
        played = False
    else:
        _play(s, m, mover)
        s.depth += 1
        ck = _key(s)
        __builtin_prefetch(&s.tt[ck & s.tt_mask])  # (a pass or a ko_ignore retake: the rest are under way)
        r = evaluate(s, False)
        cside = b.to_move
        played = True
    # a retake that lifted the ko ban (ko_ignore) stands for "threat, answer, retake": the
    # position is not really repeated
    if r == 0 and s.depth >= DF_MAX_DEPTH:
        r = 1 if cside == s.defender else -1
        s.path_results += 1
    elif r == 0 and not s.undo[s.depth - 1].forced:
        j = _cycle_start(s, ck)
        if j >= 0:
            if _ko_ignore_stuck(s, j):
                r = 1 if cside == s.attacker else -1
            else:
                r = 1 if cside == s.defender else -1
            s.path_results += 1
    if r == 1:
        phi[0] = 0
        delta[0] = DF_INF
    elif r == -1:
        phi[0] = DF_INF
        delta[0] = 0
    else:
        e = _probe(s, ck)
        if e != NULL:
            phi[0] = e.phi
            delta[0] = e.delta
        elif played:
            _initial(s, phi, delta)
        else:
            _leaf(s, cside, L, phi, delta)
    s.depth -= 1
    if played:
        _unplay(s)
        target_heads(s)                     # evaluate read the child's


cdef inline int _best_child(const uint32_t *cphi, const uint32_t *cdelta, int n, uint32_t *phi,
                            uint32_t *delta, uint32_t *d2) noexcept nogil:
    """The child with the least delta (first of ties), with *phi, *delta and *d2 (second least)."""
    # phi = the least child delta, delta = the sum of the children's phi.  A saturated sum is no
    # disproof (proof numbers blow up on transpositions): only a settled child may settle the
    # node, so the sum stops at DF_INF - 1, or the root spins on a fake (DF_INF, x) entry
    # without searching until the clock stops it (maeda-10k-5k/027)
    cdef int i, c1 = 0
    cdef unsigned long long sumphi = 0
    cdef uint32_t least = DF_INF, second = DF_INF, total      # (locals: the arrays may alias *phi)
    for i in range(n):
        sumphi += cphi[i]
        if cdelta[i] < least:
            second = least
            least = cdelta[i]
            c1 = i
        elif cdelta[i] < second:
            second = cdelta[i]
    total = <uint32_t>(sumphi if sumphi < DF_INF else DF_INF)
    if total >= DF_INF and least != 0:
        total = DF_INF - 1
    phi[0] = least
    delta[0] = total
    d2[0] = second
    return c1


cdef inline void _store_node(search_t *s, uint64_t key, uint32_t phi, uint32_t delta, int best,
                             long hits0) noexcept nogil:
    """Stores a node's numbers, a (dis)proof as a hint where path_results moved from hits0."""
    # a proof found while a path-dependent result was seen below it rests on the line
    if (phi != 0 and delta != 0) or s.path_results == hits0:
        _store(s, key, phi, delta, best)
    elif phi == 0:
        _store(s, key, 1, DF_HINT, best)
    else:
        _store(s, key, DF_HINT, 1, best)


cdef void mid(search_t *s, uint32_t thphi, uint32_t thdelta, uint32_t *rphi, uint32_t *rdelta) noexcept nogil:
    """Expand the current (non-terminal) node until its phi >= thphi or delta >= thdelta."""
    cdef board_t *b = s.b
    cdef uint64_t key = _key(s)
    cdef tt_entry *e = _probe(s, key)
    cdef int stride = s.stride, n, i, c1, best, mover = b.to_move
    cdef int *mv = s.moves + s.depth * stride
    cdef uint32_t *cphi = s.cphi + s.depth * stride
    cdef uint32_t *cdelta = s.cdelta + s.depth * stride
    cdef uint64_t *ckeys = s.ckeys + s.depth * stride
    cdef uint32_t phi, delta, d2, tphi, tdelta
    cdef unsigned long long sumphi
    cdef long hits0 = s.path_results
    if e != NULL and (e.phi >= thphi or e.delta >= thdelta):
        rphi[0] = e.phi
        rdelta[0] = e.delta
        return
    if s.depth > 0 and e == NULL and _settled_on_entry(s, key, rphi, rdelta):
        return
    s.path[s.depth] = key
    n = gen_moves(s, mv)
    _prefetch_children(s, mv, n, mover, ckeys)
    for i in range(n):
        _score_child(s, mv[i], mover, ckeys[i], &cphi[i], &cdelta[i])
        if cdelta[i] == 0:                      # a move that wins at once
            if s.width:
                s.killer[s.depth] = mv[i]       # (only selective searches order by it)
            _store_node(s, key, 0, DF_INF, mv[i], hits0)
            rphi[0] = 0
            rdelta[0] = DF_INF
            return
    while True:
        # phi = min child delta, delta = sum child phi
        c1 = _best_child(cphi, cdelta, n, &phi, &delta, &d2)
        if phi >= thphi or delta >= thdelta or s.aborted:
            break
        # thresholds of the best child (1 + epsilon trick, Pawlewicz & Lew)
        sumphi = <unsigned long long>thdelta - delta + cphi[c1]
        tphi = <uint32_t>(sumphi if sumphi < DF_INF else DF_INF)
        if d2 >= DF_INF:
            tdelta = thphi
        else:
            tdelta = d2 + d2 // 4 + 1
            if tdelta > thphi:
                tdelta = thphi
        _play(s, mv[c1], mover)
        s.depth += 1
        mid(s, tphi, tdelta, &cphi[c1], &cdelta[c1])
        s.depth -= 1
        _unplay(s)
        if cphi[c1] == 0 and s.sim and not s.aborted:
            _simulate(s, mv, cphi, cdelta, n, c1, mover)
        _check_limits(s)
    best = mv[c1] if n > 0 else 0               # no move: root_extra with none out of focus
    if phi == 0 and s.width:
        s.killer[s.depth] = best
    _store_node(s, key, phi, delta, best, hits0)
    rphi[0] = phi
    rdelta[0] = delta


cdef int df_search(search_t *s) noexcept nogil:
    """Search from the current position: 1 the side to move wins, -1 it loses, 0 unknown."""
    cdef uint32_t phi = 1, delta = 1
    cdef int r = evaluate(s, True)
    if r != 0:
        return r
    while not s.aborted:
        mid(s, DF_INF, DF_INF, &phi, &delta)
        _check_limits(s)
        if phi == 0:
            return 1
        if delta == 0:
            return -1
    return 0


# ------------------------------------------------------------------------------ for tactics.solver
# The inline helpers above, as functions tactics.solver (the Python face) can call.

cdef double df_now() noexcept nogil:
    return _now()

cdef uint64_t df_key(search_t *s) noexcept nogil:
    return _key(s)

cdef tt_entry *df_probe(search_t *s, uint64_t key) noexcept nogil:
    return _probe(s, key)

cdef void df_play(search_t *s, int p, int c) noexcept nogil:
    _play(s, p, c)

cdef void df_unplay(search_t *s) noexcept nogil:
    _unplay(s)

cdef bint df_last_pass(search_t *s, int back) noexcept nogil:
    return _last_pass(s, back)


cdef int df_scan_check(search_t *s, int *compared) noexcept nogil:
    """mid's reading of the current node's unplayed children (tactics.moves.unplayed_libs, the
    key from _child_key) against the children played: adds the children compared to *compared
    and returns how many disagree (key, a cheap test that fires, or the initial numbers)."""
    cdef int *mv = s.moves + s.depth * s.stride
    cdef int n = gen_moves(s, mv), i, L, bad = 0, mover = s.b.to_move, captured
    cdef uint64_t ck
    cdef uint32_t p1, d1, p2, d2
    for i in range(n):
        if mv[i] == PASS:
            continue
        ck = _child_key(s, mv[i], mover, &captured)
        if captured or not unplayed_libs(s, mv[i], mover, &L):
            continue
        _leaf(s, opponent(mover), L, &p1, &d1)
        _play(s, mv[i], mover)
        s.depth += 1
        if _key(s) != ck or evaluate(s, False) != 0:
            bad += 1
        else:
            _initial(s, &p2, &d2)
            bad += p1 != p2 or d1 != d2
        s.depth -= 1
        _unplay(s)
        target_heads(s)
        compared[0] += 1
    return bad
