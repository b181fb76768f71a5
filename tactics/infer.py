"""Inference of life-and-death problems: which group is at stake, who attacks, where moves may
be played, and the tsumego frame that closes the rest of the board (`infer`); for a target given
on a full board (owl), its group (`linked_group`) and region (`group_region`).

Start reading at `infer`; tactics.problem.prepare calls it and sets the frame's stones.  The
names below in backquotes without a module are tactics.problem's (`solve`, `_recheck`,
`prepare`, ...), but for this module's functions (`infer`, `_wall_fill`, `area_group`, ...).

Inference (no target given): the position must be an *open corner or side problem* as printed in
problem books, i.e. all stones in one area of an otherwise empty board.

1. The stones must form one cluster (stones at most 4 lines apart, chained); otherwise
   `TargetNeeded("stones in several areas ...")` (a ProblemError): give the target.
2. The region of interest is the bounding box of the stones grown by `margin` (1) lines; a side
   of the box within 2 lines of the board's edge is extended to the edge.  A box covering more
   than 3/4 of the board in both directions is not an open problem: `ProblemError`.
3. The attacker is the colour whose stones face the open board: we flood the empty points of the
   region from its open sides (those not on the edge) and count, for each colour, the stones
   touching that flood or standing on an open side; the colour with more is the attacker (ties:
   the colour whose stones are on average farther from the nearest edge).  The defender is the
   other colour, and the target is the defender's largest string (ties: fewest liberties).
   The region is the whole box (stones included: their points can be emptied by captures).  The
   search narrows it at every node (`reach`, tactics.dfpn.gen_moves): only the empty points
   reached from a *current* defender stone in at most 2 steps through empty points, and the
   liberties of attacker strings with at most 2 liberties (3 at the root) next to the defender.
   A fail is answered only after a second look at the root's moves out of focus (`_solve`,
   `SolveSettings.second_look`): the same search with those moves alone at the root
   (maeda-10k-5k/149: T18, in an empty pocket walled off by white stones, lives by ko;
   maeda-5k-1k/014: A1, 3 empty steps from every white stone, kills).
   The focus follows the current stones: one fixed on the initial stones would leave a new
   defender stone out of the attacker's reach (ishigure-basic/004 in tests/test_solver.py).
4. The goal follows: the player to move kills if it is the attacker, lives otherwise.
5. The tsumego frame: a wall of attacker stones on the points just outside the region's open
   sides (a one-stone-thick ring whose liberties lie outside the region and are never played),
   so that the defender cannot escape and the attacker's wall cannot be captured.  The wall
   then grows inwards over the empty points of the box that are at least 3 points (Manhattan)
   from every defender stone and connected through such points to an open side, so the
   defender keeps about two lines of room around its stones (`_wall_fill`).  The grown
   wall is the cause of several wrong answers (it fills first-line points the defender needs:
   ishigure-basic/011 T17, maeda-10k-5k/017 S19-T19, maeda-5k-1k/001 A7, and gives the
   attacker a free liberty-filling stone in races: maeda-5k-1k/013 T13), but every wider
   wall measured costs more than it fixes (docs/results.md), so the wall grows, and `solve`
   rechecks the answers it may have decided in a frame grown only from `LOOSE_FAR` (5) points
   (`_recheck` says when that frame's answer replaces the grown frame's; maeda-10k-5k/017, 020
   and 093 right).
   Outside strings: a defender string other than the target with a stone on the stones'
   outermost line towards an open side and OUTSIDE_LIBS (1) liberty on that side faces the
   open board, as the attacker's outer stones do (maeda-10k-5k/139: black A14-D14 above the
   fight; 076: white's single stone C14).  Those liberties leave the region (it is never
   captured), it is no target, and the target string that joins it has escaped (ESCAPE_OUT;
   with the attacker to move, also one that joins it by miai, tactics.knowledge `_joins_out`;
   with any string of the group escaping, the group lives too easily: ishigure-basic/064,
   maeda-10k-5k/085), and another string of the group that joins it is not at stake: the
   attacker need not capture it, nor could it (tactics.moves `target_heads`: maeda-10k-5k/079
   and 139).  With that rule a single liberty on the open side is enough: 27 against 22 right
   with two on the 50 problems it changes (docs/results.md).

Failure modes (documented, tested where cheap): problems whose answer is to escape into the open
(the frame makes escape impossible, so the defender is judged dead); semeai problems where both
colours are surrounded (the attacker guess can be wrong: give the target); problems whose answer
lies more than one line outside the stones' box (the region misses it); problems where the
defender's key stones are not its largest string (a kill that fails against it tries the
defender's other strings as the target, `_other_targets`: ishigure-basic/026 and maeda-5k-1k/154
right; when the largest string's search does not finish, or the other string's does not either,
as on maeda-5k-1k/074, the answer stays wrong); problems where the defender lives by giving up
its largest string when the attacker is to move, if the check below runs out of time (the goal
is then the target string, and a kill found for it is checked against the target's group (the
defender stones of its area, `area_group`, or its `linked_group` where that area touches an
outside string, less the outside strings: a defender stone across the attacker's wall is not
at stake, maeda-10k-5k/142; the area's stones below the target's in maeda-5k-1k/163 are) with
at most VERIFY_SHARE of the time, `SolveSettings.verify`; a clean kill against the defender's
unlimited ko threats, as the string may die cleanly and the group only by ko, ishida-dan/049):
maeda-10k-5k/018, where white gives up H2-H1 to live, is solved; with the defender to move the
goal is the whole group, so maeda-10k-5k/008, where black lives with B3 after white captures
the four stones at D1, is solved); problems where the grown frame takes room the defender
needed and the recheck in the looser frame runs out of time; problems where the looser frame
also frees the points behind the attacker's outer stones, which face the open board in the
real position, so the defender finds room there that it does not have (ishigure-basic/012: Q16
kills by ko in the grown frame; in the looser one white lives after it, P16 Q18 N17 Q19 R16 ...
retaking Q16, and the recheck's proven fail replaces the ko, with our Q16 as its best try,
tactics.problem._recheck; a frame that keeps the points behind black's stones filled answers
Q16).
"""

from __future__ import annotations

import numpy as np

from tactics.board import BLACK, WHITE, EMPTY, Board
from tactics.coords import neighbours
from tactics.verdict import NAMES


class ProblemError(ValueError):
    """A position that cannot be set up as a life-and-death problem (with the reason)."""


class TargetNeeded(ProblemError):
    """A position the inference cannot read as an open problem (stones in several areas, or
    over most of the board): it can still be solved with a target given (golois solve
    --target, GTP's owl commands)."""


OUTSIDE_LIBS = 1        # a defender string on the stones' outermost line with this many liberties on an
                        # open side faces the open board (an outside string; 2: 22 against 27 right on
                        # the 50 problems it changes)
FAR = 3                 # the grown wall keeps this many points (Manhattan) from the defender (infer)


def _stones(board: Board):
    """(the board as an int8 array, its stones as (row, col) points)."""
    a = board.to_array()
    return a, [(int(r), int(c)) for r, c in zip(*np.nonzero(a))]


def _clusters(points, gap=4):
    """The points in clusters: chained by steps of at most `gap` lines in both directions."""
    left = set(points)
    out = []
    while left:
        seed = left.pop()
        comp = [seed]
        stack = [seed]
        while stack:
            r, c = stack.pop()
            near = [q for q in left if max(abs(q[0] - r), abs(q[1] - c)) <= gap]
            for q in near:
                left.discard(q)
                comp.append(q)
                stack.append(q)
        out.append(comp)
    return out


class _Box:
    """The region's box: the stones' bounding box grown by `margin` lines, a side within 2 lines
    of the board's edge extended to the edge (that side is closed, the others open)."""

    def __init__(self, pts, n: int, margin: int):
        rs = [r for r, _ in pts]
        cs = [c for _, c in pts]
        lo_r, hi_r, lo_c, hi_c = min(rs) - margin, max(rs) + margin, min(cs) - margin, max(cs) + margin
        self.open = {"top": lo_r > 2, "bottom": hi_r < n - 3, "left": lo_c > 2, "right": hi_c < n - 3}
        self.lo_r = lo_r if self.open["top"] else 0
        self.hi_r = hi_r if self.open["bottom"] else n - 1
        self.lo_c = lo_c if self.open["left"] else 0
        self.hi_c = hi_c if self.open["right"] else n - 1
        self.margin = margin

    def inside(self, r, c) -> bool:
        """(r, c) lies in the box."""
        return self.lo_r <= r <= self.hi_r and self.lo_c <= c <= self.hi_c

    def on_open_side(self, r, c) -> bool:
        """(r, c) lies on an open side of the box."""
        o = self.open
        return ((o["top"] and r == self.lo_r) or (o["bottom"] and r == self.hi_r)
                or (o["left"] and c == self.lo_c) or (o["right"] and c == self.hi_c))

    def on_outer_line(self, r, c) -> bool:
        """(r, c) lies on the stones' outermost line towards an open side."""
        o, m = self.open, self.margin
        return ((o["top"] and r == self.lo_r + m) or (o["bottom"] and r == self.hi_r - m)
                or (o["left"] and c == self.lo_c + m) or (o["right"] and c == self.hi_c - m))

    def points(self):
        """The box's (row, col) points, row by row."""
        return [(r, c) for r in range(self.lo_r, self.hi_r + 1) for c in range(self.lo_c, self.hi_c + 1)]


def infer(board: Board, margin: int = 1, far: int = FAR):
    """(attacker, target flat, region flats, wall flats, group flats, outside flats) for an open
    corner/side problem; the group is every defender stone (the attacker must capture them
    all, `prepare` leaves the outside strings out of it).  The steps: module docstring."""
    n = board.size
    a, pts = _stones(board)
    if not pts:
        raise ProblemError("no stones on the board")
    clusters = _clusters(pts)
    if len(clusters) > 1:
        raise TargetNeeded(f"stones in several areas ({len(clusters)} clusters): give the target")
    box = _Box(pts, n, margin)
    if box.hi_r - box.lo_r + 1 > 3 * n // 4 and box.hi_c - box.lo_c + 1 > 3 * n // 4:
        raise TargetNeeded("stones cover most of the board: not an open corner/side problem; give the target")
    if not any(box.open.values()):
        raise TargetNeeded("the stones reach every side: not an open problem; give the target")
    region = [r * n + c for r, c in box.points()]
    attacker = _attacker(a, pts, n, box)
    defender = 3 - attacker
    dstones = [(r, c) for r, c in pts if a[r, c] == defender]
    if not dstones:
        raise ProblemError(f"only {NAMES[attacker]} stones: no group at stake")
    strings = {}
    for r, c in dstones:
        s = tuple(board.string(r * n + c))
        strings[s] = board.liberties(r * n + c)
    target_string = max(strings, key=lambda s: (len(s), -strings[s]))
    outside, freed = _outside_strings(a, n, box, strings, target_string)
    region = [p for p in region if p not in freed]
    # the wall: attacker stones on the points just outside the region, on open sides only
    wall = []
    for r in range(max(box.lo_r - 1, 0), min(box.hi_r + 1, n - 1) + 1):
        for c in range(max(box.lo_c - 1, 0), min(box.hi_c + 1, n - 1) + 1):
            if not box.inside(r, c) and a[r, c] == EMPTY:
                wall.append(r * n + c)
    if far:
        fill = _wall_fill(a, box, dstones, far)
        wall += [r * n + c for r, c in fill]
        region = [p for p in region if divmod(p, n) not in fill]
    return attacker, target_string[0], region, wall, [r * n + c for r, c in dstones], outside


def _attacker(a, pts, n: int, box: _Box) -> int:
    """The attacker: the colour whose stones face the open board (module docstring, step 3)."""
    # the colour with more stones touching the empty points flooded from the box's open sides,
    # or on an open side (ties: the colour farther on average from the nearest edge)
    seen = set()
    stack = [(r, c) for r, c in box.points() if box.on_open_side(r, c) and a[r, c] == EMPTY]
    seen.update(stack)
    while stack:
        r, c = stack.pop()
        for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if box.inside(*q) and q not in seen and a[q] == EMPTY:
                seen.add(q)
                stack.append(q)
    outer = {BLACK: 0, WHITE: 0}
    for r, c in pts:
        touches = box.on_open_side(r, c) or any(
            q in seen for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)))
        outer[int(a[r, c])] += touches
    edge = {col: np.mean([min(r, c, n - 1 - r, n - 1 - c) for r, c in pts if a[r, c] == col] or [0])
            for col in (BLACK, WHITE)}
    if outer[BLACK] != outer[WHITE]:
        return BLACK if outer[BLACK] > outer[WHITE] else WHITE
    return BLACK if edge[BLACK] > edge[WHITE] else WHITE


def _outside_strings(a, n: int, box: _Box, strings, target_string):
    """(stones, liberties): the outside strings (module docstring, step 5) and what leaves the region."""
    outside, freed = [], set()
    nb = neighbours(n)
    for s in strings:
        if s == target_string or not any(box.on_outer_line(*divmod(p, n)) for p in s):
            continue
        libs = {q for p in s for q in nb[p] if a.flat[q] == EMPTY and box.on_open_side(*divmod(q, n))}
        if len(libs) >= OUTSIDE_LIBS:
            outside.extend(s)
            freed |= libs
    return outside, freed


def _wall_fill(a, box: _Box, dstones, far: int) -> set:
    """The (row, col) points the wall grows over: `far` or more from the defender, open-connected."""
    # the box's empty points at distance >= `far` from every defender stone, connected through
    # such points to an open side: they join the wall, so they cannot be captured.  Measured on
    # 100 problems of ishigure-basic and the maeda books at 1.5 s: 64 right, against 58 without
    # the fill and 63 when the fill also keeps 2 points away from the attacker's stones.  Failure
    # mode: the fill can creep around the attacker's stones into a corner the defender needed
    # (maeda-10k-5k/017)
    dist = lambda r, c: min(abs(r - dr) + abs(c - dc) for dr, dc in dstones)    # noqa: E731
    fill = set()
    stack = [(r, c) for r, c in box.points()
             if box.on_open_side(r, c) and a[r, c] == EMPTY and dist(r, c) >= far]
    fill.update(stack)
    while stack:
        r, c = stack.pop()
        for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if box.inside(*q) and q not in fill and a[q] == EMPTY and dist(*q) >= far:
                fill.add(q)
                stack.append(q)
    return fill


def group_region(board: Board, target: int, distance: int = 2, max_stones: int = 30,
                 weak_libs: int = 3):
    """Region for a given target on a full board: the points within `distance` (Manhattan) of
    the target's group (`linked_group`), and the liberties of the opponent strings next to the
    group with at most `weak_libs` liberties."""
    n = board.size
    group = linked_group(board, target, max_stones)
    region = set()
    for p in group:
        r, c = divmod(p, n)
        for dr in range(-distance, distance + 1):
            for dc in range(-distance, distance + 1):
                rr, cc = r + dr, c + dc
                if abs(dr) + abs(dc) <= distance and 0 <= rr < n and 0 <= cc < n:
                    region.add(rr * n + cc)
    # the liberties of the opponent strings next to the group that may be captured, wherever
    # they lie (vie.tst 48: R19 lives by then capturing at T19, 3 steps from the group; 31 of 53
    # at 2 s against 30 without them, and 26 with a region of distance 3 instead)
    color = board.get(target)
    seen = set()
    nb = neighbours(n)
    for p in group:
        for q in nb[p]:
            if board.get(q) == 3 - color and q not in seen:
                seen.update(board.string(q))
                if board.liberties(q) <= weak_libs:
                    region.update(board.liberty_points(q))
    return sorted(region)


def area_group(board: Board, target: int, region, outside=()):
    """The defender stones of the target's area: those reached from the target through the
    region's empty points and the defender's stones (attacker stones stop the flood; on a
    framed board the wall closes it).  Sorted flat points, or None when the area touches one
    of the `outside` strings' stones (another string of the group would lead the search once
    the target's string is captured, and escape by joining that string: maeda-5k-1k/186)."""
    n = board.size
    color = board.get(target)
    inside = set(region)
    out = set(outside)
    nb = neighbours(n)
    seen = {target}
    stack = [target]
    while stack:
        p = stack.pop()
        for q in nb[p]:
            if q in out:
                return None
            if q in inside and q not in seen and board.get(q) in (EMPTY, color):
                seen.add(q)
                stack.append(q)
    return sorted(p for p in seen if board.get(p) == color)


def linked_group(board: Board, target: int, max_stones: int = 30):
    """The target's group: the target string and, chained, the same-colour strings one
    diagonal step away (with a shared empty neighbour) or one jump away (with the point
    between empty), while it has at most `max_stones` stones.  Sorted flat points."""
    n = board.size
    a = board.to_array()
    color = int(a.flat[target])
    group = set(board.string(target))
    frontier = list(group)
    while frontier and len(group) < max_stones:
        p = frontier.pop()
        r, c = divmod(p, n)
        for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1), (2, 0), (-2, 0), (0, 2), (0, -2)):
            rr, cc = r + dr, c + dc
            if not (0 <= rr < n and 0 <= cc < n) or a[rr, cc] != color or rr * n + cc in group:
                continue
            if abs(dr) == 2 or abs(dc) == 2:
                linked = a[r + dr // 2, c + dc // 2] == EMPTY
            else:
                linked = a[r + dr, c] == EMPTY or a[r, c + dc] == EMPTY
            if linked:
                for q in board.string(rr * n + cc):
                    if q not in group:
                        group.add(q)
                        frontier.append(q)
    return sorted(group)


ESCAPE_OPEN = 4         # escape_values: an empty point this far (Manhattan) from every attacker stone
                        # is open space, value 2; one step nearer, 1
ESCAPE_STRONG = 6       # ... a friendly string outside the goal with this many liberties lives: value 6
ESCAPE_FIRM = 4         # ... with this many: value 4


def escape_values(board: Board, target: int):
    """Per flat point, the value of reaching it for the group of `target` (GNU Go's owl escape
    values, `compute_owl_escape_values`, from a distance map instead of its influence): empty
    points far from every attacker stone are open space (2 at ESCAPE_OPEN steps or more, 1 at
    one step less, on the first line one less), the stones of friendly strings outside the
    group are worth 6 (ESCAPE_STRONG liberties: they live) or 4 (ESCAPE_FIRM), the rest 0.
    tactics.solver.dfpn's `escape`: the search's flood (tactics.knowledge `_escaped`) sums them."""
    n = board.size
    a = board.to_array()
    color = int(a.flat[target])
    other = 3 - color
    goal = set(linked_group(board, target))
    rows, cols = np.divmod(np.arange(n * n), n)
    ar, ac = np.nonzero(a == other)
    if len(ar):
        dist = np.min(np.abs(rows[:, None] - ar[None, :]) + np.abs(cols[:, None] - ac[None, :]), axis=1)
    else:
        dist = np.full(n * n, 2 * n)
    values = np.zeros(n * n, dtype=np.int64)
    empty = a.reshape(-1) == EMPTY
    values[empty & (dist >= ESCAPE_OPEN - 1)] = 1
    values[empty & (dist >= ESCAPE_OPEN)] = 2
    edge = (rows == 0) | (rows == n - 1) | (cols == 0) | (cols == n - 1)
    values[edge & empty] = np.maximum(values[edge & empty] - 1, 0)
    seen = set()
    for p in np.nonzero(a.reshape(-1) == color)[0]:
        p = int(p)
        if p in goal or p in seen:
            continue
        stones = board.string(p)
        seen.update(stones)
        libs = board.liberties(p)
        v = 6 if libs >= ESCAPE_STRONG else 4 if libs >= ESCAPE_FIRM else 0
        for q in stones:
            values[int(q)] = v
    return [int(v) for v in values]
