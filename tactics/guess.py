"""The answer of an unfinished search to live: of the first moves the search has not refuted,
the one after which the defender's stones survive best in random playouts inside the region
(tactics.playouts), a policy network's scores added when a prior is given.

tactics.problem asks it for an unknown answer to live, and for a book problem's fail to live
whose move is the pass (`_guessed_move`), and keeps `guess_reserve` seconds of the time limit
for it.  Start reading at `live_guess`; `Scores` asks the prior only when the guess needs it
and says how long that takes, `elapsed` is the problem's clock.
"""

from __future__ import annotations

import time

from tactics.board import Board
from tactics.playouts import survival_rates


GUESS_PLAYOUTS = 600    # region playouts per candidate (live_guess)
PRIOR_WEIGHT = 0.025    # weight of the prior's log-probability against the survival share (0.015-0.03
                        # best; 0.05 3 fewer of 62)
GUESS_RESERVE = 0.03    # share of the time limit kept for the guess when the goal is to live (its
                        # playouts: 0.05-0.25 s) ...
GUESS_SECONDS = 0.25    # ... and at least this many seconds, but at most half the time limit
                        # (guess_reserve)
PRIOR_MAX_SHARE = 0.25  # a prior is not asked when one call of it (its `cost`) would take more than
                        # this share of the time limit (Scores)


def guess_reserve(time_limit: float) -> float:
    """The seconds kept for `live_guess` (its playouts) when the goal is to live."""
    return min(max(GUESS_RESERVE * time_limit, GUESS_SECONDS), 0.5 * time_limit)


class Scores:
    """A prior's scores for the problem's board, computed when first asked: only an unfinished
    search to live needs them (or SolveSettings.prefer).  `cost(size)`, where the prior has it,
    is what one call costs on a board of that size (golois.tsumego.cli.TimedPrior: about 0.5 s
    on one core for the full network over 8 symmetries); the searches stop that much early
    while the scores are still to be computed, so that the answer comes within the time limit,
    and a prior that would take more than PRIOR_MAX_SHARE of the time limit is not asked (the
    playouts alone guess).  A prior without `cost` is asked at once, its time counting against
    the searches'.  `setup`: the seconds the `cost` call took, and `late`: the seconds the
    prior's own load took when it was first called (golois.tsumego.cli.LazyPrior loads its
    network then, once per process); the problem's clock leaves both out (`elapsed`)."""

    def __init__(self, prior, board, mover, time_limit):
        t = time.monotonic()
        self.cost = prior.cost(board.size) if hasattr(prior, "cost") else None
        self.setup = time.monotonic() - t
        self.prior = prior if self.cost is None or self.cost <= PRIOR_MAX_SHARE * time_limit else None
        self.board, self.mover, self.value, self.late = board.copy(), mover, None, 0.0
        if self.cost is None:
            self()

    def pending_seconds(self) -> float:
        """The seconds the prior's call still to come takes (0 when asked, or never to be)."""
        return self.cost if self.value is None and self.prior is not None else 0.0

    def __call__(self, *_):
        if self.value is None and self.prior is not None:
            loaded = getattr(self.prior, "load_seconds", 0.0)
            self.value = self.prior(self.board, self.mover)
            self.late += getattr(self.prior, "load_seconds", 0.0) - loaded
        return self.value


def elapsed(t0: float, prior) -> float:
    """The problem's seconds since t0, less a network load its guess waited for (`Scores.late`)."""
    return time.monotonic() - t0 - (prior.late if isinstance(prior, Scores) else 0.0)


def live_guess(b: Board, mover: int, region, candidates, fallback, scores=None):
    """The first move an unfinished search to live answers: of the root moves it has not
    refuted (`candidates`, in the search's move order), the one after which the mover's stones
    survive best in `GUESS_PLAYOUTS` region playouts (tactics.playouts.survival_rates: the
    mean share of them still standing after random play, the opponent first), plus
    `PRIOR_WEIGHT` times a prior's score (`scores`: a policy network's mean log-probability per
    flat point) when given; ties go to the earlier move; `fallback` (df-pn's current best) when
    there is none.  df-pn's best is the child with the fewest replies left to refute, a poor
    guess at life (tests/test_problem.py, maeda-10k-5k/123).  On the 82 live problems a 10 s
    run left unknown: the network alone 18 right, playouts alone 18-23, both 22-25; on the 62
    of another such run: playouts alone 16, with the network at weight 0.015-0.03 20-21, at
    0.05 18 (docs/results.md)."""
    moves = [m for m in candidates if m is not None]
    if not moves:
        return fallback
    rates = survival_rates(b, region, moves, mover, GUESS_PLAYOUTS, seed=1)
    return guess_pick(moves, rates, None if scores is None else [float(scores[m]) for m in moves])


def guess_pick(moves, rates, scores=None, weight: float = PRIOR_WEIGHT):
    """`live_guess`'s choice among `moves`: the best playout share (`rates`) plus `weight` x the
    prior's score (`scores`, or None), the first of ties (also golois.eval.live_guess_sweep's)."""
    values = rates if scores is None else [r + weight * s for r, s in zip(rates, scores)]
    return moves[max(range(len(moves)), key=values.__getitem__)]    # max keeps the first of ties
