"""Life-and-death problems: set a position up for the df-pn search and read the answer.

Start reading at `solve`.  It takes a position, the player to move, and optionally the target
(a stone of the group at stake) and the region of interest (flat points where moves may be
played), and returns a `Solution`.

Inference (no target given), the tsumego frame, the owl's region and their failure modes:
tactics.infer (`infer`, `group_region`, `linked_group`).

Ko: two searches (tactics.solver.dfpn).  First with the simple ko rule for both sides, with
FIRST_SHARE of the time; if a ko capture happened in it, a second one with the side that lost
(or the opponent of the side that won) allowed to retake kos at once (unlimited threats).  A
first search unfinished at FIRST_SHARE goes on from its table with the time kept for the second
(tactics.solver.dfpn_resume; before, an unknown answer left that time unused); if it then
finishes with a ko seen and no time left, the ko is not checked (`ko_checked` false).
The second search starts from the first one's table (tactics.solver.dfpn_ko): the proofs that
the side now allowed to retake wins still hold, and nothing else of it is read
(ishigure-basic/030's ko search 11.8 -> 8.3 s).  Measured, with the variants left out:
docs/results.md (twenty-first, thirty-fifth and thirty-sixth sessions).

After a win with a ko seen, the winning move itself is checked first against the loser's
unlimited threats (`_move_ko_check`, at most MOVE_KO_SHARE of the time and nodes left), on
the same table (tactics.solver.dfpn_ko_after; the second search then reads its entries): a win
there is a clean win at once, with the time left for the rest; a loss makes our move a proven
ko (ko_a), and when the search of every move against the threats then does not finish, an
inferred (book) problem answers that search's best try at a clean win, as unknown: a book asks
for the clean kill where there is one (ishida-dan/027: B2 kills only by ko, A2 cleanly;
measured in docs/results.md, nineteenth session).

Results, for the player to move, in GNU Go's terms: "win" (even if the opponent has unlimited
ko threats), "ko_a" (wins the ko fight in which the opponent must find the first threat: wins
if nobody has threats), "ko_b" (wins only with unlimited threats of its own: it must find the
first threat), "fail", "unknown" (limits).  An unknown answer to live names the unrefuted first
move after which the defender's stones survive best in random playouts inside the region
(`_live_guess`, tactics.playouts; a small share of the time is kept for them,
`_guess_reserve`), not df-pn's current best, and so does a fail to live whose move is a pass,
among the refuted moves, or, when its ko search did not finish, among the moves that search
left open (a book problem's answer is a move); given a `prior` (a policy
network's scores, from golois.tsumego.cli), its weighted scores are added (twelfth and twenty-second
sessions, docs/results.md), asked only then when the prior says what it costs (`_Scores`).
Kills keep df-pn's best.  Of several winning first moves, the search answers the first it proves,
but an inferred problem's clean kill gives way to the defender's vital point (its one move to
live, were it to move) when that one kills cleanly too (`_vital_point`, "the opponent's vital
point is mine": books kill there);
`solve(prefer=)` with a prior answers instead a move the prior is confident in and ranks far
above the proven one, once it too wins cleanly (`_preferred_win`; owl through GTP: GNU Go's
regression files list the natural defence or attack).
`Solution.status` says it in words ("white lives in seki", "black kills by ko ...").
An open ko is no life (tactics.solver): two passes do not end a search when the first was a
pass for want of a threat under a ko ban, and with unlimited threats for the defender a cycle
in which it retook is the attacker's (it cannot resolve the ko: its eye stands only while the
ko is open).  At 3 s on the first 30 per collection this turned ko_a answers into clean kills
(maeda-5k-1k 011/012/016/017, ishida-dan/005 right) and the "ko when living" answers of
ishigure-basic/011 and maeda-10k-5k/025 into fail (wrong before and after).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from tactics.board import EMPTY, Board
from tactics.coords import format_vertex, to_flat, vertex_to_flat
from tactics import solver as _solver
from tactics.playouts import survival_rates
from tactics import verdict
from tactics.infer import FAR, ProblemError, area_group, group_region, infer, linked_group


CODES = {"win": 1, "ko_a": 2, "ko_b": 3, "fail": 0, "unknown": 0}
VERIFY_SHARE = 0.3      # group="live", attacker to move: at most this share of the time checks the string kill against the target's group ...
AREA_VERIFY = True      # ... that group: the defender stones of the target's area (maeda-5k-1k/163: 3 stones linked, 9 in the area); False: the linked group
CLEAN_VERIFY = True     # ... a clean one with the defender's unlimited ko threats (ishida-dan/044 and 049: the string died cleanly, the group only by ko); False: the simple ko rule
ESCAPE_OUT = -1         # with outside strings, the target string joined to one (or joining one by miai, tactics.dfpn) has escaped (solve(escape_out=): negative, the target string only)
LOOSE_FAR = 5           # the recheck's wall (solve(loose=)): farther, so it takes no room the defender needs
LOOK_SHARE = 0.5        # with a recheck to follow (solve(loose=)), at most this share of the time and nodes left goes to a fail's second look
MOVE_KO_SHARE = 0.3     # after a win with a ko seen, at most this share of the time and nodes left checks the winning move against unlimited ko threats
OTHER_TARGETS = 3       # a kill that fails against the largest string tries this many other strings (solve(other_targets=))
GUESS_PLAYOUTS = 600    # region playouts per candidate when an unfinished search to live guesses (_live_guess)
PRIOR_WEIGHT = 0.025    # _live_guess: weight of the prior's log-probability against the survival share (0.015-0.03 best; 0.05 3 fewer of 62)
GUESS_RESERVE = 0.03    # share of the time limit kept for that guess when the goal is to live (its playouts: 0.05-0.25 s) ...
GUESS_SECONDS = 0.25    # ... and at least this many seconds, but at most half the time limit (_guess_reserve)
PRIOR_MAX_SHARE = 0.25  # ... whose prior is not asked when one call of it (its `cost`) would take more than this share of the time limit (_Scores)
PREFER_MIN = 0.07       # solve(prefer=): a move the prior ranks above a proven win is checked when its probability is at least this
PREFER_RATIO = 10       # ... and this many times the proven move's
PREFER_SHARE = 0.3      # solve(prefer=): at most this share of the time left checks each move the prior ranks above a proven win
VITAL_SHARE = 0.3       # after a clean kill of a book problem: at most this share of the time left for each of the three searches of `_vital_point`
FIRST_SHARE = 0.7       # share of the time limit for the first search (the rest: the ko search; 1.0 measured 19+20 vs 20+21 right on maeda-10k-5k + ishigure-basic, 30 each at 3 s)


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
    refuted: dict = field(default_factory=dict)  # first moves proven to fail (flat) -> the refutation (flat moves, the opponent's answer first)
    seki: bool = False          # the defender's survival is a seki (as far as the PV shows)
    status: str = ""            # the result in words
    size: int = 19
    ko_checked: bool = True     # False: a ko appeared and the search with unlimited ko threats
                                # for the loser of the first search ran out of time
    tree: list | None = None    # with solve(tree=True), a proven answer's solution tree (tactics.solver `_proof_tree`), its first move `move`: [(move, [(reply, [...]), ...])], flat moves, None = pass
    refutations: dict = field(default_factory=dict)  # with solve(tree=True), a refuted first move -> its refutation's tree where the table has one (the opponent's answer first; tactics.solver dfpn's refutations)
    frame: list = field(default_factory=list)  # flat points of the frame's stones (the attacker's) the answering search stood on: an inferred problem's wall (`infer`; the looser one when the recheck answered); empty without a frame

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
    `linked_group` when that area touches an outside string, or with AREA_VERIFY off);
    `linked_group` of a given target without a region, the target string with a given region
    or when `group` is false; "live": as True when the defender (`mover`, default the board's
    side to move) is to move, else as False).  far: the grown wall of an inferred problem
    (`infer`).  pick: with an inferred problem, the string of this
    defender stone (flat) is the target instead of the largest (`solve`'s other targets).
    info: a dict an inferred problem fills with its outside strings ("outside"), every
    defender stone at stake ("stones": the targets of group True, `_vital_point`'s) and the
    frame's stones it placed ("wall")."""
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
            area = area_group(b, target, region, outside) if AREA_VERIFY else None
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
    a = board.to_array()
    n = board.size
    for r, c in zip(*np.nonzero(a)):
        if board.liberties(int(r) * n + int(c)) == 0:
            raise ProblemError("illegal setup: a string without liberties")


def solve(board: Board, to_move=None, target=None, region=None, max_nodes: int = 10 ** 8,
          time_limit: float = 10.0, frame: bool = True, tt_bits: int = 22, reach=None,
          escape_libs: int = 0, group="live", escape_out: int = 0, verify: bool = True,
          width: int = 0, far: int = FAR, loose: int = LOOSE_FAR, live_guess: bool = True,
          prior=None, second_look: bool = True, other_targets: int = OTHER_TARGETS,
          prefer: int = 0, sim: int = _solver.SIM_NODES, attack_width: int | None = None,
          tree: bool = False, vital: bool = True) -> Solution:
    """Solve the problem on `board` for `to_move` (default: the board's side to move).

    target: a stone of the group at stake (flat, (row, col) or GTP vertex); region: points
    where moves may be played.  Without a target both are inferred (module docstring).
    reach: moves only within this distance of a defender stone (and captures of weak attacker
    strings next to it), recomputed at every node; 0 = every region point.  Default: 2 for an
    inferred or group region, 0 for a region given by the caller.  escape_libs: a target
    with this many liberties counts as escaped, a defender win (owl on a full board); 0 = off.
    escape_out: a target string with this many liberties outside the region has escaped (owl);
    0 = off (an inferred problem with outside strings: ESCAPE_OUT).  width: below the root,
    only this many best moves per node (tactics.solver.dfpn; a selective search, not a proof;
    owl); 0 = every move.  attack_width: the same for the attacker's moves alone (`width` then
    counts the defender's); None = `width`.  Owl through GTP searches every attacker move
    (golois.gtp.solver), so its answers that the target lives are proofs.
    far: the grown wall of an inferred problem (`infer`).  loose: with an inferred problem, an
    answer the grown wall may have decided is checked with the time left in a frame whose wall
    keeps `loose` points from the defender (`_recheck`); 0 = off.  live_guess: an unfinished
    search to live answers `_live_guess` (the unrefuted first move with the most room for
    eyes) instead of df-pn's current best.  prior: None, or a callable (board, mover) -> a
    score per flat point (higher = likelier; golois.tsumego.cli.network_prior, a policy network's);
    given one, an unfinished search to live answers the unrefuted first move the prior likes
    best.  It is called at most once, on the problem's board, for live problems when the
    search to live ends unfinished (and after a win with `prefer`), within time_limit
    (`_Scores`: a prior whose `cost(size)` says what a call costs is asked only when needed
    and the searches stop that much early; one that does not say is asked before the search).
    group: the attacker must capture the whole target group, not just the target string (the
    defender may sacrifice strings; any Benson-alive string of the group lives): True = every
    defender stone of an inferred problem (less its outside strings) / `linked_group` of a
    given target without a region (owl) / the target string with a given region, "area" =
    the stones of the target's area for an inferred problem (`prepare`) and as True for a
    given target, False = the target string, "live" (default) = True when the
    defender is to move and False when the attacker is (measured on the 30-problem samples at
    3 s: True fixes 3 live problems and breaks none of them, but breaks more kill problems
    than it fixes: the attacker's proofs get longer).
    second_look: after a fail (every move in focus fails), the moves out of focus get a
    search of their own at the root with the time left (tactics.solver.dfpn root_extra), or
    LOOK_SHARE of the time and nodes left when a recheck follows (`_recheck`, loose); a win
    or ko there replaces the fail.
    verify: with group "live" and the attacker to move, a kill found for the target string is
    checked against the target's group (the defender to move after our move, at most
    VERIFY_SHARE of the time; an inferred problem's group is "area": every defender stone the
    target's area reaches (maeda-5k-1k/163, where the linked group missed the stones that live
    after the target string dies), less its outside strings; after a clean kill the defender
    has unlimited ko threats, CLEAN_VERIFY); if the group lives there, the group goal is
    searched with the time left (the defender gave up the target string to live:
    maeda-10k-5k/018, ishida-dan/019; or the group dies only by ko: ishida-dan/044, 049).
    other_targets: with an inferred problem, a kill that fails against the largest string (the
    inferred target) tries, with the time left, up to this many other strings of the defender
    as the target (`_other_targets`); 0 = off.
    prefer: with a prior, after a clean win, up to this many region moves the prior gives at
    least PREFER_MIN and PREFER_RATIO times the proven move's probability are checked in the
    prior's order (the opponent with unlimited ko threats, every move below the root, at most
    PREFER_SHARE of the time left each); the first that wins answers (`_preferred_win`); 0 = off.
    sim: every search's simulation budget (tactics.solver.dfpn: Kawano's simulation of a
    refuted move's proof on its siblings); 0 = off.
    tree: a proven answer comes with its solution tree (Solution.tree, read off the table of
    the search that proved it: tactics.solver.dfpn(tree=)); golois solve prints its first level
    (`replies`) and --sgf-out writes it.
    vital: with an inferred problem, a clean kill gives way to the defender's vital point (its
    one move to live, were it to move) when that one kills cleanly too (`_vital_point`);
    False = off.
    Raises ProblemError for positions that cannot be set up."""
    t0 = time.monotonic()
    sol = _solve(board, to_move, target, region, max_nodes, time_limit, frame, tt_bits, reach,
                 escape_libs, group, escape_out, verify, width, far, loose, live_guess, prior,
                 second_look, prefer=prefer, sim=sim, attack_width=attack_width, tree=tree,
                 vital=vital)
    if (other_targets and target is None and frame and sol.goal == "kill" and sol.result == "fail"
            and sol.nodes < max_nodes):
        def solve_string(pick, nodes_left, seconds):
            # the string goal in the same frame; no verify, recheck or live guess
            return _solve(board, to_move, None, region, max_nodes=nodes_left, time_limit=seconds,
                          frame=frame, tt_bits=tt_bits, reach=reach, escape_libs=escape_libs,
                          group=False, escape_out=escape_out, verify=False, width=width, far=far,
                          loose=0, live_guess=False, prior=None, second_look=second_look,
                          pick=pick, sim=sim, attack_width=attack_width, tree=tree)
        other, sol.nodes = _other_targets(board, sol, other_targets, t0 + time_limit, max_nodes,
                                          solve_string)
        sol = other or sol
        sol.seconds = time.monotonic() - t0
    return sol


def _solve(board, to_move, target, region, max_nodes, time_limit, frame, tt_bits, reach,
           escape_libs, group, escape_out, verify, width, far, loose, live_guess, prior,
           second_look, pick=None, prefer=0, sim=_solver.SIM_NODES, attack_width=None,
           tree=False, vital=True) -> Solution:
    """`solve` for one target (pick: the inferred problem's target string, `prepare`)."""
    from tactics.board import parse_color
    t0 = time.monotonic()
    mover = board.to_move if to_move is None else parse_color(to_move)
    _check_legal_setup(board)
    if reach is None:
        reach = 0 if region is not None else 2
    target_arg, region_arg = target, region
    info = {}
    b, attacker, target, region, targets = prepare(board, target, region, frame, group, mover, far,
                                                   pick, info)
    if info.get("outside"):
        escape_out = escape_out or ESCAPE_OUT
    b.to_move = mover
    goal = "kill" if mover == attacker else "live"
    guesses = goal == "live" and live_guess
    if prior is not None and guesses and not isinstance(prior, _Scores):
        prior = _Scores(prior, board, mover, time_limit)    # the searches again below share it
        t0 += prior.setup                                   # (the cost call is not the problem's)
    reserve = ((_guess_reserve(time_limit) if guesses else 0.0)
               + (prior.pending_seconds() if isinstance(prior, _Scores) else 0.0))
    deadline = t0 + time_limit - reserve
    search = dict(tt_bits=tt_bits, reach=reach, escape_libs=escape_libs, escape_out=escape_out,
                  width=width, sim=sim, attack_width=width if attack_width is None else attack_width,
                  tree=tree)
    rechecks = bool(loose and target_arg is None and frame and loose > far      # _recheck follows
                    and pick is None)
    result, chosen, nodes, ko_checked = _protocol(b, attacker, target, region, targets, mover,
                                                  max_nodes, deadline, search)
    if result == "fail" and second_look and reach and deadline - time.monotonic() > 0.05 and nodes < max_nodes:
        # every move in focus fails: before saying so, the moves the focus left out
        # (maeda-10k-5k/149 T18, maeda-5k-1k/014 A1: no empty path of 2 steps to the defender)
        share = LOOK_SHARE if rechecks else 1.0
        x_result, x_chosen, x_nodes, x_ko_checked = _protocol(
            b, attacker, target, region, targets, mover, max(int((max_nodes - nodes) * share), 1),
            time.monotonic() + (deadline - time.monotonic()) * share, search, root_extra=True)
        nodes += x_nodes
        if x_result not in ("fail", "unknown"):
            result, chosen, ko_checked = x_result, x_chosen, x_ko_checked
    if (goal == "kill" and group == "live" and result in ("win", "ko_a") and chosen["move"] is not None
            and verify and pick is None):
        # the string goal is cheaper but the defender may live by giving up the target string:
        # check the kill against the target's group, and search the group goal if it fails.
        # A clean kill is checked against the defender's unlimited ko threats: the string may
        # die cleanly and the group only by ko (ishida-dan/049: D2 kills D4's string cleanly,
        # the group only by ko; the group goal then finds C3's clean kill).
        # An inferred problem's group is the target's area (AREA_VERIFY), or its linked group
        # where that area touches an outside string, not every defender stone:
        # a stone across the attacker's wall is not at stake (maeda-10k-5k/142: white's B14
        # joined its outside strings and "lived", so B9's kill of A11 was thrown away)
        group_goal = "area" if target_arg is None else True
        gtargets = prepare(board, target_arg, region_arg, frame, group_goal, mover, far)[4]
        if set(gtargets) != set(targets):
            left = deadline - time.monotonic()
            threats = 3 - mover if result == "win" and CLEAN_VERIFY else 0
            value, used = _value_after(b, chosen["move"], mover, attacker, gtargets, region,
                                       max_nodes, min(left, VERIFY_SHARE * time_limit), search,
                                       first=target, ko_ignore=threats)
            nodes += used
            if value == 1:                  # the defender lives after our move: search the group
                again = solve(board, mover, target_arg, region_arg, max_nodes,
                              max(deadline - time.monotonic(), 0.05), frame, tt_bits, reach,
                              escape_libs, group_goal, escape_out, width=width, far=far, loose=loose,
                              live_guess=live_guess, prior=prior, other_targets=0, sim=sim,
                              attack_width=attack_width, tree=tree, vital=vital)
                again.nodes += nodes
                again.seconds = _elapsed(t0, prior)
                return again
    if rechecks:
        again, nodes = _recheck(board, mover, region_arg, goal, result, chosen["move"], attacker,
                                nodes, max_nodes, deadline, loose, search, group, verify,
                                live_guess, prior, reserve, vital)
        if again is not None:
            again.seconds = _elapsed(t0, prior)
            return again
    move, pv = chosen["move"], chosen["pv"]
    if result == "ko_a" and "clean_guess" in chosen and target_arg is None:
        # our move wins only the ko and the search for a clean win ran out of time: a book
        # problem asks for the clean win where there is one, so its best try answers
        guess = chosen["clean_guess"]
        result, move, pv = "unknown", guess["move"], guess["pv"]
    pscores = (prior(board, mover) if prefer and prior is not None and result == "win"
               and ko_checked and move is not None and nodes < max_nodes else None)
    if pscores is not None:
        better, used = _preferred_win(b, mover, attacker, target, region, targets, move,
                                      pscores, prefer, max_nodes - nodes, t0 + time_limit,
                                      search, grow=target_arg is not None and region_arg is None)
        nodes += used
        if better is not None:
            move, pv = better[0], better
    if (vital and goal == "kill" and result == "win" and ko_checked and move is not None
            and target_arg is None and pick is None and nodes < max_nodes):
        # of several kills a book gives the defender's own vital point
        vtree = [] if tree else None
        vpv, used = _vital_point(b, mover, attacker, target, region, targets, move,
                                 info["stones"], max_nodes - nodes, deadline, search, vtree)
        nodes += used
        if vpv is not None:
            move, pv = vpv[0], vpv
            chosen = dict(chosen, tree=vtree or None)
    refuted = chosen.get("refuted", {})
    candidates = None                   # the guess to live answers one of these
    if result == "unknown" and guesses:
        candidates = chosen["unrefuted"]
    elif result == "fail" and move is None and guesses and target_arg is None:
        # every move fails in the frame and df-pn names the pass, but a book problem's answer
        # is a move (the frame may have decided the fail): of the refuted moves, the one the
        # guess to live likes best, with its refutation (maeda-5k-1k/162: S2, the book's).
        # When the ko search did not finish (not ko_checked), the pass was its best try
        # (maeda-10k-5k/104 once at 10 s): of the moves it left open, where a life by ko may be
        candidates = (chosen.get("unrefuted") if not ko_checked else None) or list(refuted)
    if candidates is not None:
        scores = prior() if isinstance(prior, _Scores) else None
        guess = _live_guess(b, mover, region, candidates, move, scores)
        if guess != move:
            move, pv = guess, [guess] + list(refuted.get(guess, ()))
    winning = []
    if result not in ("fail", "unknown"):
        # the answer heads the list: a root win that rests on path-dependent results (a
        # repetition under ko_ignore) leaves no child proven in the table (MAEDA_017)
        winning = [move] + [m for m in chosen["winning"] if m != move]
    tree = chosen.get("tree")
    sol = Solution(result=result, move=move, pv=pv, nodes=nodes,
                   seconds=_elapsed(t0, prior), target=target, goal=goal, to_move=mover,
                   attacker=attacker, region=region, winning=winning,
                   refuted={m: line for m, line in refuted.items() if m != move},
                   size=board.size, ko_checked=ko_checked,
                   tree=tree if winning and tree and tree[0][0] == move else None,
                   refutations={m: t for m, t in chosen.get("refutations", {}).items() if m != move},
                   frame=info.get("wall", []))
    sol.seki = verdict.is_seki(b, sol)
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


def _protocol(b, attacker, target, region, targets, mover, max_nodes, deadline, search,
              root_extra=False):
    """The ko protocol (module docstring): a search with the simple ko rule, then, if a ko
    capture happened, one with unlimited threats for its loser.  Returns (result, chosen,
    nodes, ko_checked): chosen is the dfpn dict the answer comes from; after a ko_a whose search
    for a clean win did not finish, it also holds that search's dict as "clean_guess" (`solve`
    answers its best try for a book problem).  root_extra: the root's moves are those out of
    focus (tactics.solver.dfpn)."""
    ko_checked = True
    first = _solver.dfpn(b, attacker, target, region, 0, max_nodes,
                         max(deadline - time.monotonic(), 0.01) * FIRST_SHARE, targets=targets,
                         keep=True, root_extra=root_extra, **search)
    if first["value"] == 0 and first["nodes"] < max_nodes and deadline - time.monotonic() > 0.01:
        # unfinished: it goes on, from its table, with the time kept for the ko search
        first = _solver.dfpn_resume(first["search"], deadline - time.monotonic())
    table, first["search"] = first["search"], None      # the ko search starts from it
    nodes = first["nodes"]
    chosen = first
    if first["value"] == 0:
        result = "unknown"
    elif not first["ko_seen"]:
        result = "win" if first["value"] == 1 else "fail"
    elif deadline - time.monotonic() < 0.01:
        # proved in the time kept for the ko search: none left to check the ko
        result = "win" if first["value"] == 1 else "fail"
        ko_checked = False
    else:
        ignore = 3 - mover if first["value"] == 1 else mover
        only_ko = False
        if first["value"] == 1 and first["move"] is not None:
            # the winning move itself against unlimited threats first (cheaper than every move)
            value, used = _move_ko_check(table, ignore, first["move"],
                                         max(int((max_nodes - nodes) * MOVE_KO_SHARE), 1),
                                         (deadline - time.monotonic()) * MOVE_KO_SHARE)
            nodes += used
            if value == -1:                 # it wins even then: a clean win
                return "win", chosen, nodes, True
            only_ko = value == 1
        # the first search's table, with the proofs that still hold against the threats
        second = _solver.dfpn_ko(table, ignore, max(max_nodes - nodes, 1),
                                 max(deadline - time.monotonic(), 0.01))
        nodes += second["nodes"]
        ko_checked = second["value"] != 0 or only_ko
        if first["value"] == 1:
            if second["value"] == 1:
                result, chosen = "win", second
            elif second["value"] == -1 or only_ko:
                result = "ko_a"
                if second["value"] == 0 and second["move"] not in (None, first["move"]):
                    # our move wins only the ko, and a clean win is still open: the search's
                    # best try for one (ishida-dan/027)
                    chosen = dict(first, clean_guess=second)
            else:
                # an unknown second search proves nothing against ko threats: keep "win" and
                # say so (ko_checked)
                result = "win"
        else:
            result = "ko_b" if second["value"] == 1 else "fail"
            if second["value"] != -1:
                # a ko, or the ko search's best try when it did not finish: every move failed
                # without ko threats, so a ko is the best there can be (maeda-10k-5k/211)
                chosen = second
    return result, chosen, nodes, ko_checked


def _dfpn(b, attacker, target, region, ko_ignore, max_nodes, seconds, targets, search, **override):
    """One tactics.solver.dfpn search of at most `seconds` (0.01 at least) with the problem's
    settings (`search`: tt_bits, reach, escapes, widths, sim, tree), `override` replacing some."""
    return _solver.dfpn(b, attacker, target, region, ko_ignore, max_nodes, max(seconds, 0.01),
                        targets=targets, **dict(search, **override))


def _move_ko_check(table, ignore, move, max_nodes, seconds):
    """(value, nodes): the winning first `move` checked against `ignore`'s unlimited ko threats
    (its opponent's value after it: -1 a clean win), on the first search's table
    (tactics.solver.dfpn_ko_after): the second search then finds that child's entries."""
    return _solver.dfpn_ko_after(table, ignore, move, max_nodes, max(seconds, 0.01))


def _value_after(b, move, mover, attacker, targets, region, max_nodes, seconds, search,
                 first=None, ko_ignore=0, pv_out=None, tree_out=None):
    """(value, nodes): after `move` of `mover` on `b` (undone on return), df-pn's value for the
    side to move (1 wins, -1 loses, 0 unknown; at most `seconds`, its target `first` if it still
    stands, `ko_ignore` as in tactics.solver.dfpn); -1 at once when no stone of `targets` stands.
    tree_out: when the side to move loses, `move`'s solution tree is appended to it (Solution.tree:
    each reply the search refuted, with its refutation's tree where the table has one)."""
    b.play(move, mover)
    try:
        alive = [t for t in targets if b.get(t) != EMPTY]
        if not alive:
            if tree_out is not None:
                tree_out.append((move, []))
            return -1, 0
        lead = first if first is not None and b.get(first) != EMPTY else alive[0]
        run = lambda ko, limit, tree: _dfpn(b, attacker, lead, region, ko, limit,   # noqa: E731
                                            seconds, alive, search, tree=tree)
        check = run(ko_ignore, max_nodes, tree_out is not None)
        if pv_out is not None:
            pv_out.extend(check["pv"])
        value, nodes = check["value"], check["nodes"]
        if tree_out is not None and value == -1:
            if ko_ignore:
                # the proof's children rest on path-dependent results (the retakes), which the
                # table does not keep, so it names few replies or none: the same question under
                # the simple ko rule, which the proof implies, gives the tree (the vital points
                # of maeda-10k-5k/116: none of 12 replies, and maeda-5k-1k/050: 1)
                again = run(0, max_nodes - nodes, True)
                nodes += again["nodes"]
                if again["value"] == -1 and len(again["refuted"]) > len(check["refuted"]):
                    check = again
            tree_out.append((move, [(m, check["refutations"].get(m, [])) for m in check["refuted"]]))
        return value, nodes
    finally:
        b.undo()


def _preferred_win(b, mover, attacker, target, region, targets, move, scores, count, max_nodes,
                   deadline, search, grow=False):
    """(pv or None, nodes): of the region's moves the prior ranks above the proven `move`, the
    first of the `count` best that also wins cleanly (the opponent with unlimited ko threats; at
    most PREFER_SHARE of the time left each), as its principal variation.  grow (owl: the
    region is the target's `group_region`): each move is checked in that region grown by the
    group_region after it, so that a stone it puts at the region's edge can be attacked from
    outside (vie.tst 39: the defender's A4 lived only while white could not play A3)."""
    floor = max(float(scores[move]) + math.log(PREFER_RATIO), math.log(PREFER_MIN))
    better = sorted((p for p in region if b.get(p) == EMPTY and scores[p] >= floor
                     and b.is_legal(p, mover)), key=lambda p: -scores[p])[:count]
    nodes = 0
    for p in better:
        left = deadline - time.monotonic()
        if left < 0.05 or nodes >= max_nodes:
            break
        pv = [p]
        where = region
        if grow:
            b.play(p, mover)
            try:
                if b.get(target) != EMPTY:     # (an attacker's move may capture it)
                    where = sorted(set(region) | set(group_region(b, target)))
            finally:
                b.undo()
        value, used = _value_after(b, p, mover, attacker, targets, where, max_nodes - nodes,
                                   left * PREFER_SHARE, dict(search, width=0, attack_width=0), first=target,
                                   ko_ignore=3 - mover,
                                   pv_out=pv)
        nodes += used
        if value == -1:
            return pv, nodes
    return None, nodes


def _vital_point(b, mover, attacker, target, region, targets, move, group_targets, max_nodes,
                 deadline, search, tree_out=None):
    """(pv or None, nodes): after a clean kill `move` of a book problem, the defender's vital
    point, if it kills cleanly too, as its principal variation ("the opponent's vital point is
    mine": where several moves kill, a book's is the point the defender needs).  The vital
    point: the one move by which the defender would live, were it to move (the attacker
    passing): df-pn's proof that it lives (the defender to move, the group goal, simple ko),
    and a second search without that first move in which it dies (so `move` is none: a kill
    where the defender has several ways to live is no vital point's, ishigure-basic/106's
    placement at P19).  The vital point is then checked as `_preferred_win` checks a move (the
    defender with unlimited ko threats).  Each search has at most VITAL_SHARE of the time
    left.  None when the group is dead as it stands (the frame may have decided the kill), a
    search does not finish, the defender has another way to live, or the point does not kill.
    tree_out: the vital point's solution tree is appended to it when it kills (`_value_after`)."""
    left = lambda: deadline - time.monotonic()          # noqa: E731
    if left() < 0.05:
        return None, 0
    defender = 3 - attacker
    every = dict(width=0, attack_width=0, tree=False)      # every move, no tree
    b.to_move = defender
    try:
        lives = _dfpn(b, attacker, target, region, 0, max_nodes, left() * VITAL_SHARE,
                      group_targets, search, **every)
        vital, nodes = lives["move"], lives["nodes"]
        if (lives["value"] != 1 or vital is None or vital == move or b.get(vital) != EMPTY
                or not b.is_legal(vital, mover) or nodes >= max_nodes):
            return None, nodes
        other = _dfpn(b, attacker, target, region, 0, max_nodes - nodes, left() * VITAL_SHARE,
                      group_targets, search, root_skip=vital, **every)
        nodes += other["nodes"]
    finally:
        b.to_move = mover
    if other["value"] != -1 or nodes >= max_nodes:      # another way to live, or open
        return None, nodes
    pv = [vital]
    value, used = _value_after(b, vital, mover, attacker, targets, region, max_nodes - nodes,
                               left() * VITAL_SHARE, dict(search, width=0, attack_width=0),
                               first=target, ko_ignore=defender, pv_out=pv, tree_out=tree_out)
    return (pv if value == -1 else None), nodes + used


def _recheck(board, mover, region, goal, result, move, attacker, nodes, max_nodes, deadline,
             loose, search, group, verify, live_guess, prior=None, reserve=0.0, vital=True):
    """The grown wall is the attacker's stones on points the defender might have needed, so it
    can decide an answer: a kill in it may leave room to live without it, and a fail to live
    may be the wall's doing, and a proof may hold only against the wall (maeda-10k-5k/093: S1
    kills in the grown frame, but GNU Go's owl makes it a ko; T6 kills cleanly).  With the
    time and nodes left, a kill is checked in the frame of `infer(far=loose)` (the defender to
    move after our move, at most half the time left; against a clean kill the defender has
    unlimited ko threats); a clean kill the check does not refute stands (nothing says it rests
    on the wall; solving again found another kill first on ishigure-basic/106, where the book's
    P19 stood); otherwise the problem is solved again in that frame, with the time left and
    the caller's `reserve` (the seconds it keeps after `deadline` for its guess and prior:
    the solve again keeps its own, so they are not kept twice).  Returns (solution,
    nodes): that solution or None to keep the answer, and the nodes searched so far, the
    recheck's included.  The solution replaces the answer when it is proven (a win; a ko,
    unless the answer was a clean win), after a kill the check refuted whatever it says (but a
    fail there, where no move kills, keeps our kill as its best try), and
    after a fail it leaves open (unknown there: its best try, as
    unknown; maeda-5k-1k/055; at 10 s, 5 -> 9 right of the 47 fails of a whole run, but 3
    fewer on maeda-10k-5k at 2 M nodes, where the recheck gets few nodes).  Where it disagrees
    the recheck is usually the sounder, as it only takes stones away from the attacker's wall,
    but not always: its wall also stood behind the attacker's outer stones, which face the
    open board in the real position (ishigure-basic/012, module docstring).  Measured:
    docs/results.md (twenty-first session, notes moved from the docstrings)."""
    left = lambda: deadline - time.monotonic()
    if left() < 0.05 or nodes >= max_nodes:
        return None, nodes
    refuted = False                     # a kill the defender survives in the looser frame
    if goal == "kill" and result in ("win", "ko_a") and move is not None:
        b, _, _, lregion, ltargets = prepare(board, None, None, True, True, mover, loose)
        if not b.is_legal(move, mover):
            return None, nodes
        # a clean kill is checked against the defender's unlimited ko threats (a kill that the
        # looser frame turns into a ko rested on the wall: maeda-10k-5k/093's S1), a ko under
        # the simple ko rule
        value, used = _value_after(b, move, mover, attacker, ltargets, lregion, max_nodes - nodes,
                                   left() * 0.5, search, ko_ignore=3 - mover if result == "win" else 0)
        nodes += used
        refuted = value == 1
        if result == "win" and not refuted:
            return None, nodes      # nothing says the kill rests on the wall: keep it
    if left() < 0.05 or nodes >= max_nodes:
        return None, nodes
    # (the solve keeps its own `reserve` for its guess: the time kept after `deadline`)
    again = solve(board, mover, None, region, max_nodes - nodes, left() + reserve, True,
                  far=loose, loose=0, group=group, verify=verify, live_guess=live_guess,
                  prior=prior, other_targets=0, vital=vital, **search)
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


def _guess_reserve(time_limit: float) -> float:
    """The seconds kept for `_live_guess` (its playouts) when the goal is to live."""
    return min(max(GUESS_RESERVE * time_limit, GUESS_SECONDS), 0.5 * time_limit)


class _Scores:
    """A prior's scores for the problem's board, computed when first asked: only an unfinished
    search to live needs them (or `prefer`).  `cost(size)`, where the prior has it, is what
    one call costs on a board of that size (golois.tsumego.cli.TimedPrior: about 0.5 s on one core
    for the full network over 8 symmetries); the searches stop that much early while the
    scores are still to be computed, so that the answer comes within the time limit, and a
    prior that would take more than PRIOR_MAX_SHARE of the time limit is not asked (the
    playouts alone guess).  A prior without `cost` is asked at once, its time counting against
    the searches'.  `setup`: the seconds the `cost` call took, and `late`: the seconds the
    prior's own load took when it was first called (golois.tsumego.cli.LazyPrior loads its network
    then, once per process); the problem's clock leaves both out (`_elapsed`)."""

    def __init__(self, prior, board, mover, time_limit):
        t = time.monotonic()
        self.cost = prior.cost(board.size) if hasattr(prior, "cost") else None
        self.setup = time.monotonic() - t
        self.prior = prior if self.cost is None or self.cost <= PRIOR_MAX_SHARE * time_limit else None
        self.board, self.mover, self.value, self.late = board.copy(), mover, None, 0.0
        if self.cost is None:
            self()

    def pending_seconds(self) -> float:
        return self.cost if self.value is None and self.prior is not None else 0.0

    def __call__(self, *_):
        if self.value is None and self.prior is not None:
            loaded = getattr(self.prior, "load_seconds", 0.0)
            self.value = self.prior(self.board, self.mover)
            self.late += getattr(self.prior, "load_seconds", 0.0) - loaded
        return self.value


def _elapsed(t0: float, prior) -> float:
    """The problem's seconds since t0, less a network load its guess waited for (`_Scores.late`)."""
    return time.monotonic() - t0 - (prior.late if isinstance(prior, _Scores) else 0.0)


def _live_guess(b: Board, mover: int, region, candidates, fallback, scores=None):
    """The first move an unfinished search to live answers: of the root moves it has not
    refuted (`candidates`, in the search's move order), the one after which the mover's stones
    survive best in `GUESS_PLAYOUTS` region playouts (tactics.playouts.survival_rates: the
    mean share of them still standing after random play, the opponent first), plus
    `PRIOR_WEIGHT` times a prior's score (`scores`: a policy network's mean log-probability per
    flat point) when given; ties go to the earlier move; `fallback` (df-pn's current best) when
    there is none.  df-pn's best is the child with the fewest replies left to refute, a poor
    guess at life (tests/test_problem.py, maeda-10k-5k/123).  On the 82 live problems a 10 s
    run left unknown (twenty-second session): the network alone 18 right, playouts alone
    18-23, both 22-25; on the 62 of the fifty-fourth session's run (fifty-fifth session):
    playouts alone 16, with the network at weight 0.015-0.03 20-21, at 0.05 18
    (docs/results.md)."""
    moves = [m for m in candidates if m is not None]
    if not moves:
        return fallback
    rates = survival_rates(b, region, moves, mover, GUESS_PLAYOUTS, seed=1)
    return guess_pick(moves, rates, None if scores is None else [float(scores[m]) for m in moves])


def guess_pick(moves, rates, scores=None, weight: float = PRIOR_WEIGHT):
    """`_live_guess`'s choice among `moves`: the best playout share (`rates`) plus `weight` x the
    prior's score (`scores`, or None), the first of ties (also bench/live_guess_sweep.py's)."""
    values = rates if scores is None else [r + weight * s for r, s in zip(rates, scores)]
    return moves[max(range(len(moves)), key=values.__getitem__)]    # max keeps the first of ties
