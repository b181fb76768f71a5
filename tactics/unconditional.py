"""Unconditional status as GNU Go 3.8 computes it (`unconditional_status`), so that its regression
file unconditional.tst runs against us.

Start reading at `unconditional_life`.  It differs from Benson's algorithm (tactics.benson) in that
it *plays the position out*: the opponent tries to capture every string of `color` by filling
all its liberties (a string reduced to one liberty is then captured, even through a ko); the
strings that survive are invincible.  Then the opponent fills the liberties of the invincible
strings, extends its own strings in atari, breaks the one seki shape that this would misjudge,
fills what is left and splits two adjacent liberties, and whatever opponent string ends in atari
(and every liberty of an invincible string) is unconditional territory.  The steps follow the
algorithm described in GNU Go's engine/unconditional.c (algorithm 3 in its comments); this is
our own implementation on tactics.board.Board with play/undo, in Python (a GTP query, not a
search: milliseconds per position).

`status(board, point)` answers GNU Go's words: alive, dead, black_territory, white_territory,
undecided.
"""

from __future__ import annotations

import numpy as np

from tactics.board import BLACK, WHITE, EMPTY, Board
from tactics.coords import neighbours


class _Player:
    """Moves made on the board during one analysis, all taken back by `rewind`."""

    def __init__(self, board: Board):
        self.b = board
        self.n = board.size
        self.adjacent = neighbours(board.size)
        self.count = 0

    def color(self, p):
        return self.b.get(p)

    def neighbours(self, p):
        return self.adjacent[p]

    def try_move(self, p, color) -> bool:
        """Play p if legal (simple ko included); True if played."""
        if self.b.get(p) != EMPTY or not self.b.is_legal(p, color):
            return False
        self.b.play(p, color)
        self.count += 1
        return True

    def try_ko(self, p, color) -> bool:
        """Play p even if it retakes a ko (a pass by `color` first clears the ban)."""
        if self.try_move(p, color):
            return True
        if self.b.get(p) != EMPTY:
            return False
        self.b.play(None, color)
        self.count += 1
        if self.try_move(p, color):
            return True
        self.undo(1)
        return False

    def undo(self, k):
        for _ in range(k):
            self.b.undo()
        self.count -= k

    def rewind(self):
        self.undo(self.count)

    def strings(self, color):
        """One stone (the smallest point) per string of `color`, in board order."""
        seen = set()
        out = []
        a = self.b.to_array().ravel()
        for p in np.flatnonzero(a == color):
            p = int(p)
            if p in seen:
                continue
            stones = self.b.string(p)
            seen.update(stones)
            out.append(min(stones))
        return out

    def libs(self, p):
        return self.b.liberty_points(p)

    def open_libs(self, p, color):
        """Liberties a stone of `color` at empty p would have (its string merged), at most 4."""
        libs = set()
        for q in self.neighbours(p):
            c = self.b.get(q)
            if c == EMPTY:
                libs.add(q)
            elif c == color:
                libs.update(self.libs(q))
        libs.discard(p)
        return min(len(libs), 4)


def _potential_sekis(pl: _Player, color):
    """Stones of isolated two-stone strings of `color` (no other friendly string among the 8
    neighbours of either stone, and not on the edge)."""
    n = pl.n
    marks = set()
    for s in pl.strings(color):
        stones = pl.b.string(s)
        if len(stones) != 2:
            continue
        isolated = True
        for p in stones:
            r, c = divmod(p, n)
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if dr == dc == 0:
                        continue
                    rr, cc = r + dr, c + dc
                    if not (0 <= rr < n and 0 <= cc < n):
                        isolated = False
                    elif pl.b.get(rr * n + cc) == color and rr * n + cc not in stones:
                        isolated = False
        if isolated:
            marks.update(stones)
    return marks


def _capture_non_invincible(pl: _Player, color, exceptions) -> bool:
    """Capture every string of `color` (outside `exceptions`) that the opponent can capture by
    filling its liberties; the moves stay on the board.  True if no string is left."""
    other = 3 - color
    captured = True
    found = False
    while captured:
        captured = False
        found = False
        for s in pl.strings(color):
            if pl.b.get(s) != color or s in exceptions:
                continue
            found = True
            before = pl.count
            for q in pl.libs(s):
                pl.try_move(q, other)
            if pl.b.get(s) == EMPTY:
                captured = True
            elif len(pl.libs(s)) == 1:
                pl.try_ko(pl.libs(s)[0], other)
                captured = True
            else:
                pl.undo(pl.count - before)
    return not found


def unconditional_life(board: Board, color) -> np.ndarray:
    """int8 (size, size): 1 unconditionally alive stones of `color`, 2 its unconditional
    territory (empty points and dead opponent stones), 0 elsewhere (the board is restored)."""
    n = board.size
    out = np.zeros(n * n, dtype=np.int8)
    other = 3 - color
    pl = _Player(board)
    try:
        sekis = _potential_sekis(pl, color)
        if _capture_non_invincible(pl, color, sekis):
            return out.reshape(n, n)
        # 1. the opponent fills the liberties of the invincible strings where it can
        for s in pl.strings(color):
            if s not in sekis:
                for q in pl.libs(s):
                    pl.try_move(q, other)
        # 2. the opponent extends its strings in atari, repeatedly
        _extend_ataris(pl, other)
        # 3. the seki shape of two isolated stones: if the opponent's two stones around them
        #    would form one string, a third stone of `color` breaks the seki
        _break_sekis(pl, color, sekis)
        # 4. capture the isolated pairs' liberties too
        for s in sorted(sekis):
            if pl.b.get(s) == color:
                for q in pl.libs(s):
                    pl.try_move(q, other)
        # 5. two adjacent liberties of an opponent string: fill the better one
        for s in list(pl.strings(other)):
            if pl.b.get(s) != other:
                continue
            libs = pl.libs(s)
            if len(libs) != 2:
                continue
            a, b = libs
            if abs(a // n - b // n) + abs(a % n - b % n) != 1:
                continue
            ka = (pl.open_libs(a, color), pl.open_libs(a, other))
            kb = (pl.open_libs(b, color), pl.open_libs(b, other))
            pl.try_move(a if ka >= kb else b, other)
        # the verdict on the final position
        for p in range(n * n):
            c = board.get(p)
            if c == color and p not in sekis:
                out[p] = 1
                for q in pl.libs(p):
                    out[q] = 2
            elif c == other and len(pl.libs(p)) == 1:
                out[p] = 2
                out[pl.libs(p)[0]] = 2
        return out.reshape(n, n)
    finally:
        pl.rewind()


def _extend_ataris(pl: _Player, other):
    found = True
    while found:
        found = False
        for s in pl.strings(other):
            if pl.b.get(s) == other and len(pl.libs(s)) == 1:
                if pl.try_move(pl.libs(s)[0], other):
                    found = True


def _break_sekis(pl: _Player, color, sekis):
    """GNU Go's critical seki shape around an isolated pair of `color` (see the module
    docstring): when the opponent's stones on both sides of the pair would be one string, add a
    stone of `color` next to the pair so that its capture leaves a nakade, not a seki."""
    n = pl.n
    other = 3 - color

    def at(p, dr, dc):
        r, c = divmod(p, n)
        r, c = r + dr, c + dc
        if 0 <= r < n and 0 <= c < n:
            return r * n + c
        return None

    def col(q):
        return None if q is None else pl.b.get(q)

    dirs = [(-1, 0), (0, 1), (1, 0), (0, -1)]
    for pos in range(n * n):
        if pos not in sekis or pl.b.get(pos) == EMPTY or min(pl.b.string(pos)) != pos:
            continue
        for r in range(4):
            up = dirs[r]
            right = dirs[(r + 1) % 4]
            u1 = at(pos, *up)
            u2 = at(pos, 2 * up[0], 2 * up[1])
            d1 = at(pos, -up[0], -up[1])
            if col(u1) != color or col(u2) != EMPTY or col(d1) != EMPTY:
                continue
            done = False
            for k in range(2):
                rt = right if k == 0 else (-right[0], -right[1])
                pr = at(pos, *rt)
                upl = at(pos, up[0] - rt[0], up[1] - rt[1])
                if col(pr) != EMPTY or col(upl) != EMPTY:
                    continue
                left = at(pos, -rt[0], -rt[1])
                upr = at(pos, up[0] + rt[0], up[1] + rt[1])
                local = 0
                if col(left) == EMPTY and pl.try_move(left, other):
                    local += 1
                if col(upr) == EMPTY and pl.try_move(upr, other):
                    local += 1
                joined = (col(left) == other and col(upr) == other
                          and upr in pl.b.string(left))
                pl.undo(local)
                if joined:
                    pl.try_move(d1, color)
                    done = True
                    break
            if done or len(pl.b.string(pos)) > 2:
                break


def status(board: Board, point: int) -> str:
    """GNU Go's unconditional_status of a point: alive, dead, black_territory,
    white_territory or undecided (WHITE analysed first, then BLACK, as GNU Go does)."""
    word = "undecided"
    here = board.get(point)
    for color in (WHITE, BLACK):
        v = unconditional_life(board, color).flat[point]
        if v == 0:
            continue
        if here == color:
            word = "alive"
        elif here == EMPTY:
            word = "white_territory" if color == WHITE else "black_territory"
        else:
            word = "dead"
    return word
