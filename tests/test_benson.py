"""tactics.benson (C) against a slow Python Benson on diagrams and random finished games."""

import random

import numpy as np
import pytest

from golois.scoring import _components
from golois.tactics_hooks import unconditionally_alive
from tactics.board import BLACK, EMPTY, WHITE, Board
from tactics.coords import neighbours
from tactics.diagram import from_diagram


def reference_benson(board):
    """Benson's algorithm for both colours, slowly in Python: bool (size, size), True on stones
    that are alive even if their owner never moves again (pass-alive)."""
    n = board.size
    flat = board.to_array().ravel()
    nb = neighbours(n)
    alive = np.zeros(n * n, dtype=bool)
    for colour in (BLACK, WHITE):
        strings = _components(flat, n, lambda v: v == colour)
        regions = _components(flat, n, lambda v: v != colour)
        string_of = {p: i for i, s in enumerate(strings) for p in s}
        libs = []
        for s in strings:
            libs.append({q for p in s for q in nb[p] if flat[q] == EMPTY})
        # region -> strings bordering it; vital(region, string): every empty point of the region
        # is a liberty of the string.
        borders, vital = [], []
        for reg in regions:
            bs = {string_of[q] for p in reg for q in nb[p] if flat[q] == colour}
            empties = [p for p in reg if flat[p] == EMPTY]
            borders.append(bs)
            vital.append({i for i in bs if all(e in libs[i] for e in empties)} if empties else set())
        live_s, live_r = set(range(len(strings))), set(range(len(regions)))
        changed = True
        while changed:
            changed = False
            for i in list(live_s):
                if sum(1 for r in live_r if i in vital[r]) < 2:
                    live_s.discard(i)
                    changed = True
            for r in list(live_r):
                if not borders[r] <= live_s:
                    live_r.discard(r)
                    changed = True
        for i in live_s:
            alive[strings[i]] = True
    return alive.reshape(n, n)


def test_two_eyes_alive_one_eye_not():
    b = from_diagram("""
        . X . X O .
        X X X X O .
        O O O O O .
        . . . . . .
        . . . . . .
        . . . . . .
    """)
    alive = unconditionally_alive(b)
    assert alive[0, 1] and alive[1, 0] and not alive[1, 4]
    assert (alive == reference_benson(b)).all()


@pytest.mark.parametrize("size", [7, 9, 13])
def test_matches_reference_on_finished_random_games(size):
    """Random playouts end with many eyes and pass-alive groups: both must agree everywhere."""
    checked = alive_seen = 0
    for seed in range(40 if size < 13 else 10):
        b = Board(size)
        b.random_playout(seed=seed + 100 * size)
        ours, ref = unconditionally_alive(b), reference_benson(b)
        assert (ours == ref).all(), (seed, str(b))
        checked += 1
        alive_seen += int(ref.sum())
    assert alive_seen > 0
