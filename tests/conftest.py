"""Shared fixtures: a GNU Go GTP process (skipped only when GNU Go is missing outside CI), a
Tygem folder of one month with its index (golois.datasets.tygem), and shards of a finished game
(`walls_month`: two walls, a dead stone; its diagram in tests/test_ownership.py)."""

import io
import os
import tarfile
import zipfile

import pytest

from golois.gtp.client import GtpClient, find_gnugo


def _gnugo_path():
    path = find_gnugo()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("GNU Go is required in CI (.ci/run installs it)")
        pytest.skip("GNU Go 3.8 not installed")
    return path


@pytest.fixture(scope="session")
def gnugo_path():
    """Path of the gnugo binary."""
    return _gnugo_path()


@pytest.fixture
def gnugo(gnugo_path):
    """A fresh `gnugo --mode gtp` process."""
    with GtpClient([gnugo_path, "--mode", "gtp", "--level", "0"]) as engine:
        yield engine


# --- a Tygem folder: one month, an index -----------------------------------------------------

GAMES = [
    b"1001\t;B[pd];W[dp];B[pq];W[dd];B[fq]",             # B+Resign
    b"1002\t;B[pd];W[dp];B[qp];W[dd]",                   # W+2.5
    b"1003\t;B[pd];W[pd]",                               # illegal: a move on an occupied point
    b"a line without a tab",                             # malformed
    b"1005\t;B[pd];W[dp];B[cc]",                         # not in the index: result unknown
    b"1006\t;B[dd];W[pp];B[dq]",                         # B+Time
]
INDEX = [
    "1001\tC2008.12.01 00:10\tnick\tacct\t0\tnick2\tacct2\t1\tB+Resign\t5\t30/3 0m",
    "1002\tC2008.12.01 00:20\tnick\tacct\t0\tnick2\tacct2\t1\tW+2.5\t4\t30/3 0m",
    "1003\tC2008.12.02 00:20\tnick\tacct\t0\tnick2\tacct2\t1\tB+Resign\t2\t30/3 0m",
    "1006\tC2008.12.03 00:20\tnick\tacct\t0\tnick2\tacct2\t1\tB+Time\t3\t30/3 0m",
    "garbage",
]


def write_tygem_month(folder, month: str, lines: list[bytes], index: list[str]):
    """A Tygem folder: the monthly archive of `lines` and the index of `index`'s lines."""
    folder.mkdir()
    with zipfile.ZipFile(folder / f"{month}.zip", "w") as z:
        z.writestr(month, b"\n".join(lines) + b"\n")
    raw = ("\n".join(index) + "\n").encode()
    with tarfile.open(folder / "Kifu2008.index.tar.gz", "w:gz") as t:
        info = tarfile.TarInfo("Kifu2008.index")
        info.size = len(raw)
        t.addfile(info, io.BytesIO(raw))
    from golois.datasets import tygem
    tygem.load_index.cache_clear()
    return folder


@pytest.fixture
def tygem_folder(tmp_path):
    return write_tygem_month(tmp_path / "tygem", "2008-12", GAMES, INDEX)


# --- a finished game, counted: shards of one Tygem month -----------------------------------------

LETTERS = "abcdefghijklmnopqrs"
DEAD = 4 * 19 + 4


def walls_game() -> list[int]:
    """Flat moves, black first (-1: a pass): both areas filled but for one-point eyes, a
    three-point eye in black's area around white's dead stone, the shorter list padded with
    passes."""
    def eyes(r, c):
        return r % 2 == 0 and c % 3 == 1 and r not in (9, 10)
    black = [r * 19 + c for r in range(10) for c in range(19)
             if not eyes(r, c) and not (r == 4 and 3 <= c <= 5)]
    white = [r * 19 + c for r in range(10, 19) for c in range(19) if not eyes(r, c)] + [DEAD]
    n = max(len(black), len(white))
    black, white = black + [-1] * (n - len(black)), white + [-1] * (n - len(white))
    return [m for pair in zip(black, white) for m in pair]


def tygem_line(gid: str, moves: list[int]) -> bytes:
    colours = "BW" * len(moves)
    return (gid + "\t" + "".join(f";{c}[{LETTERS[m % 19] + LETTERS[m // 19] if m >= 0 else ''}]"
                                 for c, m in zip(colours, moves))).encode()


@pytest.fixture
def walls_month(tmp_path):
    """A Tygem month: the walls game counted (B+12.5), the same counted the other way (a record
    the rollouts contradict), and resigned."""
    from golois.datasets.shards import BuildConfig, build
    from golois.datasets.sources import FilterConfig
    moves = walls_game()
    games = [tygem_line(gid, moves) for gid in ("2001", "2002", "2003")]
    index = [f"{gid}\tC2008.11.01 00:10\tn\ta\t0\tn2\ta2\t1\t{result}\t40\t30/3 0m"
             for gid, result in (("2001", "B+12.5"), ("2002", "W+3.5"), ("2003", "B+Resign"))]
    folder = write_tygem_month(tmp_path / "tygem", "2008-11", games, index)
    out = tmp_path / "out"
    build(BuildConfig(sources=(str(folder),), out=str(out), feature_set="paper11", workers=1, progress=False,
                      filters=FilterConfig(heldout_sources=())))
    return out
