"""bench/tsumego_bench.py: a folder of collections or one collection, counted in process."""


import pytest

from tests.problems import write_bulky_five_collection

from golois.eval.tsumego_bench import main


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_one_collection_in_process(tmp_path, capsys, jobs):
    write_bulky_five_collection(tmp_path / "corner")
    argv = [str(tmp_path / "corner"), "--in-process", "--time-limit", "5", "--per-problem",
            "--network", "none", "--jobs", jobs]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    rows = [line.split("\t") for line in out if ".sgf\t" in line]
    assert [row[0].strip() for row in rows] == ["right.sgf", "wrong.sgf"]     # in order
    assert rows[0][1:3] == ["1", "win"] and rows[1][1:3] == ["0", "win"]
    assert [line.split()[1] for line in out if line.startswith("corner")] == ["1/2"]


def test_a_collection_file_counts_each_game(tmp_path, capsys):
    """A file of several games (an SGF collection) is one problem per game, FILE#K, in
    process and through GTP (each game written alone for loadsgf)."""
    from golois.eval.tsumego_bench import _loadable, _problems, problem
    folder = tmp_path / "corner"
    write_bulky_five_collection(folder)
    both = (folder / "right.sgf").read_text() + "\n" + (folder / "wrong.sgf").read_text()
    (folder / "right.sgf").unlink()
    (folder / "wrong.sgf").unlink()
    (folder / "book.sgf").write_text(both)
    book = str(folder / "book.sgf")
    assert _problems(str(folder)) == [f"{book}#1", f"{book}#2"] and _problems(str(folder), 1) == [f"{book}#1"]
    assert problem(f"{book}#1")[1] != problem(f"{book}#2")[1]          # each game's own RIGHT move
    written = _loadable(f"{book}#2", str(tmp_path))
    assert written != book and problem(written) == problem(f"{book}#2")
    assert main([str(folder), "--in-process", "--time-limit", "5", "--per-problem", "--network", "none"]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = [line.split("\t") for line in out if ".sgf#" in line]
    assert [(row[0].strip(), row[1]) for row in rows] == [("book.sgf#1", "1"), ("book.sgf#2", "0")]


@pytest.mark.gnugo
def test_gnugo_answers_the_same_problems_side_by_side(tmp_path, capsys, gnugo_path):
    """In process, GNU Go 3.8 answers the same problems first; each collection's line ends
    with its count and our ratio to it.  A malformed file is an error row on our side, a wrong
    answer on GNU Go's, and both batches go on."""
    write_bulky_five_collection(tmp_path / "corner")
    (tmp_path / "corner" / "broken.sgf").write_text("(;GM[1]SZ[19]AB[dd")
    argv = [str(tmp_path / "corner"), "--in-process", "--time-limit", "5", "--per-problem",
            "--network", "none"]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    rows = [line.split("\t") for line in out if ".sgf\t" in line]
    assert [(row[0].strip(), row[2]) for row in rows] == [("broken.sgf", "error"), ("right.sgf", "win"),
                                                          ("wrong.sgf", "win")]
    line = next(line.split() for line in out if line.startswith("corner"))
    assert line[1] == "1/3" and line[-2:] == ["1/3", "1.00x"]     # GNU Go finds the vital point too
    assert out[-1].split()[1] == "1/3" and out[-1].endswith("GNU Go 1/3, ratio 1.00x")


def test_no_gnugo_leaves_its_columns_out(tmp_path, capsys):
    write_bulky_five_collection(tmp_path / "corner")
    argv = [str(tmp_path / "corner"), "--in-process", "--time-limit", "5", "--network", "none", "--no-gnugo"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "GNU Go" not in out and "ratio" not in out
