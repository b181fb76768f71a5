"""Game records from KGS archives, and the filters that decide which games and positions count.

Start with `FilterConfig` (what is kept), then `game_positions` (one SGF to the kept positions of
its game), then `read_members` (archives without unpacking: tar.gz, tar.bz2, zip, folders).

Kept games: 19x19, no handicap (no HA > 0 and no setup stones anywhere), both players at least
`min_rank` dan (professionals count as stronger than 9d; a missing or kyu rank fails), a legal
main line.  Kept positions: the position before each move, except
- passes: a pass is never a target (it still counts as a ply for the last-move planes);
- ko positions: **a ko-banned point exists for the player to move**, i.e. the previous move
  captured exactly one stone with a single stone that is left in atari, so the player to move may
  not retake at once (the paper: "we do not include moves from positions containing a ko").
  Positions later in a ko fight (after a ko threat) have no banned point and are kept.
Every game dropped is counted under one reason (`GameStats.dropped`), never raised.
"""

from __future__ import annotations

import os
import re
import tarfile
import zipfile
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Iterator

import numpy as np

from golois.datasets import tygem
from golois.datasets.results import kind_code, parse_result
from golois.sgf import SgfError, parse_game
from tactics import features as _cf

# Reasons a game is dropped (keys of GameStats.dropped).
MALFORMED, NOT_19, HANDICAP, RANK, ILLEGAL, NO_MOVES, UNREADABLE = (
    "malformed", "not 19x19", "handicap", "rank", "illegal move", "no moves", "unreadable member")


@dataclass(frozen=True)
class FilterConfig:
    """Which games and positions are kept."""
    size: int = 19
    min_rank: int = 6                 # dan; both players
    drop_handicap: bool = True        # HA > 0 or setup stones
    drop_ko: bool = True              # positions where a ko-banned point exists for the mover
    test_years: tuple[int, ...] = (2015,)
    heldout_sources: tuple[str, ...] = ("2008-12",)   # archives kept out of training (validation)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["test_years"] = list(self.test_years)
        d["heldout_sources"] = list(self.heldout_sources)
        return d


@dataclass
class GameStats:
    """Counts of a build: games kept, dropped by reason, positions kept and dropped by reason."""
    games_seen: int = 0
    games_kept: int = 0
    dropped: Counter = field(default_factory=Counter)
    positions: int = 0
    positions_dropped: Counter = field(default_factory=Counter)

    def add(self, other: "GameStats") -> None:
        self.games_seen += other.games_seen
        self.games_kept += other.games_kept
        self.dropped.update(other.dropped)
        self.positions += other.positions
        self.positions_dropped.update(other.positions_dropped)

    def to_dict(self) -> dict:
        return {"games_seen": self.games_seen, "games_kept": self.games_kept,
                "dropped": dict(sorted(self.dropped.items())), "positions": self.positions,
                "positions_dropped": dict(sorted(self.positions_dropped.items()))}

    @classmethod
    def from_dict(cls, d: dict) -> "GameStats":
        return cls(d["games_seen"], d["games_kept"], Counter(d["dropped"]), d["positions"],
                   Counter(d["positions_dropped"]))


def rank_value(rank: str) -> int | None:
    """KGS rank as a number: kyu <= 0, 1d = 1 ... 9d = 9, professionals 10+ (1p = 10).
    None when unreadable (empty, '-', '?')."""
    m = re.match(r"\s*(\d+)\s*([kdp])", rank or "", re.I)
    if not m:
        return None
    n, kind = int(m.group(1)), m.group(2).lower()
    return {"k": 1 - n, "d": n, "p": 9 + n}[kind]


def year_of(name: str, date: str = "") -> int | None:
    """Year of a game: from a `kgs-19-YYYY` folder or a file name starting with YYYY-, else DT."""
    for pattern, text in ((r"kgs-\d+-(\d{4})", name), (r"(?:^|/)(\d{4})-\d\d-\d\d", name),
                          (r"(\d{4})", date)):
        m = re.search(pattern, text)
        if m:
            return int(m.group(1))
    return None


@dataclass
class GamePositions:
    """The kept positions of one game: its moves, and which move numbers are targets."""
    name: str
    year: int | None
    points: np.ndarray            # int16 flat points of all moves, -1 = pass
    colours: np.ndarray           # int8 BLACK/WHITE of all moves
    kept: np.ndarray              # int32 move indices (0-based) whose preceding position is kept
    stones: np.ndarray            # uint8 [len(kept), 9, size*size] stone planes of those positions
    winner: int = 0               # golois.datasets.results: BLACK_WON, WHITE_WON or NO_WINNER
    result_kind: int = 0          # index into results.KINDS
    komi: float = 0.0


def game_positions(data: bytes, name: str, cfg: FilterConfig, stats: GameStats) -> GamePositions | None:
    """Filter one SGF record and replay it; None (counted in stats) when the game is dropped."""
    stats.games_seen += 1
    try:
        game = parse_game(data, name)
    except SgfError:
        stats.dropped[MALFORMED] += 1
        return None
    except Exception:                       # sgfmill or decoding surprises: never fatal
        stats.dropped[MALFORMED] += 1
        return None
    if game.size != cfg.size:
        stats.dropped[NOT_19] += 1
        return None
    if game.has_setup or (cfg.drop_handicap and game.handicap):   # setup stones: never replayed
        stats.dropped[HANDICAP] += 1
        return None
    ranks = [rank_value(game.black_rank), rank_value(game.white_rank)]
    if cfg.min_rank and any(r is None or r < cfg.min_rank for r in ranks):
        stats.dropped[RANK] += 1
        return None
    moves = game.moves
    if not moves:
        stats.dropped[NO_MOVES] += 1
        return None
    points = np.array([-1 if e.point is None else e.point for e in moves], dtype=np.int32)
    colours = np.array([e.colour for e in moves], dtype=np.int8)
    stones = np.empty((len(moves), _cf.N_STONE_PLANES, cfg.size * cfg.size), dtype=np.uint8)
    flags = np.empty(len(moves), dtype=np.uint8)
    played = _cf.game_stone_planes(cfg.size, points, colours, stones, flags)
    if played < len(moves):
        stats.dropped[ILLEGAL] += 1
        return None
    passes = (flags & _cf.FLAG_PASS) != 0
    ko = ((flags & _cf.FLAG_KO) != 0) & ~passes if cfg.drop_ko else np.zeros_like(passes)
    kept = np.flatnonzero(~passes & ~ko).astype(np.int32)
    stats.games_kept += 1
    stats.positions += len(kept)
    stats.positions_dropped["pass"] += int(passes.sum())
    stats.positions_dropped["ko"] += int(ko.sum())
    winner, kind = parse_result(game.result)
    return GamePositions(name, year_of(name, game.date), points.astype(np.int16), colours, kept,
                         stones[kept], winner, kind_code(kind), float(game.komi))


# --- archives ------------------------------------------------------------------------------------

ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar", ".zip")


def is_archive(path: str) -> bool:
    return str(path).endswith(ARCHIVE_SUFFIXES)


def find_sources(root: str) -> list[str]:
    """Archives under a folder (sorted), the archive itself, or a plain folder of SGF files; a
    Tygem folder gives its monthly archives (golois.datasets.tygem)."""
    if os.path.isfile(root):
        return [root]
    if tygem.is_tygem_folder(root):
        return tygem.month_archives(root)
    archives = sorted(os.path.join(root, f) for f in os.listdir(root) if is_archive(f))
    return archives or [root]


def list_members(path: str) -> list[str]:
    """Sorted names of the .sgf members of an archive or folder, or of the games of a Tygem month
    (not read)."""
    if tygem.is_tygem(path):
        try:
            return tygem.game_names(path)
        except (zipfile.BadZipFile, OSError, EOFError, zlib_error()):
            return []
    if os.path.isdir(path):
        out = []
        for dirpath, _, files in os.walk(path):
            out += [os.path.relpath(os.path.join(dirpath, f), path) for f in files if f.lower().endswith(".sgf")]
        return sorted(out)
    if path.endswith(".zip"):
        with zipfile.ZipFile(path) as z:
            return sorted(n for n in z.namelist() if n.lower().endswith(".sgf"))
    names = []
    try:
        with tarfile.open(path, "r:*") as t:
            for m in t:
                if m.isfile() and m.name.lower().endswith(".sgf"):
                    names.append(m.name)
    except (tarfile.TarError, EOFError, OSError, zlib_error()):
        pass                                    # a truncated archive: what was listed counts
    return sorted(names)


def zlib_error():
    import zlib
    return zlib.error


def read_members(path: str, wanted: set[str] | None = None,
                 stats: GameStats | None = None) -> Iterator[tuple[str, bytes]]:
    """Yield (member name, bytes) of .sgf members (only those in `wanted` if given), streaming
    through the archive without unpacking it.  A corrupt archive ends the iteration, counted as
    UNREADABLE in stats; it never raises."""
    def want(name):
        return name.lower().endswith(".sgf") and (wanted is None or name in wanted)

    try:
        if tygem.is_tygem(path):
            yield from tygem.read_games(path, wanted)
        elif os.path.isdir(path):
            for name in list_members(path):
                if want(name):
                    with open(os.path.join(path, name), "rb") as f:
                        yield name, f.read()
        elif path.endswith(".zip"):
            with zipfile.ZipFile(path) as z:
                for name in sorted(z.namelist()):
                    if want(name):
                        try:
                            yield name, z.read(name)
                        except (zipfile.BadZipFile, OSError, zlib_error()):
                            if stats is not None:
                                stats.games_seen += 1
                                stats.dropped[UNREADABLE] += 1
        else:
            with tarfile.open(path, "r:*") as t:
                for m in t:
                    if m.isfile() and want(m.name):
                        f = t.extractfile(m)
                        yield m.name, f.read() if f is not None else b""
    except (tarfile.TarError, zipfile.BadZipFile, EOFError, OSError, zlib_error()):
        if stats is not None:
            stats.dropped[UNREADABLE] += 1
            stats.games_seen += 1



def kept_boards(source: str, cfg: FilterConfig, stats: GameStats | None = None,
                on_skip=None) -> Iterator[tuple]:
    """(board, target flat, move number N) for every kept position of the games under `source`
    (an archive, a folder of archives or of SGF files), in order: the board before move N,
    reused between steps (copy it to keep it).  A game that fails to replay is skipped with
    what it played so far, counted, and passed to `on_skip(error)` when given."""
    stats = stats if stats is not None else GameStats()
    for path in find_sources(source):
        for name, raw in read_members(path, None, stats):
            kept = game_positions(raw, name, cfg, stats)
            if kept is None:
                continue
            wanted = {int(k) + 1 for k in kept.kept}
            try:
                for board, number, event in parse_game(raw, name).replay():
                    if number in wanted:
                        yield board, event.point, number
            except SgfError as e:
                stats.dropped["replay error"] += 1
                if on_skip is not None:
                    on_skip(e)
