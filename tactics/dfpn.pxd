# cython: language_level=3
"""df-pn life-and-death search at the C level (tactics/dfpn.pyx); tactics.solver is its Python face."""

from libc.stdint cimport uint64_t, uint32_t
from tactics.board cimport board_t
from tactics.benson cimport benson_ws

cdef enum:
    DF_INF = 100000000         # proof / disproof number of a settled node
    DF_HINT = 100000           # stored for a path-dependent (dis)proof: very likely, not proven
    DF_MAX_DEPTH = 160         # plies below the root; deeper lines count as a defender win
    DF_MAX_REGION = 400        # points in the region of interest
    DF_MAX_TARGETS = 100       # stones in the target group

cdef enum:
    TT_MIN_BITS = 16           # the table has at least 2^16 entries: the index holds the key's
                               # low 16 bits
    TT_LOW = 0xFFFF            # tt_entry.tag: those bits hold the fields below instead
    TT_USED = 1 << 14          # tag: the slot holds an entry (a zeroed slot is empty)

cdef struct tt_entry:          # 16 bytes, four to a cache line (one miss per probe)
    uint64_t tag               # the key above its low 16 bits | TT_USED | ko_ignore << 12
                               # | side << 10 | best + 1
    uint32_t phi               # proof number for the side to move
    uint32_t delta             # disproof number for the side to move

cdef inline int tt_best(const tt_entry *e) noexcept nogil:
    """Best move found (point, PASS, or 0 for none)."""
    return <int>(e.tag & 0x3FF) - 1

cdef inline int tt_side(const tt_entry *e) noexcept nogil:
    """Colour to move at the node."""
    return <int>((e.tag >> 10) & 3)

cdef inline int tt_ko_ignore(const tt_entry *e) noexcept nogil:
    """The search's ko_ignore when stored (a simple-ko entry read by the ko search: _probe)."""
    return <int>((e.tag >> 12) & 3)

cdef struct undo_t:
    int ko                     # ko point to restore after the undo (a ko retaken with a threat)
    int ko_color
    int forced                 # 1 if the ban was lifted for this move

cdef struct search_t:
    board_t *b                 # the board searched (made and unmade in place)
    int attacker               # colour trying to capture the target
    int defender               # colour of the target
    int target                 # a stone of the target string (point)
    int *targets               # stones of the target group at the root (points): the attacker
                               # must capture them all
    int ntargets
    int theads[DF_MAX_TARGETS] # heads of the defender strings on target points
                               # (tactics.moves.target_heads)
    int ntheads
    int treps[DF_MAX_TARGETS]  # one target point per string of the group at the root
                               # (target_heads' shortcut)
    int ntreps
    int root_captured          # b.prisoners[attacker] at the root: the same below it, no defender
                               # stone was captured, every root string stands
    int escape_libs            # > 0: a target with this many liberties has escaped (defender win;
                               # owl mode)
    int width                  # > 0: below the root, at most this many of the defender's moves per
                               # node (and the pass)
    int attack_width           # the same for the attacker's moves (0: every move)
    int escape_out             # n > 0: a target string with n liberties outside the region has
                               # escaped (owl); -n: the first target string only
    int static_life            # 1: the static rules for life (linked_alive, _joins_out) run;
                               # 0: Benson only
    unsigned char *inreg       # 1 on the region's points
    int ko_ignore              # colour allowed to retake a ko at once (unlimited threats), or 0
    int root_moves             # b.n_moves at the root (passes before it do not count)
    int *region                # points where moves may be generated
    int nregion
    int stride                 # per-depth stride of the move buffers (nregion + 1, or
                               # DF_MAX_REGION + 1 when the region grows)
    int grow                   # > 0 (owl): the region grows with the goal: moves also on the points
                               # within `grow` steps of the target strings standing, and on the
                               # liberties of attacker strings next to them with at most 2
                               # liberties (tactics.moves `_grown_moves`)
    int *gstamp                # per-point marks of the grown points (MAX_POINTS), compared with ggen
    int ggen
    unsigned char *escape      # per-point escape values (owl, GNU Go's owl_escape_value), or NULL:
                               # the defender to move has escaped when the flood from the target
                               # strings reaches escape_min at distance ESCAPE_DIST and no target
                               # string can be captured (tactics.knowledge `_escaped`)
    int escape_min
    long escape_tries          # statistics: escape floods that reached escape_min
    long escape_hits           # ... and that the capture search did not refute
    int root_extra             # 1: the root's moves are the region points out of focus, no pass
                               # (a fail's second look, tactics.problem)
    int root_skip              # a point the root does not play (NO_POINT: none; the vital point's
                               # uniqueness check, tactics.problem)
    int reach                  # 0: every region point; 1 or 2: only points reached from a defender
                               # stone in `reach` steps through empty points (and liberties of weak
                               # attacker strings next to the defender)
    int *stamp                 # per-point marks (MAX_POINTS), compared with `gen`
    int gen                    # current mark generation (gen_moves starts the marks over above
                               # GEN_WRAP)
    tt_entry *tt               # transposition table, 2^k entries
    uint64_t tt_mask
    long nodes                 # positions made
    long iters                 # child searches returned (the clock is read every 256)
    long max_nodes
    double deadline            # CLOCK_MONOTONIC seconds
    int aborted                # node or time limit reached
    int ko_seen                # a ko capture happened somewhere in the search
    long path_results          # leaves decided by a repetition or the depth limit (path-dependent)
    int depth                  # plies below the root
    uint64_t path[DF_MAX_DEPTH + 2]   # keys of the nodes on the current line
    undo_t undo[DF_MAX_DEPTH + 2]
    int killer[DF_MAX_DEPTH + 2]   # per depth: the last move that proved a win for the side to
                                   # move (tried first among ties)
    int *moves                 # per-depth move buffers, stride = nregion + 1
    uint32_t *cphi             # per-depth children proof numbers
    uint32_t *cdelta           # per-depth children disproof numbers
    uint64_t *ckeys            # per-depth children table keys (mid: _child_key, 0 for a pass)
    benson_ws *bws             # Benson workspace
    unsigned char *bmask       # Benson's mask (the region), when every defender stone is in it
    long sim                   # > 0: at most this many positions per simulation of a sibling's
                               # refutation (_simulate); 0 = off
    long sim_tries             # simulations tried (statistics)
    long sim_hits              # simulations that proved their sibling refuted

# Search from the current position: 1 the side to move wins, -1 it loses, 0 unknown.
cdef int df_search(search_t *s) noexcept nogil
# Knowledge at the current node (`full`: the costly tests too): 1 the side to move wins, -1 loses, 0 unknown.
cdef int evaluate(search_t *s, bint full) noexcept nogil
# CLOCK_MONOTONIC seconds (the deadline's clock).
cdef double df_now() noexcept nogil
# The table key of the current node (never 0).
cdef uint64_t df_key(search_t *s) noexcept nogil
# The table entry of key, or NULL.
cdef tt_entry *df_probe(search_t *s, uint64_t key) noexcept nogil
# Makes a move tactics.moves.legal allows (s.depth is the caller's).
cdef void df_play(search_t *s, int p, int c) noexcept nogil
# Takes back the move df_play made at s.depth.
cdef void df_unplay(search_t *s) noexcept nogil
# The move `back` plies ago was a pass in the search.
cdef bint df_last_pass(search_t *s, int back) noexcept nogil
# mid's reading of the current node's unplayed children against playing them: the disagreements.
cdef int df_scan_check(search_t *s, int *compared) noexcept nogil
