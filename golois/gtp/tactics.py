"""GTP tactical commands in GNU Go's formats, answered by the ladder reader (tactics.ladder) and the
capture search (tactics.capture).

- `ladder_attack VERTEX` -> `0` or `1 MOVE` (`3 MOVE` when the ladder hangs on a ko); like GNU Go,
  fails unless the string has exactly two liberties.
- `attack VERTEX` -> `0`, `1 MOVE`, `2 MOVE` or `3 MOVE` (GNU Go's ko codes: 2 = succeeds if the
  attacker gets the first ko capture, 3 = only if it makes the first ko threat), answered by the
  capture search (tactics.capture) for strings of up to 4 liberties; more liberties answer `0`.
- `defend VERTEX` -> the same codes for the string's owner; like GNU Go, `1 PASS` for a string
  with more than 4 liberties, and otherwise a saving move even when the string is not attacked.
- `ladder_facts` -> the side to move's ladder capture / save / push moves, one line each.

A budget-exhausted read answers `? ... undecided` rather than guess.  Handlers take
`(engine, *args)`; `COMMANDS` is added to the engine by golois.gtp.engine.command_sets.
"""

from __future__ import annotations

from tactics.board import BLACK, WHITE
from tactics.capture import UNKNOWN as CAPTURE_UNKNOWN, capture_attack, capture_defend
from tactics.ladder import ESCAPED, KO, UNKNOWN, ladder_capture, ladder_facts

from golois.gtp.protocol import CommandSet, GtpFailure

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
        return f"3 {engine.gnugo_vertex(move)}"
    return f"1 {engine.gnugo_vertex(move)}"


@COMMANDS.command("ladder_attack")
def ladder_attack(engine, vertex):
    s = _string(engine, vertex)
    if engine.board.liberties(s) != 2:
        raise GtpFailure("string must have exactly 2 liberties")
    result, move, _ = ladder_capture(engine.board, s, sequence=False)
    return "0" if result == ESCAPED else _answer(engine, result, move)


def _capture_answer(engine, result: int, move) -> str:
    if result == CAPTURE_UNKNOWN:
        raise GtpFailure("capture reading undecided (node budget or ply limit)")
    if result == 0:
        return "0"
    return f"{result} {engine.gnugo_vertex(move)}"


@COMMANDS.command("attack")
def attack(engine, vertex):
    s = _string(engine, vertex)
    result, move, _ = capture_attack(engine.board, s)
    return _capture_answer(engine, result, move)


@COMMANDS.command("defend")
def defend(engine, vertex):
    s = _string(engine, vertex)
    result, move, _ = capture_defend(engine.board, s)
    return _capture_answer(engine, result, move)


@COMMANDS.command("ladder_facts")
def ladder_facts_cmd(engine):
    facts = ladder_facts(engine.board)
    lines = []
    for name in ("captures", "saves", "pushes"):
        pts = [(int(v), engine.format_vertex(int(i))) for i, v in enumerate(facts[name].ravel()) if v]
        lines.append(f"{name}: " + " ".join(f"{vx}:{v}" for v, vx in pts))
    return "\n".join(lines)
