"""golois.sgf: reading, replaying and writing records; typed errors; GNU Go's loadsgf as oracle."""

import random

import numpy as np
import pytest

from golois.sgf import SgfError, load_game, parse_game, position_to_sgf
from tactics import coords
from tactics.board import BLACK, WHITE, Board


def _random_game_sgf(size, n_moves, seed):
    rng = random.Random(seed)
    b, nodes = Board(size), []
    for _ in range(n_moves):
        legal = [m for m in b.legal_moves() if b.eye(m, b.to_move) != 2]
        m = rng.choice(legal) if legal and rng.random() > 0.03 else None
        colour = "B" if b.to_move == BLACK else "W"
        b.play(m)
        nodes.append(f";{colour}[{coords.format_sgf_point(None if m is None else divmod(m, size), size)}]")
    return f"(;GM[1]FF[4]SZ[{size}]KM[6.5]{''.join(nodes)})", b


def test_replay_matches_playing():
    text, final = _random_game_sgf(9, 120, 1)
    game = parse_game(text, "gen.sgf")
    assert game.size == 9 and game.komi == 6.5 and len(game.moves) == 120
    assert game.board_at().hash == final.hash
    assert (game.board_at().to_array() == final.to_array()).all()
    steps = list((b.copy(), k, e) for b, k, e in game.replay())
    assert [k for _, k, _ in steps] == list(range(1, 121))
    assert steps[50][0].hash == game.board_at(50).hash


def test_setup_handicap_and_player():
    game = parse_game("(;SZ[19]HA[2]AB[dp][pd]KM[0.5];W[qp];B[dd])")
    assert game.handicap == 2 and game.first_player == WHITE and game.has_setup
    b0 = game.board_at(0)
    assert b0.get("D4") == BLACK and b0.get("Q16") == BLACK and b0.to_move == WHITE
    problem = parse_game("(;SZ[19]AB[aa]AW[ba]PL[W])")
    assert problem.first_player == WHITE and problem.board_at().to_move == WHITE


def test_roundtrip():
    text, _ = _random_game_sgf(13, 80, 2)
    game = parse_game(text)
    again = parse_game(game.to_sgf())
    assert again.board_at().hash == game.board_at().hash and len(again.moves) == 80
    pos = parse_game(position_to_sgf(game.board_at(), WHITE))
    assert (pos.board_at().to_array() == game.board_at().to_array()).all()
    assert pos.first_player == WHITE


@pytest.mark.parametrize("text", ["(;SZ[19];B[dd]", "not sgf at all", "(;SZ[40];B[aa])", "(;SZ[19]HA[x])", ""])
def test_malformed_is_a_typed_error(text):
    with pytest.raises(SgfError) as info:
        parse_game(text, "broken.sgf")
    assert "broken.sgf" in str(info.value)


@pytest.mark.parametrize("text, shown", [
    ("(;SZ[19]AB[zz]AW[aa])", "AB[zz]"),        # off the board: sgfmill's message is empty
    ("(;SZ[19]AB[a])", "AB[a]"),                # one letter: sgfmill's is Python's unpacking error
    ("(;SZ[19]AB[aa];B[zz])", "B[zz]"),
    ("(;SZ[19]PL[X]AB[aa])", "PL[X]"),
])
def test_a_bad_property_value_is_named(text, shown):
    with pytest.raises(SgfError) as info:
        parse_game(text, "bad.sgf")
    assert str(info.value) == f"bad.sgf: malformed SGF: bad property value {shown}"


def test_a_point_set_twice_in_one_node_is_an_error():
    # FF[4]: one setup property per point and node; sgfmill would let AW win silently
    with pytest.raises(SgfError, match="A19 set by both AB and AW"):
        parse_game("(;SZ[19]AB[aa][bb]AW[aa]PL[B])", "twice.sgf")
    assert parse_game("(;SZ[19]AB[aa];AW[aa])").board_at().get("A19") == WHITE  # (other nodes: fine)


def test_illegal_move_names_file_and_move():
    game = parse_game("(;SZ[9];B[ee];W[dd];B[ee])", "bad.sgf")
    with pytest.raises(SgfError) as info:
        game.board_at()
    assert info.value.move_number == 3 and "bad.sgf" in str(info.value)
    board = game.board_at(2)              # the legal prefix still replays
    assert board.get("E5") == BLACK and board.to_move == BLACK


def test_missing_file(tmp_path):
    with pytest.raises(SgfError, match="cannot read"):
        load_game(tmp_path / "none.sgf")


@pytest.mark.gnugo
def test_board_at_matches_gnugo_loadsgf(gnugo, tmp_path):
    for seed, size in ((3, 9), (4, 19)):
        text, _ = _random_game_sgf(size, 150, seed)
        path = tmp_path / f"g{seed}.sgf"
        path.write_text(text)
        game = load_game(path)
        for n in (1, 2, 40, 100, 151):
            gnugo.send(f"loadsgf {path} {n}")
            ours = game.board_at(n - 1).to_array()
            for colour, name in ((BLACK, "black"), (WHITE, "white")):
                theirs = np.zeros((size, size), dtype=bool)
                for v in gnugo.send(f"list_stones {name}").split():
                    theirs[coords.parse_vertex(v, size)] = True
                assert (theirs == (ours == colour)).all(), (seed, n)


@pytest.mark.gnugo
def test_gtp_loadsgf_vertex_matches_gnugo(gnugo, tmp_path):
    """`loadsgf FILE VERTEX`: the game before the first move at VERTEX (all of it when none is
    played there), as GNU Go's; the stones and the side to move agree."""
    from golois.gtp.engine import build_engine
    text, _ = _random_game_sgf(9, 60, 5)
    path = tmp_path / "g.sgf"
    path.write_text(text)
    engine = build_engine()
    played = [e.point for e in load_game(path).moves if e.point is not None]
    never = next(p for p in range(81) if p not in played)
    for flat in played[:1] + played[7:10] + played[-1:] + [never]:
        vertex = coords.format_vertex(divmod(flat, 9), 9)
        ours = engine.handle(f"loadsgf {path} {vertex}")
        assert ours == "= " + gnugo.send(f"loadsgf {path} {vertex}") + "\n\n", vertex
        for name in ("black", "white"):
            mine = engine.handle(f"list_stones {name}")[2:].split()
            assert sorted(mine) == sorted(gnugo.send(f"list_stones {name}").split()), vertex
    assert engine.handle(f"loadsgf {path} x").startswith("? move number or vertex expected")


def test_a_collection_gives_each_game_alone():
    """An SGF collection (several game trees in one file, FF[4]) is counted, and each game
    comes back alone, parsed as its own record; a game past the end, or a malformed
    collection, is an SgfError naming the source."""
    from golois.sgf import collection_game, collection_size
    one = b"(;GM[1]FF[4]SZ[9]AB[aa]PL[W])"
    two = b"(;GM[1]FF[4]SZ[9]AW[bb][cc]PL[B];B[dd]C[RIGHT])"
    data = one + b"\n" + two
    assert collection_size(data) == 2 and collection_size(one) == 1
    assert collection_size(b"not sgf") == 1          # (parse_game then says what is wrong)
    game = parse_game(collection_game(data, 2, "c.sgf"), "c.sgf#2")
    board = game.board_at(0)
    assert board.get((1, 1)) == WHITE and board.get((2, 2)) == WHITE and board.get((0, 0)) == 0
    assert parse_game(collection_game(data, 1, "c.sgf")).board_at(0).get((0, 0)) == BLACK
    for bad, k, why in ((data, 3, "holds 2 game"), (data, 0, "holds 2 game"), (b"(;GM[1]", 1, "malformed")):
        with pytest.raises(SgfError, match=why) as err:
            collection_game(bad, k, "c.sgf")
        assert err.value.source == "c.sgf"


@pytest.mark.parametrize("text, message", [
    # the placed stone has no liberties (it said "move 1: ... setup 0: leaves a string ...")
    ("(;GM[1]FF[4]SZ[19]PL[B]AB[ab][ba]AW[aa])", "illegal setup: the white stone at A19 has no liberties"),
    # it takes the last liberty of a stone of the other colour
    ("(;GM[1]FF[4]SZ[19]PL[B]AB[aa]AW[ab][ba])",
     "illegal setup: the black stone at A19 has no liberties once AW[ba] (B19) is set"),
    # a setup node after the first move: said so, not as a move number
    ("(;GM[1]FF[4]SZ[9]AB[aa][ab]AW[ac][bb];W[ee];AW[ba];B[gg])",
     "illegal setup after move 1: the black stones at A9, A8 have no liberties once AW[ba] (B9) is set"),
])
def test_an_illegal_setup_names_its_stones(tmp_path, text, message):
    with pytest.raises(SgfError) as info:
        parse_game(text, "p.sgf").board_at()
    assert str(info.value) == f"p.sgf: {message}"
    from golois.gtp.engine import build_engine          # the same through GTP's loadsgf
    path = tmp_path / "p.sgf"
    path.write_text(text)
    assert build_engine().handle(f"loadsgf {path}") == f"? cannot load file: {path}: {message}\n\n"


def test_a_collection_with_a_malformed_game_counts_it():
    """Two good games, then a truncated third: the third is counted and is an error of its own
    (numbered from 1, as FILE#K), not left out (the file was once one problem, its first game,
    and FILE#2 said 'error parsing game 2' when the third was bad)."""
    from golois.sgf import collection_game, collection_size
    one = b"(;GM[1]FF[4]SZ[9]AB[aa]PL[W])"
    two = b"(;GM[1]FF[4]SZ[9]AW[bb][cc]PL[B];B[dd]C[RIGHT])"
    data = one + two + b"(;GM[1]FF[4]SZ[9]AB[aa"
    assert collection_size(data) == 3
    assert parse_game(collection_game(data, 2, "c.sgf")).board_at(0).get((1, 1)) == WHITE
    with pytest.raises(SgfError, match=r"^c.sgf: game 3: malformed SGF: unexpected end of SGF data"):
        collection_game(data, 3, "c.sgf")
    with pytest.raises(SgfError, match="game 4: the file holds 3 game"):
        collection_game(data, 4, "c.sgf")
    assert collection_size(one + b"(;GM[1]SZ[9]AB[aa]];B[bb])" + two) == 2    # (the bad one)


def test_setup_only_reads_no_move():
    """parse_game(setup_only=True): the setup position and the first mover's colour, not its
    point: a malformed answer move is no error (golois solve never plays it)."""
    text = "(;GM[1]FF[4]SZ[9]AB[aa](;W[zz]C[WRONG])(;W[bb]C[RIGHT]))"
    with pytest.raises(SgfError, match=r"W\[zz\]"):
        parse_game(text)
    game = parse_game(text, setup_only=True)
    assert game.moves == [] and game.first_player == WHITE and game.board_at(0).get("A9") == BLACK
