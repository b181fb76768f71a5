"""The player's tactical hooks, made from the tactics library.

`default_hooks()` gives the `TacticsHooks` a running engine uses:
- `ladder_facts` (tactics.ladder) and `ladder_adjust` (golois.player.ladder_adjust): the paper's post-hoc
  ladder adjustments;
- `tactical_bonus` = `capture_bonus`: the capture search (tactics.capture) on every string with
  few liberties: a move that captures an opponent string, or saves one of ours that the opponent
  could capture, gains one nat per stone (strings of at least `min_stones`), on the same scale
  as the ladder adjustment (golois/player/ladder_adjust.py: one stone = one nat of log-probability);
- `life_and_death` = `LifeAndDeath`: the life-and-death solver (tactics.problem.solve, owl-style
  searches of a fraction of a second) on every group whose life is at stake: a move that saves a
  critical own group, or kills a critical opponent group, gains one nat per stone of it, at
  most 3;
- `unconditional` = `unconditionally_alive`: Benson's unconditional life (tactics.benson);
- `owl` = `owl_answer`: the solver's answer for one string, with which the final
  judgement (final_score, final_status_list) checks the strings the playouts are unsure of.
The player takes, point by point, the larger of the capture and the life-and-death bonuses (both
often name the same move for the same string).  Start with `capture_bonus`, then `LifeAndDeath`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from tactics.board import Board
from tactics.capture import WIN, capture_attack, capture_defend
from tactics.ladder import ladder_facts
from tactics.owl import SolverConfig, owl_solve
from tactics.problem import ProblemError, group_region, linked_group, solve

from golois.player.ladder_adjust import ladder_adjust
from golois.player.scoring import unconditionally_alive


@dataclass
class TacticsHooks:
    """Seams to the tactical modules; any may be None (that tactic is then off)."""
    ladder_facts: Callable[[Board], dict] | None = None        # tactics.ladder.ladder_facts
    ladder_adjust: Callable[..., np.ndarray] | None = None      # golois.player.ladder_adjust.ladder_adjust
    tactical_bonus: Callable[[Board, int], dict] | None = None  # (board, colour) -> {flat: bonus nats}
    life_and_death: Callable[[Board, int], dict] | None = None  # the same, from the life-and-death solver
    unconditional: Callable[[Board], np.ndarray] | None = None  # Benson: bool (size, size) alive stones
    owl: Callable[[Board, int, int], str | None] | None = None  # the solver on unsure strings, final judgement

    def describe(self) -> str:
        """One line naming the hooks that are on."""
        names = ("ladder_facts", "ladder_adjust", "tactical_bonus", "life_and_death", "unconditional", "owl")
        on = [name for name in names if getattr(self, name) is not None]
        return "tactics hooks: " + (", ".join(on) if on else "none")


def capture_bonus(board: Board, colour: int, min_stones: int = 3, max_libs: int = 3,
                  max_nodes: int = 2000) -> dict[int, float]:
    """{flat move: bonus nats} for colour to move: capturing an opponent string, or saving an own
    string the opponent can capture, of at least min_stones stones with at most max_libs
    liberties.  Ko and undecided (budget) answers give nothing."""
    n = board.size
    arr = board.to_array().ravel()
    seen, bonus = set(), {}
    for p in np.flatnonzero(arr):
        p = int(p)
        if p in seen or board.liberties(p) > max_libs:     # (the liberty count is a C call; a string's
            continue                                       # stones are listed only when it qualifies)
        stones = board.string(p)
        seen.update(stones)
        if len(stones) < min_stones:
            continue
        result, move, _ = capture_attack(board, p, max_nodes=max_nodes)
        if result != WIN:
            continue
        if arr[p] != colour:
            target = move                                   # take it
        else:
            saved, target, _ = capture_defend(board, p, max_nodes=max_nodes)
            if saved != WIN:
                continue                                    # lost anyway: no bonus
        if target is not None and 0 <= target < n * n:
            bonus[target] = bonus.get(target, 0.0) + float(len(stones))
    return bonus


@dataclass
class LifeAndDeathConfig:
    """Which groups the player's life-and-death hook reads, and how long."""
    min_stones: int = 4          # groups (tactics.infer.linked_group) of at least this many stones
    max_libs: int = 6            # ... with at most this many liberties in all (open groups are not at stake)
    max_groups: int = 4          # at most this many groups per move, the largest first
    time_limit: float = 0.03     # seconds per search (owl settings of tactics.owl.SolverConfig)
    max_bonus: float = 3.0       # nats at most per move: the solver moves the choice within a factor
                                 # e^3 of the policy's best (one nat per stone, uncapped: 4/19 in self-play)
    width: int = 10              # selective below the root, as GNU Go's owl
    escape_out: int = 2          # a target string with this many liberties outside the region escaped
    reading: bool = True         # tactics.owl.owl_solve (the reading, the count as its fallback); False: the
                                 # root's region with the count alone (on 420 groups of KGS 2015 games
                                 # against GNU Go's dragon_status: 291 statuses agree against 243,
                                 # `critical` 22 right of 62 against 15 of 44; docs/results.md)
    cache_size: int = 4096       # answers kept, keyed on the mover and the stones the search reads
    key_distance: int = 8        # reading: the key holds the points within this many steps of the group
                                 # (the goal grows 2 steps past the root's region of 2, the escape flood
                                 # runs 4 steps on, its values see attacker stones 3 steps from there)


class LifeAndDeath:
    """`(board, colour) -> {flat: bonus nats}`: the solver's answer for the groups at stake.

    A group is at stake when it is not unconditionally alive (Benson), has `min_stones` stones
    and at most `max_libs` liberties.  It is *critical* when the side to move wins whoever that
    is: the owner lives with its move and the opponent kills with its move (two searches, owl
    settings, `time_limit` each).  Then colour's winning move gains one nat per stone of the
    group, at most `max_bonus`: a save when the group is colour's, a kill otherwise.  (The
    selective 30 ms searches call some large groups critical that GNU Go's owl calls alive or
    dead; uncapped, their bonus overrode the policy's moves at 10-20 nats.)  Unfinished
    searches, ko answers and groups already dead or alive whoever moves give nothing.
    Answers are cached on (target string, mover, ko, the stones the search reads): those within
    `key_distance` of the group for the reading (its goal grows past the root's region, its
    escape flood and values reach further; a ladder or a run longer than that may keep an
    answer a far move changed), the root's region without it.  Between two moves most groups
    are untouched, so most moves cost no search."""

    def __init__(self, config: LifeAndDeathConfig | None = None):
        self.config = config or LifeAndDeathConfig()
        self.cache: dict = {}
        self.searches = 0            # solver calls made (not cached), for benches and tests

    def groups(self, board: Board) -> list[list[int]]:
        """The groups at stake, the largest first (at most `max_groups`)."""
        cfg = self.config
        arr = board.to_array().ravel()
        alive = unconditionally_alive(board).ravel()
        seen, found = set(), []
        for p in np.flatnonzero(arr):
            p = int(p)
            if p in seen:
                continue
            group = linked_group(board, p)
            seen.update(group)
            if len(group) < cfg.min_stones or alive[group].any():
                continue
            libs = set()
            for q in group:
                libs.update(board.liberty_points(q))
                if len(libs) > cfg.max_libs:
                    break
            if len(libs) <= cfg.max_libs:
                found.append(group)
        found.sort(key=len, reverse=True)
        return found[: cfg.max_groups]

    def answer(self, board: Board, target: int, mover: int) -> tuple[str, int | None]:
        """(result, first move) of the search for mover on the group of `target`: result "win"
        (mover kills it, or lives), "fail", or "unknown" (ko, unfinished, no problem to set up)."""
        cfg = self.config
        arr = board.to_array().ravel()
        region = group_region(board, target, cfg.key_distance) if cfg.reading else group_region(board, target)
        key = (tuple(board.string(target)), mover, board.ko, tuple(region), arr[region].tobytes())
        if key in self.cache:
            return self.cache[key]
        self.searches += 1
        found = owl_search(board, target, mover, cfg.time_limit, cfg.width, cfg.escape_out, cfg.reading)
        if len(self.cache) >= cfg.cache_size:
            self.cache.clear()
        self.cache[key] = found
        return found

    def status(self, board: Board, group: list[int]) -> tuple[str, int | None, int | None]:
        """(status, saving move, killing move) of a group: "critical" (whoever moves first wins
        it), "alive" (the attacker fails even moving first), "dead" (the owner fails even moving
        first), or "unknown"."""
        target = group[0]
        owner = board.get(target)
        save, kill = self.answer(board, target, owner), self.answer(board, target, 3 - owner)
        if save[0] == "win" and kill[0] == "win":
            return "critical", save[1], kill[1]
        if kill[0] == "fail":
            return "alive", None, None
        if save[0] == "fail":
            return "dead", None, None
        return "unknown", None, None

    def __call__(self, board: Board, colour: int) -> dict[int, float]:
        bonus: dict[int, float] = {}
        for group in self.groups(board):
            status, save, kill = self.status(board, group)
            if status != "critical":
                continue                                      # it must matter who moves
            move = save if board.get(group[0]) == colour else kill
            if move is None:
                continue                                      # the search's answer was a pass
            bonus[move] = min(bonus.get(move, 0.0) + float(len(group)), self.config.max_bonus)
        return bonus


def owl_search(board: Board, target: int, mover: int, time_limit: float, width: int,
               escape_out: int = 2, reading: bool = False) -> tuple[str, int | None]:
    """(result, first move) of an owl-style search on the target string (`width` best moves
    below the root, 0 = every move) for mover: "win" (mover kills it, or its owner lives),
    "fail", or "unknown" (ko, unfinished, no problem to set up).  reading: tactics.owl.owl_solve
    (the goal grows, escape is read, the count is the fallback), without the network; else
    tactics.problem.solve in the root's region with the count escape."""
    try:
        if reading:
            sol = owl_solve(board, mover, target, SolverConfig(time_limit=time_limit, width=width,
                                                               escape_out=escape_out))
        else:
            sol = solve(board, mover, target=target, time_limit=time_limit, width=width,
                        escape_out=escape_out, group=False)
    except ProblemError:
        return "unknown", None
    return (sol.result if sol.result in ("win", "fail") else "unknown"), sol.move


def owl_answer(board: Board, stone: int, mover: int, time_limit: float = 0.1) -> str | None:
    """The solver's answer for mover on the string at `stone` (owl settings, every move at every
    node): "win", "fail", or None (unknown, ko, no problem to set up).  The final judgement's
    check of unsure strings (golois.player.scoring.JudgeConfig.owl)."""
    result, _ = owl_search(board, stone, mover, time_limit, width=0)
    return None if result == "unknown" else result


def default_hooks(life_and_death: bool = True) -> TacticsHooks:
    """The full set of hooks (ladders, capture search, life-and-death solver, Benson); the
    solver's hook is off with `life_and_death` false."""
    return TacticsHooks(ladder_facts=ladder_facts, ladder_adjust=ladder_adjust,
                        tactical_bonus=capture_bonus, unconditional=unconditionally_alive,
                        life_and_death=LifeAndDeath() if life_and_death else None, owl=owl_answer)
