"""Shared fixtures: a GNU Go GTP process (skipped only when GNU Go is missing outside CI), and a
Tygem folder of one month with its index (golois.datasets.tygem)."""

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


@pytest.fixture
def tygem_folder(tmp_path):
    folder = tmp_path / "tygem"
    folder.mkdir()
    with zipfile.ZipFile(folder / "2008-12.zip", "w") as z:
        z.writestr("2008-12", b"\n".join(GAMES) + b"\n")
    raw = ("\n".join(INDEX) + "\n").encode()
    with tarfile.open(folder / "Kifu2008.index.tar.gz", "w:gz") as t:
        info = tarfile.TarInfo("Kifu2008.index")
        info.size = len(raw)
        t.addfile(info, io.BytesIO(raw))
    from golois.datasets import tygem
    tygem.load_index.cache_clear()
    return folder
