"""PUCT Monte-Carlo tree search (the AlphaGo Zero line), with the refinements of Leela Zero,
KataGo and minigo: first-play urgency, tree reuse, batched leaf evaluation under virtual loss,
a visit or time budget with early stop, and the move chosen by visits or by the lower
confidence bound.

The search knows nothing of networks or tactics: it asks an `Evaluator` for batches of leaves.

    evaluator(boards, root) -> list[Leaf]   # one per board: its moves, their priors, its value

A `Leaf`'s value is in [-1, 1] for the player to move on its board.  Each `Node` keeps, per
move (edge), the prior, the visit count and the sum of values from the point of view of the
node's player; a child `Node` is made when its edge's leaf is evaluated.

Start with `Search.run`, then `Search._simulate` (select, evaluate, back up) and `Search._choose`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from tactics.board import BLACK, WHITE, Board

PASS = -1   # the pass move in a node's `moves`


@dataclass
class SearchConfig:
    """The search's settings; play.py's --search options read their defaults here."""
    visits: int = 800             # visits per move (0: no visit limit, `seconds` only)
    seconds: float = 0.0          # seconds per move without GTP time settings (0: `visits` only)
    batch: int = 8                # leaves per evaluator call (virtual loss keeps them apart)
    c_puct: float = 1.5           # exploration: U = c_puct * prior * sqrt(N_parent) / (1 + N_child)
    fpu_reduction: float = 0.25   # an unvisited move's value: the node's value less this times the
                                  # square root of the visited moves' prior mass (Leela Zero);
    fpu_root: float = 0.0         # ... at the root (0: the root's own value, more exploration there)
    virtual_loss: int = 1         # visits counted as losses while a leaf waits in a batch
    lcb: bool = True              # the move: the best lower confidence bound of the value (KataGo)
                                  # among moves with `lcb_min_share` of the most visits; else most visits
    lcb_z: float = 1.96           # ... at this many standard errors
    lcb_min_share: float = 0.1
    early_stop: bool = True       # stop once the most visited move cannot be overtaken in the budget
    reuse: bool = True            # keep the subtree of the moves played since the last search
    max_tree: int = 100_000       # no search goes past this many visits in the tree (a node each, up to
                                  # 14 KB a node on 19x19: 1.4 GB): analysis and pondering stop there


@dataclass
class Leaf:
    """The evaluator's answer for one board: legal moves worth searching (flat points, PASS),
    their priors (summing to about 1) and the value for the player to move.  A leaf whose value
    is still being computed (rollouts on another thread) has `settle`: it waits for the value and
    returns it; the search expands the leaf at once and backs the value up after the next batch's
    evaluation, so the two overlap."""
    moves: np.ndarray             # int32 [k]
    priors: np.ndarray            # float32 [k]
    value: float
    settle: Callable[[], float] | None = None


Evaluator = Callable[[Sequence[Board], bool], list]
"""(boards, root: whether the one board is the search's root) -> one `Leaf` per board."""


class Node:
    """A position in the tree: its moves (edges) with prior P, visits N, value sum W and sum of
    squares W2 from the point of view of `colour`, the player to move here."""

    __slots__ = ("colour", "moves", "prior", "n", "w", "w2", "children", "value", "terminal", "pruned")

    def __init__(self, colour: int, leaf: Leaf):
        self.colour = colour
        self.moves = np.asarray(leaf.moves, dtype=np.int32)
        k = len(self.moves)
        p = np.asarray(leaf.priors, dtype=np.float32)
        self.prior = p / p.sum() if k and p.sum() > 0 else np.full(k, 1.0 / max(k, 1), dtype=np.float32)
        self.n = np.zeros(k, dtype=np.int32)              # visits through each edge (virtual ones too)
        self.w = np.zeros(k, dtype=np.float64)            # sum of values, for `colour`
        self.w2 = np.zeros(k, dtype=np.float64)           # sum of squared values
        self.children: list[Node | None] = [None] * k
        self.value = float(leaf.value)                    # the evaluator's value, for `colour`
        self.terminal = False
        self.pruned = False                               # moves taken off at the root (`Search._restrict`)

    def q(self) -> np.ndarray:
        """Mean value of each visited edge (0 where unvisited)."""
        return np.divide(self.w, self.n, out=np.zeros_like(self.w), where=self.n > 0)

    def mean(self) -> float:
        """The node's value: its own evaluation and everything backed up through it."""
        return (self.value + float(self.w.sum())) / (1 + int(self.n.sum()))

    def index(self, move: int) -> int | None:
        """The edge of `move`, or None."""
        hits = np.flatnonzero(self.moves == move)
        return int(hits[0]) if hits.size else None


@dataclass
class Candidate:
    """A root move after a search (the analysis commands print these)."""
    move: int
    visits: int
    winrate: float                # for the root's player, in [0, 1]
    prior: float
    lcb: float                    # lower confidence bound of the win rate
    pv: list = field(default_factory=list)


@dataclass
class SearchResult:
    """What `Search.run` found: the chosen move, the root's candidates best first, the root's
    win rate for its player, visits made in this run and in the tree, seconds."""
    move: int | None              # flat point; None = pass
    candidates: list
    winrate: float
    visits: int                   # made by this run
    tree_visits: int              # the root's visits, reused ones included
    seconds: float
    stopped: str                  # "visits", "time", "early", "interrupted", "tree full" or "single move"


class Search:
    """A PUCT search over one game: `run(board)` searches the position and keeps the tree;
    the next `run` on a later position of the same game reuses the subtree of the moves played."""

    def __init__(self, evaluator: Evaluator, config: SearchConfig | None = None,
                 terminal_value: Callable[[Board], float] | None = None):
        self.evaluator = evaluator
        self.config = config or SearchConfig()
        self.terminal_value = terminal_value  # (board after two passes) -> value for its player to move
        self.root: Node | None = None
        self.root_history: tuple = ()
        self._waiting: list = []                         # (path, child, leaf) whose values are coming

    # ---- the tree across moves ----
    @staticmethod
    def _history(board: Board) -> tuple:
        return board.size, tuple((c, m) for c, m, *_ in board.history)

    def _reuse(self, board: Board) -> None:
        """Move the root down the moves played since the last search, or drop the tree."""
        size, hist = self._history(board)
        if self.root is None or not self.config.reuse or self.root_history[0] != size:
            self.root = None
            return
        old = self.root_history[1]
        if len(hist) < len(old) or hist[:len(old)] != old:
            self.root = None                             # undo, or another game
            return
        node = self.root
        for colour, move in hist[len(old):]:
            i = node.index(PASS if move is None else move) if node is not None and node.colour == colour else None
            node = node.children[i] if i is not None else None
        self.root = node if node is not None and node.colour == board.to_move else None

    # ---- one search ----
    def run(self, board: Board, visits: int | None = None, seconds: float | None = None,
            restrict: np.ndarray | None = None, stop: Callable[[], bool] | None = None,
            report: Callable[["Search"], None] | None = None, report_every: float = 0.0,
            root_leaf: Leaf | None = None) -> SearchResult:
        """Search `board` (its player to move) within the budget: `visits` (default the config's)
        and `seconds` (default the config's; 0: none); `restrict`: bool [n*n] of the root moves
        allowed (the player's conduct rules); `stop()` true ends the search at once (a GTP command
        arrived); `report(self)` is called every `report_every` seconds (analysis); `root_leaf`:
        the root's evaluation where the caller has it and the tree does not."""
        cfg = self.config
        visits = cfg.visits if visits is None else visits
        seconds = cfg.seconds if seconds is None else seconds
        t0 = time.monotonic()
        self._reuse(board)
        if self.root is not None and self.root.pruned:
            self.root = None                             # searched under another restriction: afresh
        self.root_history = self._history(board)
        if self.root is None:
            leaf = root_leaf or self.evaluator([board], True)[0]
            if leaf.settle is not None:
                leaf.value = leaf.settle()
            self.root = Node(board.to_move, leaf)
        root = self.root
        self._restrict(root, restrict)
        start = int(root.n.sum())
        stopped = "visits"
        next_report = t0 + report_every
        if len(root.moves) <= 1:
            stopped = "single move"
        while len(root.moves) > 1:
            done = int(root.n.sum()) - start
            now = time.monotonic()
            if visits and done >= visits:
                break
            if seconds and now - t0 >= seconds:
                stopped = "time"
                break
            if stop is not None and stop():
                stopped = "interrupted"
                break
            if int(root.n.sum()) >= cfg.max_tree:
                stopped = "tree full"
                break
            if cfg.early_stop and self._decided(root, done, visits, seconds, now - t0):
                stopped = "early"
                break
            want = cfg.batch if not visits else max(1, min(cfg.batch, visits - done))
            self._simulate(board, want)
            if report is not None and report_every and time.monotonic() >= next_report:
                report(self)
                next_report = time.monotonic() + report_every
        self._settle()
        candidates = self.candidates()
        move = self._choose(candidates)
        return SearchResult(move=move, candidates=candidates, winrate=(root.mean() + 1) / 2,
                            visits=int(root.n.sum()) - start, tree_visits=int(root.n.sum()),
                            seconds=time.monotonic() - t0, stopped=stopped)

    def _restrict(self, root: Node, allowed: np.ndarray | None) -> None:
        """Keep at the root only the allowed moves (pass stays when it is the only move)."""
        if allowed is None:
            return
        keep = np.array([m == PASS or bool(allowed[m]) for m in root.moves], dtype=bool)
        if keep.all() or not keep.any():
            return
        root.moves, root.prior = root.moves[keep], root.prior[keep] / root.prior[keep].sum()
        root.n, root.w, root.w2 = root.n[keep], root.w[keep], root.w2[keep]
        root.children = [c for c, k in zip(root.children, keep) if k]
        root.pruned = True

    def _decided(self, root: Node, done: int, visits: int, seconds: float, elapsed: float) -> bool:
        """The most visited move cannot be overtaken with what is left of the budget."""
        if done < 2 * self.config.batch or len(root.moves) < 2:
            return False
        left = visits - done if visits else math.inf
        if seconds:
            left = min(left, done / max(elapsed, 1e-9) * (seconds - elapsed))
        top = np.partition(root.n, -2)[-2:]
        return top[1] - top[0] > left

    def _select(self, node: Node, is_root: bool) -> int:
        """The PUCT edge of a node."""
        cfg = self.config
        n = node.n
        total = n.sum()
        visited = n > 0
        fpu = node.mean() - (cfg.fpu_root if is_root else cfg.fpu_reduction) * math.sqrt(node.prior[visited].sum())
        q = np.where(visited, node.q(), fpu)
        u = cfg.c_puct * node.prior * math.sqrt(total + 1) / (1 + n)
        return int(np.argmax(q + u))

    def _simulate(self, board: Board, want: int) -> None:
        """Up to `want` descents under virtual loss, their leaves evaluated in one batch, and the
        values backed up."""
        vl = self.config.virtual_loss
        pending, boards, seen = [], [], set()
        for _ in range(want):
            path, b, leaf = self._descend(board)
            key = (id(path[-1][0]), path[-1][1]) if path else None
            if leaf == "terminal":
                self._backup(path, self._terminal(b))
                continue
            if key in seen:                              # a second descent to a waiting leaf
                break
            for node, i in path:                         # virtual loss: these visits lose for now
                node.n[i] += vl
                node.w[i] -= vl
            seen.add(key)
            pending.append(path)
            boards.append(b)
        if not boards:
            return
        leaves = self.evaluator(boards, False)
        coming = []
        for path, b, leaf in zip(pending, boards, leaves):
            parent, i = path[-1]
            child = Node(b.to_move, leaf)
            if len(child.moves) == 0:
                child.terminal = True
            parent.children[i] = child
            if leaf.settle is None:
                self._release(path)
                self._backup(path, leaf.value)
            else:
                coming.append((path, child, leaf))
        self._settle()                                   # the last batch's values, computed meanwhile
        self._waiting = coming

    def _release(self, path) -> None:
        """Take a path's virtual loss back."""
        vl = self.config.virtual_loss
        for node, i in path:
            node.n[i] -= vl
            node.w[i] += vl

    def _settle(self) -> None:
        """Back up the values of the leaves still waiting for them (their virtual loss taken back)."""
        waiting, self._waiting = self._waiting, []
        for path, child, leaf in waiting:
            value = leaf.settle()
            child.value = value
            self._release(path)
            self._backup(path, value)

    def _descend(self, board: Board):
        """From the root to an unexpanded edge: the path [(node, edge)], the board there, and
        "leaf" or "terminal" (two passes in a row, or a node without moves)."""
        node = self.root
        b = board.copy()
        path = []
        passes = 1 if b.history and b.history[-1][1] is None else 0
        while True:
            i = self._select(node, node is self.root)
            move = int(node.moves[i])
            b.play(None if move == PASS else move, node.colour)
            path.append((node, i))
            passes = passes + 1 if move == PASS else 0
            child = node.children[i]
            if passes >= 2:
                return path, b, "terminal"
            if child is None:
                return path, b, "leaf"
            if child.terminal:
                return path, b, "terminal"
            node = child

    def _terminal(self, b: Board) -> float:
        """The value of a finished position for its player to move."""
        if self.terminal_value is None:
            return 0.0
        return float(self.terminal_value(b))

    def _backup(self, path, value: float) -> None:
        """`value` is for the player to move after the path; each edge gets it from its node's
        player's point of view."""
        v = -value
        for node, i in reversed(path):
            node.n[i] += 1
            node.w[i] += v
            node.w2[i] += v * v
            v = -v

    # ---- the answer ----
    def candidates(self, limit: int = 0) -> list:
        """The root's visited moves, most visits first, with their win rates, lower bounds and
        principal variations."""
        root = self.root
        if root is None:
            return []
        order = [int(i) for i in np.argsort(-root.n, kind="stable") if root.n[i] > 0]
        if limit:
            order = order[:limit]
        out = []
        for i in order:
            n = int(root.n[i])
            mean = root.w[i] / n
            var = max(root.w2[i] / n - mean * mean, 0.0)
            lcb = mean - self.config.lcb_z * math.sqrt((var + 1.0 / n) / n)    # a prior variance for few visits
            m = int(root.moves[i])
            out.append(Candidate(move=None if m == PASS else m, visits=n, winrate=(mean + 1) / 2,
                                 prior=float(root.prior[i]), lcb=(max(lcb, -1.0) + 1) / 2,
                                 pv=[None if m == PASS else m] + self._pv(root.children[i])))
        return out

    def _pv(self, node: Node | None, depth: int = 20) -> list:
        out = []
        while node is not None and len(out) < depth and node.n.size and node.n.max() > 0:
            i = int(np.argmax(node.n))
            m = int(node.moves[i])
            out.append(None if m == PASS else m)
            node = node.children[i]
        return out

    def _choose(self, candidates: list) -> int | None:
        """The move: most visits, or the best lower confidence bound among the moves with at
        least `lcb_min_share` of the most visits."""
        if not candidates:
            root = self.root
            if root is None or not len(root.moves):
                return None
            m = int(root.moves[int(np.argmax(root.prior))])
            return None if m == PASS else m
        best = candidates[0]
        if self.config.lcb:
            floor = self.config.lcb_min_share * best.visits
            best = max((c for c in candidates if c.visits >= floor), key=lambda c: c.lcb)
        return best.move
