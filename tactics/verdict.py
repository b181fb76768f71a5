"""How a life-and-death answer is described: whether the defender's survival is a seki, and the
result in words.  tactics.problem calls both on every Solution it returns (`Solution.seki`,
`Solution.status`); start with `status`."""

from __future__ import annotations

from tactics.board import BLACK, WHITE, EMPTY, Board

NAMES = {BLACK: "black", WHITE: "white"}


def is_seki(b: Board, sol) -> bool:
    """The defender survives in a seki as far as the PV shows: `_seki_shape` holds at the end
    of the PV, or before the attacker's first move (at the root, or after the defender's first
    move): the PV may go on with an attacker's try that fails, often a self-atari the defender
    captures, after which the shape is gone.  (Not in the middle of the PV: a shape there is
    often a step of a fight that ends in two eyes, maeda-5k-1k/038.)"""
    defender_wins = (sol.goal == "live") == (sol.result in ("win", "ko_a", "ko_b"))
    if not defender_wins or sol.result == "unknown":
        return False
    played = 0
    try:
        color = b.to_move
        if color == sol.attacker and _seki_shape(b, sol):
            return True
        for m in sol.pv:
            b.play(m, color)
            played += 1
            color = 3 - color
            if played == 1 and color == sol.attacker and _seki_shape(b, sol):
                return True
        return _seki_shape(b, sol)
    except Exception:
        return False
    finally:
        for _ in range(played):
            b.undo()


def _seki_shape(b: Board, sol) -> bool:
    """On `b` as it stands: the target is not Benson-alive, has no liberty outside the region,
    and shares liberties with an attacker string so that neither can fill one without being
    captured: shared liberties and no others, two or more, or one eye each besides.  (A group
    that runs out into the open shares liberties with the attacker's wall too, but the wall has
    liberties of its own there.)"""
    from tactics.benson import unconditional
    from tactics.coords import neighbours
    if b.get(sol.target) == EMPTY:
        return False
    if unconditional(b, 3 - sol.attacker).flat[sol.target] == 1:
        return False
    libs = set(b.liberty_points(sol.target))
    if sol.region and not libs <= set(sol.region):
        return False
    near = neighbours(b.size)
    for p in libs:
        for q in near[p]:
            if b.get(q) != sol.attacker:
                continue
            theirs = set(b.liberty_points(q))
            shared = libs & theirs
            own, mine = theirs - shared, libs - shared
            if (len(own) == len(mine) <= 1 and len(shared) + len(own) >= 2
                    and all(all(b.get(x) == sol.attacker for x in near[e]) for e in own)):
                return True
    return False


def status(sol) -> str:
    me, other = NAMES[sol.to_move], NAMES[3 - sol.to_move]
    verb = "kills" if sol.goal == "kill" else "lives"
    if sol.result == "unknown":
        return f"{me} to {sol.goal}: limits reached before a proof"
    if sol.result == "fail" and not sol.ko_checked:
        return f"{me} cannot {sol.goal} without ko threats (with unlimited threats: unknown)"
    if sol.result == "fail":
        other_verb = "lives" if sol.goal == "kill" else "is dead"
        tail = " in seki" if sol.seki else ""
        return f"{me} cannot {sol.goal}: {other if sol.goal == 'kill' else me} {other_verb}{tail}"
    if sol.result == "win":
        return (f"{me} {verb}" + (" in seki" if sol.seki else "")
                + ("" if sol.ko_checked else " (a ko appeared; not checked against ko threats)"))
    if sol.result == "ko_a":
        return f"{me} {verb} by ko ({other} must find the first ko threat)"
    return f"{me} {verb} by ko ({me} must find the first ko threat)"
