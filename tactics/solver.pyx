# cython: language_level=3
"""The life-and-death search's Python face: `dfpn` sets one df-pn search up on a board and runs
it (tactics.dfpn, in C and without the GIL), `dfpn_resume` goes on with one its time limit
stopped, `dfpn_ko` and `dfpn_ko_after` go on from its table with unlimited ko threats for one
side (the ko protocol, tactics.problem), and `_run` reads the answer off the table (the
principal variation, the refutations, the solution tree).  `solve` is tactics.problem.solve,
which sets a problem up (target, region, frame), runs the ko protocol and returns a `Solution`.

Start reading at `dfpn` (its set-up: `_set_targets`, `_set_region`, `_allocate`,
`_set_benson_mask`), then `_run`; the search itself, its rules and its knowledge are in
tactics/dfpn.pyx.
"""

from libc.stdlib cimport malloc, calloc, free
from libc.stdint cimport uint64_t, uint32_t
from posix.mman cimport (mmap, munmap, madvise, MAP_PRIVATE, MAP_ANONYMOUS, MAP_FAILED, PROT_READ,
                         PROT_WRITE, MADV_HUGEPAGE)

from tactics.board cimport (board_t, Board, board_point, board_row, board_col, opponent, PASS,
                            NO_POINT, MAX_POINTS, BLACK, WHITE)
from tactics.benson cimport benson_ws
from tactics.dfpn cimport (search_t, tt_entry, tt_best, TT_MIN_BITS, DF_MAX_DEPTH, DF_MAX_REGION,
                           DF_MAX_TARGETS, DF_HINT, df_search, evaluate, df_now, df_key,
                           df_probe, df_play, df_unplay, df_last_pass, df_scan_check)
from tactics.moves cimport gen_moves, legal

cdef enum:
    MAX_LINE = 64       # the longest line _line reads (the PV: 40 moves)

REFUTATION_PLIES = 12   # dfpn's refuted: the refutation lines' length (golois solve --sgf-out writes them
                        # as WRONG variations)
ESCAPE_MIN = 5      # dfpn's escape_min: the escape potential that counts as an escape (GNU Go's owl: 5)
SIM_NODES = 20000   # dfpn's (and tactics.problem.SolveSettings') default sim: positions per simulation
TREE_MOVES = 400    # dfpn's tree: moves at most (golois solve --sgf-out writes it as the RIGHT variations)
TREE_LEVELS = 2     # ... every reply of the loser the table proves lost on its first this many turns;
                    # below, one
TREE_PLIES = 30     # ... lines at most this long
REFUTATION_MOVES = 100  # dfpn's refutations (with tree): moves at most in each refuted first move's tree
REFUTATION_LEVELS = 1   # ... every move of the loser proven lost on its first this many turns; below, one


cdef tt_entry *_table(int bits, bint huge) noexcept nogil:
    """A zeroed table of 2^bits entries, or NULL: anonymous memory (zero pages mapped on first
    touch), with `huge` in huge pages where the kernel allows it (a probe is a random access:
    with 4 KiB pages most probes also miss the TLB; about 5% faster on long searches, in noisy
    runs).  Short searches keep small pages: a huge page is zeroed whole on first touch, and the
    player's 30 ms searches touch a little of every one (genmove p95 108-118 ms with huge pages
    for all, against 89 ms).  Freed with munmap."""
    cdef size_t size = (<size_t>1 << bits) * sizeof(tt_entry)
    cdef void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    if p == MAP_FAILED:
        return NULL
    if huge:
        madvise(p, size, MADV_HUGEPAGE)
    return <tt_entry *>p


cdef class _Search:
    """One search's buffers (the board is the caller's)."""
    cdef search_t s
    cdef Board board
    cdef uint64_t root_key
    cdef bint tree             # a proven win's answer comes with its solution tree (_proof_tree)

    def __cinit__(self):
        self.s.tt = NULL
        self.s.moves = NULL
        self.s.cphi = NULL
        self.s.cdelta = NULL
        self.s.ckeys = NULL
        self.s.bws = NULL
        self.s.bmask = NULL
        self.s.region = NULL
        self.s.stamp = NULL
        self.s.targets = NULL
        self.s.inreg = NULL
        self.s.gstamp = NULL
        self.s.escape = NULL

    def __dealloc__(self):
        if self.s.tt != NULL:
            munmap(self.s.tt, (self.s.tt_mask + 1) * sizeof(tt_entry))
        free(self.s.moves)
        free(self.s.cphi)
        free(self.s.cdelta)
        free(self.s.ckeys)
        free(self.s.bws)
        free(self.s.bmask)
        free(self.s.region)
        free(self.s.stamp)
        free(self.s.targets)
        free(self.s.inreg)
        free(self.s.gstamp)
        free(self.s.escape)


def dfpn(Board board, int attacker, target, region, int ko_ignore=0, long max_nodes=10 ** 9,
         double time_limit=10.0, int tt_bits=20, int reach=0, int escape_libs=0, targets=None,
         int escape_out=0, int width=0, int attack_width=-1, bint keep=False, bint static_life=True,
         bint root_extra=False, long sim=SIM_NODES, int stamp_gen=0, bint tree=False,
         root_skip=None, int grow=0, escape=None, int escape_min=ESCAPE_MIN):
    """One df-pn search on `board` (restored on return) for its side to move.

    attacker: colour capturing the target; target: a flat point of the target string; targets:
    more stones of the target group (flat; the attacker must capture every one); region:
    flat points where moves may be played.  escape_out n > 0: a target string with n liberties
    outside the region has escaped (a defender win; owl); -n: only the first standing target
    string counts (the target's own while it stands; tsumego outside strings, tactics.problem).
    width > 0: below the root, only the `width` best
    moves by the move ordering (and the pass) are searched: not a proof any more, a selective
    search as GNU Go's owl (gen_moves).  attack_width: the same for the attacker's moves (0 =
    every move, -1 = `width`); `width` then counts the defender's only.  With every attacker
    move searched, a defender win (the target lives) stays a proof: only the kills are
    selective.  static_life=False: only Benson and captures decide life (no eye-space rules
    for the defender, and no escape by miai: the reference the static rules' tests check
    against).  root_skip: a flat point the root does not play (whether the side to move wins
    without that first move; not a proof of the position: the table's entry for the root says
    so).  root_extra (with reach): the root's moves are the region points out of focus,
    and no pass: the search says whether a move the focus left out wins (tactics.problem asks
    it after a fail).  sim: at most this many positions per simulation of a refuted move's proof
    on its siblings (tactics.dfpn `_simulate`; 0: off).  stamp_gen: the mark generation the
    search starts from (tests: a search long enough to reach the restart).  tree: a proven win
    also returns its solution tree (`_proof_tree`; dfpn_resume and dfpn_ko too).  Returns a dict:
    value (1 the side to move wins, -1 loses, 0 unknown), move (flat, None = pass), winning
    (proven winning first moves), unrefuted (unfinished: the first moves not proven to lose, in
    move order), refuted (each first move proven to lose -> its refutation from the table, at
    most REFUTATION_PLIES flat moves, the opponent's answer first), pv (flat moves), nodes,
    seconds, ko_seen, tree (with `tree` and a proven win, else None), refutations (with `tree`:
    each refuted move whose refutation the knowledge does not settle at once -> the
    refutation's tree, `_tree_below` with the opponent winning: its answer, then every move
    proven lost at the next REFUTATION_LEVELS turns, at most REFUTATION_MOVES moves; else
    empty).  grow > 0 (owl): the region grows with the goal as the line goes (tactics.moves
    `_grown_moves`: the points within `grow` steps of the target strings standing, and the
    liberties of weak attacker strings next to them).
    escape: per flat point, the escape value of the point for the defender (GNU Go's
    owl_escape_value: open space, friendly strings that live), or None: with the defender to
    move, it has escaped (wins) when the flood from the target strings reaches escape_min and
    the capture search takes no target string (tactics.knowledge `_escaped`).  With `keep`, also search:
    the search with its table, for dfpn_resume (None without keep)."""
    cdef _Search S = _Search()
    cdef search_t *s = &S.s
    cdef board_t *b = &board.b
    cdef int i
    region = sorted(set(int(x) for x in region))
    if len(region) > DF_MAX_REGION:
        raise ValueError(f"region of {len(region)} points (at most {DF_MAX_REGION})")
    if not TT_MIN_BITS <= tt_bits <= 30:
        raise ValueError(f"tt_bits {tt_bits}: {TT_MIN_BITS} to 30")
    s.b = b
    s.attacker = attacker
    s.defender = opponent(attacker)
    _set_targets(S, board, target, targets)
    s.ko_ignore = ko_ignore
    s.root_moves = b.n_moves
    _set_region(S, board, region)
    s.reach = reach
    s.root_extra = root_extra and reach > 0
    s.root_skip = NO_POINT if root_skip is None else board_point(b, int(root_skip) // b.size,
                                                                 int(root_skip) % b.size)
    s.escape_libs = escape_libs
    s.escape_out = escape_out
    s.static_life = static_life
    s.grow = grow
    s.stride = (DF_MAX_REGION if grow > 0 else s.nregion) + 1
    s.ggen = 0
    s.escape_min = escape_min
    s.escape_tries = 0
    s.escape_hits = 0
    if escape is not None:
        if len(escape) != b.size * b.size:
            raise ValueError(f"escape: {len(escape)} values for {b.size * b.size} points")
        s.escape = <unsigned char *>calloc(MAX_POINTS, 1)
        if s.escape == NULL:
            raise MemoryError()
        for i in range(b.size * b.size):
            s.escape[board_point(b, i // b.size, i % b.size)] = min(max(int(escape[i]), 0), 255)
    s.width = width
    s.attack_width = width if attack_width < 0 else attack_width
    s.sim = sim
    s.sim_tries = 0
    s.sim_hits = 0
    s.gen = stamp_gen
    _allocate(S, tt_bits, time_limit >= 1.0 and max_nodes >= (1 << tt_bits))   # huge pages: long searches
    _set_benson_mask(S, board, region)
    s.nodes = 0
    s.max_nodes = max_nodes
    s.aborted = 0
    s.ko_seen = 1 if b.ko != NO_POINT else 0       # a ko already banned at the root counts
    s.path_results = 0
    for i in range(DF_MAX_DEPTH + 2):
        s.killer[i] = 0
    s.iters = 0
    s.depth = 0
    S.board = board
    S.root_key = df_key(s)
    S.tree = tree
    return _run(S, time_limit, keep)


cdef int _set_targets(_Search S, Board board, target, targets) except -1:
    """Sets S's target, its group and a point per string of it; ValueError for a non-defender."""
    # the group: the target string's stones first, then `targets`' others, at most DF_MAX_TARGETS;
    # one point per string is target_heads' shortcut
    cdef search_t *s = &S.s
    cdef board_t *b = s.b
    cdef int n = b.size, i
    tr, tc = divmod(int(target), n)
    s.target = board_point(b, tr, tc)
    if b.color[s.target] != s.defender:
        raise ValueError("the target is not a stone of the defender")
    own = [int(x) for x in board.string(int(target))]
    group = own + sorted(set(int(x) for x in (targets or ())) - set(own))
    if any(board.get(x) != s.defender for x in group):
        raise ValueError("a target stone is not a stone of the defender")
    group = group[:DF_MAX_TARGETS]
    s.ntargets = len(group)
    s.targets = <int *>malloc(sizeof(int) * (s.ntargets + 1))
    if s.targets == NULL:
        raise MemoryError()
    for i, x in enumerate(group):
        s.targets[i] = board_point(b, x // n, x % n)
    s.ntreps = 0
    reps = set()
    for i in range(s.ntargets):
        if b.head[s.targets[i]] not in reps:
            reps.add(b.head[s.targets[i]])
            s.treps[s.ntreps] = s.targets[i]
            s.ntreps += 1
    s.root_captured = b.prisoners[s.attacker]
    s.ntheads = 0
    return 0


cdef int _set_region(_Search S, Board board, list region) except -1:
    """Sets S's region (sorted flat points) as board points, and its mask."""
    cdef search_t *s = &S.s
    cdef board_t *b = s.b
    cdef int n = b.size, i
    s.nregion = len(region)
    s.region = <int *>malloc(sizeof(int) * (s.nregion + 1))
    for i, x in enumerate(region):
        s.region[i] = board_point(b, x // n, x % n)
    s.inreg = <unsigned char *>calloc(MAX_POINTS, 1)
    if s.inreg == NULL:
        raise MemoryError()
    for i in range(s.nregion):
        s.inreg[s.region[i]] = 1
    return 0


cdef int _allocate(_Search S, int tt_bits, bint huge) except -1:
    """Allocates S's marks, table (_table), per-depth buffers and Benson's workspace and mask."""
    cdef search_t *s = &S.s
    cdef int stride = s.stride
    s.stamp = <int *>calloc(MAX_POINTS, sizeof(int))
    s.gstamp = <int *>calloc(MAX_POINTS, sizeof(int))
    if not s.stamp or not s.gstamp:
        raise MemoryError()
    s.tt = _table(tt_bits, huge)
    s.tt_mask = (1 << tt_bits) - 1
    s.moves = <int *>malloc(sizeof(int) * stride * (DF_MAX_DEPTH + 2))
    s.cphi = <uint32_t *>malloc(sizeof(uint32_t) * stride * (DF_MAX_DEPTH + 2))
    s.cdelta = <uint32_t *>malloc(sizeof(uint32_t) * stride * (DF_MAX_DEPTH + 2))
    s.ckeys = <uint64_t *>malloc(sizeof(uint64_t) * stride * (DF_MAX_DEPTH + 2))
    s.bws = <benson_ws *>malloc(sizeof(benson_ws))
    s.bmask = <unsigned char *>calloc(MAX_POINTS, 1)
    if s.bws == NULL or s.bmask == NULL:
        raise MemoryError()
    if not (s.region and s.tt and s.moves and s.cphi and s.cdelta and s.ckeys and s.bws):
        raise MemoryError()
    return 0


cdef int _set_benson_mask(_Search S, Board board, list region) except -1:
    """Sets Benson's mask to the region when every defender stone lies in it and the region does
    not grow (the defender's stones then stay in it), else none."""
    # the framed box: the defender never plays outside, so regions reaching out are open (exact
    # and much faster than the whole board)
    cdef search_t *s = &S.s
    cdef board_t *b = s.b
    cdef int n = b.size
    s.bws.mask = NULL
    inside = set(region)
    if s.grow == 0 and all(p in inside for p in range(n * n) if board.get(p) == s.defender):
        for x in region:
            s.bmask[board_point(b, x // n, x % n)] = 1
        s.bws.mask = s.bmask
        s.bws.pts = s.region
        s.bws.npts = s.nregion
    return 0


def dfpn_resume(search, double time_limit):
    """Go on with a search that dfpn(keep=True) returned unfinished (value 0), for up to
    `time_limit` more seconds, from its table (nothing is lost); its board must be back at the
    root position.  Returns dfpn's dict (nodes and ko_seen: both runs together)."""
    cdef _Search S = search
    _check_root(S)
    return _run(S, time_limit, True)


def dfpn_ko(search, int ko_ignore, long max_nodes, double time_limit):
    """The ko protocol's second search (tactics.problem), from the table of the first: `search`
    is what dfpn(keep=True) returned under the simple ko rule (finished or not), its board back
    at the root.  The same search goes on with `ko_ignore`'s side allowed to retake at once
    (tactics.dfpn `_holds`: of the first search's entries, only that side's proofs are read),
    for at most max_nodes more positions and time_limit seconds.  Returns dfpn's dict, its
    nodes those of this search alone.  On the 97 problems of every third of ishigure-basic and
    maeda-10k-5k whose first search settles with a ko seen: the same answers, 0.86x the time of
    a fresh search (ishigure-basic/005 0.01 s against 0.36, 030 8.3 s against 11.8).  It may follow
    dfpn_ko_after with the same ko_ignore, and reads that search's entries too."""
    cdef _Search S = search
    _enter_ko(S, ko_ignore, max_nodes)
    return _run(S, time_limit, False)


def dfpn_ko_after(search, int ko_ignore, move, long max_nodes, double time_limit):
    """The ko protocol's check of a winning first move (tactics.problem): on the table of
    dfpn(keep=True)'s search, as dfpn_ko, `move` (flat; None = pass) is played at the root and
    its position searched with `ko_ignore`'s side allowed to retake at once, for at most
    max_nodes positions and time_limit seconds; the move is taken back.  An illegal move
    raises ValueError and leaves the search as it was.  Returns (value for
    the side to move after the move: 1, -1 or 0 unknown, positions).  Its entries stay in the
    table for a dfpn_ko with the same ko_ignore (that search's child of `move` is then known)."""
    cdef _Search S = search
    cdef search_t *s = &S.s
    cdef board_t *b = s.b
    cdef int n = b.size, p, r, mover = b.to_move
    cdef int rule = s.ko_ignore
    cdef long nodes = s.nodes, limit = s.max_nodes
    _enter_ko(S, ko_ignore, max_nodes)
    p = PASS if move is None else board_point(b, int(move) // n, int(move) % n)
    if not legal(s, p, mover):              # (under the new rule: a retake may be legal now)
        s.ko_ignore, s.nodes, s.max_nodes = rule, nodes, limit     # the search as it was
        raise ValueError(f"the move {move} is not legal at the search's root")
    s.aborted = 0
    s.depth = 0
    s.path[0] = df_key(s)
    s.deadline = df_now() + time_limit
    with nogil:
        df_play(s, p, mover)
        s.depth = 1
        r = df_search(s)
        s.depth = 0
        df_unplay(s)
    return r, s.nodes


cdef int _check_root(_Search S) except -1:
    """Raises ValueError unless S's board is back at the search's root position (a search
    goes on, or is probed, only from there)."""
    if df_key(&S.s) != S.root_key:
        raise ValueError("the board is not at the search's root position")
    return 0


cdef int _enter_ko(_Search S, int ko_ignore, long max_nodes) except -1:
    """Checks that a ko search (dfpn_ko, dfpn_ko_after) may go on from S (the board at the root,
    and the search under the simple ko rule or already under this one), then sets its rule and
    a fresh count of at most max_nodes positions."""
    cdef search_t *s = &S.s
    if ko_ignore != BLACK and ko_ignore != WHITE:
        raise ValueError("ko_ignore must be black or white")
    if s.ko_ignore != 0 and s.ko_ignore != ko_ignore:
        raise ValueError("the search already lets the other side ignore the ko")
    _check_root(S)
    s.ko_ignore = ko_ignore
    s.nodes = 0
    s.max_nodes = max_nodes
    return 0


def _run(_Search S, double time_limit, bint keep):
    """Runs df_search on S until the time limit, then reads the answer (dfpn's dict)."""
    cdef search_t *s = &S.s
    cdef Board board = S.board
    cdef board_t *b = s.b
    cdef int n = b.size, i, r, stride, p, mover
    cdef uint64_t key
    cdef tt_entry *e
    cdef int line[MAX_LINE]
    cdef int k, j
    s.aborted = 0
    s.depth = 0
    t0 = df_now()
    s.deadline = t0 + time_limit
    with nogil:
        r = df_search(s)
    seconds = df_now() - t0
    flat = lambda q: _flat(b, q)
    mover = b.to_move
    key = df_key(s)
    e = df_probe(s, key)
    best = flat(tt_best(e)) if e != NULL and tt_best(e) != 0 else None
    # proven winning first moves, the refuted ones with the table's refutation, and with an
    # unfinished search the first moves not refuted yet (a child proven when the clock stopped
    # the root names the move too)
    winning = []
    unrefuted = []
    refuted = {}
    refutations = {}
    stride = gen_moves(s, s.moves)
    ko = s.ko_seen
    for i in range(stride):
        p = s.moves[i]
        df_play(s, p, mover)
        if r != -1:                     # a root move counts as a position and its ko as seen, unless
                                        # the root is lost; a refutation's line never counts
            ko = s.ko_seen
        else:
            s.nodes -= 1
        s.depth = 1
        e = df_probe(s, df_key(s))
        ev = evaluate(s, True)
        if ev == -1 or (e != NULL and e.delta == 0):
            winning.append(flat(p))
        elif ev == 1 or (e != NULL and e.phi == 0):
            counted = s.nodes
            k = _line(s, min(REFUTATION_PLIES, MAX_LINE), line)
            refuted[flat(p)] = [flat(line[j]) for j in range(k)]
            if S.tree and ev == 0:      # the refutation's tree: the opponent wins from here
                refutations[flat(p)] = _tree_below(s, 3 - mover, REFUTATION_LEVELS, TREE_PLIES - 1,
                                                   [REFUTATION_MOVES])
            s.nodes = counted
        elif r == 0:
            unrefuted.append(flat(p))
        s.depth = 0
        df_unplay(s)
        s.ko_seen = ko
    if best not in winning and winning:
        best = winning[0]
    k = _line(s, 40, line)
    pv = [flat(line[j]) for j in range(k)]
    tree = None
    if S.tree and r == 1 and best is not None:
        tree = _proof_tree(s, board_point(b, best // n, best % n))
    return dict(value=r, move=best, winning=winning, unrefuted=unrefuted, refuted=refuted, pv=pv,
                nodes=s.nodes, seconds=seconds, ko_seen=bool(s.ko_seen), aborted=bool(s.aborted),
                sim=(s.sim_tries, s.sim_hits), escapes=(s.escape_tries, s.escape_hits),
                search=S if keep else None, tree=tree,
                refutations=refutations)


cdef object _proof_tree(search_t *s, int first):
    """The solution tree of a proven win at the root (s.depth 0), read off the table: the
    winning first move `first`, then, wherever the loser is to move, each of its moves whose
    position the table (or the knowledge) proves won by the winner, every one on its first
    TREE_LEVELS turns and the table's best reply below them, and wherever the winner is to
    move the table's best answer.  A line ends where the knowledge settles the node, where the
    table lacks the answer (an overwritten entry: the loser's move is then left out), after
    TREE_PLIES moves, or when TREE_MOVES moves are written (the loser's moves at a node share
    what is left of that budget equally).  Returns [(first, subtree)], a
    subtree being a list of (flat move or None for a pass, subtree); the board is back at the
    root and s.nodes as it was."""
    cdef board_t *b = s.b
    cdef int mover = b.to_move
    cdef long nodes = s.nodes              # (reading the table is not searching)
    budget = [TREE_MOVES - 1]
    df_play(s, first, mover)
    s.depth = 1
    try:
        below = ([] if evaluate(s, True) != 0 else
                 _tree_below(s, mover, TREE_LEVELS, TREE_PLIES - 1, budget))
    finally:
        s.depth = 0
        df_unplay(s)
        s.nodes = nodes
    return [(_flat(b, first), below)]


cdef object _tree_below(search_t *s, int winner, int levels, int plies, list budget):
    """The subtree of the current node in which `winner` wins, read off the table as
    `_proof_tree` says (its solution trees, and `_run`'s refutation trees); s.depth > 0, a node
    the knowledge does not settle (the caller evaluated it); the board back on return."""
    cdef board_t *b = s.b
    cdef tt_entry *e
    cdef int mover = b.to_move, n, i, p, best = 0, ev
    cdef int *mv
    out = []
    if plies <= 0 or budget[0] <= 0 or s.depth >= DF_MAX_DEPTH - 1:
        return out
    if df_last_pass(s, 1) and df_last_pass(s, 2):
        return out
    e = df_probe(s, df_key(s))
    if e != NULL:
        best = tt_best(e)
    if mover == winner:
        if best == 0 or not legal(s, best, mover):
            return out
        moves = [best]
    else:
        mv = s.moves + s.depth * s.stride
        n = gen_moves(s, mv)
        moves = [mv[i] for i in range(n) if mv[i] != best and (mv[i] != PASS or n == 1)]
        if best != 0 and legal(s, best, mover):
            moves.insert(0, best)           # the table's main line first
    for i in range(len(moves)):
        if budget[0] <= 0:
            break
        p = moves[i]
        df_play(s, p, mover)
        s.depth += 1
        try:
            ev = evaluate(s, True)          # settled: a leaf
            ok = True
            if mover != winner:             # is the loser's move proven lost?
                if ev == 0:
                    e = df_probe(s, df_key(s))
                    ok = e != NULL and (e.phi == 0 or (e.phi == 1 and e.delta == DF_HINT))
                else:
                    ok = ev == 1
            if ok:
                share = [budget[0] // (len(moves) - i) - 1]     # the moves left share the budget
                given = share[0]
                out.append((_flat(b, p), [] if ev != 0 else
                            _tree_below(s, winner, levels - (mover != winner), plies - 1, share)))
                budget[0] -= 1 + given - share[0]
        finally:                            # (the caller's board, whatever happens)
            s.depth -= 1
            df_unplay(s)
        if ok and mover != winner and levels <= 0:
            break                           # below the first levels: the loser's main reply only
    return out


cdef object _flat(board_t *b, int p):
    """The flat point of board point p, or None for a pass."""
    return None if p == PASS else board_row(b, p) * b.size + board_col(b, p)


cdef int _line(search_t *s, int plies, int *out) noexcept nogil:
    """Writes to out the table's best moves from the current node (s.depth), at most `plies`
    points, and returns their count: the principal variation (it stops where the knowledge
    settles the node, at a move the table lacks, or after two passes).  The board is back where
    it was on return."""
    cdef board_t *b = s.b
    cdef tt_entry *e
    cdef int start = s.depth, k = 0
    while k < plies and s.depth < DF_MAX_DEPTH:
        if evaluate(s, True) != 0 and (k or start > 0):
            break
        e = df_probe(s, df_key(s))
        if e == NULL or tt_best(e) == 0 or not legal(s, tt_best(e), b.to_move):
            break
        out[k] = tt_best(e)
        k += 1
        df_play(s, tt_best(e), b.to_move)
        s.depth += 1
        if df_last_pass(s, 1) and df_last_pass(s, 2):
            break
    while s.depth > start:
        s.depth -= 1
        df_unplay(s)
    return k


def scan_check(search, int lines, int plies, int seed=1):
    """A test of mid's scan (tactics.moves `unplayed_libs`): from the root of a search that
    dfpn(keep=True) returned, along `lines` random lines of at most `plies` moves (gen_moves'
    moves, its first half the time; to a settled node), compares at every node the children
    mid reads without playing them with the children played (df_scan_check).  Returns
    (children compared, disagreements); the board is back at the root."""
    import random
    cdef _Search S = search
    cdef search_t *s = &S.s
    cdef int compared = 0, bad = 0, n, k
    _check_root(S)
    rng = random.Random(seed)
    for _ in range(lines):
        s.depth = 0
        for k in range(plies):
            if s.depth >= DF_MAX_DEPTH or (s.depth > 0 and evaluate(s, True) != 0):
                break
            bad += df_scan_check(s, &compared)
            n = gen_moves(s, s.moves)
            if n == 0:
                break
            # half the time the ordering's first move (captures first: lines with captures
            # and stones played back where the target's were), else any
            df_play(s, s.moves[0 if rng.random() < 0.5 else rng.randrange(n)], s.b.to_move)
            s.depth += 1
        while s.depth > 0:
            s.depth -= 1
            df_unplay(s)
    return compared, bad


def solve(board, to_move=None, target=None, region=None, settings=None, prior=None, **overrides):
    """Solve a life-and-death problem: see tactics.problem.solve (re-exported here)."""
    from tactics.problem import solve as _solve
    return _solve(board, to_move, target, region, settings, prior, **overrides)
