"""The searches a solve is made of (tactics/problem.py `solve` calls them): the ko protocol,
one move's value, and the checks of a proven answer against the network's preferred move and
the defender's vital point.

Each runs tactics.solver's df-pn with the problem's search settings (`search`: tt_bits, reach,
escapes, widths, sim, tree) under a deadline, and returns its nodes with its answer.  Start
with `ko_protocol`.
"""

from __future__ import annotations

import math
import time

from tactics import solver as _solver
from tactics.board import EMPTY
from tactics.infer import group_region

FIRST_SHARE = 0.7       # share of the time limit for the first search (the rest: the ko search; 1.0:
                        # 19+20 against 20+21 right on maeda-10k-5k + ishigure-basic, 30 each at 3 s)
MOVE_KO_SHARE = 0.3     # after a win with a ko seen, at most this share of the time and nodes left checks
                        # the winning move against unlimited ko threats
PREFER_MIN = 0.07       # SolveSettings.prefer: a move the prior ranks above a proven win is checked when
                        # its probability is at least this
PREFER_RATIO = 10       # ... and this many times the proven move's
PREFER_NEAR = 3         # ... owl: a move outside the region within this many steps of the group is
PREFER_NEAR_MIN = 0.5   # checked when its probability is at least this (owl-dev.tst 14; on both files
                        # only 5, 14 and 32 have such a move above 0.5 and the floors, 8 at 0.1)
PREFER_SHARE = 0.3      # ... at most this share of the time and positions left checks each such one
EYE_REACH = 2           # `eye_space`: empty points the attacker reaches in this many steps are not eye space
EYE_SHARE = 0.3         # `eye_win`: this share of the time and positions left at most checks each move
                        # with more eye space
VITAL_SHARE = 0.3       # after a clean kill of a book problem: at most this share of the time left for
                        # each of the three searches of `_vital_point`


def ko_protocol(b, attacker, target, region, targets, mover, max_nodes, deadline, search,
              root_extra=False):
    """The ko protocol (tactics/problem.py's docstring): a search with the simple ko rule, then, if a ko
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
            value, used = move_ko_check(table, ignore, first["move"],
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


def dfpn_search(b, attacker, target, region, ko_ignore, max_nodes, seconds, targets, search, **override):
    """One tactics.solver.dfpn search of at most `seconds` (0.01 at least) with the problem's
    settings (`search`: tt_bits, reach, escapes, widths, sim, tree), `override` replacing some."""
    return _solver.dfpn(b, attacker, target, region, ko_ignore, max_nodes, max(seconds, 0.01),
                        targets=targets, **dict(search, **override))


def move_ko_check(table, ignore, move, max_nodes, seconds):
    """(value, nodes): the winning first `move` checked against `ignore`'s unlimited ko threats
    (its opponent's value after it: -1 a clean win), on the first search's table
    (tactics.solver.dfpn_ko_after): the second search then finds that child's entries."""
    return _solver.dfpn_ko_after(table, ignore, move, max_nodes, max(seconds, 0.01))


def value_after(b, move, mover, attacker, targets, region, max_nodes, seconds, search,
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
        run = lambda ko, limit, tree: dfpn_search(b, attacker, lead, region, ko, limit,   # noqa: E731
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


def region_after(b, move, mover, region, target):
    """`region` grown by the target's `group_region` after `mover`'s `move` on `b` (undone on
    return), where an owl check reads the move: a stone it puts at the region's edge can be
    attacked from outside; `region` itself when the move captured the target."""
    b.play(move, mover)
    try:
        if b.get(target) == EMPTY:          # (an attacker's move may capture it)
            return region
        return sorted(set(region) | set(group_region(b, target)))
    finally:
        b.undo()


def preferred_win(b, mover, attacker, target, region, targets, move, scores, count, max_nodes,
                   deadline, search, grow=False):
    """(pv or None, nodes): of the region's moves the prior ranks above the proven `move`, the
    first of the `count` best that also wins cleanly (the opponent with unlimited ko threats; at
    most PREFER_SHARE of the time and positions left each), as its principal variation.  grow
    (owl: the region is the target's `group_region`): also the moves outside it within
    PREFER_NEAR steps of the target's `linked_group` that the prior gives PREFER_NEAR_MIN, and
    each move is checked in the region grown by the group_region after it, so that a stone it
    puts at the region's edge can be attacked from outside (vie.tst 39: the defender's A4 lived
    only while white could not play A3)."""
    floor = max(float(scores[move]) + math.log(PREFER_RATIO), math.log(PREFER_MIN))
    pool = set(region)
    if grow:
        # owl: also a move near the group that the network is sure of (owl-dev.tst 14: D9, 74%,
        # saves a cut stone outside the region; 5's Q10, 99%, does not win in our reading)
        sure = max(floor, math.log(PREFER_NEAR_MIN))
        pool |= {p for p in group_region(b, target, distance=PREFER_NEAR, weak_libs=0) if scores[p] >= sure}
    better = sorted((p for p in pool if b.get(p) == EMPTY and scores[p] >= floor
                     and b.is_legal(p, mover)), key=lambda p: -scores[p])[:count]
    nodes = 0
    for p in better:
        left = deadline - time.monotonic()
        if left < 0.05 or nodes >= max_nodes:
            break
        pv = [p]
        where = region_after(b, p, mover, region, target) if grow else region
        value, used = value_after(b, p, mover, attacker, targets, where,
                                   max(int((max_nodes - nodes) * PREFER_SHARE), 1), left * PREFER_SHARE,
                                   dict(search, width=0, attack_width=0), first=target,
                                   ko_ignore=3 - mover,
                                   pv_out=pv)
        nodes += used
        if value == -1:
            return pv, nodes
    return None, nodes


def eye_space(b, target, region, defender):
    """The defender's eye space around the string of `target` on `b`: the empty points of the
    region reached from that string through the region's empty points and defender stones that
    the attacker does not reach in EYE_REACH steps through empty points (a rough count of the
    room the group makes eyes in, for `eye_win`: a move that blocks the attacker's way in
    gains, a move inside the space loses a point, a move elsewhere changes nothing)."""
    from tactics.coords import neighbours
    nb = neighbours(b.size)
    inside = set(region)
    attacker = 3 - defender
    near = {}                           # empty points the attacker reaches -> steps
    frontier = {q for p in inside for q in [p] + list(nb[p]) if b.get(q) == attacker}
    for step in range(1, EYE_REACH + 1):
        nxt = []
        for p in frontier:
            for q in nb[p]:
                if q not in near and b.get(q) == EMPTY:
                    near[q] = step
                    nxt.append(q)
        frontier = nxt
    seen = set(b.string(target))
    stack = list(seen)
    count = 0
    while stack:
        p = stack.pop()
        for q in nb[p]:
            if q in seen or q not in inside:
                continue
            c = b.get(q)
            if c == attacker:
                continue
            seen.add(q)
            stack.append(q)
            if c == EMPTY and q not in near:
                count += 1
    return count


def eye_win(b, mover, attacker, target, region, targets, move, count, max_nodes, deadline, search):
    """(pv or None, nodes): after the defender's clean win `move` (owl), of the region's moves
    that leave more eye space than it and than the position as it stands (`eye_space` after
    the move: a move elsewhere is no better), the first of the `count`
    with the most that also wins cleanly (the attacker with unlimited ko threats; at most
    EYE_SHARE of the time and positions left each), as its principal variation: GNU Go's owl defends with
    the move that makes eyes, not the first that works."""
    def space(p):
        b.play(p, mover)
        try:
            return eye_space(b, target, region, mover) if b.get(target) != EMPTY else -1
        finally:
            b.undo()
    base = max(space(move), eye_space(b, target, region, mover))   # a move elsewhere gains nothing
    scored = []
    for p in region:
        if p != move and b.get(p) == EMPTY and b.is_legal(p, mover):
            e = space(p)
            if e > base:
                scored.append((-e, p))
    scored.sort()
    nodes = 0
    for _, p in scored[:count]:
        left = deadline - time.monotonic()
        if left < 0.05 or nodes >= max_nodes:
            break
        pv = [p]
        where = region_after(b, p, mover, region, target)   # as `preferred_win` checks its moves
        value, used = value_after(b, p, mover, attacker, targets, where,
                                  max(int((max_nodes - nodes) * EYE_SHARE), 1), left * EYE_SHARE,
                                  search, first=target, ko_ignore=3 - mover,
                                  pv_out=pv)
        nodes += used
        if value == -1:
            return pv, nodes
    return None, nodes


def vital_point(b, mover, attacker, target, region, targets, move, group_targets, max_nodes,
                 deadline, search, tree_out=None):
    """(pv or None, nodes): after a clean kill `move` of a book problem, the defender's vital
    point, if it kills cleanly too, as its principal variation ("the opponent's vital point is
    mine": where several moves kill, a book's is the point the defender needs).  The vital
    point: the one move by which the defender would live, were it to move (the attacker
    passing): df-pn's proof that it lives (the defender to move, the group goal, simple ko),
    and a second search without that first move in which it dies (so `move` is none: a kill
    where the defender has several ways to live is no vital point's, ishigure-basic/106's
    placement at P19).  The vital point is then checked as `preferred_win` checks a move (the
    defender with unlimited ko threats).  Each search has at most VITAL_SHARE of the time
    left.  None when the group is dead as it stands (the frame may have decided the kill), a
    search does not finish, the defender has another way to live, or the point does not kill.
    tree_out: the vital point's solution tree is appended to it when it kills (`value_after`)."""
    left = lambda: deadline - time.monotonic()          # noqa: E731
    if left() < 0.05:
        return None, 0
    defender = 3 - attacker
    every = dict(width=0, attack_width=0, tree=False)      # every move, no tree
    b.to_move = defender
    try:
        lives = dfpn_search(b, attacker, target, region, 0, max_nodes, left() * VITAL_SHARE,
                      group_targets, search, **every)
        vital, nodes = lives["move"], lives["nodes"]
        if (lives["value"] != 1 or vital is None or vital == move or b.get(vital) != EMPTY
                or not b.is_legal(vital, mover) or nodes >= max_nodes):
            return None, nodes
        other = dfpn_search(b, attacker, target, region, 0, max_nodes - nodes, left() * VITAL_SHARE,
                      group_targets, search, root_skip=vital, **every)
        nodes += other["nodes"]
    finally:
        b.to_move = mover
    if other["value"] != -1 or nodes >= max_nodes:      # another way to live, or open
        return None, nodes
    pv = [vital]
    value, used = value_after(b, vital, mover, attacker, targets, region, max_nodes - nodes,
                               left() * VITAL_SHARE, dict(search, width=0, attack_width=0),
                               first=target, ko_ignore=defender, pv_out=pv, tree_out=tree_out)
    return (pv if value == -1 else None), nodes + used
