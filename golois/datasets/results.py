"""Game results as value targets: which results count, and what komi means for them.

Start with `parse_result` (an SGF `RE` or a Tygem result to a winner and a kind), then
`ValueConfig` (which games train the value) and `value_targets` (per position, the mover's
target and whether it counts).

The value head predicts whether the player to move wins.  A game's result trains it when:

- it was decided on the board: by resignation (`B+R`, `B+Resign`) or by the score (`W+2.5`);
  wins on time (`B+T`, `B+Time`), by forfeit (`B+F`), by a player leaving (Tygem's `B+Offline`),
  `Void`, `?`, unreadable results and jigo (`0`, `Draw`) do not count: those games still train the
  policy, their positions get no value target;
- it was an even game at the usual komi (`ValueConfig.komi`, 5.5 to 7.5 by default): the networks
  have no komi input, so the value learns the winner under those komis, and play uses 7.5.  KGS's
  games at komi 0.5 (even games without komi) are kept out by default; `ValueConfig(komi=(0, 7.5))`
  takes them in (golois value measures both).

Shards store each game's winner, the kind of its result and its komi (golois.datasets.shards), so
a different `ValueConfig` needs no rebuild.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

BLACK_WON, WHITE_WON, NO_WINNER = 1, -1, 0

# Kinds of result (the `kinds` of shards; index = stored code).
KINDS = ("unknown", "resign", "score", "time", "forfeit", "void", "draw")
COUNTED_KINDS = ("resign", "score")

_WIN = re.compile(r"\s*([BW])\s*\+\s*(.*?)\s*$", re.I)


def parse_result(text: str) -> tuple[int, str]:
    """(winner, kind) of a result string: winner BLACK_WON, WHITE_WON or NO_WINNER; kind one of
    KINDS.  `B+R` -> (1, resign), `W+3.5` -> (-1, score), `B+Time` -> (1, time), `0` -> (0, draw),
    `Void` -> (0, void), anything unreadable -> (0, unknown)."""
    t = (text or "").strip()
    low = t.lower()
    if low in ("0", "draw", "jigo", "d") or low.startswith("jigo"):
        return NO_WINNER, "draw"
    if low.startswith("void"):
        return NO_WINNER, "void"
    m = _WIN.match(t)
    if not m:
        return NO_WINNER, "unknown"
    winner = BLACK_WON if m.group(1).upper() == "B" else WHITE_WON
    how = m.group(2).lower()
    if how in ("r", "resign", "resignation"):
        return winner, "resign"
    if how in ("t", "time"):
        return winner, "time"
    if how in ("f", "forfeit", "offline"):
        return winner, "forfeit"
    try:
        score = float(how)
    except ValueError:
        return winner, "unknown"
    return (winner, "score") if score > 0 else (NO_WINNER, "draw")


def kind_code(kind: str) -> int:
    return KINDS.index(kind)


@dataclass(frozen=True)
class ValueConfig:
    """Which games' results train and measure the value."""
    komi: tuple[float, float] = (5.5, 7.5)          # inclusive range of the komis that count
    kinds: tuple[str, ...] = COUNTED_KINDS

    def counts(self, winners: np.ndarray, kinds: np.ndarray, komi: np.ndarray) -> np.ndarray:
        """Per game: its result counts (bool array)."""
        codes = [kind_code(k) for k in self.kinds]
        lo, hi = self.komi
        return (np.asarray(winners) != NO_WINNER) & np.isin(kinds, codes) & \
            (np.asarray(komi) >= lo - 1e-6) & (np.asarray(komi) <= hi + 1e-6)


def value_targets(winners: np.ndarray, counted: np.ndarray, movers: np.ndarray,
                  black: int) -> tuple[np.ndarray, np.ndarray]:
    """Per position: target +1 when the player to move won, -1 when they lost (float32), and
    whether it counts (bool); `winners`/`counted` are per position (the game's), `movers` the
    colour to move, `black` the BLACK constant."""
    sign = np.where(np.asarray(movers) == black, 1.0, -1.0).astype(np.float32)
    target = (np.asarray(winners, np.float32) * sign).astype(np.float32)
    return np.where(counted, target, 0.0).astype(np.float32), np.asarray(counted, bool)


def summarize_results(shards) -> dict:
    """Per source (a shard's `meta["source"]`, Tygem months together): games by kind of result,
    and per komi the decided games (resign, score) and black's share of them; shards are
    golois.datasets.shards.Shard objects."""
    out: dict = {}
    for s in shards:
        source = s.meta["source"]
        source = "tygem" if s.meta.get("shard", "").startswith("tygem-") else source
        entry = out.setdefault(source, {"games": 0, "kinds": {k: 0 for k in KINDS}, "decided_by_komi": {}})
        entry["games"] += len(s.winners)
        for code, n in zip(*np.unique(s.kinds, return_counts=True)):
            entry["kinds"][KINDS[int(code)]] += int(n)
        decided = np.isin(s.kinds, [kind_code(k) for k in COUNTED_KINDS]) & (s.winners != NO_WINNER)
        for komi in np.unique(s.komi[decided]):
            sel = decided & (s.komi == komi)
            cell = entry["decided_by_komi"].setdefault(f"{float(komi):g}", [0, 0])
            cell[0] += int(sel.sum())
            cell[1] += int((s.winners[sel] == BLACK_WON).sum())
    for entry in out.values():
        entry["decided_by_komi"] = {k: {"games": g, "black_wins": round(b / g, 3)}
                                    for k, (g, b) in sorted(entry["decided_by_komi"].items(),
                                                            key=lambda kv: -kv[1][0])}
    return out
