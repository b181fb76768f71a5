"""tactics.capture: attack/defend of strings with up to 4 liberties (nets, loose ladders, races,
snapbacks, safe strings, kos, the node budget), the GTP commands, and a small differential test
against GNU Go's attack and defend on random-play positions generated here.

The 9x9 diagrams marked "generated" come from seeded random-play games (not from any archive);
each was checked against GNU Go 3.8's `attack` when written, and the answer is noted.
"""

import random

import pytest

from golois.gtp.client import GtpClient
from tactics import coords
from tactics.board import BLACK, WHITE, Board
from tactics.capture import FAIL, KO_A, KO_B, UNKNOWN, WIN, capture_attack, capture_defend
from tactics.diagram import from_diagram
from tactics.ladder import ESCAPED, ladder_capture


def v(board, flat):
    return None if flat is None else coords.format_vertex(divmod(flat, board.size), board.size)


# generated; GNU Go: attack J2 -> 1 H3.  White J2 (liberties H2, J1) escapes the ladder but is
# caught in a net: black H3 leaves white H2 short of liberties.
NET = """
   A B C D E F G H J
 9 . . X O . O . O O 9
 8 O O O X . X . . . 8
 7 . O X X + X + . . 7
 6 X X . . . X X . . 6
 5 . . + X + O + X O 5
 4 O O . . X . O . O 4
 3 O X + . X . + . X 3
 2 O X X . . . . . O 2
 1 O O X . . . X . . 1
   A B C D E F G H J
"""


def test_net():
    b = from_diagram(NET)
    assert b.liberties("J2") == 2
    assert ladder_capture(b, "J2")[0] == ESCAPED            # not a ladder ...
    res, move, _ = capture_attack(b, "J2")
    assert res == WIN and v(b, move) == "H3"                 # ... but a net
    assert move not in b.liberty_points("J2")
    work = b.copy()
    work.play(move, BLACK)
    assert capture_defend(work, "J2")[0] == FAIL            # and nothing saves it afterwards


# Hand-written: white D5 with two liberties, caught by ladder (the search's ladder leaf).
LOOSE = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . X . . . . . .
    . . X O . . . . .
    . . . X . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def test_two_liberty_string_and_defence():
    b = from_diagram(LOOSE)
    res, move, _ = capture_attack(b, "D5")
    assert res == WIN and v(b, move) == "E5"               # GNU Go: 1 E5
    res, move, _ = capture_defend(b, "D5")
    assert res == WIN and v(b, move) == "E5"               # GNU Go: 1 E5


def test_four_liberty_stone_in_a_box():
    # a lone white stone with four liberties inside four black stones on its diagonals: black
    # takes one liberty and white cannot get out (GNU Go: attack D4 -> 1)
    b = from_diagram("""
        . . . . . . .
        . . . . . . .
        . . X . X . .
        . . . O . . .
        . . X . X . .
        . . . . . . .
        . . . . . . .
    """)
    assert b.liberties("D4") == 4
    res, move, _ = capture_attack(b, "D4")
    assert res == WIN
    work = b.copy()
    work.play(move, BLACK)
    assert capture_defend(work, "D4")[0] == FAIL


# generated; GNU Go: attack A5 -> 1 B5 (a three-liberty white stone at the edge), and C9 (three
# liberties, white) -> 0.
RACE3 = """
   A B C D E F G H J
 9 X X O O . O . . O 9
 8 X . . . O . . O . 8
 7 . . + . + O + . X 7
 6 . X . . . . X . . 6
 5 O . O . + X + . X 5
 4 . X . . O . O . . 4
 3 . . X . X . O . . 3
 2 . X O X . X . O X 2
 1 X . . . . O . O . 1
   A B C D E F G H J
"""


def test_three_liberties_captured_and_safe():
    b = from_diagram(RACE3)
    assert b.liberties("A5") == 3 and b.liberties("C9") == 3
    res, move, _ = capture_attack(b, "A5")
    assert res == WIN and v(b, move) == "B5"
    res, move, _ = capture_attack(b, "C9")                  # a safe three-liberty string
    assert res == FAIL and move is None
    res, move, _ = capture_defend(b, "C9")
    assert res == WIN and move is not None                  # GNU Go names a move too


# Hand-written semeai: black B1-B3 (liberties A1-A3) against white C1-C3 (liberties D1-D3), each
# walled in by a safe group of the other colour.  GNU Go: attack C2 -> 1 D2, attack B2 -> 1 A3,
# defend C2 -> 1 D1, defend B2 -> 1 D3: whoever moves first wins the race.
RACE33 = """
    . . . . . . . . .
    . . . . . . . . .
    O O . . . . . . .
    O O X X . . . . .
    O O X X . . . . .
    O O X X . . . . .
    . X O . . . . . .
    . X O . . . . . .
    . X O . . . . . .
"""


def test_capture_race_of_three_liberty_strings():
    b = from_diagram(RACE33)
    assert b.liberties("B2") == 3 and b.liberties("C2") == 3
    res, move, _ = capture_attack(b, "C2")                   # black first takes white
    assert res == WIN and v(b, move) in ("D1", "D2", "D3")
    res, move, _ = capture_attack(b, "B2")                   # white first takes black
    assert res == WIN and v(b, move) in ("A1", "A2", "A3")
    for target in ("B2", "C2"):                               # the owner moving first saves it
        res, move, _ = capture_defend(b, target)
        assert res == WIN and move is not None
    # black shortens white first and wins: white's extra move cannot catch up
    work = b.copy()
    work.play("D2", BLACK)
    assert capture_attack(work, "B2")[0] == FAIL
    assert capture_defend(work, "C2")[0] == FAIL


# generated; GNU Go: attack E9 -> 1 E8.  Black E9 (liberties E8, F9) escapes the ladder reader
# (it reaches three liberties) but the loose chase along the top edge still catches it.
LOOSE_LADDER = """
   A B C D E F G H J
 9 X O O O X . . . . 9
 8 . X X O . . X . . 8
 7 X X + . X O + O . 7
 6 . O . . . . X . . 6
 5 . O + X X . X O O 5
 4 O O X O X . X . X 4
 3 O X X O + O + O . 3
 2 . O O O . X X . O 2
 1 . O X . . . X O . 1
   A B C D E F G H J
"""


def test_loose_ladder():
    b = from_diagram(LOOSE_LADDER)
    assert b.liberties("E9") == 2
    assert ladder_capture(b, "E9")[0] == ESCAPED
    res, move, _ = capture_attack(b, "E9")
    assert res == WIN and v(b, move) == "E8"
    work = b.copy()
    work.play(move, WHITE)
    assert capture_defend(work, "E9")[0] == FAIL


# generated; GNU Go: attack A9 -> 1 B9.  Black B9 is a snapback: white takes it at B8 and is
# left in atari, and black retakes at B9.
SNAPBACK = """
   A B C D E F G H J
 9 O . O O O . X O . 9
 8 O . X . . O O . X 8
 7 X O X O O . O . . 7
 6 X X . X . X O . O 6
 5 X . X . X X X X O 5
 4 . X O O X X O . O 4
 3 . . X X + . + O X 3
 2 X O . . X . . . . 2
 1 O O . O X . . X . 1
   A B C D E F G H J
"""


def test_snapback():
    b = from_diagram(SNAPBACK)
    res, move, _ = capture_attack(b, "A9")
    assert res == WIN and v(b, move) == "B9"
    work = b.copy()
    work.play("B9", BLACK)                                   # the sacrifice ...
    assert work.liberties("B9") == 1
    work.play("B8", WHITE)                                   # ... is taken ...
    assert work.get("B9") == 0 and work.liberties("A9") == 1
    work.play("B9", BLACK)                                   # ... and black retakes
    assert work.get("A9") == 0


def test_four_liberty_string_in_a_race():
    # generated; GNU Go: attack E9 -> 1 F8.  Black E9-E8 (four liberties) is squeezed between
    # white's stones; white blocks at F8 and wins the race.
    b = from_diagram("""
       A B C D E F G H J
     9 . O O . X . . O . 9
     8 . O O . X . . . X 8
     7 X O O . O . X . . 7
     6 . X X . . . O . . 6
     5 O . + . + O + . . 5
     4 X X . . . . . . O 4
     3 . . + . + . + . . 3
     2 . . X X . . . . . 2
     1 X . . X . O . . . 1
       A B C D E F G H J
    """)
    assert b.liberties("E9") == 4
    res, move, _ = capture_attack(b, "E9")
    assert res == WIN and v(b, move) == "F8"
    work = b.copy()
    work.play(move, WHITE)
    assert capture_defend(work, "E9")[0] == FAIL


# generated; GNU Go: attack A9 -> 1 B9.  White A8 is a throw-in (a self-atari on a liberty of
# A9): taking it with A7 leaves black short of liberties, so the sacrifice captures.
THROW_IN = """
   A B C D E F G H J
 9 X . O . . X . O . 9
 8 . X O . X O . . O 8
 7 . O + X + . + . O 7
 6 X . . . O . . . X 6
 5 . . + . O . O . X 5
 4 . O . X X . . O . 4
 3 . O + . X . + O . 3
 2 . . O . . . X O . 2
 1 . . X X X . . . X 1
   A B C D E F G H J
"""


def test_throw_in_attack():
    b = from_diagram(THROW_IN)
    res, move, _ = capture_attack(b, "A9")
    assert res == WIN and v(b, move) in ("A8", "B9")
    work = b.copy()
    work.play("A8", WHITE)                                   # the throw-in: a self-atari ...
    assert work.liberties("A8") == 1 and work.liberties("A9") == 1
    assert capture_defend(work, "A9")[0] == FAIL             # ... that black cannot answer


# generated; GNU Go: attack H2 -> 2 J2 (black J2 captures into a ko and wins it if it gets the
# first ko capture); E3 (next diagram) -> 3 D3.
KO2 = """
   A B C D E F G H J
 9 O X . X X . . O X 9
 8 . O X . . X X . . 8
 7 X . X O O O O . . 7
 6 O O X X . . X O X 6
 5 . O + . O O X . X 5
 4 X O O . . . O O X 4
 3 O O X X + O X X O 3
 2 . . X . O O X O . 2
 1 . X X O . O X . O 1
   A B C D E F G H J
"""
KO3 = """
   A B C D E F G H J
 9 X O O X . X . X . 9
 8 X . O X X O X . O 8
 7 X X X O + O O O . 7
 6 . X . . O . O . O 6
 5 X O O X X O + X . 5
 4 X X X X O . O X . 4
 3 . X O . X O X . X 3
 2 X O . O X O O . . 2
 1 X . O O . . X O . 1
   A B C D E F G H J
"""


def test_taking_a_stone_in_ko_is_ko_a():
    # hand-written; GNU Go: attack B2 -> 2 C2 (black takes the ko first), defend B2 -> 1 A1
    b = from_diagram("""
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . X O . . . .
        X O . O . . .
        . X O . . . .
    """)
    res, move, _ = capture_attack(b, "B2")
    assert res == KO_A and v(b, move) == "C2"
    res, move, _ = capture_defend(b, "B2")
    assert res == WIN and v(b, move) in ("A1", "C2")


def test_ko_results():
    b = from_diagram(KO2)
    res, move, _ = capture_attack(b, "H2")
    assert res == KO_A and v(b, move) == "J2"
    b = from_diagram(KO3)
    res, move, _ = capture_attack(b, "E3")
    assert res == KO_B and v(b, move) == "D3"


def test_budget_exhaustion_is_unknown():
    b = from_diagram(NET)
    res, move, nodes = capture_attack(b, "J2", max_nodes=50)
    assert res == UNKNOWN and move is None and nodes > 50
    res, _, _ = capture_defend(b, "J2", max_nodes=5)
    assert res == UNKNOWN


def test_limits_and_big_strings():
    b = from_diagram(LOOSE)
    b.play("E5", WHITE)
    b.play("D7", WHITE)
    assert capture_attack(b, "D5", max_libs=2)[0] == FAIL      # three liberties: out of reach
    b = Board(9)
    b.play("E5", BLACK)
    res, move, _ = capture_defend(b, "E5")
    assert res == WIN and move is not None                      # GNU Go: 1 E4 (4 liberties)
    b.play("E6", BLACK)
    assert capture_defend(b, "E5")[:2] == (WIN, None)           # GNU Go: 1 PASS (6 liberties)
    assert capture_attack(b, "E5")[:2] == (FAIL, None)
    with pytest.raises(TypeError):
        capture_attack(b, "E5", bogus=1)


def _random_game(rng, size=9):
    """A random-play position (no eye filling) and the moves that made it."""
    b = Board(size)
    colour = BLACK
    moves = []
    for _ in range(rng.randint(25, 60)):
        legal = [m for m in b.legal_moves(colour) if not b.eye(m, colour)]
        if not legal:
            break
        m = rng.choice(legal)
        b.play(m, colour)
        moves.append((colour, m))
        colour = 3 - colour
    return b, moves


def test_differential_against_gnugo(gnugo_path):
    """Our attack and defend against GNU Go's (default level: its reading depth depends on the
    level) on every 2-4 liberty string of random-play 9x9 positions generated here (the moves are
    replayed in GNU Go, so captures and ko agree)."""
    with GtpClient([gnugo_path, "--mode", "gtp"]) as gnugo:
        agree, total = _differential(gnugo, random.Random(7), 8)
    assert total >= 100
    assert agree / total >= 0.95, (agree, total)


def _differential(gnugo, rng, games):
    """(agreements, queries) of attack and defend over `games` random positions."""
    agree = total = 0
    for _ in range(games):
        b, moves = _random_game(rng)
        gnugo.send("boardsize 9")
        gnugo.send("clear_board")
        for colour, m in moves:
            gnugo.send(f"play {'b' if colour == BLACK else 'w'} {v(b, m)}")
        seen = set()
        for flat in range(81):
            if not b.get(flat) or flat in seen:
                continue
            seen |= set(b.string(flat))
            if not 2 <= b.liberties(flat) <= 4:
                continue
            for ours_fn, cmd in ((capture_attack, "attack"), (capture_defend, "defend")):
                ours = ours_fn(b, flat)[0]
                theirs = gnugo.send(f"{cmd} {v(b, flat)}").split()[0]
                total += 1
                agree += str(ours) == theirs
    return agree, total


def test_gtp_attack_defend_match_gnugo(gnugo):
    """GTP attack/defend answer in GNU Go's formats, and as GNU Go does on these strings."""
    from golois.gtp.engine import build_engine
    eng = build_engine()
    b = from_diagram(RACE3)
    for e in (eng, gnugo):
        e_send = e.handle if e is eng else e.send
        e_send("boardsize 9")
        e_send("clear_board")
        for flat in range(81):
            c = b.get(flat)
            if c:
                e_send(f"play {'b' if c == BLACK else 'w'} {v(b, flat)}")

    def ours(cmd):
        return eng.handle(cmd).strip().lstrip("=").strip()

    assert ours("attack A5") == gnugo.send("attack A5") == "1 B5"
    assert ours("attack C9") == gnugo.send("attack C9") == "0"
    assert ours("defend C9").startswith("1 ") and gnugo.send("defend C9").startswith("1 ")
    assert ours("defend A5") == gnugo.send("defend A5") == "1 B5"
    assert eng.handle("attack E1").startswith("?")              # empty point
