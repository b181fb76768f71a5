"""bench/book_move_check.py: the book's move checked in our frame (holds, refuted, walled)."""


from tests.problems import BULKY_FIVE, corner, write_bulky_five_collection

from golois.eval.book_move_check import check, main


def test_the_vital_point_holds_the_others_are_refuted_a_stone_is_walled():
    """A white bulky five in the corner, black to kill: only the vital point b kills."""
    board, marks = corner(BULKY_FIVE, size=19)
    assert check(board, 1, marks["b"], time_limit=10)[0] == "holds"
    for name in "acde":
        assert check(board, 1, marks[name], time_limit=10)[0] == "refuted", name
    assert check(board, 1, marks["b"] + 2, time_limit=10)[0] == "walled"     # a white stone
    assert check(board, 1, None, time_limit=10)[0] == "walled"                 # a pass


def test_main_counts_a_collection(tmp_path, capsys):
    """The table of a folder of SGF problems with RIGHT children (written here)."""
    write_bulky_five_collection(tmp_path / "corner")
    assert main([str(tmp_path), "--time-limit", "10"]) == 0
    row = [line.split() for line in capsys.readouterr().out.splitlines() if line.startswith("corner")][0]
    assert row[1:6] == ["2", "1", "1", "0", "0"]        # problems, holds, refuted, open, walled
