"""tactics.benson (C) against a slow Python Benson on diagrams and random finished games."""

import numpy as np
import pytest

from golois.player.scoring import _components
from golois.player.hooks import unconditionally_alive
from tactics.benson import unconditional
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


def reference_vital_counts(board):
    """{flat stone: number of regions vital to its string} before Benson drops anything, from the
    slow reference's definitions (regions without empty points are never vital)."""
    n = board.size
    flat = board.to_array().ravel()
    nb = neighbours(n)
    counts = {}
    for colour in (BLACK, WHITE):
        strings = _components(flat, n, lambda v: v == colour)
        regions = _components(flat, n, lambda v: v != colour)
        for s in strings:
            libs = {q for p in s for q in nb[p] if flat[q] == EMPTY}
            vital = sum(1 for reg in regions
                        if any(flat[p] == EMPTY for p in reg)
                        and all(p in libs for p in reg if flat[p] == EMPTY))
            counts[s[0]] = vital
    return counts


@pytest.mark.parametrize("size", [7, 9])
def test_vital_regions_match_reference_on_random_positions(size):
    """benson_vital_regions, the solver's cheap test before benson, counts exactly the regions
    the reference finds vital, on finished and half-played random games; and every string the
    reference finds alive has at least two."""
    from tactics.benson import vital_regions
    counts_seen = set()
    for seed in range(30):
        b = Board(size)
        b.random_playout(seed=seed + 7 * size, max_moves=None if seed % 2 else size * size)
        ref = reference_vital_counts(b)
        alive = reference_benson(b).ravel()
        for stone, count in ref.items():
            ours = vital_regions(b, stone)
            assert ours == count, (seed, stone, str(b))
            if alive[stone]:
                assert ours >= 2
            counts_seen.add(min(count, 2))
    assert counts_seen == {0, 1, 2}


def test_vital_regions_with_a_mask_count_regions_reaching_out_as_open():
    """benson's mask: a region with a point outside it is open, never vital."""
    b = from_diagram("""
        . . X . X .
        X X X X X .
        . . . . . .
        . . . . . .
        . . . . . .
        . . . . . .
    """)
    from tactics.benson import vital_regions
    stone = b.string((1, 0))[0]
    assert vital_regions(b, stone) == 2                     # the eyes at (0, 0)-(0, 1) and (0, 3)
    for left_out in (0, 1):                                 # either point of the two-point eye
        region = [p for p in range(b.size * b.size) if p != left_out]
        assert vital_regions(b, stone, region) == 1, left_out


def test_benson_on_diagrams():
    board = from_diagram("""
. . . . .
O O O O O
O . O . O
O O O O O
. . . . .
""")
    alive = unconditional(board, WHITE)
    assert alive[2, 0] == 1 and alive[2, 1] == 2
    one_eye = from_diagram("""
. . . . . . .
. . . . . . .
. O O O O . .
. O . . O . .
. O O O O . .
. . . . . . .
. . . . . . .
""")
    assert not (unconditional(one_eye, WHITE) == 1).any()
