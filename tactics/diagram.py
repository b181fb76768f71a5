"""ASCII diagrams to boards and back (`to_diagram`, which `str(board)` prints), for tests and examples.

    board = from_diagram('''
        . . . . .
        . X O . .
        . O . O .
        . . O . .
        . . . . .
    ''', to_move="black")

`X`, `x` or `#` black; `O` or `o` white; `.`, `+` or `,` empty.  Rows top to bottom; spaces and
the parentheses of a last-move mark are ignored; GTP labels (a line of column letters, row numbers
at either end) are skipped, so `str(board)` parses back.  Any other letter names an empty point
whose flat index `from_diagram_marks` returns in `marks`.  `in_corner` puts a partial diagram
(a corner or side shape) on an otherwise empty board.  Start with `from_diagram_marks`.
"""

from __future__ import annotations

import re

from tactics.board import Board, parse_color
from tactics.coords import GTP_COLUMNS

_STONES = {"X": 1, "x": 1, "#": 1, "O": 2, "o": 2}
_EMPTY = set(".+,")


def _rows(text: str) -> list[str]:
    rows = []
    for line in text.strip("\n").splitlines():
        s = re.sub(r"^\s*\d+\s*|\s*\d+\s*$", "", line)  # row numbers
        s = s.replace(" ", "").replace("(", "").replace(")", "")
        if not s or re.fullmatch(f"[{GTP_COLUMNS}]+", s) and not set(s) & set("XO"):
            continue
        rows.append(s)
    return rows


def from_diagram_marks(text: str, to_move="black") -> tuple[Board, dict[str, int]]:
    """Board from a square diagram, and the flat index of each lettered empty point."""
    rows = _rows(text)
    n = len(rows)
    if any(len(r) != n for r in rows):
        raise ValueError(f"diagram is not square: {[len(r) for r in rows]} columns for {n} rows")
    board = Board(n)
    marks = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch in _STONES:
                board.place((r, c), _STONES[ch])
            elif ch not in _EMPTY:
                marks[ch] = r * n + c
    board.to_move = parse_color(to_move)
    return board, marks


def from_diagram(text: str, to_move="black") -> Board:
    """Board from a square diagram (see the module docstring)."""
    return from_diagram_marks(text, to_move)[0]


def in_corner(rows: str, size: int, top: bool, right: bool, to_move="black") -> Board:
    """Board of `size` with the diagram `rows` (fewer rows and columns than the board) in one
    corner: top or bottom rows, right- or left-aligned; the rest empty."""
    lines = [r.split() for r in rows.strip().splitlines()]
    pad = lambda line: ["."] * (size - len(line))
    body = [" ".join(pad(line) + line if right else line + pad(line)) for line in lines]
    empty = [" ".join(["."] * size)] * (size - len(body))
    return from_diagram("\n".join(body + empty if top else empty + body), to_move)


def to_diagram(board: Board) -> str:
    """`str(board)`: X black, O white, + star points, the last move in parentheses, GTP labels
    around (from_diagram reads it back)."""
    n = board.size
    last = board.last_move
    lastr, lastc = divmod(last, n) if last is not None else (-1, -1)
    head = "   " + " ".join(GTP_COLUMNS[:n])
    lines = [head]
    for r in range(n):
        cells = []
        for c in range(n):
            ch = ".XO"[board.get(r * n + c)]
            if ch == "." and _is_hoshi(r, c, n):
                ch = "+"
            sep = "(" if (r, c) == (lastr, lastc) else (")" if (r, c - 1) == (lastr, lastc) else " ")
            cells.append(sep + ch)
        end = ")" if (r, n - 1) == (lastr, lastc) else " "
        lines.append(f"{n - r:2d}{''.join(cells)}{end}{n - r}")
    lines.append(head)
    return "\n".join(lines)


def _is_hoshi(r, c, n):
    """A star point of the usual 9x9, 13x13 and 19x19 boards."""
    if n not in (9, 13, 19):
        return False
    edge = 2 if n < 13 else 3
    lines = {edge, n - 1 - edge} | ({n // 2} if n % 2 else set())
    return r in lines and c in lines
