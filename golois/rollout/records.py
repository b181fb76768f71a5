"""Game records as flat move arrays for the rollout policy's training: Tygem month archives
(`2008-MM.zip`, one game a line) and KGS archives (SGF; games with setup stones skipped).

`read_records(sources)` gives a `Records`: record g's moves are `points[starts[g]:starts[g+1]]`
(flat 19x19 points, -1 a pass) played by `colours[...]` (1 black, 2 white).  Moves are checked
by the C replay (an illegal move ends its record there), not here.  Start with `read_records`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

import numpy as np

from golois.datasets.sources import find_sources, read_members
from golois.datasets.tygem import TruncatedArchive, is_tygem, read_games

_MOVE = re.compile(rb";\s*([BW])\[([a-s]{2}|tt|)\]")


@dataclass
class Records:
    points: np.ndarray          # int16, every record's moves one after another
    colours: np.ndarray         # int8, 1 black, 2 white
    starts: np.ndarray          # int64 [games + 1]
    names: list                 # the records' names
    skipped: int = 0            # games left out (setup stones, no moves, not 19x19, unreadable)

    def __len__(self) -> int:
        return len(self.names)

    @property
    def moves(self) -> int:
        return int(self.starts[-1])


def moves_of(sgf_moves: bytes) -> tuple[list[int], list[int]] | None:
    """The flat points and colours of a `;B[pd];W[dd]...` move list (None when it has none)."""
    pts, cols = [], []
    for colour, point in _MOVE.findall(sgf_moves):
        cols.append(1 if colour == b"B" else 2)
        if len(point) != 2 or point == b"tt":
            pts.append(-1)
        else:
            pts.append((point[1] - 97) * 19 + point[0] - 97)
    return (pts, cols) if pts else None


def read_records(sources: list[str], limit: int = 0, progress=None) -> Records:
    """Every game of `sources` (Tygem month archives, KGS archives, folders of either), at most
    `limit` (0: all); progress(k) after every game read."""
    pts, cols, starts, names, skipped = [], [], [0], [], 0
    for source in sources:
        archives = find_sources(source) if os.path.isdir(source) else [source]
        for archive in archives:
            for name, moves in _games(archive):
                if moves is None:
                    skipped += 1
                else:
                    pts.extend(moves[0])
                    cols.extend(moves[1])
                    starts.append(len(pts))
                    names.append(name)
                if progress is not None:
                    progress(1)
                if limit and len(names) >= limit:
                    break
            if limit and len(names) >= limit:
                break
    return Records(np.array(pts, np.int16), np.array(cols, np.int8), np.array(starts, np.int64), names, skipped)


def _games(archive: str):
    """(name, (points, colours) or None) of each game of one archive."""
    if is_tygem(archive):
        try:
            for name, sgf in read_games(archive):
                _, _, body = sgf.partition(b"]DT[")
                yield name, moves_of(body)
        except TruncatedArchive:
            return
        return
    from golois.sgf import parse_game
    for name, data in read_members(archive, None):
        try:
            game = parse_game(data, name)
        except Exception:                 # a malformed SGF: counted as skipped
            yield name, None
            continue
        if game.size != 19 or game.has_setup or game.handicap:
            yield name, None
            continue
        ev = game.moves
        yield name, ([-1 if e.point is None else int(e.point) for e in ev], [int(e.colour) for e in ev]) if ev else None
