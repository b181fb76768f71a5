"""The fast player: one policy evaluation per move, tactics on top, and the rules of good conduct.

`Player.genmove(board, colour, komi)` returns a `Decision` (a flat move, a pass, or resign):

1. **Policy**: any callable `(board, colour) -> logits[size*size]` (np.float32).  The network
   plugs in through `network_policy(network, feature_set, symmetries)`; until a network ships (or
   with `--policy fallback`) `fallback_policy` is used: a cheap, clearly-labelled heuristic prior
   (captures, atari escapes, no self-atari, 3rd-4th line), NOT a trained model.
2. **Tactics** (`TacticsHooks`, from `default_hooks()`, golois/player/hooks.py): the paper's ladder
   adjustment -- `ladder_facts(board)` gives per-move stone counts, `golois.player.ladder_adjust.ladder_adjust`
   turns them into log-probability changes (a move in a ladder of more than four stones loses
   that many; capturing/saving more than four gains that many; the scale -- nats per stone -- is
   documented in golois/player/ladder_adjust.py) -- and a tactical bonus (`Player.bonus`) from the capture
   search (capturing or saving strings with few liberties) and from the life-and-death solver
   (saving or killing a critical group: golois.player.hooks.LifeAndDeath), one nat per stone,
   same scale.
3. **Conduct**: never an illegal move, never filling its own true eye, never a positional
   superko repeat; resigns when clearly lost, `resign_patience` consecutive times, late in the
   game: when the playout win rate is under `resign_threshold` or the area estimate is far
   behind (`PlayerConfig.clearly_lost`), and, with a network that has a value head, its win
   probability (`Player.win_probability`) is under `resign_value_agree` too: a head that thinks
   the game open keeps it going.  `resign_from="value"` resigns from the head alone, under
   `resign_threshold` (for a head sure enough of itself); `"playouts"` ignores the head.
4. **Endgame** (`Player._endgame`; from `endgame_fill`, or once `endgame_settled` of the board is
   settled, or after an opponent pass, or in cleanup), judged with `endgame_playouts`:
   - `EndgameFacts`: moves that matter whatever the ownership says -- saving an own string in
     atari, connecting a cutting point, capturing a live string in atari, filling a dame,
     capturing dead stones;
   - no move on settled points (|ownership| >= `settled`, or small enclosed regions with safe
     borders, `scoring.enclosed_territory`), and no *pointless* move: one whose point belongs
     to the same side surely both before and after it (`Player.pointless`, a second judgement
     after the move, for the policy's best few moves only);
   - passes when nothing useful is left (when behind: nor any unsettled point), or when the
     opponent passed and we are ahead -- but only after saving strings in atari, connecting
     cutting points and filling dame;
   - in cleanup (`kgs-genmove_cleanup`): rescue, capture the opponent's dead stones, connect,
     fill dame, then pass.

Start with `Player.genmove`, then `Player._endgame`.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from tactics.board import BLACK, EMPTY, WHITE, Board
from tactics.capture import WIN, capture_attack
from tactics.coords import neighbours

from golois.player.hooks import TacticsHooks
from golois.player.ladder_adjust import log_softmax
from golois.player.scoring import JudgeConfig, Judgement, enclosed_territory, judge, neutral_points

Policy = Callable[[Board, int], np.ndarray]
"""(board, colour to play) -> float32 logits over the size*size points (flat, row 0 at the top)."""


# ------------------------------------------------------------------------------ configuration

@dataclass
class PlayerConfig:
    """Everything genmove depends on besides the policy."""
    tactics: bool = True                 # apply the ladder adjustment and life-and-death hooks
    resign_threshold: float = 0.05       # resign under this win probability (0 = never resign)
    resign_from: str = "auto"            # auto: the playouts, the value head agreeing where there is one;
                                         # value: the head alone; playouts: the playouts alone
    resign_value_agree: float = 0.4      # auto: the head agrees when its win probability is under this
    resign_patience: int = 3             # ... this many genmoves in a row
    resign_min_fill: float = 0.4         # ... only once this fraction of the board is stones
    resign_margin: float = 0.15          # ... or when behind by this fraction of the board's points
    resign_margin_win: float = 0.25      # ... with the win rate under this (0 margin: rule off)
    pass_min_fill: float = 0.25          # consider passing only past this fill (or after a pass)
    settled: float = 0.9                 # a point owned this surely (|ownership|) is settled
    playouts: int = 64                   # playouts for the pass/resign estimates before the endgame
    dead_threshold: float = 0.8          # opponent ownership that makes a string dead
    temperature: float = 0.0             # 0: best move; > 0: sample softmax(score / T)
    temperature_moves: int = 0           # sample only while the game has fewer moves than this (0: always)
    seed: int = 0                        # for sampling and playouts
    # the endgame (Player._endgame): from endgame_fill, after an opponent pass, or in cleanup
    endgame_fill: float = 0.5            # board fill from which the endgame rules apply
    endgame_settled: float = 0.75        # ... or from this fraction of settled points (settled_fraction)
    endgame_playouts: int = 256          # playouts for the estimates in the endgame
    pointless_margin: float = 0.6        # a move is pointless when its point belongs this surely
                                         # to the same side before and after it (Player.pointless)
    pointless_checks: int = 6            # policy moves so checked per genmove, best first
    check_playouts: int = 64             # playouts of the after-move judgement
    dame_region: int = 3                 # neutral regions up to this size are dame
    enclosed_min: int = 12               # enclosed regions of up to max(enclosed_min, enclosed_fraction
    enclosed_fraction: float = 0.08      # * points) with safe borders are territory (no moves inside)

    def enclosed_max(self, size: int) -> int:
        """The largest region `scoring.enclosed_territory` calls territory on this board."""
        return max(self.enclosed_min, int(self.enclosed_fraction * size * size))

    def clearly_lost(self, win: float, margin: float, points: int) -> bool:
        """Resign test for one genmove: the playout win rate is under `resign_threshold`, or the
        area estimate is behind by more than `resign_margin` of the board while the win rate is
        under `resign_margin_win` (random playouts keep some hope in a game lost by 80 points)."""
        if self.resign_threshold <= 0 or margin >= 0:
            return False
        if win < self.resign_threshold:
            return True
        return self.resign_margin > 0 and margin < -self.resign_margin * points and win < self.resign_margin_win

    def judge_config(self, unconditional=None, playouts: int | None = None, owl=None) -> JudgeConfig:
        """The scoring configuration the player's estimates use (`owl`: the solver's check of
        unsure strings, for the final judgement only)."""
        return JudgeConfig(playouts=playouts or self.playouts, dead_threshold=self.dead_threshold,
                           seed=self.seed + 12345, unconditional=unconditional, owl=owl)


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


class NetworkPolicy:
    """The shipped network as a Policy: `encode(board, colour) -> planes[C, n, n]` (wrap
    tactics.features.encode with the network's feature set), bagged over `symmetries`.  Where the
    network has a value head, `win_probability(board, colour)` is the value of the same forward
    pass (the last position evaluated is remembered)."""

    def __init__(self, network, encode: Callable, symmetries: int = 8, komi: float = 7.5, log=None):
        self.network, self.encode, self.symmetries = network, encode, symmetries
        self.komi = komi                                # what a value head with global inputs reads
        self.has_value = bool(getattr(network, "has_value", False))
        if self.has_value and not getattr(network, "has_value_inputs", True):
            self.has_value = False                      # it cannot tell whose komi it is
            if log is not None:
                print("golois: the network's value head has no colour and komi inputs: not used", file=log)
        self._last: tuple | None = None                 # (position key, win probability)

    def _key(self, board: Board, colour: int) -> tuple:
        """What the remembered value depends on: the position, the side to move, the komi."""
        return board.to_array().tobytes(), colour, len(board.history), self.komi

    def __call__(self, board: Board, colour: int) -> np.ndarray:
        planes = np.asarray(self.encode(board, colour), dtype=np.float32)[None]
        if hasattr(self.network, "with_inputs"):
            planes = self.network.with_inputs(planes, colour == BLACK, self.komi)
        if self.symmetries > 1:
            scores, value = self.network.evaluate_symmetric(planes, self.symmetries)
        else:
            scores, value = self.network.evaluate(planes)
        if value is not None:
            self._last = (self._key(board, colour), float((value[0] + 1) / 2))
        return np.asarray(scores[0], dtype=np.float32)

    def ownership(self, board: Board, colour: int, komi: float) -> np.ndarray | None:
        """The value head's ownership map [n*n] in black's frame (+1 black owns the point at the
        end), with colour to move; None without a head, or a head without the map."""
        if not self.has_value:
            return None
        planes = np.asarray(self.encode(board, colour), dtype=np.float32)[None]
        owner = self.network.ownership(planes, colour == BLACK, komi)
        if owner is None:
            return None
        return owner[0] * (1.0 if colour == BLACK else -1.0)

    def win_probability(self, board: Board, colour: int) -> float | None:
        """The value head's probability that colour, to move, wins; None without a head."""
        if not self.has_value:
            return None
        if self._last is None or self._last[0] != self._key(board, colour):
            self(board, colour)
        return self._last[1]


def network_policy(network, encode: Callable, symmetries: int = 8, log=None) -> NetworkPolicy:
    """See NetworkPolicy."""
    return NetworkPolicy(network, encode, symmetries, log=log)


def load_network_policy(model, symmetries: int, threads: int = 1, precision: str = "fp32", log=sys.stderr) -> Policy:
    """The network of a --model value (golois.nn.model.load_network) as a Policy, run on `threads` CPU
    threads at `precision` (golois.nn.precision; imports torch and the features module lazily); a
    value head without the colour and komi inputs is ignored, saying so on `log`."""
    from golois.datasets.features import encode
    from golois.nn.model import load_network

    network = load_network(model, threads, precision)
    feature_set = network.feature_set

    def encode_for(board, colour):
        b = board.copy()
        b.to_move = colour
        return encode(b, feature_set)
    return network_policy(network, encode_for, symmetries, log=log)


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
    def win_probability(self, board: Board, colour: int) -> float | None:
        """The network's value for colour to move (None: no value head, or a policy without one)."""
        fn = getattr(self.policy, "win_probability", None)
        return fn(board, colour) if callable(fn) else None

    def value_ownership(self, board: Board, colour: int, komi: float) -> np.ndarray | None:
        """The value head's final owner of each point, black's frame (+1 black), with colour to
        move; None without a head that has an ownership map."""
        fn = getattr(self.policy, "ownership", None)
        return fn(board, colour, komi) if callable(fn) else None

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

    def scores(self, board: Board, colour: int, logits: np.ndarray | None = None,
               life_and_death: bool = True) -> np.ndarray:
        """Per-move scores (log-probability scale) after the tactics, -inf off the candidates.
        `logits`: the policy's output when the caller has it (the search evaluates batches);
        `life_and_death` false leaves the solver's hook out (the search's leaves)."""
        if logits is None:
            logits = self.policy(board, colour)
        logits = np.asarray(logits, dtype=np.float32).reshape(-1)[: board.size ** 2]
        facts = self.ladder_counts(board, colour)
        if facts is not None and self.hooks.ladder_adjust is not None:
            scores = np.asarray(self.hooks.ladder_adjust(
                logits, facts.get("captures"), facts.get("saves"), facts.get("pushes")), dtype=np.float32).reshape(-1)
        else:
            scores = log_softmax(logits)
        scores += self.bonus(board, colour, life_and_death)
        scores = scores.copy()
        scores[~self.candidates(board, colour)] = -np.inf
        return scores

    def bonus(self, board: Board, colour: int, life_and_death: bool = True) -> np.ndarray:
        """float32 [n*n]: the tactical bonus of each move in nats, point by point the larger of
        the capture search's and the life-and-death solver's (both often name the same move for
        the same string: counted once; the solver's hook only with `life_and_death`)."""
        out = np.zeros(board.size ** 2, dtype=np.float32)
        if not self.config.tactics:
            return out
        for hook in (self.hooks.tactical_bonus, self.hooks.life_and_death if life_and_death else None):
            if hook is not None:
                for p, nats in (hook(board, colour) or {}).items():
                    out[int(p)] = max(out[int(p)], np.float32(nats))
        return out

    def judge(self, board: Board, komi: float, endgame: bool | None = None, final: bool = False) -> Judgement:
        """Dead stones, ownership and score with the player's playout settings: `endgame_playouts`
        in the endgame (None: decided by the board's fill), `playouts` before.  `final` (the
        scoring commands): the solver checks the strings the playouts are unsure of (the `owl`
        hook, with tactics on)."""
        if endgame is None:
            endgame = float((board.to_array() != EMPTY).mean()) >= self.config.endgame_fill
        playouts = self.config.endgame_playouts if endgame else self.config.playouts
        owl = self.hooks.owl if final and self.config.tactics else None
        return judge(board, komi, self.config.judge_config(self.hooks.unconditional, playouts, owl))

    def endgame_facts(self, board: Board, colour: int, verdict: Judgement) -> EndgameFacts:
        """The moves that matter however settled the board looks (see `EndgameFacts`)."""
        n = board.size
        opp = WHITE if colour == BLACK else BLACK
        stones = board.to_array().ravel()
        dead = verdict.dead.ravel()
        facts = EndgameFacts()
        seen = np.zeros(n * n, dtype=bool)
        for p in np.flatnonzero((stones == colour) & ~dead):
            p = int(p)
            if seen[p]:
                continue
            string = board.string(p)
            seen[string] = True
            libs = board.liberty_points(p)
            if len(libs) == 1:
                facts.rescue.update(_saving_moves(board, colour, p, libs[0]))
            elif len(libs) == 2:
                for q in libs:
                    if _cuts(board, opp, p, q):
                        answers = [q] if _keeps_two(board, colour, p, q) else libs
                        facts.connect.update(m for m in answers if _keeps_two(board, colour, p, m))
        for p in np.flatnonzero(neutral_points(verdict.cleaned, self.config.dame_region).ravel() & (stones == EMPTY)):
            p = int(p)
            if board.is_legal(p, colour) and _keeps_two(board, colour, None, p):
                facts.dame.add(p)
        for p in np.flatnonzero(stones == opp):
            p = int(p)
            if dead[p]:
                facts.capture_dead.update(board.liberty_points(p))
            elif board.liberties(p) == 1:
                facts.capture.update(q for q in board.liberty_points(p) if board.is_legal(q, colour))
        return facts

    def territory(self, board: Board, verdict: Judgement) -> np.ndarray:
        """int8 [n*n]: `scoring.enclosed_territory` of the board with the dead stones removed."""
        return enclosed_territory(verdict.cleaned, verdict.ownership, self.config.settled,
                                  self.config.enclosed_max(board.size)).ravel()

    def settled_fraction(self, board: Board, verdict: Judgement) -> float:
        """Fraction of the board's points that are settled: |ownership| >= `settled`, or inside
        enclosed territory (see `territory`)."""
        return float(((np.abs(verdict.ownership.ravel()) >= self.config.settled)
                      | (self.territory(board, verdict) != EMPTY)).mean())

    def pointless(self, board: Board, colour: int, move: int, verdict: Judgement, komi: float) -> bool:
        """True when the point of `move` belongs to one side at least `pointless_margin` surely in
        `verdict` and still does after the move (judged with `check_playouts` playouts), or when
        the move puts a stone in the opponent's area that the judgement after it calls dead:
        filling one's own territory, or a stone that dies inside the opponent's."""
        before = float(verdict.ownership.ravel()[move])
        if abs(before) < self.config.pointless_margin:
            return False
        b = board.copy()
        b.play(move, colour)
        after = judge(b, komi, self.config.judge_config(self.hooks.unconditional, self.config.check_playouts))
        mine = 1.0 if colour == BLACK else -1.0
        if before * mine < 0 and after.dead.ravel()[move]:
            return True                      # the new stone dies in the opponent's area
        return float(np.sign(before) * after.ownership.ravel()[move]) >= self.config.pointless_margin

    # ---- the move ----
    def genmove(self, board: Board, colour: int, komi: float = 7.5, cleanup: bool = False) -> Decision:
        """The move for colour (see the module doc for the rules it follows)."""
        cfg = self.config
        if hasattr(self.policy, "komi"):          # a value head that reads the komi
            self.policy.komi = komi
        scores = self.scores(board, colour)
        sign = 1.0 if colour == BLACK else -1.0
        history = board.history
        opponent_passed = bool(history) and history[-1][1] is None and not history[-1][2] and history[-1][0] != colour
        fill = float((board.to_array() != EMPTY).mean())
        endgame = cleanup or opponent_passed or fill >= cfg.endgame_fill
        if not endgame and fill < min(cfg.pass_min_fill, cfg.resign_min_fill):
            move = self._pick(board, colour, scores)
            return Decision(move, reason="policy" if move is not None else "no legal move", scores=scores)
        verdict = self.judge(board, komi, endgame=endgame)
        if not endgame and self.settled_fraction(board, verdict) >= cfg.endgame_settled:
            endgame = True                   # big territories, little left to fight over
            verdict = self.judge(board, komi, endgame=True)
        margin = sign * verdict.score
        if not cleanup:
            value = self.win_probability(board, colour) if cfg.resign_from != "playouts" else None
            if value is not None and cfg.resign_from == "value":
                win, lost, source = value, cfg.resign_threshold > 0 and value < cfg.resign_threshold, "value"
            else:
                win = verdict.black_wins if colour == BLACK else 1.0 - verdict.black_wins
                lost, source = cfg.clearly_lost(win, margin, board.size ** 2), "playout win rate"
                if value is not None:
                    lost = lost and value < cfg.resign_value_agree
                    source = f"value {value:.2f} and playout win rate"
            if fill >= cfg.resign_min_fill and lost:
                self.losing_streak[colour] += 1
                if self.losing_streak[colour] >= cfg.resign_patience:
                    return Decision(None, resign=True, reason=f"{source} {win:.2f}, margin {margin:+.1f}")
            else:
                self.losing_streak[colour] = 0
        if not endgame:                      # middle game: only the cheap settled-area filter
            out = scores.copy()
            if fill >= cfg.pass_min_fill:
                out[np.abs(verdict.ownership.ravel()) >= cfg.settled] = -np.inf
            move = self._pick(board, colour, out)
            return Decision(move, reason="policy" if move is not None else "no sensible move left", scores=out)
        return self._endgame(board, colour, komi, scores, verdict, cleanup, opponent_passed, margin)

    def _endgame(self, board: Board, colour: int, komi: float, scores: np.ndarray, verdict: Judgement,
                 cleanup: bool, opponent_passed: bool, margin: float) -> Decision:
        """The endgame rules, in order:

        1. cleanup: save own strings in atari, capture the opponent's dead stones, connect, fill
           dame, then pass -- no other move;
        2. the opponent passed and we are ahead: the same answers (minus the dead stones: they
           count as captured) and then pass;
        3. otherwise the policy's best moves, skipping settled points (|ownership| >= `settled`,
           or inside a small enclosed region with safe borders: `scoring.enclosed_territory`)
           and pointless moves (`pointless`, at most `pointless_checks` looked at); moves in the
           `EndgameFacts` (rescue, connect, capturing a live string) are never skipped;
        4. when no checked move is useful: rescue, connect, dame; else, when behind by the
           estimate, the policy's best move on an unsettled point (|ownership| <
           `pointless_margin`: a pass would concede); else pass."""
        cfg = self.config
        facts = self.endgame_facts(board, colour, verdict)
        if cleanup:
            return self._answer(board, colour, scores, facts, ("rescue", "capture_dead", "connect", "dame"),
                                "cleanup done")
        if opponent_passed and margin > 0:
            return self._answer(board, colour, scores, facts, ("rescue", "connect", "dame"),
                                f"opponent passed, ahead by {margin:.1f}")
        own = verdict.ownership.ravel()
        keep = facts.rescue | facts.connect | facts.capture
        out = scores.copy()
        enclosed = self.territory(board, verdict)
        for p in np.flatnonzero(np.isfinite(out) & ((np.abs(own) >= cfg.settled) | (enclosed != EMPTY))):
            if int(p) not in keep:
                out[p] = -np.inf
        checks = 0
        order = self._order(out, self._temperature(board))
        for p in order:
            if board.repeats(p, colour):
                continue
            if p in keep or p in facts.dame and abs(own[p]) < cfg.pointless_margin:
                return Decision(p, reason=facts.kind(p) or "policy", scores=out)
            if checks >= cfg.pointless_checks:
                break
            checks += 1
            if not self.pointless(board, colour, p, verdict, komi):
                return Decision(p, reason="policy", scores=out)
        why = f"no useful move among the policy's best {checks}" if checks else "every move lies in settled area"
        answer = self._answer(board, colour, scores, facts, ("rescue", "connect", "dame"), why)
        if answer.move is None and margin < 0:   # behind: a pass concedes, so play on where it is open
            for p in order:
                if abs(own[p]) < cfg.pointless_margin and not board.repeats(p, colour):
                    return Decision(p, reason=f"behind by {-margin:.1f}: playing on in unsettled area", scores=out)
        return answer

    def _answer(self, board: Board, colour: int, scores: np.ndarray, facts: "EndgameFacts",
                kinds: tuple[str, ...], why_pass: str) -> Decision:
        """The best-scored move of the first non-empty kind of facts, else a pass saying why."""
        for kind in kinds:
            moves = [p for p in getattr(facts, kind) if np.isfinite(scores[p]) and not board.repeats(p, colour)]
            if moves:
                return Decision(max(moves, key=lambda p: scores[p]), reason=kind.replace("_", " "), scores=scores)
        return Decision(None, reason=why_pass, scores=scores)

    def _temperature(self, board: Board) -> float:
        """The sampling temperature at this point of the game (0: play the best move)."""
        cfg = self.config
        if cfg.temperature_moves and board.move_count >= cfg.temperature_moves:
            return 0.0
        return cfg.temperature

    def _order(self, scores: np.ndarray, temperature: float = 0.0) -> list[int]:
        """Finite-score moves, best first (Gumbel-perturbed when sampling)."""
        order = np.flatnonzero(np.isfinite(scores))
        if order.size == 0:
            return []
        if temperature > 0:
            z = scores[order] / temperature + self.rng.gumbel(size=order.size)  # Gumbel-max sampling
            return [int(p) for p in order[np.argsort(-z, kind="stable")]]
        return [int(p) for p in order[np.argsort(-scores[order], kind="stable")]]

    def _pick(self, board: Board, colour: int, scores: np.ndarray) -> int | None:
        """Best (or sampled) finite-score move that is no superko repeat; None if none."""
        for p in self._order(scores, self._temperature(board)):
            if not board.repeats(int(p), colour):
                return int(p)
        return None


# ------------------------------------------------------------------------------ endgame facts

@dataclass
class EndgameFacts:
    """Moves for colour that matter whatever the ownership says (flat points, legal):
    rescue -- saves an own string in atari (extends, or captures a neighbour in atari, after
    which the capture search cannot take it: `_saving_moves`); connect -- a liberty of an own two-liberty string where an opponent stone
    would put it in atari and not be in atari itself (a cutting point, a false eye to fill);
    dame -- a neutral point (a region of at most `dame_region` points touching both colours once
    dead stones are removed) that is no self-atari; capture_dead -- liberties of dead opponent
    stones.  Dead own strings are not rescued or connected."""
    rescue: set = field(default_factory=set)
    connect: set = field(default_factory=set)
    capture: set = field(default_factory=set)
    dame: set = field(default_factory=set)
    capture_dead: set = field(default_factory=set)

    def kind(self, p: int) -> str:
        """The first kind p belongs to, or ''."""
        for name in ("rescue", "connect", "capture", "dame", "capture_dead"):
            if p in getattr(self, name):
                return name.replace("_", " ")
        return ""


def _keeps_two(board: Board, colour: int, stone: int | None, move: int) -> bool:
    """colour playing move is legal and leaves the string of `move` (and of `stone`, if given,
    and still on the board) at least two liberties."""
    if not board.is_legal(move, colour):
        return False
    board.play(move, colour)
    try:
        ok = board.liberties(move) >= 2 and (stone is None or board.get(stone) != colour or board.liberties(stone) >= 2)
    finally:
        board.undo()
    return ok


def _saving_moves(board: Board, colour: int, stone: int, liberty: int, max_nodes: int = 2000) -> set:
    """Moves that save the string at stone (in atari at liberty): extending, or capturing an
    adjacent opponent string in atari, after which the capture search (tactics.capture) finds
    no way to take the string -- ladders included.  Empty for a string that cannot be saved."""
    opp = WHITE if colour == BLACK else BLACK
    tries = {liberty}
    nb = neighbours(board.size)
    for s in board.string(stone):
        for q in nb[s]:
            if board.get(q) == opp and board.liberties(q) == 1:
                tries.add(board.liberty_points(q)[0])
    out = set()
    for m in tries:
        if not board.is_legal(m, colour):
            continue
        board.play(m, colour)
        try:
            if board.get(stone) == colour and board.liberties(stone) >= 2:
                result, _, _ = capture_attack(board, stone, max_nodes=max_nodes)
                if result != WIN:
                    out.add(m)
        finally:
            board.undo()
    return out


def _cuts(board: Board, opp: int, stone: int, q: int) -> bool:
    """The opponent playing q (a liberty of the two-liberty string at stone) puts it in atari
    and the opponent stone is not in atari itself (or captured something)."""
    if not board.is_legal(q, opp):
        return False
    captured = board.play(q, opp)
    try:
        return board.liberties(stone) == 1 and (captured > 0 or board.liberties(q) >= 2)
    finally:
        board.undo()
