"""Coordinates: the one place that converts between the ways Go programs name a point.

Glossary (every module of the project uses these words):

- **array** ``(row, col)``: row 0 is the TOP line as diagrams are drawn, col 0 the left line.
  Numpy planes are indexed ``[..., row, col]``.
- **flat**: ``row * size + col``; the network's move logits are flat.  In arrays of move targets
  the pass is ``size * size``; in the Python API a pass is ``None``.
- **GTP vertex**: column letter ``A``..``Z`` skipping ``I``, then the row counted from the BOTTOM,
  1-based: ``"D4"``; ``"pass"``.  Case-insensitive on input, upper case on output.
- **SGF**: two letters, column then row, ``a`` = left / top: ``"dp"``; ``""`` is a pass, and so
  is ``"tt"`` on boards of 19 and smaller (FF[3] habit).
- **sgfmill** ``(row, col)``: row 0 is the BOTTOM line (sgfmill's convention).
- **point**: tactics' internal padded index ``(row + 1) * (size + 2) + col + 1``; C level only.

Start with ``parse_vertex`` and ``format_vertex``.
"""

from __future__ import annotations

GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


class CoordinateError(ValueError):
    """A vertex or SGF point that does not name a point of the board."""


_NEIGHBOURS: dict[int, list] = {}


def neighbours(size: int) -> list[list[int]]:
    """Flat neighbours of each flat point of a size x size board (cached per size)."""
    if size not in _NEIGHBOURS:
        n = size
        _NEIGHBOURS[n] = [[q for q, ok in ((p - n, p >= n), (p + n, p < n * (n - 1)),
                                          (p - 1, p % n > 0), (p + 1, p % n < n - 1)) if ok]
                          for p in range(n * n)]
    return _NEIGHBOURS[size]


def to_flat(row: int, col: int, size: int) -> int:
    """Array coordinates to flat index."""
    return row * size + col


def from_flat(flat: int, size: int) -> tuple[int, int]:
    """Flat index to array coordinates."""
    return divmod(flat, size)


def parse_vertex(text: str, size: int) -> tuple[int, int] | None:
    """GTP vertex to array (row, col); None for a pass.  Raises CoordinateError."""
    t = text.strip().upper()
    if t == "PASS":
        return None
    if len(t) < 2 or t[0] not in GTP_COLUMNS or not t[1:].isdigit():
        raise CoordinateError(f"not a GTP vertex: {text!r}")
    col = GTP_COLUMNS.index(t[0])
    number = int(t[1:])
    if col >= size or not 1 <= number <= size:
        raise CoordinateError(f"vertex {text!r} is off a {size}x{size} board")
    return size - number, col


def vertex_to_flat(text: str, size: int) -> int | None:
    """GTP vertex to flat index; None for a pass.  Raises CoordinateError."""
    rc = parse_vertex(text, size)
    return None if rc is None else to_flat(*rc, size)


def format_vertex(rc: tuple[int, int] | None, size: int) -> str:
    """Array (row, col) to GTP vertex; None gives 'pass'."""
    if rc is None:
        return "pass"
    row, col = rc
    return f"{GTP_COLUMNS[col]}{size - row}"


def format_sgf_point(rc: tuple[int, int] | None, size: int) -> str:
    """Array (row, col) to SGF point; None gives '' (FF[4] pass)."""
    if rc is None:
        return ""
    row, col = rc
    return chr(97 + col) + chr(97 + row)


def from_sgfmill(rc: tuple[int, int] | None, size: int) -> tuple[int, int] | None:
    """sgfmill (row from bottom, col) to array (row from top, col)."""
    if rc is None:
        return None
    return size - 1 - rc[0], rc[1]


def to_sgfmill(rc: tuple[int, int] | None, size: int) -> tuple[int, int] | None:
    """Array (row from top, col) to sgfmill (row from bottom, col)."""
    if rc is None:
        return None
    return size - 1 - rc[0], rc[1]
