"""tactics.board: rules on hand-written diagrams, and the board replayed against sgfmill's and GNU Go's.

The differential tests play random games, with captures, ko fights and suicide attempts, and
compare every point and every legality answer after every move.
"""

import random

import numpy as np
import pytest
from sgfmill import boards as sgfmill_boards

from tactics import coords
from tactics.board import BLACK, WHITE, Board, IllegalMove
from tactics.diagram import from_diagram


# ----------------------------------------------------------------------------- unit cases

def test_sizes():
    for n in (2, 9, 13, 19, 25):
        b = Board(n)
        assert b.size == n and len(b.legal_moves()) == n * n
    for n in (1, 26):
        with pytest.raises(ValueError):
            Board(n)


def test_capture_in_corner():
    b = from_diagram("""
        X O . . .
        . . . . .
        . . . . .
        . . . . .
        . . . . .
    """, to_move="white")
    assert b.liberties("A5") == 1
    assert b.play("A4") == 1
    assert b.get("A5") == 0 and b.prisoners[WHITE] == 1
    assert b.liberties("A4") == 3 and b.liberties("B5") == 3


def test_capture_on_edge():
    b = from_diagram("""
        . . . . .
        . . . . .
        . . . . .
        . O . . .
        O X . . .
    """, to_move="white")
    assert b.liberties("B1") == 1
    assert b.play("C1") == 1
    assert b.get("B1") == 0
    assert b.liberties("C1") == 3          # B1, C2, D1
    assert b.liberties("A1") == 2          # A2, B1


def test_snapback():
    b = from_diagram("""
        . . . . .
        . . . . .
        X X . . .
        O O X . .
        . . X . .
    """, to_move="black")
    assert b.liberties("A2") == 2          # A1, B1
    assert b.play("A1") == 0               # throw-in, itself in atari
    assert b.liberties("A2") == 1
    assert b.play("B1") == 1               # white takes the stone...
    assert b.ko is None                    # ...three stones with one liberty: no ko
    assert b.liberties("A2") == 1
    assert b.play("A1") == 3               # ...and black takes back three
    assert b.prisoners == {BLACK: 3, WHITE: 1}


def test_ko_forbidden_then_allowed_after_threat():
    b = from_diagram("""
        . . . . . . .
        . X O . . . .
        X . X O . . .
        . X O . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """, to_move="white")
    assert b.play("B5") == 1                  # white takes the black stone at C5
    ko = b.ko
    assert ko == coords.to_flat(*coords.parse_vertex("C5", 7), 7)
    assert not b.is_legal(ko, "black")
    with pytest.raises(IllegalMove):
        b.play(ko, "black")
    assert b.is_legal(ko, "white")            # the ko bans only the other colour
    b.play("G1", "black")                     # threat
    b.play("G2", "white")                     # answer
    assert b.ko is None and b.is_legal(ko, "black")
    assert b.play(ko, "black") == 1           # retake


def test_setup_without_liberties_is_refused():
    b = from_diagram("""
        . X .
        X . X
        . X .
    """)
    with pytest.raises(IllegalMove):
        b.place("B2", "white")
    assert b.get("B2") == 0 and b.move_count == 4


def test_rejected_move_leaves_board_unchanged():
    b = from_diagram("""
        . X .
        X . X
        . X .
    """, to_move="white")
    before, h = b.to_array(), b.hash
    with pytest.raises(IllegalMove, match="suicide"):
        b.play("B2")
    with pytest.raises(IllegalMove, match="occupied"):
        b.play("B1")
    with pytest.raises(IllegalMove):
        b.play("Z9")
    assert (b.to_array() == before).all() and b.hash == h and b.to_move == WHITE


def test_undo_restores_everything():
    rng = random.Random(5)
    b = Board(9)
    states = []
    for _ in range(300):
        moves = b.legal_moves()
        states.append((b.to_array(), b.hash, b.ko, b.to_move, dict(b.prisoners),
                       [b.liberties(p) for p in range(81)]))
        b.play(rng.choice(moves) if moves and rng.random() > 0.02 else None)
    while states:
        assert b.undo()
        arr, h, ko, tm, pris, libs = states.pop()
        assert (b.to_array() == arr).all() and b.hash == h and b.ko == ko and b.to_move == tm
        assert b.prisoners == pris and [b.liberties(p) for p in range(81)] == libs
    assert not b.undo()


def test_hash_is_positional():
    a, b = Board(9), Board(9)
    for m in ("C3", "D4", "E5"):
        a.play(m)
    for m in ("E5", "D4", "C3"):
        b.play(m)
    assert a.hash == b.hash
    a.undo()
    assert a.hash != b.hash


def test_eyes():
    b = from_diagram("""
        . X . X .
        X X X . X
        . X . X .
        X . X X X
        . X X O .
    """)
    assert b.eye("A5", "black") == 2          # corner eye
    assert b.eye("A3", "black") == 2          # edge eye
    assert b.eye("C3", "black") == 2          # centre eye (no white diagonal)
    assert b.eye("D4", "black") == 2          # all diagonals black or empty
    assert b.eye("E5", "black") == 2
    assert b.eye("B2", "black") == 2
    assert b.eye("E3", "black") == 2          # edge eye, both diagonals black or empty
    assert b.eye("A1", "black") == 2
    assert b.eye("E1", "black") == 0          # touches a white stone
    assert b.eye("A5", "white") == 0
    assert b.eye("B5", "black") == 0          # occupied
    edge = from_diagram("""
        . X . X .
        . O X O .
        . . . . .
        . . . . .
        . . . . .
    """)
    assert edge.eye("C5", "black") == 1       # on the edge one white diagonal is enough
    false_eye = from_diagram("""
        . . . . .
        . O X O .
        . X . X .
        . O X O .
        . . . . .
    """)
    assert false_eye.eye("C3", "black") == 1  # two white diagonals in the centre


def test_copy_is_independent():
    b = Board(9)
    b.play("E5")
    c = b.copy()
    c.play("D4")
    assert b.get("D4") == 0 and c.get("D4") == WHITE
    assert c.undo() and c.undo() and not c.undo()
    assert b.get("E5") == BLACK


def test_setup_stones_and_diagram_roundtrip():
    b = from_diagram("""
        . . X O .
        . X O . .
        . . X O .
        . . . . .
        . . . . .
    """)
    again = from_diagram(str(b))
    assert (again.to_array() == b.to_array()).all() and again.hash == b.hash
    b.place("C3", 0)
    assert b.get("C3") == 0
    assert b.undo() and b.get("C3") == BLACK


# ----------------------------------------------------------------------------- superko

def test_superko_against_position_set():
    """Random games on tiny boards, where positions recur: repeats() must agree with a set of
    the positions seen so far."""
    rng = random.Random(11)
    found = 0
    for game in range(300):
        n = rng.choice((3, 4))
        b = Board(n)
        seen = {b.to_array().tobytes()}
        for _ in range(60):
            moves = b.legal_moves()
            if not moves:
                b.play(None)
                continue
            m = rng.choice(moves)
            predicted = b.repeats(m)
            b.play(m)
            key = b.to_array().tobytes()
            assert predicted == (key in seen), (game, str(b))
            found += predicted
            seen.add(key)
    assert found > 20  # the test met real repetitions


# ----------------------------------------------------------------------------- vs sgfmill

def _reference_legal(sb, ko, r, c, colour):
    """Legality by sgfmill: empty, not the ko point for this colour, not a suicide."""
    if sb.get(r, c) is not None:
        return False
    if ko is not None and ko == ((r, c), colour):
        return False
    trial = sb.copy()
    trial.play(r, c, colour)
    return trial.get(r, c) is not None


def _sgfmill_array(sb, n):
    arr = np.zeros((n, n), dtype=np.int8)
    for colour, (row, col) in sb.list_occupied_points():
        r, c = coords.from_sgfmill((row, col), n)
        arr[r, c] = BLACK if colour == "b" else WHITE
    return arr


def _reference_liberties(arr, r, c):
    n = arr.shape[0]
    colour, stack, seen, libs = arr[r, c], [(r, c)], {(r, c)}, set()
    while stack:
        y, x = stack.pop()
        for yy, xx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
            if 0 <= yy < n and 0 <= xx < n:
                if arr[yy, xx] == 0:
                    libs.add((yy, xx))
                elif arr[yy, xx] == colour and (yy, xx) not in seen:
                    seen.add((yy, xx))
                    stack.append((yy, xx))
    return len(libs)


@pytest.mark.parametrize("size,games", [(5, 600), (7, 600), (9, 500), (13, 80), (19, 40)])
def test_random_games_match_sgfmill(size, games):
    rng = random.Random(size)
    kos = suicides = captures = 0
    for game in range(games):
        ours = Board(size)
        ref = sgfmill_boards.Board(size)
        ko = None
        colour = "b"
        for _ in range(rng.randint(size * size // 2, 3 * size * size)):
            # a random point, occupied ones included: legality must agree before playing
            r, c = rng.randrange(size), rng.randrange(size)
            srow, scol = coords.to_sgfmill((r, c), size)
            expected = _reference_legal(ref, ko, srow, scol, colour)
            assert ours.is_legal((r, c), colour) == expected, (game, r, c, colour, str(ours))
            other = "w" if colour == "b" else "b"
            if not expected:
                suicides += ref.get(srow, scol) is None and (ko is None or ko[0] != (srow, scol))
                if rng.random() < 0.97:
                    continue
                ours.play(None, colour)               # now and then a pass
                ko, colour = None, other
                continue
            got = ours.play((r, c), colour)
            ko_point = ref.play(srow, scol, colour)
            ko = (ko_point, other) if ko_point is not None else None
            kos += ko is not None
            captures += got
            assert (ours.to_array() == _sgfmill_array(ref, size)).all(), (game, str(ours))
            expected_ko = None if ko_point is None else coords.to_flat(*coords.from_sgfmill(ko_point, size), size)
            assert ours.ko == expected_ko
            colour = other
        arr = ours.to_array()
        for r in range(size):
            for c in range(size):
                if arr[r, c]:
                    assert ours.liberties((r, c)) == _reference_liberties(arr, r, c)
    assert kos > 0 and suicides > 0 and captures > 0


# ----------------------------------------------------------------------------- vs GNU Go

def _gnugo_stones(engine, colour, size):
    out = np.zeros((size, size), dtype=bool)
    for v in engine.send(f"list_stones {colour}").split():
        r, c = coords.parse_vertex(v, size)
        out[r, c] = True
    return out


@pytest.mark.gnugo
@pytest.mark.parametrize("size,games,seed", [(9, 6, 1), (19, 2, 2)])
def test_random_games_match_gnugo(gnugo, size, games, seed):
    rng = random.Random(seed)
    checked = 0
    for _ in range(games):
        gnugo.send(f"boardsize {size}")
        gnugo.send("clear_board")
        ours = Board(size)
        for _ in range(3 * size * size):
            colour = "black" if ours.to_move == BLACK else "white"
            probes = {rng.randrange(size * size) for _ in range(6)}
            if ours.ko is not None:
                probes.add(ours.ko)
            for p in probes:
                v = coords.format_vertex(divmod(p, size), size)
                theirs = gnugo.send(f"is_legal {colour} {v}") == "1"
                assert ours.is_legal(p, colour) == theirs, (v, colour, str(ours))
                checked += 1
            moves = [m for m in ours.legal_moves() if ours.eye(m, colour) != 2]
            if not moves:
                gnugo.send(f"play {colour} pass")
                ours.play(None)
                continue
            m = rng.choice(moves)
            gnugo.send(f"play {colour} {coords.format_vertex(divmod(m, size), size)}")
            ours.play(m)
            arr = ours.to_array()
            assert (_gnugo_stones(gnugo, "black", size) == (arr == BLACK)).all(), str(ours)
            assert (_gnugo_stones(gnugo, "white", size) == (arr == WHITE)).all(), str(ours)
    assert checked > 500


def test_random_playout_ends_with_no_legal_non_eye_move():
    b = Board(19)
    n = b.random_playout(seed=3)
    assert 300 < n < 3 * 361
    for c in (BLACK, WHITE):
        assert all(b.eye(m, c) == 2 for m in b.legal_moves(c))
