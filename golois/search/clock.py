"""Time management: the seconds the search may spend on one move under GTP's clock.

`think_time(time, colour, empty_points, cfg)` reads the engine's `TimeState` (from
`time_settings`, `kgs-time_settings` and `time_left`) and answers seconds, or None where no
clock is set (the search's own visits or seconds then apply):

- main time (`time_left` with 0 stones): what is left, less the safety margin, spread over the
  moves still to come (`moves_left`: a share of the empty points, at least `min_moves`), plus
  most of one byo-yomi move where byo-yomi follows; at most `max_share` of what is left;
- Canadian byo-yomi (N stones in T seconds): T, less the margin, over the stones left;
- Japanese byo-yomi (`kgs-time_settings byoyomi`: periods of one move): one period, less the
  margin (a move within its period does not use one up).

The search may go on to `extend` times this budget while its two best moves are close, in main
time only (golois.search.player), never past what the clock allows.  `spend` keeps the clock between the
controller's `time_left` reports (some controllers send none).  Start with `think_time`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ClockConfig:
    """Time management; play.py's --search options read their defaults here."""
    safety: float = 1.0           # seconds kept back per move for the GTP round trip and the GUI
    safety_share: float = 0.1     # ... and this share of a byo-yomi move
    min_moves: int = 30           # main time is spread over at least this many more moves
    empty_share: float = 0.4      # ... or this share of the empty points (spends more early)
    max_share: float = 0.2        # never more than this share of the main time left on one move
    byo_share: float = 0.8        # of one byo-yomi move, spent on top of the main-time share
    extend: float = 2.0           # a close decision may take this many times the budget
    min_seconds: float = 0.05     # the least a move is given


def think_time(time, colour: int, empty_points: int, cfg: ClockConfig | None = None) -> float | None:
    """Seconds for colour's next move (None: no clock).  `time`: the engine's TimeState."""
    cfg = cfg or ClockConfig()
    if time.main <= 0 and time.byo_yomi <= 0:
        return None
    if time.byo_yomi > 0 and time.byo_stones == 0:
        return None                                   # GTP: byo-yomi with no stones means no limit
    left, stones = remaining(time, colour)
    byo_move = _byo_move(time, cfg)
    if stones == 0:
        moves = max(cfg.min_moves, cfg.empty_share * empty_points)
        spend = max(left - cfg.safety, 0.0) / moves + cfg.byo_share * byo_move
        cap = max(left - cfg.safety, 0.0) * cfg.max_share + byo_move
        return max(cfg.min_seconds, min(spend, cap))
    if time.periods:                                   # Japanese: one period a move
        per = min(left, time.byo_yomi) if left > 0 else time.byo_yomi
        return max(cfg.min_seconds, per * (1 - cfg.safety_share) - cfg.safety)
    per = left / max(stones, 1)
    return max(cfg.min_seconds, per * (1 - cfg.safety_share) - cfg.safety)


def _byo_move(time, cfg: ClockConfig) -> float:
    """The seconds of one byo-yomi move, margins taken off (0 without byo-yomi)."""
    if time.byo_yomi <= 0 or time.byo_stones <= 0:
        return 0.0
    per = time.byo_yomi if time.periods else time.byo_yomi / time.byo_stones
    return max(per * (1 - cfg.safety_share) - cfg.safety, 0.0)


def remaining(time, colour: int) -> tuple[float, int]:
    """colour's (seconds, stones) as `time_left` gives them: the last report or `spend`'s
    estimate; before either, the settings' main time (stones 0) or first byo-yomi period."""
    return time.left.get(colour, (time.main, 0) if time.main > 0 else (time.byo_yomi, time.byo_stones))


def spend(time, colour: int, seconds: float) -> bool:
    """Take `seconds` (one move of colour) off the TimeState, as the clock would: main time
    first, then byo-yomi (a new period when its stones are played, or for Japanese byo-yomi
    after each move).  False when the flag falls: the move overran the main time with no
    byo-yomi after it, or a byo-yomi period.  A later `time_left` from the controller replaces
    the estimate (the engine keeps its clock between reports; `golois match` referees with it)."""
    if time.main <= 0 and time.byo_yomi <= 0:
        return True
    left, stones = remaining(time, colour)
    if stones == 0:                                   # main time
        left -= seconds
        if left >= 0 or time.byo_yomi <= 0 or time.byo_stones <= 0:
            time.left[colour] = (max(left, 0.0), 0)
            return left >= 0
        seconds, left, stones = -left, time.byo_yomi, time.byo_stones   # into byo-yomi
    left -= seconds
    if time.periods:                                  # Japanese: the period starts again
        time.left[colour] = (time.byo_yomi, stones)
        return left >= 0
    stones -= 1
    time.left[colour] = (time.byo_yomi, time.byo_stones) if stones <= 0 else (max(left, 0.0), stones)
    return left >= 0
