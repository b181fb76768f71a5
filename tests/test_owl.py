"""Owl on a full board (a target given, no region): the region of the target's group and the
static judgements made before the search (tactics.problem)."""

from tactics.board import BLACK
from tactics.diagram import from_diagram_marks
from tactics.infer import group_region, linked_group


def test_group_region_holds_the_liberties_of_weak_neighbours():
    # white H9-H8 (2 liberties: g and a) touches the black group F9-G8-H7; a lies 3 steps from
    # every stone of the group, so only the weak-neighbour rule puts it in the region (vie.tst
    # 48: black lives with R19 and then captures at T19); J8 is not part of the group
    board, marks = from_diagram_marks("""
. . . . . X g O a
. . . . . X X O X
. . . . . . X X O
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""", "black")
    target = 5                      # F9
    assert 8 + 9 not in linked_group(board, target)     # J8
    region = group_region(board, target)
    assert marks["a"] in region and marks["g"] in region
    assert marks["a"] not in group_region(board, target, weak_libs=0)


# vie.tst 39 (13x13, MeilleurCoup0004): black B6 lives with D7 or C6.  The network prefers A4,
# which lives only while white may not play at A3, outside the region computed before A4:
# `prefer` now checks its moves in the region grown after them, and A4 (a ko there at best)
# does not replace D7.
VIE_39 = """
. . . . O . O . X . X X X
. . . O X O . X . X X O O
. O . O X O X X . X O O O
O . . O X O X X X X X X O
X O O X X O X . X X O O .
X X X . X O X X X O . O O
. . X . X O O X O . O O X
X X . X O O X X O . . X X
. X O O . O X O O O X . .
. O . . . O O . O X X . .
O . O O O O X O . O X X .
X O . . . . . X . O O O X
. . . . . . . . . . . . .
"""


def test_prefer_checks_a_move_in_the_region_grown_after_it():
    import math
    import numpy as np
    from tactics.coords import parse_vertex, to_flat
    from tactics.problem import solve
    board, _ = from_diagram_marks(VIE_39, "black")
    n = board.size
    flat = lambda v: to_flat(*parse_vertex(v, n), n)                    # noqa: E731
    scores = np.full(n * n, math.log(1e-4))
    scores[flat("A4")] = math.log(0.9)
    sol = solve(board, BLACK, target=flat("B6"), time_limit=4, escape_out=2, group=False,
                width=10, attack_width=0, live_guess=False, prior=lambda *_: scores, prefer=3)
    assert sol.result == "win" and sol.vertex() in ("D7", "C6"), (sol.status, sol.vertex())


# A kill that needs points outside the root's region: white's D5 (2 liberties, a and b) dies in
# a ladder towards the top right, but the region given holds only its two liberties.  With a
# fixed region black's b is answered at a and black has no move left; with the region grown
# around the target string as it extends (tactics.moves `_grown_moves`, dfpn grow=), the
# ladder is read to the edge.
LADDER = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X . . . . .
. . X O a . . . .
. . . b X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


def test_the_region_grows_with_the_goal():
    from tactics import solver
    board, marks = from_diagram_marks(LADDER, "black")
    target = 4 * 9 + 3                  # D5
    region = [marks["a"], marks["b"]]
    fixed = solver.dfpn(board, BLACK, target, region, time_limit=5)
    assert fixed["value"] == -1
    for grow in (1, 2):
        grown = solver.dfpn(board, BLACK, target, region, time_limit=5, grow=grow)
        assert grown["value"] == 1 and grown["move"] == marks["b"]
        assert len(grown["pv"]) > 6                   # the ladder, read outside the region
        assert not set(grown["pv"][2:]) <= set(region)


# White's group in the corner lives whatever it plays (eight empty points), but
# black's stone above the gap a reaches into its space: of white's winning moves,
# `searches.eye_win` answers a, which closes the gap and leaves the most eye space, not b
# inside the space; a move elsewhere (c) gains nothing either.
ROOMY = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . c .
X X X X X X . . .
O O O a O X . . .
. . . . O X . . .
. b . . O X . . .
"""


def test_a_defence_that_leaves_more_eye_space_answers():
    import time
    from tactics import searches
    from tactics.board import WHITE
    board, marks = from_diagram_marks(ROOMY, "white")
    target = 6 * 9                      # A3
    region = [p for p in range(7 * 9, 9 * 9) if p % 9 < 4] + [marks["a"]]
    space = {}
    for m in ("a", "b", "c"):
        board.play(marks[m], WHITE)
        space[m] = searches.eye_space(board, target, region, WHITE)
        board.undo()
    assert space["a"] > space["c"] == searches.eye_space(board, target, region, WHITE) > space["b"]
    search = dict(tt_bits=18, reach=2, escape_libs=0, escape_out=0, width=0, sim=0,
                  attack_width=0, tree=False)
    pv, nodes = searches.eye_win(board, WHITE, BLACK, target, region, board.string(target),
                                 marks["b"], 3, 10 ** 6, time.monotonic() + 5, search)
    assert pv is not None and pv[0] == marks["a"]


def test_escape_values_mark_open_space_and_living_friends():
    # GNU Go's owl escape values from a distance map (tactics.infer.escape_values): empty
    # points next to black are worth nothing to white's D7, open space far from black 2, the
    # first line one less, and white's strong string J1-J5 (6 liberties or more) 6
    from tactics.infer import escape_values
    board, marks = from_diagram_marks("""
. . . . . . . . .
. . . X X . . . .
. . X O a . . . .
. . . X . . . . .
. . . . . . . . O
. . . . . . . . O
. . . . . . e . O
. . . . . . . f O
. . . . . . . . O
""", "black")
    values = escape_values(board, 2 * 9 + 3)          # D7
    assert values[marks["a"]] == 0
    assert values[marks["f"]] == 2 and values[marks["e"]] == 2
    assert values[8 * 9 + 6] == 1                      # G1, first line
    assert values[8 * 9 + 8] == 6                      # J1, white's strong string


def test_owl_solve_falls_back_to_the_count_escape_where_the_reading_does_not_finish(monkeypatch):
    # tactics.owl.owl_solve: the reading (grow, escape) gets read_share of the limits and
    # no live guess; where it does not finish, the fixed region and the count escape get what is
    # left of the positions; where it finishes, its answer stands
    from types import SimpleNamespace
    import tactics.owl as owl
    calls = []

    def fake(finishes):
        def solve(board, mover, target, settings, prior):
            calls.append(settings)
            reading = bool(settings.grow or settings.escape)
            result = "unknown" if reading and not finishes else "win"
            return SimpleNamespace(result=result, nodes=700 if reading else 50, seconds=0.0,
                                   reading=reading)
        return solve

    cfg = owl.SolverConfig(max_nodes=2000, read_share=0.5)
    monkeypatch.setattr(owl, "solve", fake(finishes=False))
    sol = owl.owl_solve(None, BLACK, 0, cfg, live_guess=True)
    first, second = calls
    assert (first.grow, first.escape, first.max_nodes, first.live_guess) == (2, 5, 1000, False)
    assert (second.grow, second.escape, second.max_nodes, second.live_guess) == (0, 0, 1300, True)
    assert sol.result == "win" and not sol.reading and sol.nodes == 750

    calls.clear()
    monkeypatch.setattr(owl, "solve", fake(finishes=True))
    sol = owl.owl_solve(None, BLACK, 0, cfg)
    assert len(calls) == 1 and sol.reading

    calls.clear()
    owl.owl_solve(None, BLACK, 0, owl.SolverConfig(max_nodes=2000, read_share=1.0))
    assert len(calls) == 1 and calls[0].max_nodes == 2000


# White's corner group lives (two eyes, e and f) whatever it plays.  Of its winning moves,
# `searches.preferred_win` in owl mode (grow) also checks a move outside the region that the
# network is sure of when it lies near the group (n: 3 steps from C3), not one far away (z).
ALIVE = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . z
. . . . . . . . .
. . . . . . . . .
X X X X n . . . .
O O O X . . . . .
e O O X . . . . .
O f O X . . . . .
"""


def test_prefer_checks_a_sure_move_near_the_group_outside_the_region():
    import math
    import time
    import numpy as np
    from tactics import searches
    from tactics.board import WHITE
    board, marks = from_diagram_marks(ALIVE, "white")
    n = board.size
    target = 6 * n + 2                                    # C3
    region = group_region(board, target)
    assert marks["n"] not in region and marks["z"] not in region
    proven = next(p for p in region if board.get(p) == 0 and p not in (marks["e"], marks["f"]))
    search = dict(tt_bits=18, reach=2, escape_libs=0, escape_out=2, width=10, sim=0,
                  attack_width=0, tree=False)

    def answer(sure, grow):
        scores = np.full(n * n, math.log(1e-4))
        scores[marks[sure]] = math.log(0.9)
        pv, _ = searches.preferred_win(board, WHITE, BLACK, target, region, list(board.string(target)),
                                       proven, scores, 3, 10 ** 6, time.monotonic() + 5, search, grow=grow)
        return None if pv is None else pv[0]

    assert answer("n", grow=True) == marks["n"]
    assert answer("n", grow=False) is None              # a book problem: the region's moves only
    assert answer("z", grow=True) is None               # far from the group
