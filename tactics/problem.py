"""Life-and-death problems: set a position up for the df-pn search and read the answer.

Start reading at `solve`.  It takes a position, the player to move, and optionally the target
(a stone of the group at stake) and the region of interest (flat points where moves may be
played), with its tuning in a `SolveSettings`, and returns a `Solution`.  `_solve` answers for
one target: `_set_up` (via `prepare`), the ko protocol (`searches.ko_protocol`), then the checks of the
answer (`_verify_kill`, `_recheck`, `_better_move`, `_guessed_move`) in that order.

Inference (no target given), the tsumego frame, the owl's region and their failure modes:
tactics.infer (`infer`, `group_region`, `linked_group`).

Ko: two searches (tactics.solver.dfpn).  First with the simple ko rule for both sides, with
FIRST_SHARE of the time; if a ko capture happened in it, a second one with the side that lost
(or the opponent of the side that won) allowed to retake kos at once (unlimited threats).  A
first search unfinished at FIRST_SHARE goes on from its table with the time kept for the second
(tactics.solver.dfpn_resume); if it then finishes with a ko seen and no time left, the ko is
not checked (`ko_checked` false).  The second search starts from the first one's table
(tactics.solver.dfpn_ko): the proofs that the side now allowed to retake wins still hold, and
nothing else of it is read (ishigure-basic/030's ko search: 8.3 s, against 11.8 s from an
empty table).  The variants measured: docs/results.md.

After a win with a ko seen, the winning move itself is checked first against the loser's
unlimited threats (`searches.move_ko_check`, at most MOVE_KO_SHARE of the time and nodes left), on
the same table (tactics.solver.dfpn_ko_after; the second search then reads its entries): a win
there is a clean win at once, with the time left for the rest; a loss makes our move a proven
ko (ko_a), and when the search of every move against the threats then does not finish, an
inferred (book) problem answers that search's best try at a clean win, as unknown: a book asks
for the clean kill where there is one (ishida-dan/027: B2 kills only by ko, A2 cleanly;
measured in docs/results.md).

Results, for the player to move, in GNU Go's terms: "win" (even if the opponent has unlimited
ko threats), "ko_a" (wins the ko fight in which the opponent must find the first threat: wins
if nobody has threats), "ko_b" (wins only with unlimited threats of its own: it must find the
first threat), "fail", "unknown" (limits).  An unknown answer to live names the unrefuted first
move after which the defender's stones survive best in random playouts inside the region
(tactics.guess, `live_guess` here; a small share of the time is kept for them,
`guess_reserve`), not df-pn's current best, and so does a fail to live whose move is a pass,
among the refuted moves, or, when its ko search did not finish, among the moves that search
left open (a book problem's answer is a move); given a `prior` (a policy network's scores, from
golois.tsumego.cli), its weighted scores are added (docs/results.md), asked only then when the
prior says what it costs (`Scores`).  Kills keep df-pn's best.  Of several winning first
moves, the search answers the first it proves, but an inferred problem's clean kill gives way
to the defender's vital point (its one move to live, were it to move) when that one kills
cleanly too (`searches.vital_point`, "the opponent's vital point is mine": books kill there);
`SolveSettings.prefer` with a prior answers instead a move the prior is confident in and ranks
far above the proven one, once it too wins cleanly (`searches.preferred_win`; owl through GTP: GNU Go's
regression files list the natural defence or attack).
`Solution.status` says it in words ("white lives in seki", "black kills by ko ...").

An open ko is no life (tactics.solver): two passes do not end a search when the first was a
pass for want of a threat under a ko ban, and with unlimited threats for the defender a cycle
in which it retook is the attacker's (it cannot resolve the ko: its eye stands only while the
ko is open).  At 3 s on the first 30 per collection, against a search where an open ko counts
as life, this rule gives clean kills for ko_a answers (maeda-5k-1k 011/012/016/017, ishida-dan/005
right) and fails for the "ko when living" answers of ishigure-basic/011 and maeda-10k-5k/025
(wrong either way).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field, replace

import numpy as np

from tactics.board import EMPTY, Board
from tactics.capture import FAIL, KO_A, KO_B, WIN
from tactics.coords import format_vertex, to_flat, vertex_to_flat
from tactics import searches
from tactics import solver as _solver
from tactics import verdict
from tactics.guess import Scores, elapsed, guess_reserve, live_guess
from tactics.infer import (FAR, ProblemError, area_group, escape_values, group_region, infer,
                           linked_group)


CODES = {"win": WIN, "ko_a": KO_A, "ko_b": KO_B, "fail": FAIL, "unknown": FAIL}   # GNU Go's return codes
VERIFY_SHARE = 0.3      # group "live", attacker to move: at most this share of the time checks the
                        # string kill against the target's group (`_verify_kill`)
ESCAPE_OUT = -1         # with outside strings, the target string joined to one (or joining one by miai,
                        # tactics.knowledge) has escaped (SolveSettings.escape_out: negative, the target
                        # string only)
LOOSE_FAR = 5           # the recheck's wall (SolveSettings.loose): farther, so it takes no room the
                        # defender needs
LOOK_SHARE = 0.5        # with a recheck to follow, at most this share of the time and nodes left goes to
                        # a fail's second look
OTHER_TARGETS = 3       # a kill that fails against the largest string tries this many other strings
                        # (SolveSettings.other_targets)


@dataclass(frozen=True)
class SolveSettings:
    """The tuning of `solve`: limits, the frame, the search's options and the checks of its
    answer.  `solve(..., settings, **overrides)` replaces fields by name (dataclasses.replace);
    an unknown name raises TypeError.  The fields that need more than their line:

    reach: moves only within this distance of a defender stone (and captures of weak attacker
    strings next to it), recomputed at every node; 0 = every region point; None = 2 for an
    inferred or group region, 0 for a region given by the caller.
    escape_out: 0 = off; an inferred problem with outside strings uses ESCAPE_OUT.
    width, attack_width: a selective search (tactics.solver.dfpn), not a proof.  Owl through GTP
    searches every attacker move (golois.gtp.solver), so its answers that the target lives are
    proofs.
    loose: with an inferred problem, an answer the grown wall may have decided is checked with
    the time left in a frame whose wall keeps `loose` points from the defender (`_recheck`);
    it runs only when loose > far.
    group: the attacker must capture the whole target group, not just the target string (the
    defender may sacrifice strings; any Benson-alive string of the group lives): True = every
    defender stone of an inferred problem (less its outside strings) / `linked_group` of a
    given target without a region (owl) / the target string with a given region; "area" =
    the stones of the target's area for an inferred problem (`prepare`) and as True for a
    given target; False = the target string; "live" = True when the defender is to move and
    False when the attacker is (on the 30-problem samples at 3 s, True everywhere fixes 3 live
    problems and breaks none of them, but breaks more kill problems than it fixes: the
    attacker's proofs get longer).
    verify: with group "live" and the attacker to move, a kill found for the target string is
    checked against the target's group (`_verify_kill`); if the group lives there, the group
    goal is searched with the time left.
    second_look: after a fail (every move in focus fails), the moves out of focus get a search
    of their own at the root with the time left (tactics.solver.dfpn root_extra), or
    LOOK_SHARE of the time and nodes left when a recheck follows; a win or ko there replaces
    the fail.
    other_targets: with an inferred problem, a kill that fails against the largest string (the
    inferred target) tries, with the time left, up to this many other strings of the defender
    as the target (`_other_targets`).
    prefer: with a prior, after a clean win, up to this many region moves the prior gives at
    least PREFER_MIN and PREFER_RATIO times the proven move's probability are checked in the
    prior's order (the opponent with unlimited ko threats, every move below the root, at most
    PREFER_SHARE of the time and positions left each); the first that wins answers (`searches.preferred_win`).
    tree: the tree is read off the table of the search that proved the answer
    (tactics.solver.dfpn(tree=)); golois solve prints its first level (`replies`) and
    --sgf-out writes it.
    """

    max_nodes: int = 10 ** 8            # positions searched, all searches of the answer together
    time_limit: float = 10.0            # seconds for the answer, the live guess and the prior included
    frame: bool = True                  # an inferred problem is framed (`infer`'s wall); False = no frame
    tt_bits: int = 22                   # each search's table: 2^tt_bits entries of 16 bytes (64 MiB)
    reach: int | None = None            # the focus, in steps from the defender (above); None = 2 or 0
    escape_libs: int = 0                # a target with this many liberties has escaped (owl); 0 = off
    group: object = "live"              # what the attacker must capture (above): True, "area", False
    escape_out: int = 0                 # a target with this many liberties outside the region escaped (owl)
    verify: bool = True                 # a string kill is checked against the target's group (above)
    width: int = 0                      # below the root, this many best moves per node (owl); 0 = every move
    far: int = FAR                      # the grown wall keeps this many points from the defender (`infer`)
    loose: int = LOOSE_FAR              # the recheck's wall (above, `_recheck`); 0 = no recheck
    live_guess: bool = True             # an unfinished search to live answers `live_guess`, not df-pn
    second_look: bool = True            # after a fail, the moves out of focus get a search (above)
    other_targets: int = OTHER_TARGETS  # a failed kill tries this many other defender strings; 0 = off
    prefer: int = 0                     # with a prior, its sure moves checked after a clean win; 0 = off
    sim: int = _solver.SIM_NODES        # positions per simulation of a refuted move's proof; 0 = off
    attack_width: int | None = None     # `width` for the attacker's moves alone; None = width
    tree: bool = False                  # a proven answer comes with its solution tree (Solution.tree)
    vital: bool = True                  # a book's clean kill gives way to the defender's vital point
    grow: int = 0                       # owl (a given target, no region): the region grows with the goal,
                                        # this many steps around it (tactics.solver.dfpn grow); 0 = off
    escape: int = 0                     # owl: the escape potential that is an escape, read by the search
                                        # (tactics.solver.dfpn escape_min, infer.escape_values); 0 = off
    eyes: int = 0                       # owl, a defender's clean win: up to this many moves that leave more
                                        # eye space are checked (`searches.eye_win`); 0 = off


_SETTINGS = {f.name for f in dataclasses.fields(SolveSettings)}
_FIRST_MOVE = object()      # Solution.vertex() without an argument: the first move (None is a pass)


@dataclass
class Solution:
    """The answer to a problem, from the viewpoint of the player to move."""

    result: str                 # win, ko_a, ko_b, fail, unknown (see the module docstring)
    move: int | None            # first move (flat; None = pass or no move)
    pv: list                    # principal variation (flat moves, None = pass)
    nodes: int                  # positions searched, all searches together
    seconds: float
    target: int                 # flat point of the target string
    goal: str                   # "kill" or "live": what the player to move tries to do
    to_move: int                # BLACK or WHITE
    attacker: int
    region: list = field(default_factory=list)  # flat points of the region of interest
    winning: list = field(default_factory=list)  # proven winning first moves (flat)
    refuted: dict = field(default_factory=dict)  # first moves proven to fail (flat) -> the refutation
                                                 # (flat moves, the opponent's answer first)
    seki: bool = False          # the defender's survival is a seki (as far as the PV shows)
    status: str = ""            # the result in words
    size: int = 19
    ko_checked: bool = True     # False: a ko appeared and the search with unlimited ko threats
                                # for the loser of the first search ran out of time
    tree: list | None = None    # with SolveSettings.tree, a proven answer's solution tree (tactics.solver
                                # `_proof_tree`), its first move `move`: [(move, [(reply, [...]), ...])],
                                # flat moves, None = pass
    refutations: dict = field(default_factory=dict)  # with SolveSettings.tree, a refuted first move -> its
                                                     # refutation's tree where the table has one (the
                                                     # opponent's answer first; tactics.solver dfpn's)
    frame: list = field(default_factory=list)  # flat points of the frame's stones (the attacker's) the
                                               # answering search stood on: an inferred problem's wall
                                               # (`infer`; the looser one when the recheck answered);
                                               # empty without a frame

    @property
    def code(self) -> int:
        """GNU Go's return code: 0 fails, 1 WIN, 2 KO_A, 3 KO_B."""
        return CODES[self.result]

    def vertex(self, flat=_FIRST_MOVE) -> str:
        """GTP vertex of the first move (or of `flat`, a flat point or None): 'PASS' for a
        pass."""
        m = self.move if flat is _FIRST_MOVE else flat
        if m is None:
            return "PASS"
        return format_vertex(divmod(m, self.size), self.size)


# ------------------------------------------------------------------------------ solving

def _flat_of(board: Board, move):
    """A point given as a GTP vertex, (row, col) or flat index, as a flat index."""
    n = board.size
    if isinstance(move, str):
        return vertex_to_flat(move, n)
    if isinstance(move, tuple):
        return to_flat(move[0], move[1], n)
    return int(move)


def prepare(board: Board, target=None, region=None, frame=True, group=True, mover=None,
            far: int = FAR, pick=None, info=None):
    """Copy of the board set up for the search, with (attacker, target, region, targets):
    targets are the stones of the target group the attacker must capture (every defender stone
    of an inferred problem, less its outside strings; with group "area", the defender stones
    of the target's area on the framed board, `area_group`, less them (the target's
    `linked_group` when that area touches an outside string: maeda-5k-1k/163, 3 stones linked
    and 9 in the area); `linked_group` of a given target without a region, the target string
    with a given region or when `group` is false; "live": as True when the defender (`mover`,
    default the board's side to move) is to move, else as False).  far: the grown wall of an
    inferred problem (`infer`).  pick: with an inferred problem, the string of this defender
    stone (flat) is the target instead of the largest (`solve`'s other targets).  info: a dict
    an inferred problem fills with its outside strings ("outside"), every defender stone at
    stake ("stones": the targets of group True, `searches.vital_point`'s) and the frame's stones it
    placed ("wall")."""
    b = board.copy()
    n = board.size
    if target is None:
        attacker, target, inferred_region, wall, targets, outside = infer(board, far=far)
        out = set(outside)
        if info is not None:
            info["outside"] = outside
            info["stones"] = [p for p in targets if p not in out]
        if pick is not None:
            target = pick
        if region is None:
            region = inferred_region
        placed = []
        if frame:
            for p in wall:
                try:
                    b.place(p, attacker)
                    placed.append(p)
                except Exception:
                    pass
        if info is not None:
            info["wall"] = placed
        if group == "area":
            area = area_group(b, target, region, outside)
            targets = linked_group(board, target) if area is None else area
        targets = [p for p in targets if p not in out]
    else:
        target = _flat_of(board, target)
        color = board.get(target)
        if color == EMPTY:
            raise ProblemError(f"no stone at the target {format_vertex(divmod(target, n), n)}")
        attacker = 3 - color
        targets = list(board.string(target))
        if region is None:                  # owl: the group at stake, on a full board
            targets = linked_group(board, target)
            region = group_region(board, target)
    region = [_flat_of(board, p) for p in region]
    region = [p for p in region if p is not None]
    if group == "live":                     # the group goal for the defender to move only
        group = (board.to_move if mover is None else mover) != attacker
    if not group:
        targets = list(board.string(target))
    return b, attacker, target, region, targets


def _check_legal_setup(board: Board):
    """Raises ProblemError when a string of the board has no liberty."""
    a = board.to_array()
    n = board.size
    for r, c in zip(*np.nonzero(a)):
        if board.liberties(int(r) * n + int(c)) == 0:
            raise ProblemError("illegal setup: a string without liberties")


def _settings(settings, overrides) -> SolveSettings:
    """`settings` (None: the defaults) with `overrides` replacing fields; TypeError for others."""
    if settings is None:
        settings = SolveSettings()
    elif not isinstance(settings, SolveSettings):
        raise TypeError(f"settings must be a SolveSettings, not {type(settings).__name__}")
    unknown = sorted(set(overrides) - _SETTINGS)
    if unknown:
        raise TypeError(f"solve() got an unexpected keyword argument {unknown[0]!r}")
    return replace(settings, **overrides) if overrides else settings


def solve(board: Board, to_move=None, target=None, region=None,
          settings: SolveSettings | None = None, prior=None, **overrides) -> Solution:
    """Solve the problem on `board` for `to_move` (default: the board's side to move).

    target: a stone of the group at stake (flat, (row, col) or GTP vertex); region: points
    where moves may be played.  Without a target both are inferred (module docstring).
    settings: the tuning (SolveSettings; None = its defaults), `overrides` replacing fields by
    name: solve(board, "black", max_nodes=300000).
    prior: None, or a callable (board, mover) -> a score per flat point (higher = likelier;
    golois.tsumego.cli.network_prior, a policy network's); given one, an unfinished search to
    live answers the unrefuted first move the prior likes best.  It is called at most once, on
    the problem's board, for live problems when the search to live ends unfinished (and after a
    win with `prefer`), within time_limit (`Scores`: a prior whose `cost(size)` says what a
    call costs is asked only when needed and the searches stop that much early; one that does
    not say is asked before the search).
    Raises ProblemError for positions that cannot be set up."""
    st = _settings(settings, overrides)
    t0 = time.monotonic()
    sol = _solve(board, to_move, target, region, st, prior)
    if (st.other_targets and target is None and st.frame and sol.goal == "kill" and sol.result == "fail"
            and sol.nodes < st.max_nodes):
        def solve_string(pick, nodes_left, seconds):
            # the string goal in the same frame; no verify, recheck or live guess
            return _solve(board, to_move, None, region,
                          replace(st, max_nodes=nodes_left, time_limit=seconds, group=False,
                                  verify=False, loose=0, live_guess=False), None, pick=pick)
        other, sol.nodes = _other_targets(board, sol, st.other_targets, t0 + st.time_limit,
                                          st.max_nodes, solve_string)
        sol = other or sol
        sol.seconds = time.monotonic() - t0
    return sol


@dataclass
class _Setup:
    """One target's problem as `_solve` set it up (`_set_up`), for the checks of its answer."""

    board: Board                # the caller's board (left as it is)
    b: Board                    # the board searched: a copy with the frame's stones, `mover` to move
    mover: int
    attacker: int
    goal: str                   # "kill" or "live"
    target: int                 # flat point of the target string
    region: list                # flat points where moves are searched
    targets: list               # the stones the attacker must capture
    target_arg: object          # the caller's target and region (None: inferred)
    region_arg: object
    pick: object                # `_solve`'s pick
    info: dict                  # `prepare`'s info (outside strings, stones at stake, wall)
    settings: SolveSettings     # the caller's, with reach and escape_out as this problem reads them
    search: dict                # tactics.solver.dfpn's options (`_search_options`)
    prior: object               # the caller's prior, a `Scores` where it is asked only when needed
    t0: float                   # the problem's clock starts here (`elapsed`)
    deadline: float             # the searches end here; `reserve` seconds are kept after it
    reserve: float              # for the live guess and a prior still to be asked
    guesses: bool               # an unfinished search to live is answered by `live_guess`
    rechecks: bool              # `_recheck` follows in the looser frame


def _search_options(st: SolveSettings) -> dict:
    """tactics.solver.dfpn's keyword options for settings whose reach is known."""
    return dict(tt_bits=st.tt_bits, reach=st.reach, escape_libs=st.escape_libs,
                escape_out=st.escape_out, width=st.width, sim=st.sim,
                attack_width=st.width if st.attack_width is None else st.attack_width, tree=st.tree)


def _set_up(board, to_move, target, region, settings, prior, pick) -> _Setup:
    """The `_Setup` of one target's problem: framed board, goal, resolved settings, prior, clock."""
    from tactics.board import parse_color
    t0 = time.monotonic()
    mover = board.to_move if to_move is None else parse_color(to_move)
    _check_legal_setup(board)
    reach = (0 if region is not None else 2) if settings.reach is None else settings.reach
    info = {}
    b, attacker, flat_target, flat_region, targets = prepare(
        board, target, region, settings.frame, settings.group, mover, settings.far, pick, info)
    escape_out = (settings.escape_out or ESCAPE_OUT) if info.get("outside") else settings.escape_out
    st = replace(settings, reach=reach, escape_out=escape_out)
    b.to_move = mover
    goal = "kill" if mover == attacker else "live"
    guesses = goal == "live" and st.live_guess
    if prior is not None and guesses and not isinstance(prior, Scores):
        prior = Scores(prior, board, mover, st.time_limit)  # the searches again below share it
        t0 += prior.setup                                    # (the cost call is not the problem's)
    reserve = ((guess_reserve(st.time_limit) if guesses else 0.0)
               + (prior.pending_seconds() if isinstance(prior, Scores) else 0.0))
    rechecks = bool(st.loose and target is None and st.frame and st.loose > st.far and pick is None)
    search = _search_options(st)
    if target is not None and region is None:
        # owl: the region grows with the goal, and escapes are read (tactics.solver.dfpn)
        if st.grow:
            search["grow"] = st.grow
        if st.escape:
            search["escape"] = escape_values(board, flat_target)
            search["escape_min"] = st.escape
    return _Setup(board=board, b=b, mover=mover, attacker=attacker, goal=goal, target=flat_target,
                  region=flat_region, targets=targets, target_arg=target, region_arg=region,
                  pick=pick, info=info, settings=st, search=search, prior=prior, t0=t0,
                  deadline=t0 + st.time_limit - reserve, reserve=reserve, guesses=guesses,
                  rechecks=rechecks)


def _solve(board, to_move, target, region, settings: SolveSettings, prior, pick=None) -> Solution:
    """`solve` for one target (pick: the inferred problem's target string, `prepare`)."""
    p = _set_up(board, to_move, target, region, settings, prior, pick)
    st = p.settings
    result, chosen, nodes, ko_checked = searches.ko_protocol(p.b, p.attacker, p.target, p.region, p.targets,
                                                  p.mover, st.max_nodes, p.deadline, p.search)
    if (result == "fail" and st.second_look and st.reach and p.deadline - time.monotonic() > 0.05
            and nodes < st.max_nodes):
        # every move in focus fails: before saying so, the moves the focus left out
        # (maeda-10k-5k/149 T18, maeda-5k-1k/014 A1: no empty path of 2 steps to the defender)
        share = LOOK_SHARE if p.rechecks else 1.0
        x_result, x_chosen, x_nodes, x_ko_checked = searches.ko_protocol(
            p.b, p.attacker, p.target, p.region, p.targets, p.mover,
            max(int((st.max_nodes - nodes) * share), 1),
            time.monotonic() + (p.deadline - time.monotonic()) * share, p.search, root_extra=True)
        nodes += x_nodes
        if x_result not in ("fail", "unknown"):
            result, chosen, ko_checked = x_result, x_chosen, x_ko_checked
    if (p.goal == "kill" and st.group == "live" and result in ("win", "ko_a")
            and chosen["move"] is not None and st.verify and pick is None):
        again, nodes = _verify_kill(p, result, chosen["move"], nodes)
        if again is not None:
            return again
    if p.rechecks:
        again, nodes = _recheck(p, result, chosen["move"], nodes)
        if again is not None:
            again.seconds = elapsed(p.t0, p.prior)
            return again
    move, pv = chosen["move"], chosen["pv"]
    if result == "ko_a" and "clean_guess" in chosen and p.target_arg is None:
        # our move wins only the ko and the search for a clean win ran out of time: a book
        # problem asks for the clean win where there is one, so its best try answers
        guess = chosen["clean_guess"]
        result, move, pv = "unknown", guess["move"], guess["pv"]
    move, pv, chosen, nodes = _better_move(p, result, move, pv, chosen, nodes, ko_checked)
    move, pv = _guessed_move(p, result, move, pv, chosen, ko_checked)
    return _solution(p, result, move, pv, chosen, nodes, ko_checked)


def _verify_kill(p: _Setup, result, move, nodes):
    """(the group goal's Solution where the group lives after the string kill `move`, or None, nodes)."""
    # The string goal is cheaper but the defender may live by giving up the target string
    # (maeda-10k-5k/018, ishida-dan/019).  The check: the defender to move after our move, at
    # most VERIFY_SHARE of the time.  A clean kill is checked against the defender's unlimited
    # ko threats: the string may die cleanly and the group only by ko (ishida-dan/044 and 049:
    # D2 kills D4's string cleanly, the group only by ko; the group goal then finds C3's clean
    # kill).  An inferred problem's group is the target's area ("area", `prepare`; or its linked
    # group where that area touches an outside string), not every defender stone: a stone across
    # the attacker's wall is not at stake (maeda-10k-5k/142: white's B14 joins its outside
    # strings and "lives", which would throw away B9's kill of A11), and the area's stones below
    # the target's in maeda-5k-1k/163 are (3 stones linked, 9 in the area).
    st = p.settings
    group_goal = "area" if p.target_arg is None else True
    gtargets = prepare(p.board, p.target_arg, p.region_arg, st.frame, group_goal, p.mover, st.far)[4]
    if set(gtargets) == set(p.targets):
        return None, nodes
    left = p.deadline - time.monotonic()
    threats = 3 - p.mover if result == "win" else 0
    value, used = searches.value_after(p.b, move, p.mover, p.attacker, gtargets, p.region, st.max_nodes,
                               min(left, VERIFY_SHARE * st.time_limit), p.search, first=p.target,
                               ko_ignore=threats)
    nodes += used
    if value != 1:
        return None, nodes
    # the defender lives after our move: search the group (second_look on and prefer off
    # there, whatever the caller's)
    again = solve(p.board, p.mover, p.target_arg, p.region_arg,
                  replace(st, time_limit=max(p.deadline - time.monotonic(), 0.05), group=group_goal,
                          second_look=True, other_targets=0, prefer=0), p.prior)
    again.nodes += nodes
    again.seconds = elapsed(p.t0, p.prior)
    return again, nodes


def _better_move(p: _Setup, result, move, pv, chosen, nodes, ko_checked):
    """(move, pv, chosen, nodes): a clean win's move the prior is sure of, or the vital point."""
    # `searches.preferred_win` (SolveSettings.prefer) and, for a book problem's kill, `searches.vital_point`,
    # where their move wins cleanly too; else the answer as it is
    st, prior = p.settings, p.prior
    if (st.eyes and p.goal == "live" and result == "win" and ko_checked and move is not None
            and p.target_arg is not None and p.region_arg is None and nodes < st.max_nodes):
        # owl: of the winning defences, one that leaves more eye space (`searches.eye_win`)
        better, used = searches.eye_win(p.b, p.mover, p.attacker, p.target, p.region, p.targets, move,
                                        st.eyes, st.max_nodes - nodes, p.deadline, p.search)
        nodes += used
        if better is not None:
            move, pv = better[0], better
    pscores = (prior(p.board, p.mover) if st.prefer and prior is not None and result == "win"
               and ko_checked and move is not None and nodes < st.max_nodes else None)
    if pscores is not None:
        better, used = searches.preferred_win(p.b, p.mover, p.attacker, p.target, p.region, p.targets, move,
                                      pscores, st.prefer, st.max_nodes - nodes, p.t0 + st.time_limit,
                                      p.search, grow=p.target_arg is not None and p.region_arg is None)
        nodes += used
        if better is not None:
            move, pv = better[0], better
    if (st.vital and p.goal == "kill" and result == "win" and ko_checked and move is not None
            and p.target_arg is None and p.pick is None and nodes < st.max_nodes):
        # of several kills a book gives the defender's own vital point
        vtree = [] if st.tree else None
        vpv, used = searches.vital_point(p.b, p.mover, p.attacker, p.target, p.region, p.targets, move,
                                 p.info["stones"], st.max_nodes - nodes, p.deadline, p.search, vtree)
        nodes += used
        if vpv is not None:
            move, pv = vpv[0], vpv
            chosen = dict(chosen, tree=vtree or None)
    return move, pv, chosen, nodes


def _guessed_move(p: _Setup, result, move, pv, chosen, ko_checked):
    """(move, pv): `live_guess`'s move for an unknown answer to live or a book's passing fail."""
    refuted = chosen.get("refuted", {})
    candidates = None                   # the guess to live answers one of these
    if result == "unknown" and p.guesses:
        candidates = chosen["unrefuted"]
    elif result == "fail" and move is None and p.guesses and p.target_arg is None:
        # every move fails in the frame and df-pn names the pass, but a book problem's answer
        # is a move (the frame may have decided the fail): of the refuted moves, the one the
        # guess to live likes best, with its refutation (maeda-5k-1k/162: S2, the book's).
        # When the ko search did not finish (not ko_checked), the pass was its best try
        # (maeda-10k-5k/104 once at 10 s): of the moves it left open, where a life by ko may be
        candidates = (chosen.get("unrefuted") if not ko_checked else None) or list(refuted)
    if candidates is not None:
        scores = p.prior() if isinstance(p.prior, Scores) else None
        guess = live_guess(p.b, p.mover, p.region, candidates, move, scores)
        if guess != move:
            move, pv = guess, [guess] + list(refuted.get(guess, ()))
    return move, pv


def _solution(p: _Setup, result, move, pv, chosen, nodes, ko_checked) -> Solution:
    """The Solution of the answer (result, move, pv) read from the dfpn dict `chosen`."""
    refuted = chosen.get("refuted", {})
    winning = []
    if result not in ("fail", "unknown"):
        # the answer heads the list: a root win that rests on path-dependent results (a
        # repetition under ko_ignore) leaves no child proven in the table (MAEDA_017)
        winning = [move] + [m for m in chosen["winning"] if m != move]
    tree = chosen.get("tree")
    sol = Solution(result=result, move=move, pv=pv, nodes=nodes,
                   seconds=elapsed(p.t0, p.prior), target=p.target, goal=p.goal, to_move=p.mover,
                   attacker=p.attacker, region=p.region, winning=winning,
                   refuted={m: line for m, line in refuted.items() if m != move},
                   size=p.board.size, ko_checked=ko_checked,
                   tree=tree if winning and tree and tree[0][0] == move else None,
                   refutations={m: t for m, t in chosen.get("refutations", {}).items() if m != move},
                   frame=p.info.get("wall", []))
    sol.seki = verdict.is_seki(p.b, sol)
    sol.status = verdict.status(sol)
    return sol


def _other_targets(board, sol, count, deadline, max_nodes, solve_string):
    """A kill that failed against the inferred target: the largest string lives, but a book
    kill problem has a group to kill, and it is not always the largest string
    (ishigure-basic/026: O18 kills the three stones M19-N18; maeda-5k-1k/154: N18 captures
    four cutting stones).  The defender's other strings, largest first (ties: fewest
    liberties), up to `count`, are each solved as the target by `solve_string(stone,
    max_nodes, seconds)` with an equal share of the time left; the first proven kill (win or
    ko) answers.  Returns (that Solution or None to keep the fail, the nodes of all searches
    together)."""
    n = board.size
    defender = 3 - sol.attacker
    seen = set(board.string(sol.target))
    strings = []
    for p in range(n * n):
        if board.get(p) == defender and p not in seen:
            stones = board.string(p)
            seen.update(stones)
            strings.append((-len(stones), board.liberties(p), p))
    strings = sorted(strings)[:count]
    nodes = sol.nodes
    for k, (_, _, p) in enumerate(strings):
        left = deadline - time.monotonic()
        if left < 0.05 or nodes >= max_nodes:
            break
        other = solve_string(p, max_nodes - nodes, left / (len(strings) - k))
        nodes += other.nodes
        if other.result in ("win", "ko_a", "ko_b"):
            other.nodes = nodes
            return other, nodes
    return None, nodes


def _recheck(p: _Setup, result, move, nodes):
    """(Solution or None, nodes): the answer checked in a looser frame, that frame's solution
    where it replaces the answer, else None to keep it, and the nodes searched so far, the
    recheck's included.

    The grown wall is the attacker's stones on points the defender might have needed, so it
    can decide an answer: a kill in it may leave room to live without it, and a fail to live
    may be the wall's doing, and a proof may hold only against the wall (maeda-10k-5k/093: S1
    kills in the grown frame, but GNU Go's owl makes it a ko; T6 kills cleanly).  With the
    time and nodes left, a kill is checked in the frame of `infer(far=loose)` (the defender to
    move after our move, at most half the time left; against a clean kill the defender has
    unlimited ko threats); a clean kill the check does not refute stands (nothing says it rests
    on the wall; solving again finds another kill first on ishigure-basic/106, where the book's
    P19 stands); otherwise the problem is solved again in that frame, with the time left and
    `reserve` (the seconds kept after the deadline for the guess and prior: the solve again
    keeps its own, so they are not kept twice).  That solution replaces the answer when it is
    proven (a win; a ko, unless the answer was a clean win), after a kill the check refuted
    whatever it says (but a fail there, where no move kills, keeps our kill as its best try),
    and after a fail it leaves open (unknown there: its best try, as unknown; maeda-5k-1k/055;
    at 10 s, 9 right of the 47 fails of a whole run against 5 without, but 3 fewer on
    maeda-10k-5k at 2 M nodes, where the recheck gets few nodes).  Where it disagrees the
    recheck is usually the sounder, as it only takes stones away from the attacker's wall, but
    not always: its wall also stood behind the attacker's outer stones, which face the open
    board in the real position (ishigure-basic/012, tactics.infer's failure modes).  Measured:
    docs/results.md."""
    st = p.settings
    left = lambda: p.deadline - time.monotonic()        # noqa: E731
    if left() < 0.05 or nodes >= st.max_nodes:
        return None, nodes
    refuted = False                     # a kill the defender survives in the looser frame
    if p.goal == "kill" and result in ("win", "ko_a") and move is not None:
        b, _, _, lregion, ltargets = prepare(p.board, None, None, True, True, p.mover, st.loose)
        if not b.is_legal(move, p.mover):
            return None, nodes
        # a clean kill is checked against the defender's unlimited ko threats (a kill that the
        # looser frame turns into a ko rested on the wall: maeda-10k-5k/093's S1), a ko under
        # the simple ko rule
        value, used = searches.value_after(b, move, p.mover, p.attacker, ltargets, lregion,
                                   st.max_nodes - nodes, left() * 0.5, p.search,
                                   ko_ignore=3 - p.mover if result == "win" else 0)
        nodes += used
        refuted = value == 1
        if result == "win" and not refuted:
            return None, nodes      # nothing says the kill rests on the wall: keep it
    if left() < 0.05 or nodes >= st.max_nodes:
        return None, nodes
    # the solve keeps its own `reserve` for its guess (the time kept after the deadline);
    # second_look on and prefer off there, whatever the caller's
    again = solve(p.board, p.mover, None, p.region_arg,
                  replace(st, max_nodes=st.max_nodes - nodes, time_limit=left() + p.reserve,
                          far=st.loose, loose=0, second_look=True, other_targets=0, prefer=0),
                  p.prior)
    nodes += again.nodes
    proven = again.result == "win" or (again.result in ("ko_a", "ko_b") and result != "win")
    # a fail the looser frame leaves open: a book problem has an answer, so the grown wall may
    # have decided the fail, and the looser frame's best try answers (as unknown)
    doubted = result == "fail" and again.result == "unknown" and again.move is not None
    if not (proven or refuted or doubted):
        return None, nodes
    if refuted and again.result == "fail" and move is not None:
        # no move kills in the looser frame either: its fail names any refuted move, and our
        # kill, which works in the grown frame, is the better try (ishigure-basic/012: Q16,
        # a ko_a in the grown frame, the book's answer)
        again.move, again.pv, again.tree = move, [move], None    # (its tree proves no move)
        again.refuted.pop(move, None)
        again.refutations.pop(move, None)
    again.nodes = nodes
    return again, nodes
