"""The search's leaves from the fast bot: priors from its scores, values from the value head and
rollouts.

`PlayerEvaluator(player, config, komi)` is the `golois.search.mcts.Evaluator` of a `Player`:
for a batch of boards it runs the network once (`Network.evaluate` through the player's
`NetworkPolicy`: one random symmetry per leaf, `root_symmetries` for a lone root), puts the
player's tactics on the logits (`Player.scores`: the paper's ladder adjustments and the capture
search's bonus everywhere, the life-and-death solver's hook at the root only, as its searches
take a tenth of a second), and takes the softmax over the player's candidate moves as the
priors.  The value is AlphaGo's mix: (1 - lambda) x the value head + lambda x the mean result of
`playouts` rollouts of the fast rollout policy (tactics.rollout, its weights from
golois/weights/rollout.npz); without a value head, the rollouts alone; without rollout weights,
uniform random playouts, said on stderr.  With `threads` 2 a batch's rollouts run on two threads
of their own, the GIL released, while the main thread evaluates the network, the tactics and the
next batch's descents (the leaves come back with `settle`): the two cores stay busy.

It imports no torch: the network sits behind the `Network` interface.  Start with `__call__`.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from tactics.board import BLACK, EMPTY, WHITE, Board
from tactics.rollout import RolloutPolicy

from golois import symmetry
from golois.player.ladder_adjust import softmax
from golois.player.scoring import area_score
from golois.rollout.weights import load_policy
from golois.search.mcts import PASS, Leaf


@dataclass
class LeafConfig:
    """How leaves are evaluated; play.py's --search options read their defaults here."""
    root_symmetries: int = 8        # symmetries bagged for the root (1, 4 or 8)
    random_symmetry: bool = True    # each other leaf in one random symmetry (else the identity)
    playout_weight: float = 0.5     # AlphaGo's lambda: value = (1 - w) value head + w rollout result
    playouts: int = 8               # rollouts per leaf where the weight asks for them
    rollouts: str = ""              # the rollout weights: "" the shipped file, a path, or "random"
                                    # (uniform random playouts)
    threads: int = 2                # 2: the rollouts on two threads of their own beside the network's;
                                    # 1: rollouts and network in turn on one thread
    prior_floor: float = 1e-4       # moves under this prior (after the softmax) are not searched


def rollout_policy(spec: str = "", log=True) -> tuple[RolloutPolicy, str]:
    """(the rollout policy, its name) of LeafConfig.rollouts; uniform random playouts, said on
    `log` (True: stderr; None: nothing), when the weights cannot be read."""
    if spec == "random":
        return RolloutPolicy(), "random playouts"
    policy = load_policy(spec or None, log)
    if policy is None:
        return RolloutPolicy(), "random playouts (no rollout weights)"
    return policy, "rollout policy"


class PlayerEvaluator:
    """The search's evaluator built from a `Player` (module doc)."""

    def __init__(self, player, config: LeafConfig | None = None, komi: float = 7.5, seed: int = 0,
                 log=True):
        self.player = player
        self.config = config or LeafConfig()
        self.komi = komi
        self.rng = np.random.default_rng(seed)
        policy = player.policy
        self.network = getattr(policy, "network", None)
        self.encode = getattr(policy, "encode", None)
        self.has_value = bool(getattr(policy, "has_value", False))
        self.rollout, self.rollout_name = rollout_policy(self.config.rollouts, log)
        self.pool = (ThreadPoolExecutor(self.config.threads, thread_name_prefix="rollouts")
                     if self.config.threads > 1 else None)
        self.seconds = {"network": 0.0, "tactics": 0.0, "rollouts": 0.0, "waiting": 0.0}   # rollouts:
        self._lock = threading.Lock()                                                      # summed over threads

    def __call__(self, boards, root: bool = False) -> list:
        mix = self.config.playout_weight if self.has_value else 1.0
        futures = None
        if mix > 0 and self.pool is not None and not root:
            # the rollout threads read copies: the tactics below make and unmake moves on the
            # boards themselves, and a position copied in C mid-move is a corrupt one
            parts = [list(range(k, len(boards), self.config.threads)) for k in range(self.config.threads)]
            futures = [(part, self.pool.submit(self._rollouts, [boards[i].copy() for i in part], self._seed()))
                       for part in parts if part]
        t = time.monotonic()
        logits, values = self._network(boards, root)
        t1 = time.monotonic()
        leaves = []
        for b, row in zip(boards, logits):
            colour = b.to_move
            scores = self.player.scores(b, colour, logits=row, life_and_death=root)
            leaves.append(self._leaf(b, scores))
        self.seconds["network"] += t1 - t
        self.seconds["tactics"] += time.monotonic() - t1
        heads = [float(values[k]) if values is not None else 0.0 for k in range(len(boards))]
        if mix <= 0:
            for leaf, v in zip(leaves, heads):
                leaf.value = v
        elif futures is None:
            results = self._rollouts(boards, self._seed())
            for leaf, v, r in zip(leaves, heads, results):
                leaf.value = (1 - mix) * v + mix * float(r)
        else:
            done = {}

            def settle(k, v):
                if not done:
                    t = time.monotonic()
                    for part, future in futures:
                        done.update(zip(part, future.result()))
                    self.seconds["waiting"] += time.monotonic() - t
                return (1 - mix) * v + mix * float(done[k])

            for k, (leaf, v) in enumerate(zip(leaves, heads)):
                leaf.value = (1 - mix) * v
                leaf.settle = lambda k=k, v=v: settle(k, v)
        return leaves

    def _seed(self) -> int:
        return int(self.rng.integers(1, 2 ** 62))

    def _rollouts(self, boards, seed: int) -> np.ndarray:
        """Mean result of `playouts` rollouts from each board for its player to move (the GIL
        released inside)."""
        t = time.monotonic()
        out = self.rollout.values(boards, n=max(1, self.config.playouts), komi=self.komi, seed=seed)
        with self._lock:
            self.seconds["rollouts"] += time.monotonic() - t
        return out

    def _network(self, boards, root: bool):
        """Policy logits [B, n*n] and values [B] (None without a head) for the player to move."""
        if self.network is None or self.encode is None:     # a policy without a batch interface
            return [self.player.policy(b, b.to_move) for b in boards], None
        planes = np.stack([np.asarray(self.encode(b, b.to_move), dtype=np.float32) for b in boards])
        black = np.array([b.to_move == BLACK for b in boards])
        planes = self.network.with_inputs(planes, black, self.komi) if hasattr(self.network, "with_inputs") else planes
        if root and self.config.root_symmetries > 1:
            return self.network.evaluate_symmetric(planes, self.config.root_symmetries)
        if not self.config.random_symmetry:
            return self.network.evaluate(planes)
        ks = self.rng.integers(0, 8, size=len(boards))
        turned = np.stack([symmetry.apply(p, int(k)) for p, k in zip(planes, ks)])
        logits, values = self.network.evaluate(turned)
        back = np.stack([symmetry.inverse_logits(row, int(k)) for row, k in zip(logits, ks)])
        return back, values

    def _leaf(self, b: Board, scores: np.ndarray) -> Leaf:
        """The candidate moves of the player's scores and their softmax; a pass when none."""
        finite = np.flatnonzero(np.isfinite(scores))
        finite = np.array([p for p in finite if not b.repeats(int(p), b.to_move)], dtype=np.int32)
        if finite.size == 0:
            return Leaf(np.array([PASS], dtype=np.int32), np.ones(1, dtype=np.float32), 0.0)
        p = softmax(scores[finite])
        keep = p >= min(self.config.prior_floor, float(p.max()))
        return Leaf(finite[keep], (p[keep] / p[keep].sum()).astype(np.float32), 0.0)

    def playout_value(self, b: Board) -> float:
        """Mean result of `playouts` rollouts from b for its player to move (+1 won)."""
        return float(self._rollouts([b], self._seed())[0])

    def terminal_value(self, b: Board) -> float:
        """The area score of a finished position (two passes) for its player to move."""
        score = area_score(b, self.komi)
        if score == 0:
            return 0.0
        return 1.0 if (score > 0) == (b.to_move == BLACK) else -1.0


def filled_area_score(board: Board, komi: float) -> float:
    """`scoring.area_score` of a board a playout has filled, in numpy: where no two empty points
    touch, every empty region is one point, owned by the colour of all its neighbours; else
    the general (slower) count."""
    a = board.to_array()
    pad = np.pad(a, 1, constant_values=EDGE)
    around = (pad[:-2, 1:-1], pad[2:, 1:-1], pad[1:-1, :-2], pad[1:-1, 2:])
    empty = a == EMPTY
    if any(((x == EMPTY) & empty).any() for x in around):
        return area_score(board, komi)
    black = empty & np.logical_and.reduce([(x == BLACK) | (x == EDGE) for x in around])
    white = empty & np.logical_and.reduce([(x == WHITE) | (x == EDGE) for x in around])
    return float((a == BLACK).sum() + black.sum() - (a == WHITE).sum() - white.sum()) - komi


EDGE = 3        # off the board, in filled_area_score's padding
