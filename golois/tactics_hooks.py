"""The player's tactical hooks, made from the tactics library.

`default_hooks()` gives the `TacticsHooks` a running engine uses:
- `ladder_facts` (tactics.ladder) and `ladder_adjust` (golois.policy): the paper's post-hoc
  ladder adjustments;
- `tactical_bonus` = `capture_bonus`: the capture search (tactics.capture) on every string with
  few liberties: a move that captures an opponent string, or saves one of ours that the opponent
  could capture, gains one nat per stone (strings of at least `min_stones`), on the same scale
  as the ladder adjustment (golois/policy.py: one stone = one nat of log-probability);
- `unconditional` = `unconditionally_alive`: Benson's unconditional life (tactics.benson).
Start with `capture_bonus`.
"""

from __future__ import annotations

import numpy as np

from tactics.benson import unconditional
from tactics.board import BLACK, WHITE, Board
from tactics.capture import capture_attack, capture_defend

WIN = 1            # tactics.capture's GNU Go-style code for an unconditional success


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
        if p in seen:
            continue
        stones = board.string(p)
        seen.update(stones)
        if len(stones) < min_stones or board.liberties(p) > max_libs:
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


def unconditionally_alive(board: Board) -> np.ndarray:
    """bool (size, size): stones of either colour alive by Benson's algorithm."""
    return (unconditional(board, BLACK) == 1) | (unconditional(board, WHITE) == 1)


def default_hooks():
    """The full set of hooks (ladders, capture search, Benson)."""
    from golois.player import TacticsHooks
    from golois.policy import ladder_adjust
    from tactics.ladder import ladder_facts
    return TacticsHooks(ladder_facts=ladder_facts, ladder_adjust=ladder_adjust,
                        tactical_bonus=capture_bonus, unconditional=unconditionally_alive)
