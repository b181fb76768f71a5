"""The feature registry: every input plane of the network, named, counted and versioned, in one
place.  Start with `FEATURES` (the plane groups and what each plane means), then `FEATURE_SETS`,
then `encode` (what the player calls at play time); `value_input_planes` is what the value head
reads besides them (the colour to move and the komi).

A *feature* is a named group of planes with a declared count and a kind:

- ``stone``: binary planes of the stones (computed in C by `tactics.features`), stored bit-packed
  in shards;
- ``tactical``: binary planes from `tactics.ladder.ladder_facts` (imported lazily), stored
  bit-packed in shards;
- ``life``: binary planes of life and death from `tactics.features.life_planes` (the capture
  search on strings of few liberties under a node budget, Benson's unconditional life), stored
  bit-packed in shards;
- ``history``: the paper's two decaying last-move planes (real values), stored as the game's move
  list and computed when loading.

A *feature set* (``FeatureSet(name, version, [(feature, planes), ...])``, minigo's style) is an
ordered list of features; its ``{"name", "version", "planes"}`` dict is written into every shard
and every model, and `check_same` refuses data or models of another feature set.  No other
module uses bare plane indices: ask ``feature_set.slice(name)``.

Planes are always from the point of view of the player to move ("friend").  `encode` returns
float32 [C, size, size]: binary planes are 0.0/1.0, last-move planes carry exp(-0.1 k).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

import numpy as np

from tactics import features as _cf

HISTORY = 64          # plies the last-move planes look back (exp(-6.4) < 0.002)


@dataclass(frozen=True)
class Feature:
    """A named group of planes: how many, of which kind, and what they mean."""
    name: str
    planes: int
    kind: str                         # "stone", "tactical", "life" or "history"
    doc: str
    stone_rows: tuple[str, ...] = ()  # for kind "stone": names in tactics.features.STONE_PLANES
    ladder_keys: tuple[str, ...] = () # for kind "tactical": keys of ladder_facts(board)
    life_rows: tuple[str, ...] = ()   # for kind "life": names in tactics.features.LIFE_PLANES

    @property
    def packed(self) -> bool:
        """Stored bit-packed in shards (binary planes), as opposed to recomputed from moves."""
        return self.kind in ("stone", "tactical", "life")


FEATURES: dict[str, Feature] = {f.name: f for f in [
    Feature("stones", 3, "stone", "empty points; stones of the player to move; stones of the opponent",
            stone_rows=("empty", "friend", "enemy")),
    Feature("friend_liberties", 3, "stone",
            "friend strings with exactly 1, exactly 2, and 3 or more liberties",
            stone_rows=("friend_libs1", "friend_libs2", "friend_libs3")),
    Feature("enemy_liberties", 3, "stone",
            "enemy strings with exactly 1, exactly 2, and 3 or more liberties",
            stone_rows=("enemy_libs1", "enemy_libs2", "enemy_libs3")),
    Feature("last_moves", 2, "history",
            "the move k plies ago gets exp(-0.1 k) at its point (k = 1: the last move); plane 0 holds "
            "the opponent's moves (k odd in alternating play), plane 1 the player to move's; "
            f"{HISTORY} plies back, most recent value kept per point and plane"),
    Feature("ladder_captures", 1, "tactical",
            "empty points where a move of the player to move captures an enemy string in a ladder",
            ladder_keys=("captures",)),
    Feature("ladder_saves", 1, "tactical",
            "empty points where a move of the player to move saves a friend string from a ladder",
            ladder_keys=("saves",)),
    Feature("ladder_pushes", 1, "tactical",
            "losing ladder extensions: moves extending a friend string that stays captured in a ladder",
            ladder_keys=("pushes",)),
    Feature("ladder_capturable", 1, "tactical",
            "stones (either colour) of strings capturable in a ladder by their opponent",
            ladder_keys=("capturable",)),
    # The life planes (see LIFE_LIMITS for the budget; costs per position on KGS 2015 positions,
    # one core, from bench/features_speed.py and docs/results.md "Life and death in the input
    # planes": the four capture planes about 0.4 ms, the two Benson planes 25 us).
    # The capture search generalises the ladder planes to nets, snapbacks, geta and short
    # semeai of strings of up to three liberties: about 3.5 friend and 3 enemy stones a
    # position are marked, 1.5 of each lost whoever moves.  Benson is nearly free and marks
    # settled groups late in the game.  The df-pn status of groups at
    # stake was measured and left out: 33 ms a position at a budget of 200-1000 nodes (1.7
    # groups at stake a position, two searches each, most answers unfinished), 60 times the
    # 0.5 ms a position that a dataset build of 2,000 positions a second per core allows.
    Feature("capture_friend", 2, "life",
            "friend stones of strings the opponent captures moving first (capture search); of "
            "those, the ones the player to move cannot save either",
            life_rows=("friend_threatened", "friend_lost")),
    Feature("capture_enemy", 2, "life",
            "enemy stones of strings the player to move captures moving first; of those, the "
            "ones the opponent cannot save either",
            life_rows=("enemy_capturable", "enemy_lost")),
    Feature("unconditional", 2, "life",
            "Benson's unconditionally alive stones and their small enclosed regions: the player "
            "to move's, then the opponent's",
            life_rows=("friend_unconditional", "enemy_unconditional")),
]}

# The capture search's limits for the life planes: strings of at most `max_libs` liberties,
# `max_nodes` moves per query (a node budget, never a clock: the same position gives the same
# planes on any machine).  Changing them changes the planes: bump the feature set's version.
LIFE_LIMITS = {"max_libs": 3, "max_nodes": 100}


class FeatureSetMismatch(ValueError):
    """Data or a model was made with another feature set than the one asked for (the one error
    type for both: golois.nn.model raises it too, with what="model")."""

    def __init__(self, found: Mapping | None, expected: Mapping, where: str = "", what: str = "data"):
        self.found, self.expected = dict(found or {}), dict(expected)
        at = f" in {where}" if where else ""
        if what == "model":
            super().__init__(f"feature set mismatch{at}: the model was trained with {self.found}, but "
                             f"{self.expected} was asked for")
            return
        super().__init__(f"feature set mismatch{at}: the data was built with {self.found}, but "
                         f"{self.expected} was asked for; rebuild the shards with "
                         f"`golois dataset build --features {self.expected.get('name')}` or open "
                         f"them with feature set {self.found.get('name')!r}")


@dataclass(frozen=True)
class FeatureSet:
    """An ordered list of (feature name, declared plane count), with a name and a version."""
    name: str
    version: int
    features: tuple[tuple[str, int], ...]
    _layout: dict = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        layout, start = {}, 0
        for fname, count in self.features:
            if fname not in FEATURES:
                raise ValueError(f"feature set {self.name}: unknown feature {fname!r}")
            if FEATURES[fname].planes != count:
                raise ValueError(f"feature set {self.name}: {fname} has {FEATURES[fname].planes} "
                                 f"planes, not {count}")
            layout[fname] = slice(start, start + count)
            start += count
        object.__setattr__(self, "features", tuple((f, c) for f, c in self.features))
        object.__setattr__(self, "_layout", layout)

    @property
    def planes(self) -> int:
        """Total number of planes."""
        return sum(c for _, c in self.features)

    def slice(self, feature: str) -> slice:
        """The planes of one feature within an encoded position."""
        return self._layout[feature]

    def as_dict(self) -> dict:
        """``{"name", "version", "planes"}``: what shards and models store."""
        return {"name": self.name, "version": self.version, "planes": self.planes}

    @property
    def packed_features(self) -> list[Feature]:
        """Features stored bit-packed, in order."""
        return [FEATURES[f] for f, _ in self.features if FEATURES[f].packed]

    @property
    def packed_planes(self) -> int:
        """Planes stored bit-packed per position."""
        return sum(f.planes for f in self.packed_features)

    @property
    def needs_ladder(self) -> bool:
        """Whether computing this set needs `tactics.ladder`."""
        return any(FEATURES[f].kind == "tactical" for f, _ in self.features)

    def planes_of(self, kind: str) -> int:
        """Planes of the features of one kind."""
        return sum(FEATURES[f].planes for f, _ in self.features if FEATURES[f].kind == kind)

    def describe(self) -> str:
        """One line per feature: planes and meaning."""
        lines = [f"{self.name} v{self.version}: {self.planes} planes"]
        for f, _ in self.features:
            s = self.slice(f)
            lines.append(f"  {s.start:2d}-{s.stop - 1:2d} {f}: {FEATURES[f].doc}")
        return "\n".join(lines)


_PAPER = (("stones", 3), ("friend_liberties", 3), ("enemy_liberties", 3), ("last_moves", 2))
_TACTICAL = (("ladder_captures", 1), ("ladder_saves", 1), ("ladder_pushes", 1), ("ladder_capturable", 1))

_LIFE = (("capture_friend", 2), ("capture_enemy", 2), ("unconditional", 2))

FEATURE_SETS: dict[str, FeatureSet] = {fs.name: fs for fs in [
    FeatureSet("paper11", 1, _PAPER),
    FeatureSet("golois", 1, _PAPER + _TACTICAL),
    FeatureSet("golois_ld", 1, _PAPER + _TACTICAL + _LIFE),
]}
DEFAULT_FEATURE_SET = "golois"


def get_feature_set(fs) -> FeatureSet:
    """A FeatureSet from itself, its name, or its ``{"name", "version", "planes"}`` dict."""
    if isinstance(fs, FeatureSet):
        return fs
    if isinstance(fs, Mapping):
        found = FEATURE_SETS.get(fs.get("name"))
        if found is None or found.as_dict() != {k: fs.get(k) for k in ("name", "version", "planes")}:
            raise FeatureSetMismatch(fs, found.as_dict() if found else {"name": fs.get("name")},
                                     "this version of golois")
        return found
    if fs not in FEATURE_SETS:
        raise ValueError(f"unknown feature set {fs!r}; known: {', '.join(FEATURE_SETS)}")
    return FEATURE_SETS[fs]


def extends(base, fset) -> bool:
    """Whether fset is base with more features after base's own (the planes of base first, in
    base's order): a network of base can start a network of fset, the new planes' weights at 0."""
    try:
        base, fset = get_feature_set(base), get_feature_set(fset)
    except (ValueError, FeatureSetMismatch):
        return False
    return (len(fset.features) > len(base.features)
            and fset.features[:len(base.features)] == base.features)


def check_same(found: Mapping | None, expected, where: str = "") -> None:
    """Raise FeatureSetMismatch unless name, version and plane count agree."""
    exp = get_feature_set(expected).as_dict()
    if not found or any(found.get(k) != exp[k] for k in exp):
        raise FeatureSetMismatch(found, exp, where)


# --- ladder planes (lazy) ------------------------------------------------------------------------

def ladder_module():
    """`tactics.ladder`, imported on first use; a clear error when it is not built yet."""
    try:
        from tactics import ladder
    except ImportError as e:
        raise ImportError("tactical feature planes need tactics.ladder (ladder_facts); build it "
                          f"with `python setup.py build_ext --inplace` ({e})") from None
    return ladder


def tactical_planes(board, fset: FeatureSet, out: np.ndarray) -> None:
    """Write the tactical features of fset for `board` into out[planes, n, n] (any dtype), in
    feature-set order.  Each plane is the ladder fact thresholded at > 0 (binary)."""
    feats = [FEATURES[f] for f, _ in fset.features if FEATURES[f].kind == "tactical"]
    if not feats:
        return
    facts = ladder_module().ladder_facts(board)
    i = 0
    for f in feats:
        for key in f.ladder_keys:
            out[i] = np.asarray(facts[key]) > 0
            i += 1


def life_rows(fset: FeatureSet) -> list[int]:
    """Rows of the C life block (tactics.features.LIFE_PLANES) that the life features of fset
    take, in order."""
    return [_cf.LIFE_PLANES.index(r) for f in fset.packed_features if f.kind == "life"
            for r in f.life_rows]


def life_planes(board, fset: FeatureSet, out: np.ndarray) -> None:
    """Write the life features of fset for `board` into out[planes, n, n] (any dtype), in
    feature-set order."""
    rows = life_rows(fset)
    if not rows:
        return
    block = np.empty((_cf.N_LIFE_PLANES, board.size, board.size), np.uint8)
    _cf.life_planes(board, block, LIFE_LIMITS["max_libs"], LIFE_LIMITS["max_nodes"])
    out[:] = block[rows]


# --- encode: one position, at play time ----------------------------------------------------------

def history_of(board) -> tuple[np.ndarray, np.ndarray]:
    """The board's moves as (points int16, -1 for a pass; colours int8), oldest first, setup
    records left out."""
    hist = [(c, p) for c, p, setup in board.history if not setup]
    points = np.array([-1 if p is None else p for _, p in hist], dtype=np.int16)
    colours = np.array([c for c, _ in hist], dtype=np.int8)
    return points, colours


def last_moves(points: np.ndarray, colours: np.ndarray, to_move: int, size: int) -> np.ndarray:
    """The two last-move planes float32 [2, size, size] after the moves given (see FEATURES)."""
    out = np.zeros((2, size, size), dtype=np.float32)
    _cf.last_move_planes(np.ascontiguousarray(points, np.int16), np.ascontiguousarray(colours, np.int8),
                         np.zeros(1, np.int64), np.array([len(points)], np.int64),
                         np.array([to_move], np.int8), HISTORY, out)
    return out


def encode(board, feature_set=DEFAULT_FEATURE_SET) -> np.ndarray:
    """float32 [C, size, size]: the planes of `board` for the side to move, in feature-set order.

    The player calls this at play time; the dataset produces exactly the same arrays for the same
    positions (tests/test_datasets.py checks it)."""
    fset = get_feature_set(feature_set)
    n = board.size
    stones = np.empty((_cf.N_STONE_PLANES, n, n), dtype=np.uint8)
    _cf.stone_planes(board, stones)
    out = np.zeros((fset.planes, n, n), dtype=np.float32)
    tactical = None
    if fset.needs_ladder:
        tactical = np.zeros((sum(FEATURES[f].planes for f, _ in fset.features
                                 if FEATURES[f].kind == "tactical"), n, n), dtype=np.float32)
        tactical_planes(board, fset, tactical)
    life = None
    if fset.planes_of("life"):
        life = np.zeros((fset.planes_of("life"), n, n), dtype=np.float32)
        life_planes(board, fset, life)
    t = v = 0
    for fname, count in fset.features:
        f, s = FEATURES[fname], fset.slice(fname)
        if f.kind == "stone":
            out[s] = stones[[STONE_INDEX[r] for r in f.stone_rows]]
        elif f.kind == "history":
            points, colours = history_of(board)
            out[s] = last_moves(points, colours, board.to_move, n)
        elif f.kind == "life":
            out[s] = life[v:v + count]
            v += count
        else:
            out[s] = tactical[t:t + count]
            t += count
    return out


STONE_INDEX = {name: i for i, name in enumerate(_cf.STONE_PLANES)}


def stone_rows(fset: FeatureSet) -> list[int]:
    """Rows of the C stone block that the stone features of fset take, in order."""
    return [STONE_INDEX[r] for f in fset.packed_features if f.kind == "stone" for r in f.stone_rows]


# --- the value head's global inputs -------------------------------------------------------------

VALUE_INPUTS = 2        # the value head's global inputs: the colour to move, the komi
KOMI_SCALE = 20.0       # the komi input is the komi the player to move receives, over this (KataGo's)


def value_input_planes(black_to_move, komi, shape: tuple[int, int] = (19, 19)) -> np.ndarray:
    """float32 [B, VALUE_INPUTS, H, W]: the value head's global inputs as constant planes, put
    after the feature planes: +1 black to move / -1 white, and the komi the player to move
    receives (komi for white, -komi for black) over KOMI_SCALE."""
    black = np.asarray(black_to_move, bool).reshape(-1)
    komi = np.broadcast_to(np.asarray(komi, np.float32), black.shape)
    g = np.stack([np.where(black, 1.0, -1.0), np.where(black, -komi, komi) / KOMI_SCALE], axis=1)
    return np.broadcast_to(g.astype(np.float32)[:, :, None, None], (len(black), VALUE_INPUTS, *shape)).copy()
