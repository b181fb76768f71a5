"""GTP commands of the life-and-death solver, in GNU Go's formats (so GNU Go's regression files
run against us): owl_attack / owl_defend (`0`, `1 MOVE`, `2 MOVE`, `3 MOVE`), dragon_status
(`alive`, `critical ATTACK DEFENSE`, `dead`), unconditional_status (tactics.unconditional) and
restricted_genmove COLOR VERTEX... (the solver's first move inside the given region, as
../shared/tools/gtp_tsumego.py drives an engine with RESTRICT=1).

Start with `owl_attack`.  Of several winning first moves, owl answers the one the player's
network is sure of when it too wins (`SolverConfig.prefer`): the regression files list the
natural move.  The limits of every search are the engine's `SolverConfig`
(`engine.solver`, set by golois.engine.build_engine from `--solver-time`; the GTP command
`solver_time SECONDS` changes it).
"""

from __future__ import annotations

from dataclasses import dataclass

from golois.gtp import CommandSet, GtpFailure
from tactics.board import EMPTY
from tactics.problem import ProblemError, solve

COMMANDS = CommandSet("solver")


@dataclass
class SolverConfig:
    """Limits of one solver call made through GTP."""
    time_limit: float = 10.0        # seconds per owl / dragon / restricted_genmove search
    max_nodes: int = 10 ** 8        # positions per search
    escape_libs: int = 0            # owl: a target with this many liberties has escaped (lives); 0 = off (measured on vie.tst at 2 s: 0 -> 29/53, 6 -> 25/53)
    escape_out: int = 2             # owl: a target string with this many liberties outside the region has escaped (lives); vie.tst at 2 s: 0 -> 29/53, 1 -> 31, 2 -> 31
    width: int = 10                 # owl: below the root only the defender's 10 best moves per node, as GNU Go's owl (selective, not a proof); 0 = every move.  vie.tst at 2 s, in-process (root full width): 0 -> 32/53, 5 -> 28, 6 -> 32, 7 -> 31, 8 -> 35, 9 -> 33, 10 -> 35, 12 -> 33 (3, 9, 13 solved; the rest moves with time noise); through GTP 34/53
    attack_width: int = 0           # owl: the attacker's moves per node below the root; 0 = every move, so a finished search that the target lives (owl_attack's fail, owl_defend's move) is a proof in the owl region; only kills are selective.  vie.tst at 10 s, defender width 10: attacker 10 -> 38/53 (twice), 20 -> 39, 0 -> 40 (twice: 19 and 21 gained, none lost); with attacker 0, defender 7 -> 37, 14 -> 37
    prefer: int = 3                 # owl, with the player's network: after a clean win, up to 3 moves the network is sure of (tactics.problem.solve prefer=) are checked, and the first that wins answers; 0 = off.  vie.tst at 10 s: 0 -> 37/53, 3 -> 39 (17, 25, 37 gained, 39 lost); without the probability floors 34
    group: object = False           # owl goal (tactics.problem.solve group=): False = the target string (vie.tst at 2 s: False 29/53, "live" 27/53, and with escape_out 2: False 31, "live" 30: the linked group lets owl_defend 11 and 12 "live" with S5)


def _prior(engine):
    """The player's policy network as a solver prior, or None (no network loaded)."""
    player = engine.extra.get("player")
    return player.policy if player is not None and player.policy_name != "fallback" else None


def config(engine) -> SolverConfig:
    """The engine's SolverConfig (a default one is attached on first use)."""
    cfg = getattr(engine, "solver", None)
    if cfg is None:
        cfg = engine.solver = SolverConfig()
    return cfg


def _time(engine) -> float:
    return config(engine).time_limit


def _target(engine, vertex):
    flat = engine.parse_vertex(vertex)
    if flat is None or engine.board.get(flat) == EMPTY:
        raise GtpFailure("vertex must not be empty")
    return flat


def owl_solve(board, mover, flat, cfg: SolverConfig, prior=None, live_guess=False, tree=False):
    """tactics.problem.solve for the group of the stone at `flat` on a whole board (the owl
    region, `group_region`), `mover` to play, with cfg's limits and options (also `golois solve
    --target`).  live_guess: an unfinished search to live guesses its answer (owl's unknown is
    `0` whatever its move, so GTP keeps no time for a guess).  tree: as solve's (golois solve).
    Raises ProblemError."""
    return solve(board, mover, target=flat, time_limit=cfg.time_limit, max_nodes=cfg.max_nodes,
                 escape_libs=cfg.escape_libs, group=cfg.group, escape_out=cfg.escape_out,
                 width=cfg.width, attack_width=cfg.attack_width, prior=prior, prefer=cfg.prefer,
                 live_guess=live_guess, tree=tree)


def _owl(engine, vertex, attack: bool):
    flat = _target(engine, vertex)
    colour = engine.board.get(flat)
    mover = 3 - colour if attack else colour
    try:
        return owl_solve(engine.board, mover, flat, config(engine), _prior(engine))
    except ProblemError as e:
        raise GtpFailure(str(e)) from None


@COMMANDS.command("solver_time")
def solver_time(engine, seconds):
    try:
        value = float(seconds)
    except ValueError:
        raise GtpFailure("seconds must be a number") from None
    if not value > 0:
        raise GtpFailure("seconds must be positive")
    config(engine).time_limit = value
    return ""


@COMMANDS.command("owl_attack")
def owl_attack(engine, vertex):
    sol = _owl(engine, vertex, True)
    return "0" if sol.code == 0 else f"{sol.code} {engine.gnugo_vertex(sol.move)}"


@COMMANDS.command("owl_defend")
def owl_defend(engine, vertex):
    sol = _owl(engine, vertex, False)
    return "0" if sol.code == 0 else f"{sol.code} {engine.gnugo_vertex(sol.move)}"


@COMMANDS.command("dragon_status")
def dragon_status(engine, vertex):
    att = _owl(engine, vertex, True)
    if att.code == 0:
        return "alive"
    dfn = _owl(engine, vertex, False)
    if dfn.code == 0:
        return "dead"
    return f"critical {engine.gnugo_vertex(att.move)} {engine.gnugo_vertex(dfn.move)}"


@COMMANDS.command("unconditional_status")
def unconditional_status(engine, vertex):
    """GNU Go's unconditional status (tactics.unconditional: capture play-out, not just Benson)."""
    from tactics.unconditional import status
    flat = engine.parse_vertex(vertex)
    if flat is None:
        raise GtpFailure("invalid vertex")
    return status(engine.board, flat)


@COMMANDS.command("restricted_genmove")
def restricted_genmove(engine, colour, *vertices):
    mover = engine.parse_color(colour)
    allowed = [engine.parse_vertex(v) for v in vertices]
    allowed = [p for p in allowed if p is not None and engine.board.get(p) == EMPTY]
    if not allowed:
        return engine.gnugo_vertex(None)
    # the player's network, if it has one, joins the playouts in guessing for an unfinished search to live
    prior = _prior(engine)
    try:
        sol = solve(engine.board, mover, time_limit=_time(engine), max_nodes=config(engine).max_nodes,
                    prior=prior)
    except ProblemError:
        sol = None
    engine.extra["last_solution"] = sol
    move = None
    if sol is not None:
        for m in [sol.move] + list(sol.winning):
            if m in allowed:
                move = m
                break
    if move is None:
        legal = set(engine.board.legal_moves(mover))
        move = next((p for p in allowed if p in legal), None)
    if move is not None:
        engine.play(mover, move)
    return engine.gnugo_vertex(move)
