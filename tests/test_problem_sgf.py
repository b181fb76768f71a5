"""golois/tsumego/problem_sgf.py: problem names of folders and collections, the setup position and the
book's RIGHT answers, and the --sgf-out file names (the CLI around them: tests/test_tsumego_cli.py)."""

import os

import pytest

from golois.tsumego.problem_sgf import (accuracy_group, collection_folders, load_problem, problem_names, read_problem,
                                right_answers, sgf_out_names)
from golois.sgf import SgfError
from tactics.board import BLACK, WHITE

CORNER = "(;GM[1]FF[4]SZ[19]PL[W]AB[pp][qp][rp]AW[qq][rq]C[white to live];W[sq]C[RIGHT];B[sr])"


def test_a_collection_is_one_problem_per_game(tmp_path):
    (tmp_path / "a.sgf").write_text(CORNER)
    (tmp_path / "b.sgf").write_text(CORNER + CORNER.replace("PL[W]", "PL[B]"))
    (tmp_path / "notes.txt").write_text("not a problem")
    names = list(problem_names([str(tmp_path)]))
    assert names == [str(tmp_path / "a.sgf"), f"{tmp_path / 'b.sgf'}#1", f"{tmp_path / 'b.sgf'}#2"]
    assert list(problem_names([str(tmp_path)], limit=2)) == names[:2]
    assert read_problem(names[2]).startswith(b"(;") and b"PL[B]" in read_problem(names[2])
    assert accuracy_group(names[0]) == str(tmp_path) and accuracy_group(names[1]) == str(tmp_path / "b.sgf")
    board, mover = load_problem(names[2])
    assert mover == BLACK and board.get(15 * 19 + 15) == BLACK       # P4 of the setup


def test_a_folder_of_collections_is_its_sub_folders(tmp_path):
    for name, files in (("b", ("1.sgf",)), ("a", ("1.sgf", "2.sgf")), ("empty", ())):
        (tmp_path / name).mkdir()
        for f in files:
            (tmp_path / name / f).write_text(CORNER)
    (tmp_path / "README.md").write_text("not a collection")
    folders = collection_folders(tmp_path)
    assert folders == [str(tmp_path / d) for d in ("a", "b", "empty")]
    assert [os.path.relpath(f, tmp_path) for f in problem_names(folders)] == ["a/1.sgf", "a/2.sgf", "b/1.sgf"]
    assert collection_folders(tmp_path / "a") == [str(tmp_path / "a")]           # one collection
    assert collection_folders(tmp_path / "a" / "1.sgf") == [str(tmp_path / "a" / "1.sgf")]


def test_the_setup_is_the_problem_and_the_main_line_its_answer(tmp_path):
    path = tmp_path / "p.sgf"
    path.write_text(CORNER)
    board, mover = load_problem(path)
    assert mover == WHITE and board.get(16 * 19 + 18) == 0           # T3, the answer: not played
    assert right_answers(path) == ["T3"] and right_answers(path, BLACK) == []
    board, mover = load_problem(path, move="end")                     # a game's position instead
    assert mover == WHITE and board.get(16 * 19 + 18) == WHITE
    with pytest.raises(SgfError, match="expected 1 to 3 or end"):
        load_problem(path, move=4)


def test_sgf_out_names_never_repeat_in_a_run(tmp_path):
    names = sgf_out_names(["x/p.sgf", "y/p.sgf", "y/P.SGF", "z/b.sgf", "x/p.sgf"])
    assert names == ["p.sgf", "p-2.sgf", "P-3.SGF", "b.sgf", "p-4.sgf"]
