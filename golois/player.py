"""The fast player: one policy evaluation per move, tactics on top, and the rules of good conduct.

`Player.genmove(board, colour, komi)` returns a `Decision` (a flat move, a pass, or resign):

1. **Policy**: any callable `(board, colour) -> logits[size*size]` (np.float32).  The network
   plugs in through `network_policy(network, feature_set, symmetries)`; until a network ships (or
   with `--policy fallback`) `fallback_policy` is used: a cheap, clearly-labelled heuristic prior
   (captures, atari escapes, no self-atari, 3rd-4th line), NOT a trained model.
2. **Tactics** (`TacticsHooks`, from `default_hooks()`, golois/tactics_hooks.py): the paper's ladder
   adjustment -- `ladder_facts(board)` gives per-move stone counts, `golois.policy.ladder_adjust`
   turns them into log-probability changes (a move in a ladder of more than four stones loses
   that many; capturing/saving more than four gains that many; the scale -- nats per stone -- is
   documented in golois/policy.py) -- and a tactical bonus from the capture search (capturing
   or saving strings with few liberties, one nat per stone, same scale).
3. **Conduct**: never an illegal move, never filling its own true eye, never a positional
   superko repeat; passes when the game is over (the opponent passed and passing does not lose
   by the area estimate, or no sensible move is left: every candidate lies in settled area);
   resigns when clearly lost (`resign_threshold` on the playout win rate, `resign_patience`
   consecutive times, late in the game); in cleanup (`kgs-genmove_cleanup`) keeps capturing the
   opponent's dead stones before it passes.

Start with `Player.genmove`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from tactics.board import BLACK, EMPTY, WHITE, Board

from golois.scoring import JudgeConfig, Judgement, judge

Policy = Callable[[Board, int], np.ndarray]
"""(board, colour to play) -> float32 logits over the size*size points (flat, row 0 at the top)."""


# ------------------------------------------------------------------------------ configuration

@dataclass
class PlayerConfig:
    """Everything genmove depends on besides the policy."""
    tactics: bool = True                 # apply the ladder adjustment and life-and-death hooks
    resign_threshold: float = 0.05       # resign under this playout win rate (0 = never resign)
    resign_patience: int = 3             # ... this many genmoves in a row
    resign_min_fill: float = 0.4         # ... only once this fraction of the board is stones
    pass_min_fill: float = 0.25          # consider passing only past this fill (or after a pass)
    settled: float = 0.9                 # a point owned this surely (|ownership|) is settled
    playouts: int = 64                   # playouts for the pass/resign/cleanup estimates
    dead_threshold: float = 0.8          # opponent ownership that makes a string dead
    temperature: float = 0.0             # 0: best move; > 0: sample softmax(score / T)
    seed: int = 0                        # for sampling and playouts

    def judge_config(self, unconditional=None) -> JudgeConfig:
        """The scoring configuration the player's estimates use."""
        return JudgeConfig(playouts=self.playouts, dead_threshold=self.dead_threshold,
                           seed=self.seed + 12345, unconditional=unconditional)


@dataclass
class TacticsHooks:
    """Seams to the tactical modules; any may be None (that tactic is then off)."""
    ladder_facts: Callable[[Board], dict] | None = None        # tactics.ladder.ladder_facts
    ladder_adjust: Callable[..., np.ndarray] | None = None      # golois.policy.ladder_adjust
    tactical_bonus: Callable[[Board, int], dict] | None = None  # (board, colour) -> {flat: bonus nats}
    unconditional: Callable[[Board], np.ndarray] | None = None  # Benson: bool (size, size) alive stones

    def describe(self) -> str:
        """One line naming the hooks that are on."""
        on = [name for name in ("ladder_facts", "ladder_adjust", "tactical_bonus", "unconditional")
              if getattr(self, name) is not None]
        return "tactics hooks: " + (", ".join(on) if on else "none")


def default_hooks() -> TacticsHooks:
    """The full set of hooks from the tactics library (see golois/tactics_hooks.py)."""
    from golois.tactics_hooks import default_hooks as full
    return full()


# ------------------------------------------------------------------------------ policies

def fallback_policy(board: Board, colour: int) -> np.ndarray:
    """FALLBACK heuristic prior (not a trained network): logits in rough nats from captures,
    atari escapes and ataris, self-atari penalties, line preference and nearness to the last move."""
    n = board.size
    logits = np.full(n * n, -30.0, dtype=np.float32)
    stones = board.to_array().ravel()
    opp = WHITE if colour == BLACK else BLACK
    last = board.last_move
    lr, lc = divmod(last, n) if last is not None else (-99, -99)
    in_atari = set()
    for p in np.flatnonzero(stones == colour):
        if board.liberties(int(p)) == 1:
            in_atari.add(int(p))
    fill = float((stones != EMPTY).mean())
    for p in board.legal_moves(colour):
        r, c = divmod(p, n)
        d = min(r, c, n - 1 - r, n - 1 - c)
        score = {0: -2.0, 1: -0.7, 2: 0.6, 3: 0.5 if n >= 13 else 0.0}.get(d, 0.0 if n >= 13 else 0.2)
        if fill < 0.1 and n >= 13 and d in (2, 3) and min(r, n - 1 - r) <= 3 and min(c, n - 1 - c) <= 3:
            score += 1.0                                      # corners first
        if abs(r - lr) + abs(c - lc) <= 2:
            score += 0.4
        nbrs = [q for q, ok in ((p - n, r > 0), (p + n, r < n - 1), (p - 1, c > 0), (p + 1, c < n - 1)) if ok]
        saving = sum(len(board.string(q)) for q in {q for q in nbrs if q in in_atari})
        captured = board.play(p, colour)
        libs = board.liberties(p)
        size = len(board.string(p))
        ataris = sum(1 for q in nbrs if stones[q] == opp and board.get(q) == opp and board.liberties(q) == 1)
        board.undo()
        if captured:
            score += 2.0 + min(captured, 10)
        if saving and libs >= 3:
            score += 2.0 + min(saving, 10)
        elif saving and libs == 2:
            score += 0.5
        if libs == 1 and not captured:
            score -= 3.0 + size                               # self-atari
        elif libs == 2 and size >= 3:
            score -= 0.5
        score += 0.6 * ataris
        if all(stones[q] == EMPTY for q in nbrs) and fill > 0.5:
            score -= 0.3
        logits[p] = score
    return logits


def network_policy(network, encode: Callable, symmetries: int = 8) -> Policy:
    """The shipped network as a Policy: `encode(board, colour) -> planes[C, n, n]` (wrap
    tactics.features.encode with the network's feature set), bagged over `symmetries`."""
    def policy(board: Board, colour: int) -> np.ndarray:
        planes = np.asarray(encode(board, colour), dtype=np.float32)[None]
        if symmetries > 1:
            scores, _ = network.evaluate_symmetric(planes, symmetries)
        else:
            scores, _ = network.evaluate(planes)
        return np.asarray(scores[0], dtype=np.float32)
    return policy


def log_softmax(x: np.ndarray) -> np.ndarray:
    """Stable log-softmax of a 1-D array (-inf stays -inf)."""
    x = np.asarray(x, dtype=np.float64)
    finite = x[np.isfinite(x)]
    m = finite.max() if finite.size else 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.exp(np.where(np.isfinite(x), x - m, -np.inf))
        return (x - m - np.log(z.sum() or 1.0)).astype(np.float32)


# ------------------------------------------------------------------------------ the player

@dataclass
class Decision:
    """What genmove answers: move (flat, None = pass) or resign, and why."""
    move: int | None
    resign: bool = False
    reason: str = ""
    scores: np.ndarray | None = field(default=None, repr=False)   # final per-move scores


class Player:
    """A policy player with tactics hooks and end-of-game conduct (see the module doc)."""

    def __init__(self, policy: Policy | None = None, config: PlayerConfig | None = None,
                 hooks: TacticsHooks | None = None, name: str = "fallback"):
        self.policy = policy or fallback_policy
        self.policy_name = name if policy is not None else "fallback"
        self.config = config or PlayerConfig()
        self.hooks = hooks if hooks is not None else TacticsHooks()
        self.rng = np.random.default_rng(self.config.seed)
        self.losing_streak = {BLACK: 0, WHITE: 0}

    # ---- pieces (also used by the analyze commands) ----
    def candidates(self, board: Board, colour: int) -> np.ndarray:
        """bool [n*n]: legal moves that do not fill the player's own true eye."""
        n = board.size
        mask = np.zeros(n * n, dtype=bool)
        for p in board.legal_moves(colour):
            if board.eye(p, colour) != 2:
                mask[p] = True
        return mask

    def ladder_counts(self, board: Board, colour: int) -> dict | None:
        """The ladder facts for colour to move, or None when the hook is off (it needs both the
        facts provider and the adjustment function)."""
        if not (self.config.tactics and self.hooks.ladder_facts and self.hooks.ladder_adjust):
            return None
        b = board.copy()
        b.to_move = colour
        return self.hooks.ladder_facts(b)

    def scores(self, board: Board, colour: int) -> np.ndarray:
        """Per-move scores (log-probability scale) after the tactics, -inf off the candidates."""
        logits = np.asarray(self.policy(board, colour), dtype=np.float32).reshape(-1)[: board.size ** 2]
        facts = self.ladder_counts(board, colour)
        if facts is not None and self.hooks.ladder_adjust is not None:
            scores = np.asarray(self.hooks.ladder_adjust(
                logits, facts.get("captures"), facts.get("saves"), facts.get("pushes")), dtype=np.float32).reshape(-1)
        else:
            scores = log_softmax(logits)
        if self.config.tactics and self.hooks.tactical_bonus is not None:
            for p, bonus in (self.hooks.tactical_bonus(board, colour) or {}).items():
                scores[int(p)] += np.float32(bonus)
        scores = scores.copy()
        scores[~self.candidates(board, colour)] = -np.inf
        return scores

    def judge(self, board: Board, komi: float) -> Judgement:
        """Dead stones, ownership and score with the player's playout settings."""
        return judge(board, komi, self.config.judge_config(self.hooks.unconditional))

    # ---- the move ----
    def genmove(self, board: Board, colour: int, komi: float = 7.5, cleanup: bool = False) -> Decision:
        """The move for colour (see the module doc for the rules it follows)."""
        cfg = self.config
        n = board.size
        scores = self.scores(board, colour)
        sign = 1.0 if colour == BLACK else -1.0
        history = board.history
        opponent_passed = bool(history) and history[-1][1] is None and not history[-1][2] and history[-1][0] != colour
        fill = float((board.to_array() != EMPTY).mean())
        verdict = None
        if cleanup or opponent_passed or fill >= min(cfg.pass_min_fill, cfg.resign_min_fill):
            verdict = self.judge(board, komi)
        if verdict is not None and not cleanup:
            win = verdict.black_wins if colour == BLACK else 1.0 - verdict.black_wins
            margin = sign * verdict.score
            if cfg.resign_threshold > 0 and fill >= cfg.resign_min_fill and win < cfg.resign_threshold and margin < 0:
                self.losing_streak[colour] += 1
                if self.losing_streak[colour] >= cfg.resign_patience:
                    return Decision(None, resign=True, reason=f"win rate {win:.2f}, margin {margin:+.1f}")
            else:
                self.losing_streak[colour] = 0
            if opponent_passed and margin > 0:
                return Decision(None, reason=f"opponent passed, ahead by {margin:.1f}")
        if verdict is not None:
            scores = self._sensible(board, colour, scores, verdict, cleanup, fill)
        move = self._pick(board, colour, scores)
        if move is None:
            return Decision(None, reason="no sensible move left", scores=scores)
        return Decision(move, reason="policy", scores=scores)

    def _sensible(self, board: Board, colour: int, scores: np.ndarray, verdict: Judgement,
                  cleanup: bool, fill: float) -> np.ndarray:
        """Late in the game: keep only moves in unsettled area, and moves that capture dead
        stones (preferred in cleanup, where we do not pass while any remain)."""
        n = board.size
        own = verdict.ownership.ravel()
        stones = board.to_array().ravel()
        out = scores.copy()
        if fill >= self.config.pass_min_fill or cleanup:
            out[np.abs(own) >= self.config.settled] = -np.inf
        opp = WHITE if colour == BLACK else BLACK
        dead_opp = verdict.dead.ravel() & (stones == opp)
        if dead_opp.any():
            targets = set()
            for p in np.flatnonzero(dead_opp):
                targets.update(board.liberty_points(int(p)))
            boost = np.full(n * n, -np.inf, dtype=np.float32)
            for p in targets:
                if np.isfinite(scores[p]):
                    boost[p] = scores[p] + (50.0 if cleanup else 0.0)
            out = np.maximum(out, boost)
            if cleanup and not np.isfinite(out).any():
                out = scores.copy()    # no liberty playable: any legal move to keep going
        return out

    def _pick(self, board: Board, colour: int, scores: np.ndarray) -> int | None:
        """Best (or sampled) finite-score move that is no superko repeat; None if none."""
        order = np.flatnonzero(np.isfinite(scores))
        if order.size == 0:
            return None
        if self.config.temperature > 0:
            z = scores[order] / self.config.temperature + self.rng.gumbel(size=order.size)  # Gumbel-max sampling
            order = order[np.argsort(-z, kind="stable")]
        else:
            order = order[np.argsort(-scores[order], kind="stable")]
        for p in order:
            if not board.repeats(int(p), colour):
                return int(p)
        return None
