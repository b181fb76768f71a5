"""tactics.ladder: hand-written ladder diagrams (working, broken, escapes, ko, pushes, limits), the
whole-board facts, the GTP commands, and a small differential test against GNU Go's ladder_attack.

Diagrams are written for these tests (none is copied from the KGS archive); the ko-through-the-
ladder cases stand for the kinds where bench/ladder_parity.py found GNU Go answering 0.
"""

import random

import numpy as np
import pytest

from tactics import coords
from tactics.board import BLACK, WHITE, Board
from tactics.diagram import from_diagram
from tactics.ladder import (CAPTURED, ESCAPED, KO, UNKNOWN, ladder_capture, ladder_escape,
                            ladder_facts, ladder_nodes)

# White D6 in a ladder that runs to the upper right corner (D5 or E6 starts it).
LADDER = """
    . . . . . . . . .
    . . . . . . . . .
    . . . X . . . . .
    . . X O . . . . .
    . . . . X . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def v(board, flat):
    return None if flat is None else coords.format_vertex(divmod(flat, board.size), board.size)


def f(board, vertex):
    return coords.to_flat(*coords.parse_vertex(vertex, board.size), board.size)


def test_working_ladder():
    b = from_diagram(LADDER, "black")
    res, move, seq = ladder_capture(b, "D6")
    assert res == CAPTURED and v(b, move) in ("D5", "E6")
    assert seq[0] == move and len(seq) >= 9            # the ladder runs to the corner
    # the main line really captures: replay it, the last attacker move takes the string
    work = b.copy()
    for i, m in enumerate(seq):
        work.play(m, BLACK if i % 2 == 0 else WHITE)
    assert work.get("D6") == 0
    assert ladder_escape(b, "D6")[0] == ESCAPED         # white to move gets out first
    b.play("D5", BLACK)
    assert ladder_escape(b, "D6")[0] == CAPTURED        # extending does not help any more


def test_ladder_breaker():
    b = from_diagram(LADDER, "black")
    b.place("F8", WHITE)                                # on the D5 ladder's path
    res, move, _ = ladder_capture(b, "D6")
    assert res == CAPTURED and v(b, move) == "E6"       # the other way still works
    b.place("B4", WHITE)                                # and on the E6 ladder's path
    res, move, _ = ladder_capture(b, "D6")
    assert res == ESCAPED and move is None
    b.play("D5", BLACK)
    res, move, _ = ladder_escape(b, "D6")
    assert res == ESCAPED and v(b, move) == "E6"


def test_escape_by_capturing_the_atari_stone():
    b = from_diagram("""
        . . . . . . . . .
        . . . . . . . . .
        . . O X . . . . .
        . O X O . . . . .
        . . . X X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, "white")
    # D6 is in atari (E6); black C6 is in atari too (C5): taking it saves D6, and so does E6
    # (the ladder after it fails, C6 being still in atari)
    res, move, _ = ladder_escape(b, "D6")
    assert res == ESCAPED and v(b, move) in ("C5", "E6")
    facts = ladder_facts(b)
    assert facts["saves"][4, 2] == 1 and facts["saves"][3, 4] == 1
    assert facts["pushes"].sum() == 0


def test_three_liberties_are_saved():
    b = from_diagram("""
        . . . . .
        . . X . .
        . . O . .
        . . . . .
        . . . . .
    """, "black")
    assert b.liberties("C3") == 3
    assert ladder_capture(b, "C3") == (ESCAPED, None, [])
    assert ladder_escape(b, "C3")[:2] == (ESCAPED, None)


def test_atari_with_attacker_to_move_is_captured():
    b = from_diagram("""
        . . . . .
        . . X . .
        . X O X .
        . . . . .
        . . . . .
    """, "black")
    res, move, seq = ladder_capture(b, "C3")
    assert res == CAPTURED and v(b, move) == "C2" and seq == [move]


# The defender's only way out is to take the atari stone at E4 by F4, a ko.
KO_LADDER = """
    . . . . . . .
    . . . O O . .
    . . O . X O .
    . . O X . . O
    . . . O X O .
    . . . . X X .
    . . . . . . .
"""


def test_ladder_through_a_ko_is_ko():
    b = from_diagram(KO_LADDER, "white")
    res, move, seq = ladder_capture(b, "D4")
    assert res == KO and v(b, move) == "E4"
    assert [v(b, m) for m in seq[:2]] == ["E4", "F4"]
    b.play("E4", WHITE)
    assert ladder_escape(b, "D4")[0] == KO
    facts = ladder_facts(b)                              # black to move: KO counts as no
    assert facts["saves"].sum() == 0


def test_board_ko_ban_is_ko():
    b = from_diagram("""
        . X O . .
        X O . O .
        . X O . .
        . . . . .
        . . . . .
    """, "black")
    b.play("C4", BLACK)                                 # takes B4: white may not retake now
    assert b.ko == f(b, "B4")
    res, move, _ = ladder_capture(b, "C4")
    assert res == KO and v(b, move) == "B4"
    b.play("E1", WHITE)                                 # a ko threat elsewhere lifts the ban
    b.play("E2", BLACK)
    assert ladder_capture(b, "C4")[0] == CAPTURED


def test_depth_and_budget_limits():
    b = from_diagram(LADDER, "black")
    assert ladder_capture(b, "D6")[0] == CAPTURED
    assert ladder_capture(b, "D6", max_nodes=5)[0] == UNKNOWN
    assert ladder_capture(b, "D6", max_depth=4)[0] == UNKNOWN
    assert 5 < ladder_nodes(b, "D6") <= 1000
    h, n = b.hash, b.move_count
    ladder_capture(b, "D6", max_nodes=5)
    assert b.hash == h and b.move_count == n         # the search leaves the board as it was


def test_whole_board_facts():
    b = from_diagram(LADDER, "black")
    facts = ladder_facts(b)
    assert set(facts) == {"captures", "saves", "pushes", "capturable"}
    for a in facts.values():
        assert a.shape == (9, 9) and a.dtype == np.int32
    assert facts["captures"][4, 3] == 1 and facts["captures"][3, 4] == 1   # D5, E6
    assert facts["captures"].sum() == 2
    assert facts["capturable"][3, 3] == 1 and facts["capturable"].sum() == 1
    assert facts["saves"].sum() == 0 and facts["pushes"].sum() == 0
    b.play("D5", BLACK)                                 # white in atari, the ladder works
    facts = ladder_facts(b)
    assert facts["saves"].sum() == 0
    assert facts["pushes"][3, 4] == 2                   # E6 pushes two stones into the ladder
    assert facts["pushes"].sum() == 2
    b.undo()
    b.place("F8", WHITE)                                # broken ladder: E6 saves
    b.play("D5", BLACK)
    facts = ladder_facts(b)
    assert facts["saves"][3, 4] == 1 and facts["pushes"].sum() == 0


def test_gtp_commands():
    from golois.gtp.engine import build_engine
    eng = build_engine()
    for line in ("boardsize 9", "play b D7", "play b C6", "play b E5", "play w D6"):
        assert eng.handle(line).startswith("=")
    assert eng.handle("ladder_attack D6").strip() in ("= 1 D5", "= 1 E6")
    assert eng.handle("attack D6").strip() in ("= 1 D5", "= 1 E6")
    assert eng.handle("defend D6").strip() in ("= 1 D5", "= 1 E6")
    assert eng.handle("play b D5").startswith("=")
    assert eng.handle("defend D6").strip() == "= 0"
    assert eng.handle("ladder_attack D7").startswith("?")     # not two liberties


# ----------------------------------------------------------------------------- GNU Go

def _random_position(rng, size, moves):
    b = Board(size)
    played = []
    for _ in range(moves):
        c = b.to_move
        legal = [m for m in b.legal_moves() if b.eye(m, c) != 2]
        if not legal:
            break
        m = rng.choice(legal)
        b.play(m)
        played.append((c, m))
    return b, played


@pytest.mark.gnugo
def test_agrees_with_gnugo_ladder_attack(gnugo):
    rng = random.Random(7)
    compared = 0
    for game in range(6):
        size = 9 if game % 2 else 13
        b, played = _random_position(rng, size, rng.randrange(25, 70))
        gnugo.send(f"boardsize {size}")
        gnugo.send("clear_board")
        for c, m in played:
            gnugo.send(f"play {'b' if c == BLACK else 'w'} {v(b, m)}")
        seen = set()
        for p in range(size * size):
            if b.get(p) and p not in seen:
                seen.update(b.string(p))
                if b.liberties(p) != 2:
                    continue
                ours = ladder_capture(b, p, sequence=False)[0]
                theirs = gnugo.send(f"ladder_attack {v(b, p)}").split()[0]
                if ours in (KO, UNKNOWN) or theirs in ("2", "3"):
                    continue
                assert (ours == CAPTURED) == (theirs == "1"), (str(b), v(b, p))
                compared += 1
    assert compared >= 20
