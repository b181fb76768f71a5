"""The owl search: the life-and-death solver on a whole board, as GNU Go's owl commands ask it.

`owl_solve(board, mover, flat, cfg)` solves the group of the stone at `flat` with the limits and
options of a `SolverConfig`: first the reading (the region grows with the group, an escape is
read by search), and where it does not finish, the owl region fixed at the root
(`tactics.problem.group_region`) with the count escape (docs/solver.md, "The reading").  The GTP owl
commands (golois/gtp/solver.py), `golois solve --target` and the player's life-and-death hook
(golois/player/hooks.py) call it.  The figures beside
the options are right answers on GNU Go's regression files, vie.tst unless named
(../shared/data/gnugo-regression, `bench/regression_bench.py`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from tactics.problem import SolveSettings, solve


@dataclass
class SolverConfig:
    """Limits and options of one owl search."""
    time_limit: float = 10.0        # seconds per owl / dragon / restricted_genmove search
    max_nodes: int = 10 ** 8        # positions per search
    escape_libs: int = 0            # a target with this many liberties has escaped (lives); 0: off
                                    # (6: 25/53 against 29 at 2 s)
    escape_out: int = 2             # a target with this many liberties outside the region has escaped
                                    # (0: 29/53, 2: 31 at 2 s)
    width: int = 10                 # the defender's best moves per node below the root, as GNU Go's owl
                                    # (selective); 0: every move (32/53 against 35 at 2 s)
    attack_width: int = 0           # the attacker's moves per node below the root; 0: every move, so a
                                    # finished search that the target lives is a proof in the region
                                    # (40/53 against 38 with 10, at 10 s)
    prefer: int = 3                 # with the player's network: after a clean win, up to this many moves
                                    # the network is sure of are checked, and the first that wins answers;
                                    # 0: off (39/53 against 37 at 10 s)
    grow: int = 2                   # the region grows with the goal: moves within this many steps of the
                                    # target strings as they stand (tactics.moves); 0: off (with the escape
                                    # below, the reading alone at 20M positions: owl-dev.tst 54 of 100
                                    # against 44 for the fixed region and the count escape, vie.tst 36
                                    # against 40)
    escape: int = 5                 # the escape potential (GNU Go's dragon_escape, tactics.knowledge) that,
                                    # with no capture of a target string, is an escape; escape_out's count
                                    # then needs it too; 0: off (the count alone)
    eyes: int = 0                   # after a clean defence, up to this many moves that leave more eye space
                                    # are checked, and the first that wins answers (searches.eye_win); 0: off
                                    # (3: owl-dev.tst 54 against 55, vie.tst 33 against 36 at 5 s)
    read_share: float = 0.5         # with grow or escape: the share of the limits the reading gets; where
                                    # it does not finish, the rest goes to the fixed region and the count
                                    # escape (GNU Go's owl takes a dragon it cannot read to have escaped);
                                    # 1.0: no fallback (at 5 s: owl-dev.tst 58 of 100, vie.tst 37 of 53,
                                    # against 44 and 41 for the fixed region and the count escape alone)
    group: object = False           # the goal (tactics.problem.SolveSettings.group): False, the target string
                                    # ("live", its linked group: 30/53 against 31 at 2 s)


def owl_solve(board, mover, flat, cfg: SolverConfig, prior=None, live_guess=False, tree=False):
    """tactics.problem.solve for the group of the stone at `flat` on a whole board (the owl
    region, `group_region`), `mover` to play, with cfg's limits and options.  live_guess: an
    unfinished search to live guesses its answer (owl's unknown is `0` whatever its move, so GTP
    keeps no time for a guess).  tree: as solve's (golois solve).  Raises ProblemError."""
    settings = SolveSettings(time_limit=cfg.time_limit, max_nodes=cfg.max_nodes,
                             escape_libs=cfg.escape_libs, group=cfg.group, escape_out=cfg.escape_out,
                             width=cfg.width, attack_width=cfg.attack_width, prefer=cfg.prefer,
                             grow=cfg.grow, escape=cfg.escape, eyes=cfg.eyes,
                             live_guess=live_guess, tree=tree)
    if not (cfg.grow or cfg.escape) or cfg.read_share >= 1.0:
        return solve(board, mover, target=flat, settings=settings, prior=prior)
    t0 = time.monotonic()
    first = solve(board, mover, target=flat, prior=prior,
                  settings=replace(settings, time_limit=cfg.time_limit * cfg.read_share,
                                   max_nodes=max(int(cfg.max_nodes * cfg.read_share), 1), live_guess=False))
    if first.result != "unknown":
        return first
    spent = time.monotonic() - t0
    again = solve(board, mover, target=flat, prior=prior,
                  settings=replace(settings, grow=0, escape=0, eyes=0,
                                   time_limit=max(cfg.time_limit - spent, 0.05),
                                   max_nodes=max(cfg.max_nodes - first.nodes, 1)))
    again.nodes += first.nodes
    again.seconds += spent
    return again
