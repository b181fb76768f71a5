"""The solver through GTP (golois/gtp/solver.py): owl answers, restricted_genmove, the player's
network as a prior among winning moves, and the engine's solver settings."""

import math
import subprocess
import sys

from tactics.board import BLACK, WHITE
from tactics.coords import parse_vertex, to_flat
from tactics.diagram import from_diagram_marks
from tactics.problem import solve
from tests.problems import MAEDA_123, ROOT, box_region, bottom_right


def test_a_group_that_runs_out_is_not_called_seki():
    # black's four stones under white's wall, on an otherwise empty board: black to live runs
    # out (its liberties leave the group's region); its string shares liberties with white's
    # wall, but the wall has liberties of its own, so this is no seki
    from tactics.owl import SolverConfig, owl_solve
    from tactics.board import Board
    board = Board(19)
    for v in ("Q16", "R16", "S16", "T16"):
        board.play(v, BLACK)
    for v in ("Q17", "R17", "S17", "T17"):
        board.play(v, WHITE)
    s = owl_solve(board, BLACK, to_flat(*parse_vertex("Q16", 19), 19),
                  SolverConfig(time_limit=5, width=0, prefer=0))
    assert s.goal == "live" and s.result == "win", s.status
    assert not s.seki and s.status == "black lives", s.status


def test_restricted_genmove_answers_inside_the_region_and_asks_the_players_network():
    """restricted_genmove (what ../shared/tools/gtp_tsumego.py sends): the solver's move inside
    the given points, played on the board; an unfinished search to live answers the move the
    engine player's network and the playouts like best among the unrefuted ones (the playouts
    alone with the fallback policy)."""
    from golois.gtp.engine import build_engine
    from golois.gtp.play import install_player
    from tactics.owl import SolverConfig
    from golois.player.player import Player
    from tactics.coords import format_vertex

    def fake_network(board, colour):
        scores = [0.0] * (board.size * board.size)
        scores[to_flat(*parse_vertex("N5", board.size), board.size)] = 50.0
        return scores
    answers = []
    for player in (None, Player(fake_network, name="network fake x1")):
        engine = build_engine(solver=SolverConfig(time_limit=60, max_nodes=200_000))
        if player is not None:
            install_player(engine, player)
        engine.board = bottom_right(MAEDA_123)
        box = [format_vertex(divmod(p, 19), 19) for p in box_region(engine.board, "L1", "T8")]
        answers.append(engine.handlers["restricted_genmove"](engine, "black", *box))
        assert engine.board.get(to_flat(*parse_vertex(answers[-1], 19), 19)) == BLACK
    assert answers == ["Q2", "N5"]


# A white corner group whose eye space a-b is two points: dead whatever black plays, so every
# black move in the region "kills" (G2, a, is the search's first).  BULKY lives unless black
# takes the vital point b (H2) of its bulky five a-b-c-d-e.
DEAD_TWO = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . X X X X X
. . . g X O O O O
. . . . X O a b O
. . . . X O O O O
"""


BULKY = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . X X X X X
. . . . X O O O O
. . . . X O a b c
. . . . X O d e O
"""


def _sure_of(point, probability=0.5):
    """A fake prior: `probability` on one flat point, 1e-4 elsewhere (log-probabilities)."""
    def prior(board, mover):
        scores = [math.log(1e-4)] * (board.size * board.size)
        scores[point] = math.log(probability)
        return scores
    return prior


def test_prefer_answers_the_priors_move_among_several_wins_only_when_it_wins_too():
    """solve(prefer=) (owl through GTP): after a clean win, a move the prior is sure of is
    checked and answers when it wins as well; one that fails (the defender lives after it), one
    the prior is not sure enough of, or prefer 0 leave the search's own answer."""
    board, marks = from_diagram_marks(DEAD_TWO, "black")
    target = marks["a"] - 1                 # F2, in the white group
    plain = solve(board, "black", target=target, time_limit=10)
    assert (plain.result, plain.vertex()) == ("win", "G2")
    for point, vertex in ((marks["b"], "H2"), (marks["g"], "D3")):
        s = solve(board, "black", target=target, time_limit=10, prior=_sure_of(point), prefer=3)
        assert (s.result, s.vertex(), s.winning[0]) == ("win", vertex, point), s.status
        assert solve(board, "black", target=target, time_limit=10, prior=_sure_of(point),
                     prefer=0).vertex() == "G2"
        assert solve(board, "black", target=target, time_limit=10,
                     prior=_sure_of(point, 0.05), prefer=3).vertex() == "G2"     # below PREFER_MIN
    board, marks = from_diagram_marks(BULKY, "black")
    for name in "acde":                     # each lets white live: the vital point b answers
        s = solve(board, "black", target=marks["a"] - 1, time_limit=10,
                  prior=_sure_of(marks[name]), prefer=3)
        assert (s.result, s.vertex()) == ("win", "H2"), (name, s.status)


def test_owl_answers_the_players_network_move_when_it_wins_too():
    from golois.gtp.engine import build_engine
    from golois.gtp.play import install_player
    from tactics.owl import SolverConfig
    from golois.player.player import Player
    board, marks = from_diagram_marks(DEAD_TWO, "black")
    answers = []
    for player in (None, Player(_sure_of(marks["g"]), name="network fake x1")):
        engine = build_engine(solver=SolverConfig(time_limit=10))
        if player is not None:
            install_player(engine, player)
        engine.board = from_diagram_marks(DEAD_TWO, "black")[0]
        answers.append(engine.handlers["owl_attack"](engine, "F2"))
    assert answers == ["1 G2", "1 D3"]
    # owl_defend of the dead group fails: an unknown or failed owl answer is `0` whatever its
    # move, so the network is not asked for a guess (nor time kept for one)
    calls = []

    def counting(board, colour):
        calls.append(colour)
        return _sure_of(marks["g"])(board, colour)
    engine = build_engine(solver=SolverConfig(time_limit=10))
    install_player(engine, Player(counting, name="network fake x1"))
    engine.board = from_diagram_marks(DEAD_TWO, "black")[0]
    assert engine.handlers["owl_defend"](engine, "F2") == "0" and calls == []


def test_solver_config_on_the_engine():
    from golois.gtp.engine import build_engine
    from tactics.owl import SolverConfig
    engine = build_engine(solver=SolverConfig(time_limit=3.0))
    assert engine.solver.time_limit == 3.0
    engine.handlers["solver_time"](engine, "1.5")
    assert engine.solver.time_limit == 1.5
    out = subprocess.run([sys.executable, "play.py", "--solver-time", "2"], input="solver_time -1\nquit\n",
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.stdout.startswith("? seconds must be positive")
    out = subprocess.run([sys.executable, "play.py", "--solver-nodes", "0"], input="quit\n",
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode != 0 and "--solver-nodes must be positive" in out.stderr


# A white group (F4) in the open: black cannot kill it, which takes the owl search some 3 million
# positions to prove.
OPEN_GROUP = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . X . . .
. . . X . . . . .
. . . . . O O X .
. . X . O . . O X
. . . . O . O . .
. . . . . . . . .
"""


def test_solver_nodes_make_the_owl_answer_the_same_at_any_time_limit():
    """SolverConfig.max_nodes (play.py --solver-nodes) ends the search where no time limit
    would: the same unfinished answer and node count at 30 s and 60 s, near the limit."""
    from tactics.owl import SolverConfig, owl_solve
    board = from_diagram_marks(OPEN_GROUP, "black")[0]
    target = to_flat(*parse_vertex("F4", 9), 9)
    a, b = (owl_solve(board, BLACK, target, SolverConfig(time_limit=t, max_nodes=5000)) for t in (30.0, 60.0))
    assert (a.result, a.move, a.nodes) == (b.result, b.move, b.nodes)
    assert a.result == "unknown" and 5000 <= a.nodes < 6000


# A black corner group with two eyes (a and b), walled in by white: alive as it stands.
TWO_EYES = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . O O O O O O
. . . O X X X X X
. . . O X a X b X
. . . O X X X X X
"""


def test_owl_answers_on_a_living_group_as_gnu_go_writes_them(gnugo):
    """A group alive as it stands: owl_defend `1 PASS` (capitals, as GNU Go writes it; our
    vertices say `pass` elsewhere), owl_attack `0`, dragon_status `alive`: GNU Go's own answers
    on the same position."""
    from golois.gtp.engine import build_engine
    from tactics.owl import SolverConfig
    engine = build_engine(solver=SolverConfig(time_limit=10))
    engine.board = from_diagram_marks(TWO_EYES, "black")[0]
    ours = [engine.handlers[c](engine, "E2") for c in ("owl_defend", "owl_attack", "dragon_status")]
    gnugo.send("boardsize 9")
    gnugo.send("clear_board")
    for r, row in enumerate(TWO_EYES.split("\n")[1:-1]):
        for c, ch in enumerate(row.split()):
            if ch in "XO":
                gnugo.send(f"play {'black' if ch == 'X' else 'white'} {'ABCDEFGHJ'[c]}{9 - r}")
    theirs = [gnugo.send(f"{c} E2") for c in ("owl_defend", "owl_attack", "dragon_status")]
    assert ours == theirs == ["1 PASS", "0", "alive"]
