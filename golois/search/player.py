"""The full-strength player: the fast bot's conduct with a PUCT search choosing its moves.

`SearchPlayer` is a `golois.player.player.Player` whose genmove first asks the fast bot
(`Player.genmove`: its endgame rules, cleanup, passes and forced answers such as saving a
string in atari stay as they are), and where the fast bot would play the policy's best move,
searches (`golois.search.mcts.Search`) among the moves the fast bot allows and plays the
search's choice.  It resigns from the search's win rate (`resign_threshold`, `resign_patience`
of the PlayerConfig), not from the value head of one position.  The budget: the search's
visits or seconds, or under a GTP clock `golois.search.clock.think_time`, extended while the
two best moves are close.  Start with `SearchPlayer.genmove`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from tactics.board import EMPTY, Board

from golois.player.ladder_adjust import softmax
from golois.player.player import Decision, Player
from golois.search.clock import ClockConfig, remaining, think_time
from golois.search.leaves import LeafConfig, PlayerEvaluator
from golois.search.mcts import PASS, Leaf, Search, SearchConfig, SearchResult


@dataclass
class SearchSettings:
    """Everything the search player adds to a Player."""
    search: SearchConfig = field(default_factory=SearchConfig)
    leaves: LeafConfig = field(default_factory=LeafConfig)
    clock: ClockConfig = field(default_factory=ClockConfig)
    close: float = 1.5            # under a clock, go on (to `clock.extend` times the budget) while the
                                  # most visited move has less than this many times the second's visits


class SearchPlayer(Player):
    """A Player that searches (module doc).  `time` is the engine's TimeState (the GTP set-up
    gives it); `last` the last search's result (the analysis commands read it)."""

    def __init__(self, player: Player, settings: SearchSettings | None = None, komi: float = 7.5):
        quiet = dataclasses.replace(player.config, resign_threshold=0.0)   # the search resigns
        super().__init__(player.policy, quiet, player.hooks, name=player.policy_name)
        self.policy_name = player.policy_name + " + search"
        self.settings = settings or SearchSettings()
        self.resign = player.config
        self.evaluator = PlayerEvaluator(self, self.settings.leaves, komi, seed=player.config.seed)
        self.search = Search(self.evaluator, self.settings.search, self.evaluator.terminal_value)
        self.time = None
        self.last: SearchResult | None = None

    def budget(self, board: Board, colour: int) -> tuple[int, float, float]:
        """(visits, seconds, extended seconds) for this move: the search's own, or the clock's."""
        cfg = self.settings.search
        empty = int((board.to_array() == EMPTY).sum())
        seconds = think_time(self.time, colour, empty, self.settings.clock) if self.time is not None else None
        if seconds is None:
            return cfg.visits, cfg.seconds, cfg.seconds
        left, stones = remaining(self.time, colour)
        if stones:                                    # byo-yomi: the move's own time, no more
            return cfg.visits, seconds, seconds
        extended = min(seconds * self.settings.clock.extend,
                       max(left - self.settings.clock.safety, seconds) * self.settings.clock.max_share + seconds)
        return cfg.visits, seconds, max(seconds, extended)

    def analyse(self, board: Board, colour: int, komi: float, seconds: float = 0.0, visits: int = 0,
                stop=None, report=None, report_every: float = 0.0, restrict=None) -> SearchResult:
        """Search colour's move on board without playing it (analysis, pondering)."""
        b = board.copy()
        b.to_move = colour
        self.evaluator.komi = komi
        return self.search.run(b, visits=visits, seconds=seconds, restrict=restrict, stop=stop,
                               report=report, report_every=report_every)

    def genmove(self, board: Board, colour: int, komi: float = 7.5, cleanup: bool = False,
                stop=None, report=None, report_every: float = 0.0) -> Decision:
        """The fast bot's decision, or where it plays the policy's move, the search's."""
        self.evaluator.komi = komi
        streak = dict(self.losing_streak)            # the fast bot (never resigning) would reset it
        decision = super().genmove(board, colour, komi, cleanup)
        self.losing_streak = streak
        if decision.resign or decision.move is None or cleanup or decision.reason != "policy":
            return decision
        allowed = np.isfinite(decision.scores)
        b = board.copy()
        b.to_move = colour
        root = self._root_leaf(b, decision.scores)
        visits, seconds, extended = self.budget(board, colour)
        result = self.search.run(b, visits=visits, seconds=seconds, restrict=allowed, stop=stop,
                                 report=report, report_every=report_every, root_leaf=root)
        if extended > seconds and result.stopped == "time" and self._close(result):
            more = self.search.run(b, visits=visits, seconds=extended - result.seconds, restrict=allowed,
                                   stop=stop, report=report, report_every=report_every)
            result = dataclasses.replace(more, visits=result.visits + more.visits,
                                         seconds=result.seconds + more.seconds)
        self.last = result
        if result.visits and self._losing(board, colour, result.winrate):   # (no visits: stopped at once)
            return Decision(None, resign=True, reason=f"search win rate {result.winrate:.2f}")
        move = result.move if result.move is not None and allowed[result.move] else decision.move
        return Decision(move, reason=f"search {result.visits} visits, win rate {result.winrate:.2f}",
                        scores=decision.scores)

    def _root_leaf(self, board: Board, scores: np.ndarray) -> Leaf:
        """The root's leaf from the fast bot's own scores (no second network call) and the
        value of its forward pass."""
        finite = np.array([p for p in np.flatnonzero(np.isfinite(scores))
                           if not board.repeats(int(p), board.to_move)], dtype=np.int32)
        if finite.size == 0:
            return Leaf(np.array([PASS], dtype=np.int32), np.ones(1, dtype=np.float32), 0.0)
        p = softmax(scores[finite])
        value = self.win_probability(board, board.to_move)
        v = 2 * value - 1 if value is not None else self.evaluator.playout_value(board)
        return Leaf(finite, p.astype(np.float32), v)

    def _close(self, result: SearchResult) -> bool:
        c = result.candidates
        return len(c) >= 2 and c[0].visits < self.settings.close * c[1].visits

    def _losing(self, board: Board, colour: int, winrate: float) -> bool:
        cfg = self.resign
        fill = float((board.to_array() != EMPTY).mean())
        if cfg.resign_threshold <= 0 or fill < cfg.resign_min_fill or winrate >= cfg.resign_threshold:
            self.losing_streak[colour] = 0
            return False
        self.losing_streak[colour] += 1
        return self.losing_streak[colour] >= cfg.resign_patience


# ------------------------------------------------------------------------------ command line

def add_search_arguments(p) -> None:
    """play.py / `golois gtp` options of the search; their defaults are SearchConfig's,
    LeafConfig's and ClockConfig's."""
    s, leaf, clock = SearchConfig(), LeafConfig(), ClockConfig()
    g = p.add_argument_group("search (--search mcts)")
    g.add_argument("--search", choices=("none", "mcts"), default="none",
                   help="none: the fast bot, one network evaluation a move (default); mcts: PUCT tree search")
    g.add_argument("--visits", type=int, default=None,
                   help=f"visits per move (default {s.visits}, or none with --seconds)")
    g.add_argument("--seconds", type=float, default=None,
                   help="seconds per move (GTP time settings, when given, decide instead)")
    g.add_argument("--batch", type=int, default=s.batch, help=f"leaves per network call (default {s.batch})")
    g.add_argument("--c-puct", type=float, default=s.c_puct, help=f"exploration constant (default {s.c_puct})")
    g.add_argument("--no-lcb", dest="lcb", action="store_false",
                   help="choose the most visited move, not the best lower confidence bound")
    g.add_argument("--playout-weight", type=float, default=leaf.playout_weight,
                   help="AlphaGo's lambda: the share of the rollouts in a leaf's value with a value head "
                        f"(without one, rollouts alone; default {leaf.playout_weight})")
    g.add_argument("--leaf-playouts", type=int, default=leaf.playouts,
                   help=f"rollouts per leaf where they count (default {leaf.playouts})")
    g.add_argument("--rollouts", default=leaf.rollouts, metavar="FILE|random",
                   help="the rollout policy's weight file (default: the shipped golois/weights/rollout.npz); "
                        "random: uniform random playouts")
    g.add_argument("--leaf-threads", type=int, choices=(1, 2), default=leaf.threads,
                   help=f"2: the rollouts on two threads beside the network; 1: all in turn on one (default {leaf.threads})")
    g.add_argument("--time-safety", type=float, default=clock.safety,
                   help=f"seconds kept back per move under a GTP clock (default {clock.safety})")


def settings_from_args(args) -> SearchSettings | None:
    """The SearchSettings of parsed add_search_arguments options; None for --search none."""
    if args.search == "none":
        return None
    visits = args.visits if args.visits is not None else (0 if args.seconds else SearchConfig().visits)
    search = SearchConfig(visits=visits, seconds=args.seconds or 0.0, batch=args.batch,
                          c_puct=args.c_puct, lcb=args.lcb)
    return SearchSettings(search=search, leaves=LeafConfig(playout_weight=args.playout_weight,
                                                           playouts=args.leaf_playouts, rollouts=args.rollouts,
                                                           threads=args.leaf_threads),
                          clock=ClockConfig(safety=args.time_safety))
