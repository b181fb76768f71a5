"""`golois solve` (golois/tsumego/cli.py): text, JSON and SGF output, RIGHT/WRONG against the book,
its inputs and bad input, ladder problems, and when the network is loaded."""

import json
import math
import os
import subprocess
import sys
import time

import pytest

from tactics.board import BLACK, WHITE
from tactics.diagram import from_diagram
from tactics.problem import solve
from tests.problems import (
    KILL_003, LIVES_AT_ONCE, MAEDA_017, MAEDA_123, ROOT, bottom_right, top_right)


def test_cli_json_on_generated_sgf(tmp_path):
    sgf = ("(;GM[1]FF[4]SZ[9]PL[B]AB[af][bf][cf][df][ef][eg][eh][ei]"
           "AW[ag][bg][cg][dg][dh][di][ai][bi][ci];B[bh]C[RIGHT])")
    path = tmp_path / "p.sgf"
    path.write_text(sgf)
    out = subprocess.run([sys.executable, "-m", "golois.cli", "solve", str(path), "--json", "--time-limit", "5",
                          "--sgf-out", str(tmp_path / "out")], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": ROOT}, timeout=60)
    rec = json.loads(out.stdout.splitlines()[0])
    assert {"file", "to_play", "move", "result", "pv", "nodes", "seconds"} <= rec.keys()
    assert rec["to_play"] == "black" and rec["move"] == "B2" and rec["right"] is True
    assert rec["goal"] == "kill" and rec["target"] in ("A3", "B3", "C3", "D3", "D2", "D1")
    assert (tmp_path / "out" / "p.sgf").exists()
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;GM[1]SZ[9])")
    out = subprocess.run([sys.executable, "-m", "golois.cli", "solve", str(bad), str(path), "--json", "--time-limit", "2"],
                         capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": ROOT}, timeout=60)
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    assert "error" in lines[0] and lines[1]["move"] == "B2"


def test_cli_solves_every_game_of_a_collection(tmp_path, capsys):
    """A file holding several problems (an SGF collection) is one problem per game, named
    FILE#K: each answered and checked against its own RIGHT child, the accuracy counted per
    collection, --sgf-out writing FILE-K.sgf, --limit counting problems, FILE#K naming one
    game alone, and a game past the end an error record (the batch goes on)."""
    from golois.tsumego.cli import main
    kill = ("(;GM[1]FF[4]SZ[9]PL[B]AB[af][bf][cf][df][ef][eg][eh][ei]"
            "AW[ag][bg][cg][dg][dh][di][ai][bi][ci];B[bh]C[RIGHT])")
    wrong = kill.replace("B[bh]C[RIGHT]", "B[ah]C[RIGHT]")      # the same problem, a wrong "answer"
    path = tmp_path / "book.sgf"
    path.write_text(kill + "\n" + wrong + "\n")
    out = tmp_path / "out"
    assert main([str(path), "--json", "--time-limit", "5", "--network", "none", "--sgf-out", str(out)]) == 0
    captured = capsys.readouterr()
    recs = [json.loads(x) for x in captured.out.splitlines()]
    assert [r["file"] for r in recs] == [f"{path}#1", f"{path}#2"]
    assert [(r["move"], r["right"], r["answers"]) for r in recs] == [("B2", True, ["B2"]), ("B2", False, ["A2"])]
    assert f"{path}: 1/2 = 50.0% first move right" in captured.err
    assert sorted(os.listdir(out)) == ["book-1.sgf", "book-2.sgf"]
    assert b"AW[ag][bg]" in (out / "book-2.sgf").read_bytes().replace(b"\n", b"")
    assert main([str(path), "--json", "--time-limit", "5", "--network", "none", "--limit", "1"]) == 0
    assert [json.loads(x)["file"] for x in capsys.readouterr().out.splitlines()] == [f"{path}#1"]
    assert main([f"{path}#2", f"{path}#3", "--json", "--time-limit", "5", "--network", "none"]) == 0
    recs = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert recs[0]["file"] == f"{path}#2" and recs[0]["answers"] == ["A2"]
    assert recs[1] == {"file": f"{path}#3", "error": f"SgfError: {path}#3: game 3: the file holds 2 game(s)"}


def _kill_003_sgf_out(tmp_path, capsys):
    """KILL_003 solved by the CLI with --json --sgf-out: (board, the JSON record, the SGF
    written, as sgfmill's game)."""
    from sgfmill import sgf

    from golois.cli import main as golois_main
    from golois.sgf import position_to_sgf
    board = top_right(KILL_003)
    path = tmp_path / "p.sgf"
    path.write_bytes(position_to_sgf(board, 1))
    assert golois_main(["solve", str(path), "--json", "--time-limit", "10", "--network", "none",
                        "--sgf-out", str(tmp_path / "out")]) == 0
    rec = json.loads(capsys.readouterr().out.splitlines()[0])
    return board, rec, sgf.Sgf_game.from_bytes((tmp_path / "out" / "p.sgf").read_bytes())


def test_sgf_out_has_the_wrong_tries_with_their_refutations(tmp_path, capsys):
    """--sgf-out: besides the RIGHT line, every first move the search proved to fail is a
    WRONG variation followed by its refutation; each such move really fails (a search after
    it: the defender to move lives), and the lines are legal (sgfmill replays them)."""
    from sgfmill import sgf_moves

    from tactics import solver as S
    from tactics.problem import prepare
    board, rec, game = _kill_003_sgf_out(tmp_path, capsys)
    assert rec["move"] == "Q19" and rec["result"] == "win"
    children = list(game.get_root())
    assert children[0].get("C").startswith("RIGHT") and children[0].get_move() == ("b", (18, 15))
    wrong = [c for c in children if c.get("C").startswith("WRONG")]
    assert len(wrong) == len(rec["refuted"]) >= 3 and "Q19" not in rec["refuted"]
    b, attacker, target, region, targets = prepare(board, None, None, True, "live", BLACK)
    b.to_move = BLACK
    for child in wrong:
        line = [child]
        while len(line[-1]):
            line.append(line[-1][0])
        assert len(line) >= 2                   # the opponent's answer is there
        replay, _ = sgf_moves.get_setup_and_moves(game)
        for node in line:                       # legal all the way (sgfmill raises otherwise)
            colour, mv = node.get_move()
            if mv is not None:
                replay.play(mv[0], mv[1], colour)
        _, (row, col) = child.get_move()
        b.play((18 - row) * 19 + col, BLACK)
        try:
            after = S.dfpn(b, attacker, target, region, targets=targets, time_limit=5)
        finally:
            b.undo()
        assert after["value"] == 1              # the defender, to move, lives


def test_sgf_out_right_variation_is_the_solution_tree(tmp_path, capsys):
    """--sgf-out: the RIGHT variation is the proof's tree (tactics.solver `_proof_tree`), not
    one line: after Q19, each of white's replies the search proved is a variation, answered by
    black; and every line of the tree ends in a position that black wins by a fresh search (the
    side to move there: white lives nowhere, black kills)."""
    board, rec, game = _kill_003_sgf_out(tmp_path, capsys)
    assert rec["move"] == "Q19"
    right = [c for c in game.get_root() if c.get("C").startswith("RIGHT")]
    assert len(right) == 1 and right[0].get_move() == ("b", (18, 15))
    replies = list(right[0])
    assert len(replies) >= 5 and all(r.get_move()[0] == "w" for r in replies)
    assert len({r.get_move() for r in replies}) == len(replies)
    assert sum(1 for r in replies if len(r) and r[0].get_move()[0] == "b") >= 5    # answered
    # the JSON's replies: the same first level, white's reply -> black's answer
    from tactics.coords import format_vertex, from_sgfmill
    vertex = lambda node: format_vertex(from_sgfmill(node.get_move()[1], 19), 19)      # noqa: E731
    assert rec["replies"] == {vertex(r): vertex(r[0]) if len(r) else None for r in replies}
    _check_lines_won(board, right[0], BLACK)


def _check_lines_won(board, top, winner):
    """Every line of the SGF variation `top` (KILL_003's problem, black first) ends in a
    position `winner` wins by a fresh search: the side to move there wins (1) or loses (-1), or
    the target group is gone (a black win)."""
    from tactics import solver as S
    from tactics.problem import prepare
    b, attacker, target, region, targets = prepare(board, None, None, True, "live", BLACK)
    lines = []

    def walk(node, line):
        line = line + [node.get_move()]
        if not len(node):
            lines.append(line)
        for child in node:
            walk(child, line)
    walk(top, [])
    assert len(lines) >= 5
    for line in lines:
        played = 0
        for colour, mv in line:
            b.play(None if mv is None else (18 - mv[0]) * 19 + mv[1], BLACK if colour == "b" else WHITE)
            played += 1
        try:
            alive = [t for t in targets if b.get(t) == WHITE]
            mover = WHITE if line[-1][0] == "b" else BLACK
            b.to_move = mover
            value = (S.dfpn(b, attacker, alive[0], region, targets=alive, reach=2,
                            time_limit=5)["value"] if alive else (1 if mover == BLACK else -1))
            assert value == (1 if mover == winner else -1), line
        finally:
            for _ in range(played):
                b.undo()


def test_sgf_out_wrong_variations_are_the_refutation_trees(tmp_path, capsys):
    """--sgf-out: a WRONG variation is its refutation's tree (Solution.refutations), not one
    line: after the wrong move and white's answer, each of black's next moves the search
    proved lost is a variation, answered by white; every line ends in a position white wins
    by a fresh search."""
    board, rec, game = _kill_003_sgf_out(tmp_path, capsys)
    wrong = [c for c in game.get_root() if c.get("C").startswith("WRONG")]
    assert len(wrong) >= 3
    branching = 0
    for top in wrong:
        assert len(top) == 1 and top[0].get_move()[0] == "w"       # one answer: white's
        tries = list(top[0])
        branching += len(tries) >= 3
        assert all(t.get_move()[0] == "b" for t in tries)
        _check_lines_won(board, top, WHITE)
    assert branching >= 3


def test_cli_target_to_play_and_region(tmp_path, capsys):
    """golois solve --target / --to-play / --region: a corner problem (black kills with B2)
    with stones in another corner too, which the inference refuses (and says how to go on)."""
    from golois.cli import main as golois_main
    path = tmp_path / "multi.sgf"
    path.write_text("(;GM[1]FF[4]SZ[19]PL[B]AB[ap][bp][cp][dp][ep][eq][er][es]"
                    "AW[aq][bq][cq][dq][dr][ds][as][bs][cs]AB[pd][qd]AW[pc][qc];B[br]C[RIGHT])")

    def run(*options):
        golois_main(["solve", str(path), "--json", "--time-limit", "3", "--network", "none",
                     *options])
        return json.loads(capsys.readouterr().out.splitlines()[0])

    assert "--target VERTEX" in run()["error"]
    for options in (["--target", "A3"], ["--target", "A3", "--region", "A1:D3"]):
        rec = run(*options)
        assert (rec["move"], rec["result"], rec["goal"], rec["right"]) == ("B2", "win", "kill", True)
    rec = run("--target", "A3", "--to-play", "white")
    assert (rec["to_play"], rec["goal"], rec["move"], rec["result"]) == ("white", "live", "B2", "win")
    assert "right" not in rec                  # the book's answer is black's move
    assert "no stone" in run("--target", "K10")["error"]
    assert "two corner vertices" in run("--target", "A3", "--region", "A1")["error"]


def test_cli_move_takes_a_games_position(tmp_path, capsys):
    """golois solve --move: the position of a game record before move N (GTP's loadsgf FILE N)
    or after its last move, with its side to move; the setup alone by default."""
    from golois.cli import main as golois_main
    path = tmp_path / "game.sgf"      # the corner kill (B2) once white has played A1
    path.write_text("(;GM[1]FF[4]SZ[9]AB[af][bf][cf][df][ef][eg][eh][ei]"
                    "AW[ag][bg][cg][dg][dh][di][bi][ci];B[ii];W[ai])")

    def run(*options):
        golois_main(["solve", str(path), "--json", "--time-limit", "3", "--network", "none",
                     "--target", "A3", *options])
        return json.loads(capsys.readouterr().out.splitlines()[0])

    rec = run("--move", "end", "--sgf-out", str(tmp_path / "out"))
    assert (rec["to_play"], rec["move"], rec["result"]) == ("black", "B2", "win")
    from sgfmill import sgf, sgf_moves      # the tree hangs from that position, not the setup
    game = sgf.Sgf_game.from_bytes((tmp_path / "out" / "game.sgf").read_bytes())
    setup, _ = sgf_moves.get_setup_and_moves(game)
    assert setup.get(0, 0) == "w" and setup.get(0, 8) == "b"          # A1 and J1 stand
    assert game.get_root()[0].get_move() == ("b", (1, 1))
    assert run("--move", "2")["to_play"] == "white"         # before white's A1
    assert run()["to_play"] == "black"                       # the setup: black's move first
    assert "expected 1 to 3 or end" in run("--move", "9")["error"]


def test_golois_solve_loads_the_network_only_when_a_guess_needs_it(monkeypatch):
    """golois solve's prior (golois.tsumego.cli.LazyPrior) loads the network when an unfinished
    search to live first calls it: never for a kill or a proven life (its cost before the load
    is an estimate, UNLOADED_COST), once for every guess after, and the load's time is left
    out of the problem's time (tactics.guess.Scores.late): a 1 s load after a 0.5 s
    search still answers in about 0.5 s."""
    import golois.tsumego.cli as gs
    loads = []

    def load(model, symmetries=8, threads=1, quiet=False, lazy=False, precision="fp32"):
        assert not lazy
        loads.append(model)
        time.sleep(1.0)

        def timed(b, mover):
            return [0.0] * (b.size * b.size)
        timed.cost = lambda size: 0.01
        return timed
    monkeypatch.setattr(gs, "network_prior", load)
    monkeypatch.setattr(gs, "network_missing", lambda model: None)
    monkeypatch.setattr(gs, "UNLOADED_COST", {"full": 0.05})
    prior = gs.LazyPrior("full")
    s = solve(top_right(KILL_003), "black", time_limit=10, prior=prior)
    assert (s.goal, s.result, s.vertex()) == ("kill", "win", "Q19") and loads == []
    s = solve(from_diagram(LIVES_AT_ONCE, "white"), "white", time_limit=0.5, prior=prior)
    assert (s.goal, s.result) == ("live", "win") and loads == []
    unfinished = bottom_right(MAEDA_123)
    for _ in range(2):
        t = time.monotonic()
        s = solve(unfinished, "black", time_limit=0.5, prior=prior)
        assert s.result == "unknown" and s.seconds < 0.9
    assert loads == ["full"] and time.monotonic() - t < 0.9    # (the second did not load)
    monkeypatch.setattr(gs, "network_missing", lambda model: "no weights file 'x.pt'")
    assert math.isinf(gs.LazyPrior("x.pt", quiet=True).cost(19))
    monkeypatch.setattr(gs, "network_prior", lambda *a, **k: None)    # weights that do not load
    assert gs.LazyPrior("y.pt")(None, BLACK) is None


def test_cli_no_recheck(tmp_path, capsys):
    from golois.sgf import position_to_sgf
    from golois.tsumego.cli import main
    path = tmp_path / "017.sgf"
    path.write_bytes(position_to_sgf(top_right(MAEDA_017), BLACK))
    moves = []
    for extra in ([], ["--no-recheck"]):
        assert main([str(path), "--json", "--max-nodes", "2000000", "--time-limit", "60"] + extra) == 0
        moves.append(json.loads(capsys.readouterr().out.splitlines()[0])["move"])
    assert moves[0] == "N19" and moves[1] in ("N18", "Q19", "R19")    # the grown frame's kills (MAEDA_017)


def test_cli_text_numbers_the_principal_variation(tmp_path, capsys):
    """The default output: the problem's diagram with the PV numbered as in a problem book (1 is
    the answer at Q19, then 2, 3, ...; a move on a point already marked is said below it), the
    result, the move, the PV and the refutations."""
    from golois.sgf import position_to_sgf
    from golois.tsumego.cli import LADDER_MARKS, main
    path = tmp_path / "003.sgf"
    path.write_bytes(position_to_sgf(top_right(KILL_003), BLACK))
    assert main([str(path), "--time-limit", "10", "--network", "none"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{path}: black to kill"
    columns = lines[1].split()
    cells = {}
    for line in lines[2:]:
        row = line.split()
        if not row or not row[0].isdigit():
            break
        cells.update({f"{c}{row[0]}": v for c, v in zip(columns, row[1:])})
    notes = line
    pv = next(x for x in lines if x.startswith("pv: ")).split()[1:]
    assert pv[0] == "Q19" and cells["Q19"] == "1" and cells["K19"] == "."
    first = {}
    for mark, vertex in zip(LADDER_MARKS, pv):
        if vertex in first:
            assert f"{mark} at {first[vertex]}" in notes       # (a retake: said below)
        else:
            first[vertex] = mark
            assert cells[vertex] == mark
    assert len(first) >= 5 and any(x.startswith("result: win (black kills)") for x in lines)
    assert any(x.startswith("refuted: ") for x in lines)


def test_sgf_out_calls_an_unfinished_answer_a_best_try(tmp_path, capsys):
    """--sgf-out: an unfinished search's answer is commented BEST TRY, unproven, neither
    RIGHT (problem tools would read it as the book's answer) nor WRONG."""
    from golois.sgf import position_to_sgf
    from golois.tsumego.problem_sgf import right_answers
    from golois.tsumego.cli import main
    path = tmp_path / "003.sgf"
    path.write_bytes(position_to_sgf(top_right(KILL_003), BLACK))
    assert main([str(path), "--json", "--max-nodes", "2000", "--network", "none",
                 "--sgf-out", str(tmp_path / "out")]) == 0
    rec = json.loads(capsys.readouterr().out.splitlines()[0])
    assert rec["result"] == "unknown"
    from sgfmill import sgf
    game = sgf.Sgf_game.from_bytes((tmp_path / "out" / "003.sgf").read_bytes())
    first = game.get_root()[0]
    assert first.get("C").startswith("BEST TRY, unproven: black to kill")
    assert right_answers(tmp_path / "out" / "003.sgf") == []


@pytest.mark.parametrize("args, message", [
    (["--time-limit", "-1"], "the time limit must be positive"),
    (["--time-limit", "nan"], "the time limit must be positive"),
    (["--time-limit", "ten"], "is not a number of seconds"),
    (["--max-nodes", "0"], "must be at least 1"),
    (["--limit", "-1"], "must be at least 1"),
])
def test_cli_refuses_limits_that_would_answer_nothing(tmp_path, capsys, args, message):
    # a negative or NaN time limit once searched nothing (or without limit) and answered a
    # guess; --limit -1 dropped a folder's last file
    from golois.sgf import position_to_sgf
    from golois.tsumego.cli import main
    path = tmp_path / "003.sgf"
    path.write_bytes(position_to_sgf(top_right(KILL_003), BLACK))
    with pytest.raises(SystemExit) as stop:
        main([str(path)] + args)
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_cli_checks_its_inputs_and_output_folder_before_solving(tmp_path, capsys):
    # an empty folder once answered nothing with exit code 0, and an --sgf-out that cannot be
    # made lost every answer after its search, one file at a time
    from golois.sgf import position_to_sgf
    from golois.tsumego.cli import main
    (tmp_path / "empty").mkdir()
    path = tmp_path / "003.sgf"
    path.write_bytes(position_to_sgf(top_right(KILL_003), BLACK))
    for extra in ([], ["--ladder", "R19"]):
        assert main([str(tmp_path / "empty")] + extra) == 2
        assert "no .sgf files in" in capsys.readouterr().err
        assert main([str(path), "--sgf-out", str(path)] + extra) == 2      # a file, not a folder
        assert f"--sgf-out {path}: " in capsys.readouterr().err


def test_cli_a_variation_it_cannot_read_is_no_answer(tmp_path, capsys):
    # a RIGHT child with an off-board move (B[zz]) once turned the whole record into an error
    from golois.sgf import position_to_sgf
    from golois.tsumego.cli import main
    path = tmp_path / "003.sgf"
    text = position_to_sgf(top_right(KILL_003), BLACK).decode().rstrip().rstrip(")")
    path.write_text(text + "(;B[sa]C[RIGHT])(;B[zz]C[RIGHT]))")
    assert main([str(path), "--json", "--max-nodes", "20000", "--network", "none"]) == 0
    rec = json.loads(capsys.readouterr().out.splitlines()[0])
    assert "error" not in rec and rec["answers"] == ["T19"]


def test_cli_network_prior_answers_an_unfinished_search_to_live(tmp_path, capsys):
    """golois solve's prior is a policy network: on maeda-10k-5k/123 at 200 k nodes (unfinished)
    its scores join the playouts' survival in the guess; --network none guesses by the playouts
    alone (Q2, the book's move); weights that do not load are said on stderr and the solver goes
    on without them."""
    from golois.sgf import position_to_sgf
    from golois.tsumego.cli import main, network_prior
    board = bottom_right(MAEDA_123)
    prior = network_prior("small")
    assert 0 < prior.cost(9) < prior.cost(19)   # (TimedPrior: made with two calls on 9x9)
    scores = prior(board, BLACK)
    assert len(scores) == 361 and board.get(max(range(361), key=lambda p: scores[p])) == 0
    path = tmp_path / "123.sgf"
    path.write_bytes(position_to_sgf(board, BLACK))
    answers = {}
    for net in ("small", "none", "no-such-file.pt"):
        assert main([str(path), "--json", "--max-nodes", "200000", "--time-limit", "60", "--network", net]) == 0
        captured = capsys.readouterr()
        rec = json.loads(captured.out.splitlines()[0])
        assert rec["result"] == "unknown" and rec["goal"] == "live"
        answers[net] = (rec["move"], "no policy prior" in captured.err)
    assert answers["none"] == ("Q2", False) and answers["no-such-file.pt"] == ("Q2", True)
    assert answers["small"] == ("Q2", False)        # the small network's scores agree here


def test_cli_ladder_problem(tmp_path, capsys):
    """golois solve --ladder: a white stone in an open ladder is captured (either way works, as
    GNU Go's ladder_attack agrees); with breakers on both paths (G18, B14) it escapes."""
    import json as _json

    from golois.cli import main as golois_main
    (tmp_path / "ladder.sgf").write_text("(;GM[1]FF[4]SZ[19]AW[dd]AB[cd][dc][ee]PL[B])")
    (tmp_path / "broken.sgf").write_text("(;GM[1]FF[4]SZ[19]AW[dd][gb][bf]AB[cd][dc][ee]PL[B])")
    assert golois_main(["solve", "--ladder", "D16", "--json", str(tmp_path / "ladder.sgf"),
                        str(tmp_path / "broken.sgf")]) == 0
    first, second = [_json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert first["result"] == "captured" and first["move"] in ("D15", "E16")
    assert first["sequence"][0] == first["move"] and len(first["sequence"]) > 8
    assert second["result"] == "escaped"
    # the text answer draws the ladder (moves numbered from 1), and --sgf-out writes it
    assert golois_main(["solve", "--ladder", "D16", str(tmp_path / "ladder.sgf"),
                        "--sgf-out", str(tmp_path / "out")]) == 0
    text = capsys.readouterr().out
    assert "captured in a ladder" in text and " 1 " in text and " 9 " in text
    from sgfmill import sgf
    game = sgf.Sgf_game.from_bytes((tmp_path / "out" / "ladder.sgf").read_bytes())
    line = [node.get_move() for node in game.get_main_sequence()[1:]]
    assert [c for c, _ in line[:2]] == ["b", "w"] and len(line) == len(first["sequence"])


def test_cli_stops_quietly_when_its_reader_goes_away(tmp_path):
    """`golois solve ... | head -1`: more output than a pipe holds, and the reader closes after
    one line; the command ends without a traceback (it printed one for BrokenPipeError)."""
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(300):
        (folder / f"l{i:03d}.sgf").write_text("(;GM[1]FF[4]SZ[19]AW[dd]AB[cd][dc][ee]PL[B])")
    proc = subprocess.Popen([sys.executable, "-m", "golois.cli", "solve", "--ladder", "D16",
                             str(folder)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": ROOT})
    assert b"captured" in proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 1 and "Traceback" not in err, err


def test_cli_ladder_bad_input_is_reported_and_the_batch_goes_on(tmp_path, capsys):
    """golois solve --ladder: a missing file, a malformed SGF and a vertex on an empty point or
    off the board each give an error record, not a traceback; the good file is still answered."""
    import json as _json

    from golois.cli import main as golois_main
    good = tmp_path / "ladder.sgf"
    good.write_text("(;GM[1]FF[4]SZ[19]AW[dd]AB[cd][dc][ee]PL[B])")
    (tmp_path / "bad.sgf").write_text("(;GM[1]FF[4]SZ[19]AW[dd")
    inputs = [str(tmp_path / "missing.sgf"), str(tmp_path / "bad.sgf"), str(good)]
    assert golois_main(["solve", "--ladder", "D16", "--json"] + inputs) == 0
    records = [_json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [("error" in r) for r in records] == [True, True, False]
    assert "cannot read" in records[0]["error"] and "malformed" in records[1]["error"]
    assert records[2]["result"] == "captured"
    for vertex, words in (("A1", "ProblemError: no stone"), ("pass", "ProblemError: no stone"),
                          ("Z99", "CoordinateError: vertex 'Z99' is off")):      # as --target's
        assert golois_main(["solve", "--ladder", vertex, str(good)]) == 1   # every file failed
        out = capsys.readouterr().out
        assert "error" in out and words in out


def test_cli_region_adds_no_frame(tmp_path, capsys):
    """golois solve --region V1:V2 without a target: the target is inferred, but no frame is
    set, so the defender keeps the whole rectangle.  Four black stones on the second line
    under five white ones live in A1:J4 (the line runs to the rectangle's edge, where white
    cannot follow); the inferred problem's frame, grown to 3 points from black's stones, walls
    off F1-J4 and black fails to live (the command once set that frame)."""
    from golois.cli import main as golois_main
    path = tmp_path / "second_line.sgf"
    path.write_text("(;GM[1]FF[4]SZ[19]PL[B]AW[ap][bp][cp][dp][ep]AB[aq][bq][cq][dq])")
    golois_main(["solve", str(path), "--json", "--max-nodes", "40000000", "--time-limit", "120",
                 "--network", "none", "--region", "A1:J4"])
    rec = json.loads(capsys.readouterr().out.splitlines()[0])
    assert (rec["goal"], rec["result"]) == ("live", "win")       # 17.7M nodes, 2-5 s


def test_cli_show_frame_draws_the_board_searched(tmp_path, capsys):
    """--show-frame: the inferred problem's frame is the attacker's stones on points the setup
    left empty, outside the region, drawn in lower case under the answer ('-' where no move
    is searched); with --region there is no frame and the region is the rectangle."""
    from golois.cli import main as golois_main
    from tactics.coords import vertex_to_flat
    path = tmp_path / "second_line.sgf"
    path.write_text("(;GM[1]FF[4]SZ[19]PL[B]AW[ap][bp][cp][dp][ep]AB[aq][bq][cq][dq])")
    golois_main(["solve", str(path), "--json", "--time-limit", "1", "--network", "none",
                 "--show-frame"])
    rec = json.loads(capsys.readouterr().out.splitlines()[0])
    assert rec["frame"] and rec["region"] and not set(rec["frame"]) & set(rec["region"])
    setup = {"A4", "B4", "C4", "D4", "E4", "A3", "B3", "C3", "D3"}
    assert not set(rec["frame"]) & setup and setup & set(rec["region"])
    golois_main(["solve", str(path), "--time-limit", "1", "--network", "none", "--show-frame"])
    text = capsys.readouterr().out
    drawn = text.split("searched on:")[1]
    assert "the frame's white stones" in drawn
    cols = drawn.splitlines()[1].split()
    walled = {f"{cols[i]}{line.split()[0]}" for line in drawn.splitlines()[2:]
              if line.split() and line.split()[0].isdigit()
              for i, ch in enumerate(line.split()[1:]) if ch == "o"}
    assert walled and not walled & setup
    golois_main(["solve", str(path), "--json", "--time-limit", "1", "--network", "none",
                 "--show-frame", "--region", "A1:J4"])
    rec = json.loads(capsys.readouterr().out.splitlines()[0])
    assert rec["frame"] == [] and len(rec["region"]) == 36        # 9 columns (no I) x 4 rows
    assert all(vertex_to_flat(v, 19) is not None for v in rec["region"])


def test_cli_a_malformed_answer_move_on_the_main_line_is_no_error(tmp_path, capsys):
    """The setup is solved and the answer moves are never played: an off-board move in the
    first variation (the main line) once rejected the whole problem ("malformed SGF: bad
    property value B[zz]"), though the other order of the variations solved.  --move still
    reads the moves it plays."""
    from golois.cli import main as golois_main
    path = tmp_path / "p.sgf"
    path.write_text("(;GM[1]FF[4]SZ[9]AB[af][bf][cf][df][ef][eg][eh][ei]"
                    "AW[ag][bg][cg][dg][dh][di][ai][bi][ci](;B[zz]C[WRONG])(;B[bh]C[RIGHT]))")
    golois_main(["solve", str(path), "--json", "--time-limit", "2", "--network", "none"])
    rec = json.loads(capsys.readouterr().out.splitlines()[0])
    assert (rec["to_play"], rec["move"], rec["result"], rec["right"]) == ("black", "B2", "win", True)
    golois_main(["solve", str(path), "--json", "--time-limit", "2", "--network", "none", "--move", "end"])
    assert "bad property value B[zz]" in json.loads(capsys.readouterr().out.splitlines()[0])["error"]


def test_sgf_out_keeps_a_setup_below_the_root(tmp_path, capsys):
    """A problem whose setup stones are in a node below the root (load_problem takes the setup
    of every node before the first move): --sgf-out once deleted that node with the root's
    children and wrote an empty board; now the setup goes into the written root.  The book's
    RIGHT answer below the setup node counts too."""
    from sgfmill import sgf

    from golois.cli import main as golois_main
    from golois.tsumego.problem_sgf import right_answers
    path = tmp_path / "p.sgf"
    path.write_text("(;GM[1]FF[4]SZ[19]PL[B];C[black to kill]AB[ap][bp][cp][dp][ep][eq][er][es]"
                    "AW[aq][bq][cq][dq][dr][ds][as][bs][cs];B[br]C[RIGHT])")
    assert right_answers(path) == ["B2"]
    golois_main(["solve", str(path), "--json", "--time-limit", "2", "--network", "none",
                 "--sgf-out", str(tmp_path / "out")])
    rec = json.loads(capsys.readouterr().out.splitlines()[0])
    assert (rec["move"], rec["result"], rec["right"]) == ("B2", "win", True)
    game = sgf.Sgf_game.from_bytes((tmp_path / "out" / "p.sgf").read_bytes())
    root = game.get_root()
    assert len(root.get("AB")) == 8 and len(root.get("AW")) == 9 and root.get("C") == "black to kill"
    assert [c.get_move() for c in root] == [("b", (1, 1))] and right_answers(rec["sgf"]) == ["B2"]


def test_sgf_out_says_the_player_solved_for(tmp_path, capsys):
    """--to-play white --sgf-out: the written root's PL is white's, as every variation starts
    with white (the file's PL[B] was kept)."""
    from sgfmill import sgf

    from golois.cli import main as golois_main
    path = tmp_path / "p.sgf"
    path.write_text("(;GM[1]FF[4]SZ[9]PL[B]AB[af][bf][cf][df][ef][eg][eh][ei]"
                    "AW[ag][bg][cg][dg][dh][di][ai][bi][ci];B[bh]C[RIGHT])")
    golois_main(["solve", str(path), "--json", "--time-limit", "2", "--network", "none",
                 "--to-play", "white", "--sgf-out", str(tmp_path / "out")])
    rec = json.loads(capsys.readouterr().out.splitlines()[0])
    assert rec["to_play"] == "white"
    root = sgf.Sgf_game.from_bytes((tmp_path / "out" / "p.sgf").read_bytes()).get_root()
    assert root.get("PL") == "w" and {c.get_move()[0] for c in root} == {"w"}


def test_sgf_out_never_overwrites_an_answer_of_the_same_run(tmp_path, capsys):
    """Two inputs with one base name (A/003.sgf, B/003.sgf), or one given twice: --sgf-out once
    wrote both to out/003.sgf, the second over the first; now the later ones get -2, -3 before
    the extension, and the answer says where it went ("sgf", and an "sgf:" line in the text)."""
    from golois.cli import main as golois_main
    kill = ("(;GM[1]FF[4]SZ[9]PL[B]AB[af][bf][cf][df][ef][eg][eh][ei]"
            "AW[ag][bg][cg][dg][dh][di][ai][bi][ci];B[bh]C[RIGHT])")
    paths = [tmp_path / d / "003.sgf" for d in ("A", "B")]
    for path, text in zip(paths, (kill, kill.replace("PL[B]", "PL[W]"))):
        path.parent.mkdir()
        path.write_text(text)
    out = tmp_path / "out"
    inputs = [str(paths[0]), str(paths[1]), str(paths[0])]
    golois_main(["solve", *inputs, "--json", "--time-limit", "2", "--network", "none", "--sgf-out", str(out)])
    recs = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    names = ["003.sgf", "003-2.sgf", "003-3.sgf"]
    assert [r["sgf"] for r in recs] == [str(out / x) for x in names] and sorted(os.listdir(out)) == sorted(names)
    assert [b"PL[W]" in (out / x).read_bytes() for x in names] == [False, True, False]
    golois_main(["solve", *inputs[:2], "--time-limit", "2", "--network", "none", "--sgf-out", str(out)])
    text = capsys.readouterr().out.splitlines()
    assert [x for x in text if x.startswith("sgf: ")] == [f"sgf: {out / x}" for x in names[:2]]


def test_cli_a_region_away_from_the_group_is_an_error(tmp_path, capsys):
    """--region that holds no stone of the group at stake (given or inferred) nor a liberty of
    it once answered meaningless proofs ("win, black kills, K10"); now it is an error for
    that file, and the batch goes on.  A region that holds a liberty only is a problem."""
    from golois.cli import main as golois_main
    path = tmp_path / "corner.sgf"
    path.write_text("(;GM[1]FF[4]SZ[19]PL[B]AB[ap][bp][cp][dp][ep][eq][er][es]"
                    "AW[aq][bq][cq][dq][dr][ds][as][bs][cs];B[br]C[RIGHT])")

    def run(*options):
        golois_main(["solve", str(path), str(path), "--json", "--time-limit", "1", "--network", "none",
                     *options])
        return [json.loads(x) for x in capsys.readouterr().out.splitlines()]

    for options, group in ((["--region", "K10:K10"], "A3"), (["--target", "A3", "--region", "K10:L11"], "A3")):
        recs = run(*options)
        assert len(recs) == 2 and recs[0]["error"] == (
            f"ProblemError: the region {options[-1]} holds no stone of the group at {group} nor a liberty of it")
    assert "error" not in run("--region", "B2:B2")[0]             # (B2, the answer: a liberty)


def test_cli_ladder_writes_an_escape_too(tmp_path, capsys):
    """--ladder --sgf-out once wrote nothing, and said nothing, when the string escapes (no
    sequence): now the problem is written with a root comment that says so."""
    from sgfmill import sgf

    from golois.cli import main as golois_main
    path = tmp_path / "broken.sgf"
    path.write_text("(;GM[1]FF[4]SZ[19]AW[dd][gb][bf]AB[cd][dc][ee]PL[B])")
    out = tmp_path / "out"
    assert golois_main(["solve", "--ladder", "D16", "--json", str(path), "--sgf-out", str(out)]) == 0
    rec = json.loads(capsys.readouterr().out.splitlines()[0])
    assert rec["result"] == "escaped" and rec["sgf"] == str(out / "broken.sgf")
    root = sgf.Sgf_game.from_bytes((out / "broken.sgf").read_bytes()).get_root()
    assert "the string at D16 is escaped in a ladder" in root.get("C") and len(root) == 0
    assert len(root.get("AW")) == 3 and len(root.get("AB")) == 3


def test_cli_ladder_refuses_the_problem_options(tmp_path, capsys):
    """--ladder with --target, --region or --to-play, which it once ignored silently, is a
    usage error (exit 2, before any search)."""
    from golois.cli import main as golois_main
    path = tmp_path / "ladder.sgf"
    path.write_text("(;GM[1]FF[4]SZ[19]AW[dd]AB[cd][dc][ee]PL[B])")
    for extra in (["--target", "D16"], ["--region", "A1:T19"], ["--to-play", "white"]):
        assert golois_main(["solve", "--ladder", "D16", str(path), *extra]) == 2
        captured = capsys.readouterr()
        assert f"--ladder does not take {extra[0]}" in captured.err and captured.out == ""
