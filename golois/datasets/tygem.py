"""Tygem game records (`../shared/data/tygem/`): monthly archives of one game a line, and an index
with the results, read as SGF so that every filter and the build treat them like KGS games.

Start with `is_tygem` (is this archive a Tygem month?), then `game_names` and `read_games` (the
games of a month as (name, SGF bytes)), then `to_sgf` (one line and its index entry to SGF).

Format (the data folder's README): `YYYY-MM.zip` holds one member `YYYY-MM` of lines
`GAMEID<TAB>;B[pd];W[dd];...`; `Kifu*.index.tar.gz` holds one line a game, tab-separated: id,
date (`C2008.01.01 00:17`), black's nickname and account, a number, white's nickname and account, a
number, the result (`B+Resign`, `W+2.5`, `B+Time`, `W+Offline`), the number of moves, the time
control.  The games are even games between 9d players at the server's komi of 6.5 (not recorded:
the README's reasoning), so each SGF says `KM[6.5]` and `BR[9d]WR[9d]`.

A game is named `YYYY-MM/GAMEID`.  A line without a tab or an id gets an empty record (counted as
malformed by golois.datasets.sources.game_positions); a game missing from the index keeps an
empty `RE` (its positions train the policy, not the value); a truncated archive gives the games
before the damage and then raises `TruncatedArchive` (counted as an unreadable member).
"""

from __future__ import annotations

import functools
import glob
import os
import re
import tarfile
import zipfile
import zlib
from typing import Iterator

KOMI = 6.5
RANK = "9d"
_MONTH = re.compile(r"^(\d{4})-(\d\d)\.zip$")


def index_path(folder: str) -> str | None:
    """The index archive of a Tygem folder, or None."""
    found = sorted(glob.glob(os.path.join(folder, "*.index.tar.gz")) + glob.glob(os.path.join(folder, "*.index")))
    return found[0] if found else None


def is_tygem(path: str) -> bool:
    """A `YYYY-MM.zip` beside a Tygem index."""
    return bool(_MONTH.match(os.path.basename(path))) and index_path(os.path.dirname(os.path.abspath(path))) is not None


def is_tygem_folder(path: str) -> bool:
    return os.path.isdir(path) and index_path(path) is not None and \
        any(_MONTH.match(f) for f in os.listdir(path))


def month_archives(folder: str) -> list[str]:
    """The monthly archives of a Tygem folder, sorted."""
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if _MONTH.match(f))


@functools.lru_cache(maxsize=4)
def load_index(path: str) -> dict[str, tuple[str, str]]:
    """game id -> (date YYYY-MM-DD, result) from an index file (`.index` or `.index.tar.gz`);
    unreadable lines are skipped."""
    if path.endswith(".tar.gz"):
        with tarfile.open(path, "r:gz") as t:
            member = next(m for m in t if m.isfile())
            raw = t.extractfile(member).read()
    else:
        with open(path, "rb") as f:
            raw = f.read()
    out = {}
    for line in raw.decode("utf-8", "replace").splitlines():
        cols = line.split("\t")
        if len(cols) < 9 or not cols[0].strip():
            continue
        m = re.match(r"C?(\d{4})\.(\d\d)\.(\d\d)", cols[1].strip())
        date = f"{m.group(1)}-{m.group(2)}-{m.group(3)}" if m else ""
        out[cols[0].strip()] = (date, cols[8].strip())
    return out


def _index_of(archive: str) -> dict[str, tuple[str, str]]:
    path = index_path(os.path.dirname(os.path.abspath(archive)))
    return load_index(path) if path else {}


def _month(archive: str) -> str:
    return os.path.basename(archive)[:-len(".zip")]


class TruncatedArchive(EOFError):
    """A monthly archive ends early: the games before the damage were read."""


def _lines(archive: str) -> Iterator[tuple[int, bytes]]:
    """(line number, line) of a monthly archive; a truncated archive (no central directory)
    gives the complete lines of its first member's readable part, then raises TruncatedArchive."""
    try:
        z = zipfile.ZipFile(archive)
    except zipfile.BadZipFile:
        yield from _salvage(archive)
        raise TruncatedArchive(f"{archive} is truncated: read up to the damage")
    with z:
        for member in sorted(z.namelist()):
            with z.open(member) as f:
                for n, line in enumerate(f):
                    line = line.rstrip(b"\r\n")
                    if line.strip():
                        yield n, line


def _salvage(archive: str) -> Iterator[tuple[int, bytes]]:
    """The complete lines of the first member of a zip whose end is missing, read from its local
    header and inflated until the data stops."""
    with open(archive, "rb") as f:
        raw = f.read()
    if raw[:4] != b"PK\x03\x04" or len(raw) < 30:
        return
    method = int.from_bytes(raw[8:10], "little")
    start = 30 + int.from_bytes(raw[26:28], "little") + int.from_bytes(raw[28:30], "little")
    data = b""
    if method == 0:
        data = raw[start:]
    elif method == 8:
        inflate = zlib.decompressobj(-15)
        for i in range(start, len(raw), 1 << 16):
            try:
                data += inflate.decompress(raw[i:i + (1 << 16)])
            except zlib.error:
                break
    lines = data.split(b"\n")[:-1]             # the last piece may be cut short
    for n, line in enumerate(lines):
        line = line.rstrip(b"\r")
        if line.strip():
            yield n, line


def _name_of(month: str, n: int, line: bytes) -> str:
    head, tab, _ = line.partition(b"\t")
    gid = head.strip().decode("ascii", "replace") if tab else ""
    return f"{month}/{gid}" if gid and gid.isalnum() else f"{month}/line{n + 1}"


def game_names(archive: str) -> list[str]:
    """Names of the games of a monthly archive (sorted; of a truncated one, those before the damage)."""
    month, names = _month(archive), []
    try:
        for n, line in _lines(archive):
            names.append(_name_of(month, n, line))
    except TruncatedArchive:
        pass
    return sorted(names)


def to_sgf(line: bytes, entry: tuple[str, str] | None, month: str = "") -> bytes:
    """One archive line (`ID<TAB>;B[..];W[..]...`) and its index entry (date, result) as SGF
    (without an entry: the archive's month as the date, no result); b"" when the line has no
    moves part."""
    _, tab, moves = line.partition(b"\t")
    moves = moves.strip()
    if not tab or not moves.startswith(b";"):
        return b""
    date, result = entry if entry else (month, "")
    head = f"(;GM[1]FF[4]SZ[19]KM[{KOMI}]BR[{RANK}]WR[{RANK}]RE[{result}]DT[{date}]".encode()
    return head + moves + b")"


def read_games(archive: str, wanted: set[str] | None = None) -> Iterator[tuple[str, bytes]]:
    """(name, SGF bytes) of the games of a monthly archive (only `wanted` names if given); a
    truncated archive raises TruncatedArchive after the games before the damage."""
    month, index = _month(archive), _index_of(archive)
    for n, line in _lines(archive):
        name = _name_of(month, n, line)
        if wanted is None or name in wanted:
            yield name, to_sgf(line, index.get(name.partition("/")[2]), month)
