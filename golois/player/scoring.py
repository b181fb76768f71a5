"""End-of-game judgement: dead stones, seki, area score; ownership from random playouts.

What `final_score`, `final_status_list`, the player's pass/resign decisions and the match referee
all use.  The pieces, in the order `judge` combines them:

1. **Unconditional life** (Benson's algorithm, tactics.benson through
   `unconditionally_alive`, or `JudgeConfig.unconditional`): strings that
   cannot be captured even if their owner always passes.
2. **Ownership** from `playouts` random playouts (`Board.random_playout` on copies, C speed;
   the playouts never fill a true eye of the side to move): +1 a point black owns at the end of
   a playout, -1 white; averaged.  With `benson_settles` (default) the points Benson settles --
   unconditionally alive stones and the small regions they enclose (tactics.benson's
   unconditional territory, opponent stones there included) -- are set to exactly +1/-1: no
   playout noise on what is certain.
3. **Dead strings**: not unconditionally alive and owned by the opponent in at least
   `dead_threshold` (0.8) of the playouts (averaged over the string's stones); opponent stones
   inside unconditional territory are always dead.
   With `JudgeConfig.owl` (the final judgement: `final_score`, `final_status_list`, the match
   referee), the life-and-death solver then checks the strings the playouts are unsure of
   (`_owl_checked`): a dead one whose attacker fails even with the first move is alive, a
   living one whose owner cannot live even with the first move is dead.
4. **Seki** (a heuristic): living strings sharing a liberty with a living opponent string when
   both have at most two liberties and the shared point is no one's territory.
5. **Area score** (Chinese/Tromp-Taylor counting with dead stones removed): stones plus empty
   regions reached by one colour only, minus komi.  Positive favours black.

Start with `judge`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from tactics.board import BLACK, EMPTY, WHITE, Board
from tactics.coords import neighbours

from tactics.benson import unconditional


@dataclass
class JudgeConfig:
    """How dead stones are found."""
    playouts: int = 128                  # random playouts for ownership
    dead_threshold: float = 0.8          # a string owned by the opponent this often is dead
    seed: int = 12345                    # playout seeds are seed, seed+1, ...
    unconditional: Callable[[Board], np.ndarray] | None = None   # Benson provider; None: ours
    benson_settles: bool = True          # Benson-alive stones and their territory: ownership +-1
    owl: Callable[[Board, int, int], str | None] | None = None   # (board, stone, mover) -> "win" /
                                         # "fail" / None (unknown, ko): the solver on the stone's string
                                         # (golois.player.hooks.owl_answer); None: playouts decide alone
    owl_band: float = 0.95               # strings the playouts give to one side less surely are checked
    owl_checks: int = 8                  # ... at most this many, the largest first


@dataclass
class Judgement:
    """The verdict on one position (arrays are (size, size), row 0 at the top)."""
    ownership: np.ndarray                # float32 in [-1, 1]: +1 black owns, -1 white
    alive: np.ndarray                    # bool: unconditionally alive stones (Benson)
    dead: np.ndarray                     # bool: dead stones
    seki: np.ndarray                     # bool: stones in seki
    score: float                         # area score, black minus white minus komi
    black_wins: float                    # fraction of playouts black won (with komi)
    territory: np.ndarray = field(default=None)  # int8: 1 black area, 2 white area, 0 neutral
    cleaned: np.ndarray = field(default=None)    # int8: the stones with the dead ones removed
    playouts: int = 0                    # how many playouts the ownership averages

    def status(self, flat: int) -> str:
        """'dead', 'seki' or 'alive' for the stone at flat."""
        n = self.dead.shape[0]
        r, c = divmod(flat, n)
        return "dead" if self.dead[r, c] else "seki" if self.seki[r, c] else "alive"


def _components(flat: np.ndarray, n: int, member) -> list[list[int]]:
    """Connected components of the points p with member(flat[p])."""
    nb = neighbours(n)
    seen = np.zeros(n * n, dtype=bool)
    comps = []
    for p in range(n * n):
        if seen[p] or not member(flat[p]):
            continue
        stack, comp = [p], []
        seen[p] = True
        while stack:
            x = stack.pop()
            comp.append(x)
            for y in nb[x]:
                if not seen[y] and member(flat[y]):
                    seen[y] = True
                    stack.append(y)
        comps.append(comp)
    return comps


def area(stones: np.ndarray) -> tuple[np.ndarray, int, int]:
    """Tromp-Taylor area of a (size, size) 0/1/2 array: (territory int8 array: 1 black, 2 white,
    0 neutral, stones included), black points, white points."""
    n = stones.shape[0]
    flat = stones.ravel()
    nb = neighbours(n)
    terr = flat.astype(np.int8).copy()
    for reg in _components(flat, n, lambda v: v == EMPTY):
        touch = {int(flat[q]) for p in reg for q in nb[p]} - {EMPTY}
        if len(touch) == 1:
            terr[reg] = touch.pop()
    return terr.reshape(n, n), int((terr == BLACK).sum()), int((terr == WHITE).sum())


def ownership(board: Board, playouts: int = 128, seed: int = 12345, komi: float = 7.5,
              to_move: int | None = None) -> tuple[np.ndarray, float]:
    """Mean ownership (+1 black, -1 white) over random playouts from the position, and the
    fraction of playouts black wins with komi."""
    n = board.size
    k = max(playouts, 1)
    finals = np.empty((k, n, n), dtype=np.int8)
    for i in range(k):
        b = board.copy()
        if to_move is not None:
            b.to_move = to_move
        b.random_playout(seed + i)
        finals[i] = b.to_array()
    own = _playout_area(finals)                     # (k, n, n)
    d = own.reshape(k, -1).sum(axis=1) - komi
    wins = float(np.where(d > 0, 1.0, np.where(d == 0, 0.5, 0.0)).sum())
    return own.mean(axis=0).astype(np.float32), wins / k


def _playout_area(stones: np.ndarray) -> np.ndarray:
    """+1/-1/0 ownership of finished playouts ((..., n, n) stone arrays), vectorised: stones count
    for their colour, an empty point for the colour of all its neighbours (a playout ends with
    one-point eyes)."""
    sign = np.where(stones == BLACK, 1.0, np.where(stones == WHITE, -1.0, 0.0)).astype(np.float32)
    widths = [(0, 0)] * (sign.ndim - 2) + [(1, 1), (1, 1)]
    pad = np.pad(sign, widths, constant_values=np.nan)
    nbrs = np.stack([pad[..., :-2, 1:-1], pad[..., 2:, 1:-1], pad[..., 1:-1, :-2], pad[..., 1:-1, 2:]])
    on = ~np.isnan(nbrs)
    allb = np.all(~on | (nbrs == 1), axis=0)
    allw = np.all(~on | (nbrs == -1), axis=0)
    empty_owner = np.where(allb & ~allw, 1.0, np.where(allw & ~allb, -1.0, 0.0)).astype(np.float32)
    return np.where(stones == EMPTY, empty_owner, sign)


def unconditionally_alive(board: Board) -> np.ndarray:
    """bool (size, size): stones of either colour alive by Benson's algorithm."""
    return (unconditional(board, BLACK) == 1) | (unconditional(board, WHITE) == 1)


def benson_ownership(board: Board) -> np.ndarray:
    """float32 (size, size): +1 where Benson settles a point for black (alive stones, unconditional
    territory), -1 for white, 0 elsewhere (tactics.benson.unconditional)."""
    out = np.zeros((board.size, board.size), dtype=np.float32)
    out[unconditional(board, BLACK) > 0] = 1.0
    out[unconditional(board, WHITE) > 0] = -1.0
    return out


def _seki(stones: np.ndarray, board: Board) -> np.ndarray:
    """Heuristic seki: living strings sharing a liberty with a living opponent string, both with
    at most two liberties, the shared point being no one's area."""
    n = stones.shape[0]
    flat = stones.ravel()
    nb = neighbours(n)
    out = np.zeros(n * n, dtype=bool)
    terr, _, _ = area(stones)
    tflat = terr.ravel()
    for p in range(n * n):
        if flat[p] != EMPTY or tflat[p] != EMPTY:
            continue
        owners = {}
        for q in nb[p]:
            if flat[q] != EMPTY:
                owners.setdefault(int(flat[q]), []).append(q)
        if len(owners) != 2:
            continue
        strings = [q for qs in owners.values() for q in qs]
        if all(board.liberties(q) <= 2 for q in strings):
            for q in strings:
                out[board.string(q)] = True
    return out.reshape(n, n)


def judge(board: Board, komi: float, config: JudgeConfig | None = None) -> Judgement:
    """Dead stones, seki, ownership and area score of the position (see the module doc)."""
    cfg = config or JudgeConfig()
    n = board.size
    stones = board.to_array()
    alive = (cfg.unconditional or unconditionally_alive)(board).astype(bool)
    own, black_wins = ownership(board, cfg.playouts, cfg.seed, komi)
    dead = np.zeros((n, n), dtype=bool)
    if cfg.benson_settles:
        certain = benson_ownership(board)
        own = np.where(certain != 0, certain, own).astype(np.float32)
        sure = (certain == 1) & (stones == WHITE) | (certain == -1) & (stones == BLACK)
        dead |= sure & ~alive
    flat = stones.ravel()
    seen = np.zeros(n * n, dtype=bool)
    unsure = []                          # strings (flat points) the playouts do not settle surely
    for p in range(n * n):
        if flat[p] == EMPTY or seen[p]:
            continue
        s = board.string(p)
        seen[s] = True
        if alive.ravel()[s].any():
            continue
        sign = 1.0 if flat[p] == BLACK else -1.0
        owned_by_opponent = float(np.mean([(-sign * own.ravel()[q] + 1) / 2 for q in s]))
        if owned_by_opponent >= cfg.dead_threshold:
            dead.ravel()[s] = True
        if 1.0 - cfg.owl_band < owned_by_opponent < cfg.owl_band:
            unsure.append(s)
    if cfg.owl is not None and unsure:
        _owl_checked(board, dead, unsure, cfg)
    cleaned = np.where(dead, EMPTY, stones).astype(np.int8)
    seki = _seki(cleaned, board) & ~dead
    terr, nb_, nw = area(cleaned)
    # dead stones' points go to the area of the colour around them (area() did so: they are empty)
    return Judgement(ownership=own, alive=alive, dead=dead, seki=seki, score=nb_ - nw - komi,
                     black_wins=black_wins, territory=terr, cleaned=cleaned, playouts=cfg.playouts)


def _owl_checked(board: Board, dead: np.ndarray, unsure: list, cfg: JudgeConfig) -> None:
    """Let the solver settle up to `owl_checks` of the unsure strings (the largest first), in
    place on `dead`: a dead string whose attacker fails with the first move lives; a living
    string whose owner fails with the first move is dead.  Unknown or ko answers change nothing."""
    flat_dead = dead.ravel()
    for s in sorted(unsure, key=len, reverse=True)[: cfg.owl_checks]:
        p = int(s[0])
        owner = board.get(p)
        if flat_dead[p]:
            if cfg.owl(board, p, 3 - owner) == "fail":
                flat_dead[s] = False
        elif cfg.owl(board, p, owner) == "fail":
            flat_dead[s] = True


def neutral_points(stones: np.ndarray, max_region: int) -> np.ndarray:
    """bool (size, size): empty points of regions that touch both colours and have at most
    max_region points -- the dame of a finished game (pass the board with dead stones removed)."""
    n = stones.shape[0]
    flat = stones.ravel()
    nb = neighbours(n)
    out = np.zeros(n * n, dtype=bool)
    for reg in _components(flat, n, lambda v: v == EMPTY):
        if len(reg) > max_region:
            continue
        touch = {int(flat[q]) for p in reg for q in nb[p]} - {EMPTY}
        if touch == {BLACK, WHITE}:
            out[reg] = True
    return out.reshape(n, n)


def enclosed_territory(stones: np.ndarray, ownership: np.ndarray, settled: float,
                       max_region: int) -> np.ndarray:
    """int8 (size, size): 1 (black) or 2 (white) on the empty points of regions of at most
    max_region points bordered by one colour only, whose bordering stones all belong to that
    colour at least `settled` surely by `ownership`; 0 elsewhere.  Pass the board with dead
    stones removed.  Such a region is territory even when the playouts, which let a random
    invader live now and then, give its empty points less than `settled`."""
    n = stones.shape[0]
    flat = stones.ravel()
    own = ownership.ravel()
    nb = neighbours(n)
    out = np.zeros(n * n, dtype=np.int8)
    for reg in _components(flat, n, lambda v: v == EMPTY):
        if len(reg) > max_region:
            continue
        border = {q for p in reg for q in nb[p] if flat[q] != EMPTY}
        colours = {int(flat[q]) for q in border}
        if len(colours) != 1:
            continue
        colour = colours.pop()
        sign = 1.0 if colour == BLACK else -1.0
        if all(sign * own[q] >= settled for q in border):
            out[reg] = colour
    return out.reshape(n, n)


def area_score(board: Board, komi: float, dead: np.ndarray | None = None) -> float:
    """Area score (black - white - komi) with the given dead stones removed."""
    stones = board.to_array()
    if dead is not None:
        stones = np.where(dead, EMPTY, stones).astype(np.int8)
    _, nb_, nw = area(stones)
    return nb_ - nw - komi


def format_score(score: float) -> str:
    """GTP/SGF result text: 'B+3.5', 'W+0.5', '0' for a draw."""
    if score == 0:
        return "0"
    return f"{'B' if score > 0 else 'W'}+{abs(score):g}"
