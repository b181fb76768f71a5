"""How a life-and-death answer is described: whether the defender's survival is a seki, and the
result in words.  tactics.problem calls both on every Solution it returns (`Solution.seki`,
`Solution.status`); start with `status`."""

from __future__ import annotations

from tactics.board import BLACK, WHITE, EMPTY, Board

NAMES = {BLACK: "black", WHITE: "white"}


def is_seki(b: Board, sol) -> bool:
    """The defender survives, and at the end of the PV its target is not Benson-alive and
    shares a liberty with an attacker string (a seki as far as the PV shows)."""
    defender_wins = (sol.goal == "live") == (sol.result in ("win", "ko_a", "ko_b"))
    if not defender_wins or sol.result == "unknown":
        return False
    from tactics.benson import unconditional
    played = 0
    try:
        color = b.to_move
        for m in sol.pv:
            b.play(m, color)
            played += 1
            color = 3 - color
        if b.get(sol.target) == EMPTY:
            return False
        n = b.size
        if unconditional(b, 3 - sol.attacker).flat[sol.target] == 1:
            return False
        libs = set(b.liberty_points(sol.target))
        for p in libs:
            r, c = divmod(p, n)
            for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= q[0] < n and 0 <= q[1] < n and b.get(q) == sol.attacker:
                    if libs & set(b.liberty_points(q[0] * n + q[1])):
                        return True
        return False
    except Exception:
        return False
    finally:
        for _ in range(played):
            b.undo()


def status(sol) -> str:
    me, other = NAMES[sol.to_move], NAMES[3 - sol.to_move]
    verb = "kills" if sol.goal == "kill" else "lives"
    if sol.result == "unknown":
        return f"unknown ({me} to {sol.goal}; limits reached)"
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
