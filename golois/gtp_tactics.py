"""GTP tactical commands in GNU Go's formats, answered by the ladder reader (tactics.ladder).

- `ladder_attack VERTEX` -> `0` or `1 MOVE` (`3 MOVE` when the ladder hangs on a ko); like GNU Go,
  fails unless the string has exactly two liberties.
- `attack VERTEX` -> `0`, `1 MOVE` or `3 MOVE`: a string in atari is taken at its liberty; a
  two-liberty string is read as a ladder; three or more liberties answer `0` (beyond a ladder
  reader: a general capture search for 3-4 liberties is not written yet).
- `defend VERTEX` -> `0`, `1 MOVE` or `3 MOVE`; `1 PASS` when the string is in no ladder danger.
- `ladder_facts` -> the side to move's ladder capture / save / push moves, one line each.

A budget-exhausted read answers `? ladder reading undecided` rather than guess.  Handlers take
`(engine, *args)`; `COMMANDS` is added to the engine by golois.engine.command_sets.
"""

from __future__ import annotations

from tactics.board import BLACK, WHITE
from tactics.ladder import CAPTURED, ESCAPED, KO, UNKNOWN, ladder_capture, ladder_escape, ladder_facts

from golois.gtp import CommandSet, GtpFailure

COMMANDS = CommandSet("tactics")


def _string(engine, vertex: str) -> int:
    flat = engine.parse_vertex(vertex)
    if flat is None or engine.board.get(flat) not in (BLACK, WHITE):
        raise GtpFailure("vertex must not be empty")
    return flat


def _answer(engine, result: int, move) -> str:
    if result == UNKNOWN:
        raise GtpFailure("ladder reading undecided (node budget or depth limit)")
    if result == KO:
        return f"3 {engine.format_vertex(move)}"
    return f"1 {engine.format_vertex(move)}"


@COMMANDS.command("ladder_attack")
def ladder_attack(engine, vertex):
    s = _string(engine, vertex)
    if engine.board.liberties(s) != 2:
        raise GtpFailure("string must have exactly 2 liberties")
    result, move, _ = ladder_capture(engine.board, s, sequence=False)
    return "0" if result == ESCAPED else _answer(engine, result, move)


@COMMANDS.command("attack")
def attack(engine, vertex):
    s = _string(engine, vertex)
    if engine.board.liberties(s) > 2:
        return "0"
    result, move, _ = ladder_capture(engine.board, s, sequence=False)
    return "0" if result == ESCAPED else _answer(engine, result, move)


@COMMANDS.command("defend")
def defend(engine, vertex):
    s = _string(engine, vertex)
    result, move, _ = ladder_escape(engine.board, s, sequence=False)
    if result == CAPTURED:
        return "0"
    if result == ESCAPED:
        return f"1 {engine.format_vertex(move).upper()}"
    return _answer(engine, result, move)


@COMMANDS.command("ladder_facts")
def ladder_facts_cmd(engine):
    facts = ladder_facts(engine.board)
    lines = []
    for name in ("captures", "saves", "pushes"):
        pts = [(int(v), engine.format_vertex(int(i))) for i, v in enumerate(facts[name].ravel()) if v]
        lines.append(f"{name}: " + " ".join(f"{vx}:{v}" for v, vx in pts))
    return "\n".join(lines)
